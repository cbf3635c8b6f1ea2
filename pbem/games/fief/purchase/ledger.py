"""The rules of one purchase (4): what it needs to know and why it cannot be done.

One set of rules serves both moments an order is judged: when the mail arrives (against the
player's view, so the reply can only use what they see) and at resolution (against the view
built from the state at that moment, after earlier players' purchases). ``Ledger`` holds what
a purchase needs to know; ``Ledger.try_order`` says why an order cannot be done, or does it.
The resolution, in turn order, is purchase/phase.py.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.edition import Edition, load_edition
from pbem.games.fief.purchase.titles import cardinal_target_problem, privilege_lord
from pbem.games.fief.state import OFFSHORE

UNIT_LABEL = {"man_at_arms": ("man-at-arms", "men-at-arms"), "archer": ("archer", "archers"),
              "knight": ("knight", "knights"), "bombard": ("bombard", "bombards")}


def unit_words(kind: str, count: int) -> str:
    return f"{count} {UNIT_LABEL[kind][0 if count == 1 else 1]}"


@dataclass
class Failure:
    """Why a purchase cannot be made: a typed result, reported in an event or a reply."""

    code: str      # "deniers" | "control" | "fortress" | "mills" | "supply" | "pool" | "placement" | ...
    message: str
    hint: str = ""


@dataclass
class Ledger:
    me: str
    deniers: int
    lords: dict[str, dict[str, Any]]           # my lords: name -> their entry in ``everyone``
    towns: dict[str, dict[str, Any]]           # every town's view entry
    fiefs: dict[str, dict[str, Any]]
    fief_towns: dict[str, tuple[str, ...]]
    pool: dict[str, int]
    supply: dict[str, int]
    edition: Edition                                   # prices and limits (4.1-4.5)
    placed: Counter = field(default_factory=Counter)   # new pawns per town this phase (4.3)
    before_ransoms: int = 0                            # the deniers at the start (4.1 offers)
    everyone: dict[str, dict[str, Any]] = field(default_factory=dict)   # every lord in play
    eliminated: set[str] = field(default_factory=set)  # families out of the game
    king_offer_used: bool = False                      # 4.4: the privilege's side
    cardinal_holder: str | None = None                 # 4.5: who holds the tile for sale, if sold
    offered: str | None = None         # 4.4: the fief whose title the king offers me, free
    offers_known: bool = True          # False when a mail is checked: others' offers are unknown
    offer_made: str | None = None      # 4.4: the fief this mail offers (1 per round)
    cardinal_refusal: str | None = None   # D.2.3: why the pope refuses (known at resolution)

    @staticmethod
    def from_view(view: dict[str, Any], board: Board) -> "Ledger":
        me = view["me"]
        fam = view["families"][me]
        everyone = {n: dict(l) for n, l in view["lords"].items()}
        return Ledger(
            me=me, deniers=fam["deniers"], before_ransoms=fam["deniers"],
            lords={n: l for n, l in everyone.items() if l["family"] == me},   # the same entries
            towns={t: dict(v) for t, v in view["towns"].items()},
            fiefs={f: dict(v) for f, v in view["fiefs"].items()},
            fief_towns={f: info.towns for f, info in board.fiefs.items()},
            pool=dict(fam["pool"]), supply=dict(view["supply"]), edition=load_edition(view["game"]),
            everyone=everyone,
            eliminated={p for p, f in view["families"].items() if f["eliminated"]},
            king_offer_used=bool(view["king_offer_used"]),
            cardinal_holder=view["cardinal_title"]["holder"])

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
        return Failure("order", f"unknown purchase order {order!r}")

    def _pay(self, cost: int, what: str) -> Failure | None:
        if cost > self.deniers:
            return Failure("deniers", f"{what} costs {cost} deniers; you have {self.deniers} left "
                           "at this point", "buy less, or drop an earlier order")
        return None

    def _controls(self, town: str) -> bool:
        return self.towns[town]["controller"] == self.me

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
                     if not l["captive_of"] and l["location"] not in (None, OFFSHORE)}
        out = []
        for town, here in self.towns.items():
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
                           "place them where one of your lords stands (not besieged in a fortress), "
                           "or in a non-besieged fortress your forces control (4.3)")
        most = self.edition.new_units_per_town   # 4.3
        if self.placed[town] + count > most:
            room = most - self.placed[town]
            return Failure("four_per_town", f"at most {most} new unit pawns may be placed in "
                           f"{town} this phase; room is left for {room}", "place the others in another town (4.3)")
        if self.pool[kind] < count:
            return Failure("pool", f"your pool has {self.pool[kind]} {UNIT_LABEL[kind][1]} left (A.1)")
        cost = self.edition.unit_price(kind) * count   # 4.3
        fail = self._pay(cost, unit_words(kind, count))
        if fail:
            return fail
        self.deniers -= cost
        self.pool[kind] -= count
        self.placed[town] += count
        return None

    def able_to_purchase(self, fief: str, who: str = "you") -> Failure | None:
        """4.4: an ungoverned fief, every town of it controlled, at least one stronghold in it.
        ``who``: the subject of the message ("you", or a player's name)."""
        towns = self.fief_towns[fief]
        if self.fiefs[fief]["governed"]:
            return Failure("governed", f"the {fief} title is no longer for sale: the fief is governed",
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
                return Failure("not_offered", f"it is ordered only if offered, and no offer of the {fief} "
                               "title stands for you (4.4)")
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
            return Failure("ransom", f"the ransoms due are {due} deniers: an offer must be lower",
                           "leave the offer out: full ransoms are paid by themselves (4.1)")
        if order["offer"] > self.before_ransoms:
            return Failure("deniers", f"you offer {order['offer']} deniers and have {self.before_ransoms}")
        return None

    def _offer_title(self, order: dict[str, Any]) -> Failure | None:
        """4.4: the king (the regent queen when there is no king) offers 1 ungoverned fief title a
        round. Whether the beneficiary is able to purchase it is judged when their order comes."""
        fief, to = order["offer_title"], order["to"]
        holder = privilege_lord(self.everyone)
        if holder is None or self.everyone[holder]["family"] != self.me:
            who = f"; {holder} ({self.everyone[holder]['family']}) holds it" if holder else "; no one holds it now"
            return Failure("privilege", "only the king, or the regent queen when there is no king, may offer "
                           f"a fief title (4.4){who}")
        if self.king_offer_used:
            return Failure("privilege_used", f"{holder}'s privilege is used this round (the title shows its "
                           "'privilege used' side, 4.4)", "it is available again after the End of Round (7)")
        if self.offer_made:
            return Failure("twice", f"this mail already offers the {self.offer_made} title: 1 fief title "
                           "per round (4.4)", "keep a single `offer_title:` order")
        if self.fiefs[fief]["governed"]:
            return Failure("governed", f"the {fief} title is not for sale: the fief is governed",
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

    def _ransom_place(self, order: dict[str, Any]) -> Failure | None:
        """4.1 with G.1.2: where a lord freed by ransom comes into play (ruling 3)."""
        lord = order["ransom"]
        if lord not in self.lords or not self.lords[lord]["captive_of"]:
            return Failure("ransom", f"{lord} is not a captive lord of your family",
                           "name one of your captive lords")
        return None


def describe(order: dict[str, Any], hide_town: bool = False) -> str:
    where = "" if hide_town else f" in {order.get('town')}"
    if "build" in order:
        count = order.get("count", 1)
        return f"to build {'a stronghold' if order['build'] == 'stronghold' else f'{count} mill(s)'}{where}"
    if "buy" in order:
        return f"to buy {unit_words(order['buy'], order['count'])}{where}"
    if "title" in order:
        return f"to buy the {order['title']} title for {order['lord']}"
    if "cardinal" in order:
        return f"to buy the cardinal title for {order['cardinal']}"
    if "offer_title" in order:
        return f"to offer the {order['offer_title']} title to {order['to']}"
    if "offer" in order:
        return f"to offer {order['offer']} deniers for {' and '.join(order['for'])}"
    return f"to place the freed {order.get('ransom')}"
