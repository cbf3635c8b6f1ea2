"""Fief's canonical orders written back in its order language (pbem.rules.api.EchoesOrders)."""
