"""Jinja2 rendering of every mail the judge writes. Templates receive views and visible events
only, never a game's state (DESIGN.md, "Hidden information")."""
from __future__ import annotations

import datetime
import functools
from typing import Any

import jinja2
import yaml

from pbem.paths import templates_dir


def _yaml(value: Any) -> str:
    """Canonical YAML echo of JSON-able data, readable in any mail client."""
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False, default_flow_style=False,
                          width=78).rstrip("\n")


class _EchoDumper(yaml.SafeDumper):
    """YAML as a player writes orders. The judge reads every value as text, so no value needs
    quotes to keep its type: no implicit resolvers, and every scalar is a string."""

    yaml_implicit_resolvers: dict = {}

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)  # `- item` indented under its key


def _echo_text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # `~` alone would read back as "nothing": the only text that needs quotes for its meaning.
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'" if value == "~" else None)


def _echo_list(dumper: yaml.SafeDumper, value: list) -> yaml.Node:
    words = all(isinstance(v, str) for v in value) and sum(len(v) + 2 for v in value) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=words)  # [Tours, Poitiers]


_EchoDumper.add_representer(str, _echo_text)
_EchoDumper.add_representer(list, _echo_list)


def _echo(orders: Any) -> str:
    """The canonical orders a judge understood, as a player would write them: nothing empty
    (no `null`, `{}`, `[]`), yes/no for true/false, lists of names in brackets, list items
    indented under their key. Valid YAML the judge's loader reads back to the same orders;
    "" when nothing is left (an empty set of orders)."""
    pruned = _pruned(orders)
    if _nothing(pruned):
        return ""
    return yaml.dump(pruned, Dumper=_EchoDumper, allow_unicode=True, sort_keys=False, default_flow_style=False,
                     width=78).rstrip("\n")


def _pruned(value: Any) -> Any:
    if isinstance(value, dict):
        items = ((str(k), _pruned(v)) for k, v in value.items())
        return {k: v for k, v in items if not _nothing(v)}
    if isinstance(value, (list, tuple)):
        return [v for v in map(_pruned, value) if not _nothing(v)]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if value is None else str(value)


def _nothing(value: Any) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def _deadline_text(epoch: float) -> str:
    moment = datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)
    return moment.strftime("%A %d %B %Y, %H:%M UTC")


def _indent_block(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=False,             # plain-text mail
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["yaml"] = _yaml
    env.filters["echo"] = _echo
    env.filters["indent_block"] = _indent_block
    env.filters["deadline_text"] = _deadline_text
    return env


def render(template_name: str, **context: Any) -> str:
    return environment().get_template(template_name).render(**context)
