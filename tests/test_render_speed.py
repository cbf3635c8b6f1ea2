"""The templates' environment reads `a.b` on a plain dict as its key at once (issue 13: Jinja2
raised and caught an exception for each such lookup, a quarter of a position's text): the
same text, the same errors, as Jinja2's own environment."""
from __future__ import annotations

import jinja2
import pytest

from pbem.judge import render

TEMPLATE = ("{{ town.chief }} {{ town.items()|list|length }} {{ d.items }} {{ town.get('x', 'no x') }} "
            "{% if town.harbor is defined %}harbor{% endif %} {{ obj.real }} {{ town.forces.olivier.units }}")


class Obj:
    real = "attribute"


def jinja(text: str, **context) -> str:
    plain = jinja2.Environment(undefined=jinja2.StrictUndefined)
    return plain.from_string(text).render(**context)


def ours(text: str, **context) -> str:
    env = render._Environment(undefined=jinja2.StrictUndefined)
    return env.from_string(text).render(**context)


def test_dict_keys_attributes_and_methods_read_as_jinja2_reads_them():
    context = dict(town={"chief": True, "forces": {"olivier": {"units": 3}}}, d={"items": "a key named items"},
                   obj=Obj())
    assert ours(TEMPLATE, **context) == jinja(TEMPLATE, **context)
    # a key named as a dict method: the method, as Jinja2 gives it; a subclass of dict: Jinja2's way
    assert ours("{{ d.items is callable }}", d={"items": 1}) == "True"
    assert ours("{{ d.chief }}", d=type("D", (dict,), {})(chief="sub")) == "sub"


@pytest.mark.parametrize("text", ["{{ town.missing }}", "{{ town.missing.deeper }}"])
def test_a_missing_key_is_the_same_error(text):
    with pytest.raises(jinja2.UndefinedError) as theirs:
        jinja(text, town={"chief": True})
    with pytest.raises(jinja2.UndefinedError) as mine:
        ours(text, town={"chief": True})
    assert str(mine.value) == str(theirs.value)
    assert ours("{{ town.missing is defined }}", town={}) == "False"


def test_the_judges_environments_are_it():
    assert isinstance(render.environment(), render._Environment)
    assert isinstance(render.html_environment(), render._Environment)
