"""The YAML of the files people edit (:func:`translator.yamlfile.dump`): the very bytes
of PyYAML's Python emitter, written by LibYAML's where it writes the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT
from translator import yamlfile
from translator.textio import read_source


def python_emitter(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)


def front_matters() -> list[dict[str, Any]]:
    """The front matter of every card file and every deck file in the repository."""
    found = []
    for path in sorted([*ROOT.glob("cards/**/*.md"), *DATA.glob("**/*.md")]):
        try:
            source = read_source(str(path))
        except Exception:  # the corpora hold broken files on purpose
            continue
        if not source.front_matter:
            continue
        try:
            data = yaml.safe_load(source.front_matter.strip().strip("-"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            found.append(data)
    for path in sorted([*ROOT.glob("cards/**/deck.yaml"), *DATA.glob("**/deck.yaml")]):
        try:
            data = yaml.safe_load(path.read_text("utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        if isinstance(data, dict):
            found.append(data)
    return found


@pytest.mark.slow
def test_every_card_and_deck_file_of_the_repository_is_written_as_before() -> None:
    found = front_matters()
    assert len(found) > 500
    for data in found:
        assert yamlfile.dump(data) == python_emitter(data)


def test_a_card_file_is_written_without_the_python_emitter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where PyYAML has LibYAML (its wheels do), a card's fields go through it."""
    if getattr(yaml, "CSafeDumper", None) is None:
        pytest.skip("PyYAML without LibYAML: every file goes through the Python emitter")
    card = {"name": "Messager", "name2": "du ciel de fer", "subtype": "Oiseau, soldat"}
    expected = python_emitter(card)

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the Python emitter was used")

    monkeypatch.setattr(yaml.emitter.Emitter, "emit", refused)
    assert yamlfile.dump(card) == expected


TEXT = st.text(max_size=80)  # every code point: astral characters, NEL, controls
KEY = st.one_of(st.from_regex(r"\A[a-z][a-z0-9_-]{0,15}\Z"), st.text(max_size=80))
VALUE = st.recursive(
    st.one_of(TEXT, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEY, inner, max_size=4)),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(KEY, VALUE, min_size=1, max_size=6))
def test_any_data_is_written_as_the_python_emitter_writes_it(data: dict[str, Any]) -> None:
    """Also what LibYAML writes otherwise (an emoji, NEL, an empty or long key): then
    through the Python emitter."""
    assert yamlfile.dump(data) == python_emitter(data)


def test_an_emoji_stays_as_it_is() -> None:
    assert yamlfile.dump({"name": "Pirate \U0001f3f4"}) == "name: Pirate \U0001f3f4\n"


def test_written_then_read_back(tmp_path: Path) -> None:
    data = {"name": "Élan", "cards": {"courier": 2, "veil-stalker": 1}}
    (tmp_path / "deck.yaml").write_text(yamlfile.dump(data), "utf-8")
    assert yaml.safe_load((tmp_path / "deck.yaml").read_text("utf-8")) == data
