"""Writing orders back as a player writes them (the judge's answer echoes what it understood).

The judge reads every value of an order document as text (pbem.orders.yamlsafe), so no value
needs quotes to keep its type: the dumper has no implicit resolvers and writes every scalar as
a string, yes/no for true/false, short lists of names in brackets (``[Tours, Poitiers]``), short
mappings of names and numbers in braces (``{knight: 2}``) unless they are items of a list (an
order: one key a line), list items indented under their key.
What it writes, the judge's loader reads back to the same text values.
"""
from __future__ import annotations

from typing import Any

import yaml

FLOW_WIDTH = 60   # a list or mapping of scalars up to this many characters stays on one line


class _Dumper(yaml.SafeDumper):
    yaml_implicit_resolvers: dict = {}

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)  # `- item` indented under its key


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # `~` alone would read back as "nothing", and "" as no value at all: they need quotes.
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'" if value in ("~", "") else None)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, bool))


def _width(values: Any) -> int:
    return sum(len(str(v)) + 2 for v in values)


class _Item(dict):
    """A mapping that is an item of a list (an order): always one key a line under its `- `."""


def _list(dumper: yaml.SafeDumper, value: list[Any] | tuple[Any, ...]) -> yaml.Node:
    short = all(_scalar(v) for v in value) and _width(value) <= FLOW_WIDTH
    items = [_Item(v) if isinstance(v, dict) and v else v for v in value]
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=short)


def _map(dumper: yaml.SafeDumper, value: dict) -> yaml.Node:
    short = not isinstance(value, _Item) and all(_scalar(v) for v in value.values()) \
        and _width(list(value) + list(value.values())) <= FLOW_WIDTH
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=short)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(int, lambda d, v: _text(d, str(v)))
_Dumper.add_representer(bool, lambda d, v: _text(d, "yes" if v else "no"))
_Dumper.add_representer(list, _list)
_Dumper.add_representer(tuple, _list)
_Dumper.add_representer(dict, _map)
_Dumper.add_representer(_Item, _map)


class _BlockDumper(_Dumper):
    """Every mapping one key a line (the judge's echo of a canonical form, pbem.judge.render)."""


_BlockDumper.add_representer(dict, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(),
                                                                    flow_style=False))


def write_orders(document: Any, short_maps: bool = True) -> str:
    """``document`` (dicts, lists, text, numbers, true/false; no None) as order YAML, without
    the final newline; ``short_maps`` False writes every mapping one key a line."""
    return yaml.dump(document, Dumper=_Dumper if short_maps else _BlockDumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=False, width=78).rstrip("\n")
