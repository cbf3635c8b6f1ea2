"""The title purchases of the Purchase Phase: a fief title (4.4, with the king's offer of one)
and the cardinal title (4.5, by the cardinal card's rules, G.4.1.2). purchase/ledger.py's Ledger
is made of these and the rest of the phase's purchases.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.purchase.books import Books, Failure
from pbem.games.fief.purchase.titles import cardinal_target_problem, privilege_lord


class TitlePurchases(Books):
    """The fief and cardinal titles a family buys (or the king offers)."""

    def fief_name(self, fief: str | None) -> str:
        """A fief's title as the board names it ("Barony of Bretagne"), never its id."""
        return str((self.fiefs.get(fief or "") or {}).get("name") or f"{fief} title")

    def able_to_purchase(self, fief: str, who: str = "you") -> Failure | None:
        """4.4: an ungoverned fief, every town of it controlled, at least one stronghold in it.
        ``who``: the subject of the message ("you", or a player's name)."""
        towns = self.fief_towns[fief]
        if self.fiefs[fief]["governed"]:
            return Failure("governed", f"the {self.fief_name(fief)} is no longer for sale: the fief is governed",
                           "only an ungoverned fief's title can be bought (4.4)")
        lacking = [t for t in towns if not self._controls(t)]
        if lacking:
            does = "do" if who == "you" else "does"
            return Failure("control", f"{who} {does} not control {', '.join(lacking)}",
                           "you must control every town of the fief (4.4)")
        if not any(self.towns[t]["fortress"] == "stronghold" for t in towns):
            return Failure("stronghold", f"there is no stronghold in {', '.join(towns)}",
                           "build a stronghold in the fief first (4.4)")
        return None

    def _title(self, order: dict[str, Any]) -> Failure | None:
        fief, lord, city = order["title"], order["lord"], order.get("city")
        towns = self.fief_towns[fief]
        free = self.offered == fief   # 4.4: the king's offer
        if order.get("only_if_offered") and not free:
            if self.offers_known:
                return Failure("not_offered", f"it is ordered only if offered, and no offer of the "
                               f"{self.fief_name(fief)} stands for you (4.4)")
            free = True   # a mail being checked: done only if offered, so for nothing
        if lord not in self.lords:
            return Failure("lord", f"{lord} is not a lord of your family", "give the title to one of your lords")
        unable = self.able_to_purchase(fief)
        if unable:
            return unable
        strongholds = [t for t in towns if self.towns[t]["fortress"] == "stronghold"]
        if city is not None and city not in strongholds:
            return Failure("city", f"{city} holds no stronghold of this fief to become its city",
                           f"choose one of {', '.join(strongholds)} (4.4)")
        cost = 0 if free else self.edition.price("title_per_town") * len(towns)   # 4.4
        fail = self._pay(cost, "this fief title")
        if fail:
            if not self.offers_known:
                fail.hint = "or, if the king offers it to you, add `only_if_offered: yes` (4.4)"
            return fail
        self.deniers -= cost
        order["deniers"], order["offered"] = cost, self.offered == fief
        if self.offered == fief:
            self.offered = None   # taken: a second order of the same title would pay
        order["city"] = city or strongholds[0]
        self.towns[order["city"]]["fortress"] = "city"
        self.fiefs[fief]["governed"], self.fiefs[fief]["holder"] = True, lord
        return None

    def _offer_title(self, order: dict[str, Any]) -> Failure | None:
        """4.4: the king (the regent queen when there is no king) offers 1 ungoverned fief title a
        round. Whether the beneficiary is able to purchase it is judged when their order comes."""
        fief, to = order["offer_title"], order["to"]
        privileged = self.edition.hooks.privileged
        if not privileged:
            return Failure("privilege", "no title brings the privilege to offer a fief title in this game "
                           "(4.4 is not among its rules)", "buy the title with a `title:` order")
        holder = privilege_lord(self.everyone, privileged)
        if holder is None or self.everyone[holder]["family"] != self.me:
            who = f"; {holder} ({self.everyone[holder]['family']}) holds it" if holder else "; no one holds it now"
            return Failure("privilege", "only the king, or the regent queen when there is no king, may offer "
                           f"a fief title (4.4){who}")
        if self.king_offer_used:
            return Failure("privilege_used", f"{holder}'s privilege is used this round (the title shows its "
                           "'privilege used' side, 4.4)", "it is available again after the End of Round (7)")
        if self.offer_made:
            return Failure("twice", f"this mail already offers the {self.fief_name(self.offer_made)}: 1 fief title "
                           "per round (4.4)", "keep a single `offer_title:` order")
        if self.fiefs[fief]["governed"]:
            return Failure("governed", f"the {self.fief_name(fief)} is not for sale: the fief is governed",
                           "the king offers an ungoverned fief's title (D.3.1)")
        if to in self.eliminated:
            return Failure("player", f"{to} is out of the game")
        self.offer_made = fief
        if to == self.me:   # ruling: the king may offer it to his own family
            self.offered = fief
        return None

    def _cardinal(self, order: dict[str, Any]) -> Failure | None:
        """4.5: the single cardinal title for sale, by the cardinal card's rules (G.4.1.2)."""
        name = order["cardinal"]
        if self.cardinal_holder:
            return Failure("not_for_sale", f"the cardinal title is not for sale: {self.cardinal_holder} "
                           "holds it (4.5: a single one is sold)",
                           "it is for sale again when that cardinal leaves play")
        info = self.everyone.get(name)
        if info is None:
            return Failure("lord", f"{name} is no longer in play")
        why = cardinal_target_problem(info)
        if why:
            return Failure("bishop", f"{name}: {why}", "name a bishop in play who is not a cardinal")
        price = self.edition.price("cardinal_title")   # 4.5
        fail = self._pay(price, "the cardinal title")
        if fail:
            return fail
        if self.cardinal_refusal:
            return Failure("refused", f"{self.cardinal_refusal} (D.2.3); no deniers are spent")
        self.deniers -= price
        self.cardinal_holder = name
        info["cardinal"] = True
        return None
