"""Every order form a player is shown, uncommented as a player would, read as the judge reads a
mail (issue 21, section 3; tests/test_every_form.py).

- Games: the golden playthroughs (tests/golden/*.json) replayed through the rules from their
  seeds and stored orders (the orders each phase resolved with, its at-once actions), which
  gives the position each phase opened on without a judge home or a mail; and the positions of
  the scenarios (tests/scenarios), each start and each step's.
- Forms: the template the judge ends a report with (pbem.judge.mailer.order_form), cut into its
  commented order lines and blocks (``blocks``): a commented `- verb:` item or `key:` line under
  an uncommented key, or a commented top-level `key:` with its indented lines; a block's
  continuation lines (deeper, commented) go with it. Prose comments are no blocks. A block
  with placeholders is also tried filled in from the player's view (``fillings``).
- Examples: the code blocks of the order-language pages (``doc_examples``), each sent as the
  part of a mail below the envelope (or, a whole mail, with its envelope made this game's).
- Reading: ``read_mail`` takes a mail's text the way pbem.judge.inbound does (find the document,
  the envelope, the at-once part checked and done first, then the orders checked against the
  position it leaves); ``problems`` says what is wrong with the answer: an exception, a mail not
  read (YAML), an error naming no line, an echo that does not read back to the same orders, a
  resolution that raises.
"""
from __future__ import annotations

import functools
import json
import re
import textwrap
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from pbem.games import rules_for
from pbem.judge.mailer import order_form
from pbem.judge.render import orders_echo
from pbem.orders.envelope import find_document, parse_document
from pbem.orders.yamlsafe import sub_map
from pbem.rules.api import (RULES_VERSION_KEY, OrderError, Phase, acts_at_once, at_once_keys, echo_orders,
                            rules_version)
from pbem.rules.rng import DICE_KEY, DICE_VERSION, Rng

GOLDEN = Path(__file__).parent / "golden"
GAME_NAME = "forms"
SECRET = "k7qm-29qd"
ENVELOPE_LINES = 4   # game, player, secret, phase: the first lines of every form (envelope.txt.j2)
FOLLOWING = 4   # phases without deciders resolved after the phase (the battles after a movement)


# -- the games: golden playthroughs replayed ------------------------------------------------

@dataclass(frozen=True)
class Golden:
    """A golden playthrough and how it was started (its test's players, seed and options)."""

    file: str
    game_type: str
    players: tuple[str, ...]
    seed: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        return self.file.removesuffix(".json")

    def openings(self) -> tuple["Opening", ...]:
        return replay(self)


@dataclass(frozen=True)
class Scenario:
    """Positions the golden games never reach (a king, a captive, a bishop's tithe, a phase only
    some games have): each state from ``build`` opens a phase."""

    name: str
    game_type: str
    build: Callable[[], list[tuple[str, Any]]]   # (name, state)

    def openings(self) -> tuple["Opening", ...]:
        rules = rules_for(self.game_type)
        return tuple(Opening(at, rules.phase(state), state, tuple(state["players"])) for at, state in self.build())


SCENARIOS = Path(__file__).parent / "scenarios"


def scenario_positions(game_type: str) -> list[tuple[str, Any]]:
    """The positions of each scenario of tests/scenarios/<game_type>/ that plays phases (a lone
    battle's or battle rounds' scenario plays none): its start, and the position after each of
    its steps (played as the scenario test plays them), named by its file and step."""
    from test_fief_scenarios import run_step, starting_state   # the scenarios' own runner
    rules = rules_for(game_type)
    out = []
    for path in sorted((SCENARIOS / game_type).glob("*.yaml")):
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "position" not in scenario or {"battle", "rounds", "england_battle"} & set(scenario):
            continue
        state = starting_state(game_type, rules, scenario["position"])
        if not _whole(rules, state):
            continue
        out.append((path.stem, state))
        for number, step in enumerate(scenario.get("steps") or [], 1):
            after, _ = run_step(rules, state, step, step.get("dice", scenario.get("dice")))
            if after is not state and rules.result(after) is None:
                out.append((f"{path.stem}@{number}", after))
            state = after
    return out


def _whole(rules: Any, state: Any) -> bool:
    """Whether every player's view of a scenario's position can be drawn: a scenario sets only
    what its rule needs, and some leave out parts a game always has (England's relics)."""
    try:
        for player in state["players"]:
            rules.view(state, player)
    except KeyError:
        return False
    return True


Source = Golden | Scenario


@dataclass(frozen=True)
class Opening:
    """A phase as it opened: the position every report of it showed; ``at`` names it in its
    source (a golden game's phase number, a scenario's file)."""

    at: str
    phase: Phase
    state: Any
    players: tuple[str, ...]


@functools.lru_cache(maxsize=None)
def openings(source: Source) -> tuple[Any, tuple[Opening, ...]]:
    """The rules of ``source``'s game and each phase it opens, computed once a test session."""
    opened = source.openings()
    _KEPT.update((id(o), o) for o in opened)
    return rules_for(source.game_type), opened


def replay(golden: Golden) -> tuple[Opening, ...]:
    """Every phase of the golden game, replayed as the judge played it: setup from the seed
    (pbem.judge.engine.create_game), each phase's at-once actions then its resolution with the
    orders it used, each with its own generator (engine.phase_rng, engine.action_rng)."""
    rules = rules_for(golden.game_type)
    record = json.loads((GOLDEN / golden.file).read_text(encoding="utf-8"))
    options = {**{o.name: o.default for o in rules.options()}, **dict(golden.options),
               RULES_VERSION_KEY: rules_version(rules), DICE_KEY: DICE_VERSION}
    state = rules.setup(options, list(golden.players), Rng.for_phase(golden.seed, "setup", DICE_VERSION))
    out = []
    for entry in record:
        phase = rules.phase(state)
        assert phase.id == entry["phase"], f"{golden.file}: phase {entry['seq']} is {phase.id}, not {entry['phase']}"
        out.append(Opening(str(entry["seq"]), phase, state, golden.players))
        for n, action in enumerate(entry["at_once"], 1):
            rng = Rng.for_phase(golden.seed, f"{entry['seq']}:{phase.id}:at-once-{n}", DICE_VERSION)
            state = acts_at_once(rules).act(state, action["player"], action["action"], rng).state
        if "state" in entry:
            rng = Rng.for_phase(golden.seed, f"{entry['seq']}:{phase.id}", DICE_VERSION)
            state = rules.resolve(state, entry["orders"] or {}, rng).state
    return tuple(out)


def kind(phase_id: str) -> str:
    """A phase's kind, without its round or year: `round-3/movement` -> `movement`."""
    return phase_id.rsplit("/", 1)[-1]


# -- the forms and their commented blocks --------------------------------------------------

_COMMENT = re.compile(r"^(\s*)# ?(.*)$")
# A line that is YAML structure once uncommented: a `- key:` item, or a `key:` whose key is one
# word (county and town names with accents and hyphens, 'Belső-Szolnok').
_ENTRY = re.compile(r"^(- )?\w[\w'’.-]*:( |$)")
_TOP_KEY = re.compile(r"^[a-z_]+:( |$)")   # a top-level key of an order document


def uncommented(line: str) -> str | None:
    """The line with its `#` and the space after it removed, its indentation kept; None for a
    line that is no comment."""
    m = _COMMENT.match(line)
    return None if m is None else m.group(1) + m.group(2)


def _bare(text: str) -> str:
    """A line without its indentation and its trailing comment: a block's label."""
    return re.sub(r"\s+#.*$", "", text).strip()


_NAMED = re.compile(r"^((?:- )?[\w]+: )([a-z_][a-z_0-9 ]*)$")


def verb(label: str) -> str:
    """What a block orders, without the names it is filled in with: `- move: Gauvin` -> `- move`,
    but `- play: tax` and `- build: mill` keep their word (each card, each building its own)."""
    words = [m.group(0) if (m := _NAMED.match(part)) else part.split(":")[0] for part in label.split("  ")]
    return "  ".join(words)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


@dataclass(frozen=True)
class Block:
    """Commented lines a player uncomments together (0-based line indexes of the form)."""

    lines: tuple[int, ...]
    label: str                      # its first line, uncommented, stripped
    header: tuple[int, ...] = ()    # for a child of a commented top-level key: that key's line
    children: tuple["Block", ...] = ()


def blocks(form: str) -> list[Block]:
    """The commented order blocks of ``form`` (see the module docstring), in form order."""
    lines = form.split("\n")
    out: list[Block] = []
    i = 0
    while i < len(lines):
        if not _block_start(lines, i):
            i += 1
            continue
        end = _block_end(lines, i)
        span = tuple(range(i, end))
        text = _bare(uncommented(lines[i]) or "")
        out.append(Block(span, text, children=_children(lines, span) if _indent(uncommented(lines[i]) or "") == 0
                         and not text.startswith("- ") else ()))
        i = end
    return out


def _block_start(lines: list[str], i: int) -> bool:
    u = uncommented(lines[i])
    if u is None or not _ENTRY.match(u.strip()):
        return False
    n = _indent(u)
    if n == 0:
        return bool(_TOP_KEY.match(u))
    for j in range(i - 1, -1, -1):   # its parent: the nearest line above less indented
        above = lines[j]
        if not above.strip():
            continue
        above_u = uncommented(above)
        if above_u is None:
            return _indent(above) < n
        if above_u.strip() and _indent(above_u) < n:
            return False    # under a commented line: part of that line's block, or prose
    return False


def _block_end(lines: list[str], i: int) -> int:
    n = _indent(uncommented(lines[i]) or "")
    end = i + 1
    while end < len(lines):
        u = uncommented(lines[end])
        if u is None or not u.strip() or _indent(u) <= n:
            break
        end += 1
    return end


def _children(lines: list[str], span: tuple[int, ...]) -> tuple[Block, ...]:
    """The entries of a commented top-level key (`# policies:`, `# diplomacy:`), each with its
    own continuation lines."""
    body = [i for i in span[1:] if not (uncommented(lines[i]) or "").strip().startswith("#")]
    if not body:
        return ()
    depth = min(_indent(uncommented(lines[i]) or "") for i in body)
    starts = [i for i in body if _indent(uncommented(lines[i]) or "") == depth]
    out = []
    for k, first in enumerate(starts):
        last = starts[k + 1] if k + 1 < len(starts) else span[-1] + 1
        out.append(Block(tuple(range(first, last)), _bare(uncommented(lines[first]) or ""), header=(span[0],)))
    return tuple(out)


def with_uncommented(form: str, indexes: set[int]) -> str:
    """``form`` with the lines ``indexes`` uncommented, as a player does by hand; the envelope's
    placeholder secret filled in."""
    lines = form.split("\n")
    for i in indexes:
        lines[i] = uncommented(lines[i]) or lines[i]
    return "\n".join(lines).replace("YOUR-SECRET", SECRET)


@dataclass(frozen=True)
class Case:
    """One mail to try: a form with some of its blocks uncommented."""

    source: Source
    at: str
    player: str
    what: str             # "as sent", "all together", or the block's label
    lines: tuple[int, ...]
    filled: bool = False  # its placeholders (TOWN, NOBLE, ...) filled in from the player's view
    shape: str = ""       # "list" or "mapping": the value of one of its lines written as one (RESHAPED)
    reshaped: int = -1    # that line (a 0-based index of the form)

    @property
    def id(self) -> str:
        return (f"{self.source.name}:{self.at}:{self.player}:{self.what}" + (" (filled in)" if self.filled else "")
                + (f" (line {self.reshaped + 1}'s value as a {self.shape})" if self.shape else ""))


def cases_of(source: Source, form: str, at: str, player: str, decider: bool) -> Iterator[Case]:
    """The mails made from one form: the form as it is (a decider's), each block alone (a child of
    a commented top-level key alone with that key's line), and every block together."""
    found = blocks(form)
    if decider:
        yield Case(source, at, player, "as sent", ())
    lines = form.split("\n")
    for block in found:
        yield from _alone_and_filled(Case(source, at, player, block.label, block.lines), lines)
        if len(block.children) > 1:
            for child in block.children:
                yield from _alone_and_filled(Case(source, at, player, f"{block.label}  {child.label}",
                                                  child.header + child.lines), lines)
    if len(found) > 1:
        yield from _alone_and_filled(Case(source, at, player, "all together", tuple(i for b in found for i in b.lines)),
                                     lines)


def _alone_and_filled(case: Case, lines: list[str]) -> Iterator[Case]:
    yield case
    if any(_PLACEHOLDER.search(_code(lines[i])) for i in case.lines):
        yield replace(case, filled=True)


# -- a player filling in the placeholders --------------------------------------------------------

_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{2,}\b")


def _code(line: str) -> str:
    """A form line without its comment (a placeholder in the comment is no value)."""
    return re.split(r"\s#", uncommented(line) or line, maxsplit=1)[0]


def fillings(view: Any, player: str) -> dict[str, str]:
    """What a player writes for each placeholder of the forms, from their own view: one of their
    lords or towns, another family's lord, a captive, another player, a card of their hand, a
    fief, a county of theirs (Kard és Korona). A placeholder with nothing to fill stays."""
    others = [p for p in view.get("turn_order") or view.get("players") or [] if p != player]
    out: dict[str, str] = {}
    if others:
        out.update(PLAYER=others[0], FAMILY=others[0])
    lords = view.get("lords") if isinstance(view.get("lords"), dict) else {}
    mine = [n for n, lord in lords.items() if isinstance(lord, dict) and lord.get("family") == player
            and lord.get("location") and not lord.get("captive_of")]
    theirs = [n for n, lord in lords.items() if isinstance(lord, dict) and lord.get("family") not in (player, None)
              and lord.get("location")]
    captives = [n for n, lord in lords.items() if isinstance(lord, dict) and lord.get("captive_of")]
    for words, names in ((("LORD", "NOBLE", "YOUR_NOBLE", "YOUR_LORD", "NOBLEMAN", "KING_OR_QUEEN",
                           "YOUR_MARRIED_LORD"), mine),
                         (("THEIR_LORD", "THEIR_NOBLE"), theirs), (("CAPTIVE", "CAPTIVE_LORD", "NAME"), captives)):
        if names:
            out.update(dict.fromkeys(words, names[0]))
    towns = view.get("towns") if isinstance(view.get("towns"), dict) else {}
    held = [t for t, town in towns.items() if isinstance(town, dict) and town.get("controller") == player]
    if held:
        out.update(TOWN=held[0], CITY=held[0], STRONGHOLD_CITY=held[0])
    if view.get("fiefs"):
        out["REGION"] = next(iter(view["fiefs"]))
    if view.get("hand"):
        out["CARD"] = view["hand"][0]
    owner = view.get("owner") if isinstance(view.get("owner"), dict) else {}
    counties = [c for c, who in owner.items() if who == player]
    if counties:
        out["COUNTY"] = counties[0]
    if "owner" in view and others:
        out["NAME"] = others[0]   # Kard és Korona's `give: {NAME: 5}`
    return out


def filled_in(form: str, indexes: set[int], view: Any, player: str) -> str:
    """``form`` with the placeholders of the lines ``indexes`` filled in (see ``fillings``)."""
    fill = fillings(view, player)
    lines = form.split("\n")
    for i in indexes:
        code, comment = re.match(r"^(\s*#?.*?)((?:\s#.*)?)$", lines[i]).groups()   # the form line's own comment kept
        lines[i] = _PLACEHOLDER.sub(lambda m: fill.get(m.group(0), m.group(0)), code) + comment
    return "\n".join(lines)


# (id of an opening kept by ``openings``, player): its view and form, drawn once a session (the
# openings stay in ``openings``'s cache, so their ids do too). A view is the rules' output, which
# nothing that reads it changes.
_KEPT: dict[int, Opening] = {}
_VIEWS: dict[tuple[int, str], Any] = {}
_FORMS: dict[tuple[int, str], str | None] = {}


def view_of(rules: Any, opening: Opening, player: str) -> Any:
    """``player``'s view of the opening (drawn once if ``openings`` keeps the opening)."""
    if _KEPT.get(id(opening)) is not opening:
        return rules.view(opening.state, player)
    key = (id(opening), player)
    if key not in _VIEWS:
        _VIEWS[key] = rules.view(opening.state, player)
    return _VIEWS[key]


def form_of(rules: Any, opening: Opening, player: str) -> str | None:
    """The order form of ``player``'s report for the phase, as the judge ends the mail with it."""
    key = (id(opening), player)
    if _KEPT.get(id(opening)) is not opening:
        return order_form(rules, GAME_NAME, rules.view(opening.state, player), player, opening.phase)
    if key not in _FORMS:
        _FORMS[key] = order_form(rules, GAME_NAME, view_of(rules, opening, player), player, opening.phase)
    return _FORMS[key]


@functools.lru_cache(maxsize=None)
def chosen_cases(source: Source, per_kind: int) -> list[Case]:
    """The cases of every phase that takes orders, bounded by counts: each distinct block label
    (e.g. `- move: Gauvin`) of a phase kind is tried at most once, and each verb (`- move:`) of a
    phase kind in at most ``per_kind`` forms; each form with a new block is also tried whole and
    as sent."""
    rules, opened = openings(source)
    tried: set[tuple[str, str]] = set()
    verbs: dict[tuple[str, str], int] = {}   # (phase kind, verb): forms tried
    out: list[Case] = []
    for opening in opened:
        for player in opening.players:
            form = form_of(rules, opening, player)
            if form is None:
                continue
            decider = player in opening.phase.deciders
            cases = list(cases_of(source, form, opening.at, player, decider))
            fresh = []
            for case in cases:
                if case.what in ("as sent", "all together"):
                    continue
                key = (kind(opening.phase.id) + ("" if decider else "/at-once") + ("/filled" if case.filled else ""),
                       case.what)
                what = (key[0], verb(case.what))
                if key in tried or verbs.get(what, 0) >= per_kind:
                    continue
                tried.add(key)
                verbs[what] = verbs.get(what, 0) + 1
                fresh.append(case)
            if fresh:
                out.extend(c for c in cases if c.what in ("as sent", "all together"))
                out.extend(fresh)
    return out


# A value written as a list or a mapping where the form has a word (`- garter: [Henri]`,
# `to: {Tours: 1}`): a slip a player makes, answered like any mistake.
RESHAPED = {"list": "[{}]", "mapping": "{{{}: 1}}"}
_WORD_LINE = re.compile(r"^(\s*#?\s*(?:- )?\w+: )([^\s#\[{][^#\[{]*?)(\s+#.*)?$")   # `key: word  # ...`


def reshaped_cases(source: Source, per_kind: int) -> list[Case]:
    """For each key of each order verb of each phase kind (`- garter:`, `- move:` and its `path:`,
    ...), its first block tried (filled in, if it has placeholders) with the key's value as a list
    and as a mapping."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    rules, opened = openings(source)
    by_at = {o.at: o for o in opened}
    cases = chosen_cases(source, per_kind)
    plain_filled = {(c.at, c.player, c.what) for c in cases if c.filled}
    for case in cases:
        if case.what in ("as sent", "all together") or re.fullmatch(r"\w+:", case.what) \
                or (not case.filled and (case.at, case.player, case.what) in plain_filled):
            continue   # a commented top-level key's lines are reshaped in its entries' cases
        lines = (form_of(rules, by_at[case.at], case.player) or "").split("\n")
        for i in case.lines:
            word = _WORD_LINE.match(lines[i])
            if word is None:
                continue
            key = (kind(by_at[case.at].phase.id), verb(case.what).split("  ")[-1], word.group(1).strip())
            if key in seen:
                continue
            seen.add(key)
            out += [replace(case, shape=shape, reshaped=i) for shape in RESHAPED]
    return out


def reshape(form: str, case: Case) -> str:
    lines = form.split("\n")
    m = _WORD_LINE.match(lines[case.reshaped])
    assert m is not None, lines[case.reshaped]
    lines[case.reshaped] = m.group(1) + RESHAPED[case.shape].format(m.group(2).strip()) + (m.group(3) or "")
    return "\n".join(lines)


# -- reading a mail as the judge does -------------------------------------------------------

@dataclass
class Reading:
    """What the judge made of one mail (pbem.judge.inbound._take, without the store)."""

    errors: list[OrderError] = field(default_factory=list)
    read: bool = True        # False: the envelope was not read (a YAML mistake, ...)
    orders: Any = None       # the canonical orders, when accepted (None: an at-once part only)
    checked: bool = False    # whether check_orders was asked
    state: Any = None        # the position after the at-once part, if any
    view: Any = None


def read_mail(rules: Any, opening: Opening, player: str, text: str) -> Reading:
    doc = find_document(text)
    if doc is None:
        return Reading([OrderError(None, "no order document found")], read=False)
    envelope, errors = parse_document(doc)
    if envelope is None:
        return Reading(list(errors), read=False)
    keys = at_once_keys(rules)
    now_part = sub_map(envelope.body, lambda k: k in keys)
    rest = sub_map(envelope.body, lambda k: k not in keys) if now_part else envelope.body
    state, view = opening.state, view_of(rules, opening, player)
    reading = Reading(state=state, view=view)
    if player not in opening.phase.deciders and (rest or not now_part):
        reading.errors.append(OrderError(rest.line_of(next(iter(rest))) if rest else None,
                                         "you have no orders to give in this phase"))
        return reading
    if now_part:
        at_once = acts_at_once(rules).check_at_once(view, player, now_part)
        reading.errors.extend(at_once.errors)
        if at_once.ok:
            state = acts_at_once(rules).act(state, player, at_once.orders, Rng("forms/at-once")).state
            reading.state, reading.view = state, rules.view(state, player)
    if rest or not now_part:
        check = rules.check_orders(reading.view, player, rest)
        reading.checked = True
        reading.errors.extend(check.errors)
        reading.orders = check.orders
    return reading


def echo_of(rules: Any, view: Any, player: str, orders: Any) -> str:
    """The echo in the judge's answer: the game's own, else the judge's (ack.txt.j2)."""
    echoed = echo_orders(rules, view, player, orders)
    return orders_echo(orders) if echoed is None else echoed


def problems(case: Case) -> list[str]:
    """What is wrong with the judge's answer to ``case``'s mail (empty: nothing)."""
    rules, opened = openings(case.source)
    opening = next(o for o in opened if o.at == case.at)
    form = form_of(rules, opening, case.player)
    assert form is not None
    if case.filled:
        form = filled_in(form, set(case.lines), view_of(rules, opening, case.player), case.player)
    if case.shape:
        form = reshape(form, case)
    text = with_uncommented(form, set(case.lines))
    lines = [uncommented(line) or line for line in form.split("\n")]
    glued = [f"line {i + 1}: a comment glued to its value is read as part of it: {lines[i].strip()}"
             for i in case.lines if re.search(r"\S# ", lines[i])]
    if glued:
        return glued
    # the lines an error may name: those the player uncommented, and the orders the form holds
    # uncommented (`recruit:` for the cost of all its lines) below the envelope; the form as sent
    # must be accepted (it is the default: "sent as it is, you buy nothing")
    named = {i + 1 for i in case.lines}
    if named:
        named |= {n for n, line in enumerate(form.split("\n"), 1)
                  if n > ENVELOPE_LINES and line.strip() and uncommented(line) is None}
    return mail_problems(rules, opening, case.player, text, named)


def mail_problems(rules: Any, opening: Opening, player: str, text: str, named: set[int]) -> list[str]:
    """What is wrong with the judge's answer to the mail ``text`` of ``player`` in ``opening``:
    refused, its errors must name lines of ``named`` (none: it must be accepted); accepted, its
    echo must read back to the same orders and the phase resolve with them."""
    try:
        reading = read_mail(rules, opening, player, text)
        if not reading.read:
            return [f"the mail is not read: {'; '.join(map(str, reading.errors))}"]
        if reading.errors:
            if not named:
                return [f"the form sent as it is is refused: {'; '.join(map(str, reading.errors))}"]
            return [f"an error names no line the player wrote: {e}" for e in reading.errors if e.line not in named]
        found = _echo_problems(rules, opening, player, reading) if reading.checked else []
        return found + _resolution_problems(rules, opening, player, reading)
    except Exception as exc:   # the point of the test: nothing a player writes may raise
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return [f"raises {type(exc).__name__}: {exc} ({where.filename}:{where.lineno})"]


def _echo_problems(rules: Any, opening: Opening, player: str, reading: Reading) -> list[str]:
    echoed = echo_of(rules, reading.view, player, reading.orders)
    mail = f"game: {GAME_NAME}\nplayer: {player}\nsecret: {SECRET}\nphase: {opening.phase.id}\n{echoed}\n"
    again = read_mail(rules, Opening(opening.at, opening.phase, reading.state, opening.players), player, mail)
    if again.errors or not again.read:
        return [f"the echo is refused:\n{echoed}\n" + "\n".join(map(str, again.errors))]
    if again.orders != reading.orders:
        return [f"the echo\n{echoed}\nreads as {again.orders}, not {reading.orders}"]
    return []


def _resolution_problems(rules: Any, opening: Opening, player: str, reading: Reading) -> list[str]:
    """The phase resolved with these orders and everyone else's defaults, then the phases that
    follow without orders (a movement's battles)."""
    state = reading.state
    at = opening if state is opening.state else Opening(opening.at, opening.phase, state, opening.players)
    orders = {p: rules.default_orders(view_of(rules, at, p), p) for p in opening.phase.deciders if p != player}
    if reading.checked:
        orders[player] = reading.orders
    elif player in opening.phase.deciders:
        orders[player] = rules.default_orders(reading.view, player)
    state = rules.resolve(state, orders, Rng(f"forms/{opening.phase.id}")).state
    for _ in range(FOLLOWING):
        if rules.result(state) is not None or rules.phase(state).deciders:
            break
        state = rules.resolve(state, {}, Rng(f"forms/{rules.phase(state).id}")).state
    return []


# -- the examples of the order-language pages (docs/orders*.md) ------------------------------

DOCS = Path(__file__).parent.parent / "docs"
_HEADING = re.compile(r"^(#+) (.*)$")
_PHASE_ID = re.compile(r"(?:round-N|setup|YEAR)/([\w-]+)")   # a phase named in a heading


@dataclass(frozen=True)
class DocExample:
    """A code block of an order-language page: fenced (```yaml) or indented, with the headings
    above it (the nearest last)."""

    page: str
    line: int             # the line of the page the example's text starts on
    headings: tuple[str, ...]
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    def phase_kind(self, table: dict[str, str]) -> str | None:
        """The phase it is an example of: the nearest heading naming a phase (`round-N/purchase`),
        else the nearest one ``table`` knows (a heading's beginning -> a phase kind)."""
        for heading in reversed(self.headings):
            named = _PHASE_ID.search(heading)
            if named:
                return named.group(1)
            known = [kind for start, kind in table.items() if heading.startswith(start)]
            if known:
                return known[0]
        return None


def doc_examples(page: str) -> list[DocExample]:
    """The YAML examples of ``page`` (a file of docs/): code blocks with a `key:` line (a line
    of mail or of prose set as code is no example)."""
    lines = (DOCS / page).read_text(encoding="utf-8").split("\n")
    out: list[DocExample] = []
    heads: list[tuple[int, str]] = []
    i, blank_before = 0, True
    while i < len(lines):
        line = lines[i]
        if (heading := _HEADING.match(line)) is not None:
            heads = [h for h in heads if h[0] < len(heading.group(1))] + [(len(heading.group(1)), heading.group(2))]
            i, blank_before = i + 1, False
            continue
        if line.startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            block, start, i = lines[i + 1:end], i + 2, end + 1
        elif line.startswith("    ") and blank_before:
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            while not lines[end - 1].strip():
                end -= 1
            block, start, i = lines[i:end], i + 1, end
        else:
            blank_before, i = not line.strip(), i + 1
            continue
        blank_before = False
        text = textwrap.dedent("\n".join(block))
        if any(_ENTRY.match(t.strip()) for t in text.split("\n")):
            out.append(DocExample(page, start, tuple(h[1] for h in heads), text))
    return out


_ENVELOPE_LINE = re.compile(r"^(game|player|secret|phase):.*$", re.MULTILINE)


def example_mail(example: DocExample, player: str, phase_id: str) -> tuple[str, set[int]]:
    """The example as the mail of ``player``, and the mail's lines that are the example's: below
    an envelope for the phase, or, for an example that is a whole mail, with its envelope's
    values made this game's."""
    values = {"game": GAME_NAME, "player": player, "secret": SECRET, "phase": phase_id}
    if re.search(r"^game:", example.text, re.MULTILINE):
        text = _ENVELOPE_LINE.sub(lambda m: f"{m.group(1)}: {values[m.group(1)]}", example.text)
        return text + "\n", set(range(1, text.count("\n") + 2))
    envelope = "".join(f"{k}: {v}\n" for k, v in values.items())
    return envelope + example.text + "\n", set(range(ENVELOPE_LINES + 1, ENVELOPE_LINES + 2 + example.text.count("\n")))


def personal_problems(example: DocExample) -> list[str] | None:
    """An example of a mail that changes the player's secret or mail format (no orders): read
    without errors; None for any other example."""
    if not re.search(r"^(new_secret|html):", example.text, re.MULTILINE):
        return None
    doc = find_document(example.text)
    envelope, errors = parse_document(doc) if doc is not None else (None, [OrderError(None, "no document")])
    return [] if envelope is not None and not errors else [f"not read: {'; '.join(map(str, errors))}"]


# -- each key of a form, given a value of the wrong shape ----------------------------------------

WRONG_SHAPES = ("nonsense", "[nonsense]", "{nonsense: 1}", "")


def form_keys(form: str) -> list[str]:
    """The top-level keys of a form below its envelope, written or commented (`orders`,
    `policies`, `diplomacy`, `steps`, ...)."""
    keys = []
    for n, line in enumerate(form.split("\n"), 1):
        text = uncommented(line) if uncommented(line) is not None else line
        if n > ENVELOPE_LINES and _TOP_KEY.match(text) and not text.startswith(" "):
            key = text.split(":", 1)[0]
            if key not in keys:
                keys.append(key)
    return keys


def shape_mail(player: str, phase_id: str, key: str, value: str) -> str:
    """A mail whose only line below the envelope is ``key: value``: its line ENVELOPE_LINES + 1."""
    return f"game: {GAME_NAME}\nplayer: {player}\nsecret: {SECRET}\nphase: {phase_id}\n{key}: {value}\n"


def likeliest_player(rules: Any, opening: Opening, text: str) -> str:
    """The decider of ``opening`` an example is likeliest written for: the one whose own lords,
    towns and counties (``fillings``'s) it names most; the first decider on a tie."""
    def named(player: str) -> int:
        view = view_of(rules, opening, player)
        lords = view.get("lords") if isinstance(view.get("lords"), dict) else {}
        towns = view.get("towns") if isinstance(view.get("towns"), dict) else {}
        owner = view.get("owner") if isinstance(view.get("owner"), dict) else {}
        own = [n for n, lord in lords.items() if isinstance(lord, dict) and lord.get("family") == player]
        own += [t for t, town in towns.items() if isinstance(town, dict) and town.get("controller") == player]
        own += [c for c, who in owner.items() if who == player]
        return sum(1 for name in own if re.search(rf"\b{re.escape(name)}\b", text))
    return max(opening.phase.deciders, key=named)
