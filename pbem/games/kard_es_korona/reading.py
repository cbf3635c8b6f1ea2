"""Reading Kard és Korona's orders: county names and unit counts, with errors that
name the line and the fix (the generic helpers are pbem.orders.reading's)."""
from __future__ import annotations

from typing import Any, Iterable

from pbem.orders.reading import Problems, fold, suggest, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.games.kard_es_korona.units import UNIT_KINDS, kind_of


def county_name(text: Any, counties: Iterable[str], line: int | None, problems: Problems,
                what: str = "county") -> str | None:
    """The county ``text`` names (case and accents ignored: `Gyor` is Győr), or None."""
    counties = list(counties)
    if not isinstance(text, str) or not text.strip():
        example = f", e.g. `{counties[0]}`" if counties else ""
        problems.add(line, "a county's name is missing", f"write the name of a {what}{example}")
        return None
    for name in counties:
        if fold(name) == fold(text):
            return name
    problems.add(line, f"no {what} {text!r}", suggest(text, counties))
    return None


def unit_counts(value: Any, line: int | None, what: str, problems: Problems) -> dict[str, int] | None:
    """`{infantry: 2, cavalry: 1}` (kinds as the rulebook names them, `knights` for cavalry)."""
    if not isinstance(value, dict) or not value:
        problems.add(line, f"{what} must list units by kind, e.g. `{{infantry: 2, cavalry: 1}}`",
                     "the kinds are " + ", ".join(UNIT_KINDS))
        return None
    out = {kind: 0 for kind in UNIT_KINDS}
    ok = True
    for key, n in value.items():
        kind = kind_of(str(key))
        where = line_of(value, key) or line
        if kind is None:
            problems.add(where, f"no unit kind {key!r} in {what}", suggest(str(key), UNIT_KINDS))
            ok = False
            continue
        count = whole_number(n, where, kind, problems, low=0)
        if count is None:
            ok = False
            continue
        out[kind] += count
    return out if ok else None


def county_units(raw: Any, counties: Iterable[str], line: int | None, key: str, example: str, problems: Problems,
                 what: str = "county") -> list[tuple[str, dict[str, int], int | None]]:
    """A `COUNTY: {kind: n}` mapping (`place:`, `recruit:`, `from:`, `join:`) as (county, units,
    line) for each entry that reads; an entry that does not is reported. None is no entry."""
    if raw is None:
        return []
    if not isinstance(raw, dict):
        problems.add(line, f"`{key}:` lists counties, each with its units by kind", f"e.g. `{key}: {example}`")
        return []
    out = []
    for name, value in raw.items():
        where = line_of(raw, name) or line
        county = county_name(name, counties, where, problems, what)
        units = unit_counts(value, where, county or str(name), problems)
        if county and units is not None:
            out.append((county, units, where))
    return out
