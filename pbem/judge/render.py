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
    env.filters["indent_block"] = _indent_block
    env.filters["deadline_text"] = _deadline_text
    return env


def render(template_name: str, **context: Any) -> str:
    return environment().get_template(template_name).render(**context)
