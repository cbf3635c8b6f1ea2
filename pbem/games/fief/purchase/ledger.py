"""The rules of one purchase (4): what it needs to know and why it cannot be done.

One set of rules serves both moments an order is judged: when the mail arrives (against the
player's view, so the reply can only use what they see) and at resolution (against the view
built from the state at that moment, after earlier players' purchases). ``Ledger`` holds what
a purchase needs to know (purchase/books.py); ``Ledger.try_order`` says why an order cannot be done, or does it.
The resolution, in turn order, is purchase/phase.py.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from pbem.games.fief.edition import Edition
from pbem.games.fief.purchase.books import Failure
from pbem.games.fief.purchase.title_ledger import TitlePurchases



class Ledger(TitlePurchases):
    """The rules of a family's purchases (its books: purchase/books.py; fief and cardinal titles:
    purchase/title_ledger.py)."""

    # -- 4.1 ----------------------------------------------------------------------------------
    def ransoms(self) -> list[tuple[str, int, str]]:
        """The ransoms this player must pay now: highest value first (4.1), each one paid
        if the deniers left allow it. (lord, value, jailer)"""
        captives = sorted(((n, self.edition.ransom(len(l["titles"])), l["captive_of"])
                           for n, l in self.lords.items() if l["captive_of"]),
                          key=lambda c: (-c[1], c[0]))
        paid = []
        for name, value, jailer in captives:
            if value <= self.deniers:
                self.deniers -= value
                paid.append((name, value, jailer))
        return paid

    def unpaid(self, paid: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
        done = {p[0] for p in paid}
        return [(n, self.edition.ransom(len(l["titles"])), l["captive_of"])
                for n, l in self.lords.items() if l["captive_of"] and n not in done]

    # -- orders -------------------------------------------------------------------------------
    def try_order(self, order: dict[str, Any]) -> Failure | None:
        if "build" in order:
            return self._build(order)
        if "buy" in order:
            return self._units(order)
        if "title" in order:
            return self._title(order)
        if "ransom" in order:
            return self._ransom_place(order)
        if "offer" in order:
            return self._offer(order)
        if "cardinal" in order:
            return self._cardinal(order)
        if "offer_title" in order:
            return self._offer_title(order)
        own = self.edition.hooks.purchase_verbs   # an edition's own orders (England: `construct:`, 7.9)
        verb = next((v for v in own if v in order), None)
        if verb is not None:
            return own[verb].try_order(self, order)
        return Failure("order", f"unknown purchase order {order!r}")

    def _build(self, order: dict[str, Any]) -> Failure | None:
        town, kind = order["town"], order["build"]
        here = self.towns[town]
        if not self._controls(town):
            return Failure("control", f"you do not control {town}", "build only in a town you control (4.2)")
        if kind == "stronghold":
            if here["fortress"]:
                return Failure("fortress", f"{town} already has a {here['fortress']}",
                               "a town holds one fortress at most (4.2)")
            if self.supply["strongholds"] < 1:
                return Failure("supply", f"no stronghold tile is left ({self.edition.strongholds} in all, B)")
            price = self.edition.price("stronghold")   # 4.2
            fail = self._pay(price, "a stronghold")
            if fail:
                return fail
            self.deniers -= price
            self.supply["strongholds"] -= 1
            here["fortress"] = "stronghold"
            return None
        count = order.get("count", 1)
        most = self.edition.mills_per_town   # 4.2
        if here["mills"] + count > most:
            return Failure("mills", f"{town} has {here['mills']} mill(s); a town holds {most} at most (4.2)")
        if self.supply["mills"] < count:
            return Failure("supply", f"only {self.supply['mills']} mill tile(s) are left "
                           f"({self.edition.mills} in all, B)")
        price = self.edition.price("mill") * count   # 4.2
        fail = self._pay(price, f"{count} mill(s)")
        if fail:
            return fail
        self.deniers -= price
        self.supply["mills"] -= count
        here["mills"] += count
        return None

    def placement_towns(self) -> list[str]:
        """4.3: towns with one of my non-captive lords (besiegers included, not the besieged),
        or where my forces control a non-besieged fortress."""
        with_lord = {l["location"] for l in self.lords.values()
                     if not l["captive_of"] and l["location"] in self.towns}   # not at sea (5.3)
        out = []
        for town, here in self.towns.items():
            if self.edition.hooks.placement == "controlled":   # England 4.0: any City controlled, not besieged
                if here["controller"] == self.me and not here["besieged"]:
                    out.append(town)
                continue
            besieged_here = here["besieged"] and here["controller"] == self.me   # 6.4.2
            fortress_held = here["fortress"] and here["controller"] == self.me and not here["besieged"] \
                and self.me in here["forces"]
            if (town in with_lord and not besieged_here) or fortress_held:
                out.append(town)
        return out

    def _units(self, order: dict[str, Any]) -> Failure | None:
        kind, count, town = order["buy"], order["count"], order["town"]
        if town not in self.placement_towns():
            return Failure("placement", f"you cannot place new units in {town}",
                           "place them in a City you control that is not besieged (4.0)"
                           if self.edition.hooks.placement == "controlled" else
                           "place them where one of your lords stands (not besieged in a fortress), "
                           "or in a non-besieged fortress your forces control (4.3)")
        most = self.edition.new_units_per_town   # 4.3
        if self.placed[town] + count > most:
            room = most - self.placed[town]
            return Failure("four_per_town", f"at most {most} new unit pawns may be placed in "
                           f"{town} this phase; room is left for {room}", "place the others in another town (4.3)")
        if self.pool[kind] < count:
            return Failure("pool", f"your pool has {self.pool[kind]} {self.edition.unit_word(kind, 2)} left (A.1)")
        cost = self.edition.unit_price(kind) * count   # 4.3
        fail = self._pay(cost, self.edition.unit_text(kind, count))
        if fail:
            return fail
        self.deniers -= cost
        self.pool[kind] -= count
        self.placed[town] += count
        return None

    def _offer(self, order: dict[str, Any]) -> Failure | None:
        """4.1: "It is possible to offer a lower ransom value than the due one": captives of one
        jailer, less than their ransoms together, at most the deniers held before ransoms."""
        captives = order["for"]
        jailers = {self.lords[n]["captive_of"] for n in captives if n in self.lords}
        if any(n not in self.lords or not self.lords[n]["captive_of"] for n in captives):
            return Failure("ransom", "every lord of an offer must be a captive lord of your family",
                           "name only your captive lords in `for:`")
        if len(jailers) != 1:
            return Failure("ransom", f"the captives are held by {' and '.join(sorted(jailers))}",
                           "make one offer per jailer")
        due = sum(self.edition.ransom(len(self.lords[n]["titles"])) for n in captives)
        if order["offer"] >= due:
            return Failure("ransom", f"the ransoms due are {self.edition.coins(due)}: an offer must be lower",
                           "leave the offer out: full ransoms are paid by themselves (4.1)")
        if order["offer"] > self.before_ransoms:
            return Failure("deniers", f"you offer {self.edition.coins(order['offer'])} and have {self.before_ransoms}")
        return None

    def _ransom_place(self, order: dict[str, Any]) -> Failure | None:
        """4.1 with G.1.2: where a lord freed by ransom comes into play (ruling 3)."""
        lord = order["ransom"]
        if lord not in self.lords or not self.lords[lord]["captive_of"]:
            return Failure("ransom", f"{lord} is not a captive lord of your family",
                           "name one of your captive lords")
        return None


def describe(order: dict[str, Any], edition: Edition, hide_town: bool = False,
             fiefs: Mapping[str, Any] = MappingProxyType({})) -> str:
    """An order as the reports name it after "cannot" ("to buy the Barony of Wales for Henri");
    ``fiefs``: the view's, for a fief's name (its id when it is not there)."""
    own = next((v for v in edition.hooks.purchase_verbs.values() if v.keys[0] in order), None)
    if own is not None:
        return own.describe(order)
    where = "" if hide_town else f" in {order.get('town')}"
    if "build" in order:
        count = order.get("count", 1)
        return f"to build {'a stronghold' if order['build'] == 'stronghold' else f'{count} mill(s)'}{where}"
    if "buy" in order:
        return f"to buy {edition.unit_text(order['buy'], order['count'])}{where}"
    if "title" in order:
        return f"to buy the {_fief(order['title'], fiefs)} for {order['lord']}"
    if "cardinal" in order:
        return f"to buy the cardinal title for {order['cardinal']}"
    if "offer_title" in order:
        return f"to offer the {_fief(order['offer_title'], fiefs)} to {order['to']}"
    if "offer" in order:
        return f"to offer {edition.coins(order['offer'])} for {' and '.join(order['for'])}"
    return f"to place the freed {order.get('ransom')}"


def _fief(fief: str, fiefs: Mapping[str, Any]) -> str:
    """A fief's name ("Barony of Wales"), or "the ... title" by its id for a fief not in ``fiefs``."""
    return str(fiefs[fief]["name"]) if fief in fiefs else f"{fief} title"
