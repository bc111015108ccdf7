"""translator.languages: one interface per language, its lists and tables as data.

The inflection, spelling, typography and hyphenation each language gives are tested
where they are used (test_glossary_engine.py, test_lint_spelling.py,
test_typeset_layout.py); here: the registry, the data files and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator import glossary, languages
from translator.glossary.loader import load_glossary, shipped_files
from translator.languages import data
from translator.languages.base import NO_BREAK_SPACE, EndingRule, EndingRules, Language
from translator.textio import InputError


def test_the_registry_knows_the_glossaries_languages() -> None:
    assert set(languages.codes()) == set(glossary.LANGUAGES)
    for code in languages.codes():
        assert languages.get(code).code == code
        assert type(languages.get(code)) is not Language  # each has its module


def test_a_tag_with_a_region_is_its_languages() -> None:
    assert languages.get("fr_FR") is languages.get("fr")
    assert languages.get("EO-xx") is languages.get("eo")


def test_a_language_of_no_module_has_the_base_answers() -> None:
    german = languages.get("de")
    assert type(german) is Language and german.code == "de"
    assert german.forms("Karte", "noun") == {"Karte"}
    assert german.plural("Karte") == "Karte"
    assert german.hunspell is None and german.word_formation is None
    assert german.word_breaks("Karte") is None  # pyphen's patterns
    assert german.typography.apply("l'a : b") == "l’a : b"
    assert german.data_files() == []


def test_every_language_reads_its_data() -> None:
    for code in languages.codes():
        language = languages.get(code)
        assert language.data_files() and all(p.is_file() for p in language.data_files())
        assert language.name and language.typography is not None
        assert language.forms("x", "noun")
    assert languages.get("fr").genders == ("m", "f")
    assert languages.get("fr").glossary_name == "Lexique"
    assert languages.get("eo").word_formation is not None
    assert languages.get("fr").middle_dots is not None


def test_the_typography_of_each_language() -> None:
    french = languages.get("fr").typography.apply("« Cité » : rejoignez-nous ! l'armée")
    assert french == (
        f"«{NO_BREAK_SPACE}Cité{NO_BREAK_SPACE}»{NO_BREAK_SPACE}: "
        f"rejoignez-nous{NO_BREAK_SPACE}! l’armée"
    )
    esperanto = languages.get("eo").typography.apply("L' Imperio, l' urbo : ne")
    assert esperanto == f"L’{NO_BREAK_SPACE}Imperio, l’{NO_BREAK_SPACE}urbo : ne"


def test_tables_of_endings_apply_in_order() -> None:
    english = EndingRules(
        (
            EndingRule(("s", "x", "ch"), add="es"),
            EndingRule(("y",), replace="ies", after_consonant=True),
        ),
        "s",
    )
    assert [english.apply(w) for w in ("box", "ally", "day", "card", "y")] == [
        "boxes",
        "allies",
        "days",
        "cards",
        "ys",
    ]
    french = EndingRules((EndingRule(("al",), replace="aux", exceptions=frozenset({"bal"})),), "s")
    assert [french.apply(w) for w in ("cheval", "Bal", "carte")] == ["chevaux", "Bals", "cartes"]


def test_the_language_file_is_no_glossary_file() -> None:
    assert all(path.name != data.LANGUAGE_FILE for path in shipped_files("fr"))
    assert load_glossary("fr")[1] == []


def test_a_mistake_in_a_data_file_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "language.yaml"
    path.write_text("language: xx\nfeminine:\n  endings: [e, on]\n", encoding="utf-8")
    section = data.read(path).section("feminine")
    with pytest.raises(InputError) as error:
        section.words("endings")
    assert str(error.value) == (f'{path}:3: feminine.endings: True is not a word (quote it: "on")')
    path.write_text("language: xx\nname: [French\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        data.read(path)
    assert error.value.path == str(path) and error.value.line == 3
    assert "malformed YAML" in error.value.message
    path.write_text("- a list\n", encoding="utf-8")
    with pytest.raises(InputError, match="expected a mapping"):
        data.read(path)
    with pytest.raises(InputError, match="missing: reinstall translator"):
        data.read(tmp_path / "none.yaml")


def test_a_value_of_the_wrong_kind_says_what_to_write(tmp_path: Path) -> None:
    path = tmp_path / "language.yaml"
    path.write_text(
        "language: xx\nname: 3\nplural: {rules: [{add: s}], regular: s}\nverbs: yes\n",
        encoding="utf-8",
    )
    file = data.read(path)
    with pytest.raises(InputError, match=r":2: name: expected text, not 3 \(quote it"):
        file.text("name")
    with pytest.raises(InputError, match=r":3: plural\.rules\.0\.endings: missing"):
        EndingRules.read(file.section("plural"))
    with pytest.raises(InputError, match=r":4: verbs: expected a mapping"):
        file.section("verbs")
