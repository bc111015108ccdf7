"""The glossary engine on small glossaries written here: loading, forms, matching,
validation, export.  The shipped data is tested in test_glossary_data.py."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from translator import glossary
from translator.languages.eo import LANGUAGE as ESPERANTO
from translator.languages.fr import LANGUAGE as FRENCH

eo_forms = ESPERANTO.forms
fr_feminine = FRENCH.feminine
fr_forms = FRENCH.forms
fr_plural = FRENCH.word_plural

FR = """\
language: fr
source: test
entries:
  - id: army
    en: army
    pos: noun
    terms:
      - term: armée
        gender: f
  - id: target
    en: target
    pos: adjective
    terms:
      - term: ciblé
  - id: city
    en: city
    terms:
      - term: cité
        gender: f
      - term: ville
        status: deprecated
        replaced_by: cité
        date: 2020-05-01
        evidence: "Lexique, revision 2020-05-01: ville -> cité"
  - id: combat-phase
    en: combat phase
    pos: phrase
    terms:
      - term: phase de combat
  - id: combat
    en: combat
    terms:
      - term: combat
  - id: mark
    en: mark
    pos: verb
    terms:
      - term: engager
  - id: undead
    en: undead
    section: subtype
    terms:
      - term: mort-vivant
        gender: m
  - id: gaian
    en: Gaian
    section: faction
    terms:
      - term: Gaïa
    adjective: {m: gaïen, f: gaïenne, mp: gaïens, fp: gaïennes}
abilities:
  - id: bodyguard
    en: Bodyguard
    name: Garde du corps
    params: [x]
    template: Garde du corps x
    reminder: "Je peux endurer jusqu'à x dégâts."
"""
EO = """\
language: eo
entries:
  - id: army
    en: army
    terms:
      - term: armeo
      - term: militistaro
        status: deprecated
        replaced_by: armeo
        date: 2023-10-23
  - id: target
    en: target
    pos: adjective
    terms:
      - term: cela
  - id: creature
    en: creature
    terms:
      - term: estaĵo
  - id: mark
    en: mark
    pos: verb
    terms:
      - term: marki
"""


def library(tmp_path: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        path = tmp_path / "cards" / "glossary" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return str(tmp_path / "cards")


def load(tmp_path: Path, lang: str, text: str) -> glossary.Glossary:
    loaded, problems = glossary.load_glossary(
        lang, [library(tmp_path, {f"{lang}/t.yaml": text})], shipped=False
    )
    assert problems == []
    return loaded


def found(matcher: glossary.Matcher, text: str) -> list[tuple[str, str]]:
    return [(m.text, m.hit.id) for m in matcher.find(text)]


# --------------------------------------------------------------------------------------
# Forms.


@pytest.mark.parametrize(
    ("word", "plural"),
    [
        ("armée", "armées"),
        ("cheval", "chevaux"),
        ("jeu", "jeux"),
        ("dégâts", "dégâts"),
        ("mort-vivant", "morts-vivants"),
        ("bal", "bals"),
    ],
)
def test_french_plural(word: str, plural: str) -> None:
    assert fr_plural(word) == plural


@pytest.mark.parametrize(
    ("word", "feminine"),
    [
        ("ciblé", "ciblée"),
        ("gaïen", "gaïenne"),
        ("premier", "première"),
        ("vif", "vive"),
        ("rapide", "rapide"),
        ("engagé", "engagée"),
    ],
)
def test_french_feminine(word: str, feminine: str) -> None:
    assert fr_feminine(word) == feminine


def test_french_forms() -> None:
    assert fr_forms("ciblé", "adjective") == {"ciblé", "ciblée", "ciblés", "ciblées"}
    assert fr_forms("phase de combat", "noun") == {"phase de combat", "phases de combat"}
    assert {"engage", "engagé", "engagées", "engager", "engagez"} <= fr_forms("engager", "verb")
    assert {"défends contre", "défend contre", "défendu contre"} <= fr_forms(
        "défendre contre", "verb"
    )


def test_french_noun_phrases_agree_up_to_the_first_preposition() -> None:
    # Adjectives and the parts of a compound subtype agree with the head...
    assert "forces défensives" in fr_forms("force défensive", "noun")
    assert "Sorciers, humains" in fr_forms("Sorcier, humain", "noun")
    assert "Jetons, squelettes, morts-vivants" in fr_forms("Jeton, squelette, mort-vivant", "noun")
    # ...a comma never sticks to an ending...
    assert not any(",s" in form for form in fr_forms("Sorcier, humain", "noun"))
    # ...and what follows a preposition or an article keeps its number.
    assert fr_forms("propriétaire de la cité", "noun") == {
        "propriétaire de la cité",
        "propriétaires de la cité",
    }
    assert fr_forms("valeur d'attaque", "noun") == {"valeur d'attaque", "valeurs d'attaque"}


def test_esperanto_forms() -> None:
    assert eo_forms("armeo", "noun") == {"armeo", "armeoj", "armeon", "armeojn"}
    assert {"celan", "celajn", "cele"} <= eo_forms("cela", "adjective")
    assert {"markas", "markis", "markita", "markitan", "marku"} <= eo_forms("marki", "verb")
    assert eo_forms("cela estaĵo", "noun") == {
        "cela estaĵo",
        "celaj estaĵoj",
        "celan estaĵon",
        "celajn estaĵojn",
    }


def test_esperanto_phrases_stop_agreeing_at_a_preposition() -> None:
    # "la" takes no ending; after "de" nothing agrees with the head.
    assert eo_forms("la supra karto de", "phrase") == {
        "la supra karto de",
        "la supraj kartoj de",
        "la supran karton de",
        "la suprajn kartojn de",
    }
    # An already plural head only takes the accusative.
    assert eo_forms("Infanoj de Geo", "noun") == {"Infanoj de Geo", "Infanojn de Geo"}


# --------------------------------------------------------------------------------------
# Matching in running text.


def test_french_matching(tmp_path: Path) -> None:
    matcher = glossary.Matcher(load(tmp_path, "fr", FR))
    text = (
        "Mets la créature ciblée dans l'armée adverse, puis engage les créatures "
        "ciblées pendant la phase de combat. Les morts-vivants gaïens restent."
    )
    assert found(matcher, text) == [
        ("ciblée", "target"),
        ("armée", "army"),
        ("engage", "mark"),
        ("ciblées", "target"),
        ("phase de combat", "combat-phase"),
        ("morts-vivants", "undead"),
        ("gaïens", "gaian"),
    ]
    # Near misses: 'armé' is not the noun, 'citée' is not 'cité', a word inside a word.
    assert found(matcher, "Un soldat armé, une phrase citée, une armoire.") == []


def test_deprecated_terms_are_found_with_their_status(tmp_path: Path) -> None:
    matcher = glossary.Matcher(load(tmp_path, "fr", FR))
    [match] = list(matcher.find("Attaque une ville ennemie."))
    assert (match.text, match.hit.id, match.hit.status) == ("ville", "city", "deprecated")


def test_esperanto_matching(tmp_path: Path) -> None:
    matcher = glossary.Matcher(load(tmp_path, "eo", EO))
    text = "Metu la celan estaĵon en vian armeon; ĝi estas markita. Militistaroj ne plu."
    assert found(matcher, text) == [
        ("celan", "target"),
        ("estaĵon", "creature"),
        ("armeon", "army"),
        ("markita", "mark"),
        ("Militistaroj", "army"),
    ]
    assert found(matcher, "La armeisto kaj la celilo.") == []


def test_abilities_and_english_side(tmp_path: Path) -> None:
    fr = load(tmp_path, "fr", FR)
    assert found(glossary.Matcher(fr), "Garde du corps 2") == [("Garde du corps", "bodyguard")]
    english = glossary.Matcher(fr, side="english")
    assert found(english, "Bodyguard 2: deal damage to target armies in combat.") == [
        ("Bodyguard", "bodyguard"),
        ("target", "target"),
        ("armies", "army"),
        ("combat", "combat"),
    ]


def test_longest_term_wins(tmp_path: Path) -> None:
    matcher = glossary.Matcher(load(tmp_path, "fr", FR))
    assert found(matcher, "la phase de combat et le combat") == [
        ("phase de combat", "combat-phase"),
        ("combat", "combat"),
    ]


# --------------------------------------------------------------------------------------
# Loading: overrides, validation with file and line.


def test_library_files_override_and_add(tmp_path: Path) -> None:
    root = library(
        tmp_path,
        {
            "fr/a.yaml": FR,
            "fr/b.yaml": "language: fr\nentries:\n  - id: army\n    en: army\n"
            "    terms:\n      - term: ost\n",
        },
    )
    loaded, problems = glossary.load_glossary("fr", [root], shipped=False)
    assert problems == []
    assert loaded.entries["army"].terms[0].text == "ost"
    assert "city" in loaded.entries
    # A deck-level file: glossary.<lang>.yaml next to the cards.
    deck = Path(root) / "demo"
    deck.mkdir()
    (deck / "glossary.fr.yaml").write_text(
        "language: fr\nentries:\n  - id: storm-hawk\n    en: Storm Hawk\n"
        "    section: other\n    terms:\n      - term: Faucon des tempêtes\n",
        encoding="utf-8",
    )
    loaded, _ = glossary.load_glossary("fr", [root], shipped=False)
    assert loaded.entries["storm-hawk"].preferred.text == "Faucon des tempêtes"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    terms:\n      - term: armée\n"
            "        status: prefered\n",
            "t.yaml:7: unknown status 'prefered' (did you mean 'preferred'?)",
        ),
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    term:\n      - term: armée\n",
            "t.yaml:5: unknown key 'term' (did you mean 'terms'?)",
        ),
        (
            "language: fr\nentries:\n  - id: Army\n    en: army\n    terms: [armée]\n",
            "t.yaml:3: id 'Army' is not a slug",
        ),
        ("language: eo\nentries: []\n", "t.yaml:1: language 'eo' in a fr glossary"),
        ("language: fr\nentries:\n  - id: army\n    terms: [armée]\n", "t.yaml:3: missing 'en'"),
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    terms:\n      - term: armée\n"
            "        gender: n\n",
            "t.yaml:7: gender 'n'",
        ),
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    terms:\n      - term: armée\n"
            "        date: 2023-13\n",
            "t.yaml:7: date '2023-13' is not YYYY-MM-DD",
        ),
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    terms: [armée]\n"
            "  - id: army\n    en: host\n    terms: [ost]\n",
            "t.yaml:6: id 'army' is used twice",
        ),
        (
            "language: fr\nentries:\n  - id: army\n    en: army\n    terms: [armée\n",
            "malformed YAML",
        ),
    ],
)
def test_validation_names_file_and_line(tmp_path: Path, text: str, expected: str) -> None:
    _, problems = glossary.load_glossary(
        "fr", [library(tmp_path, {"fr/t.yaml": text})], shipped=False
    )
    assert any(expected in str(p) for p in problems), [str(p) for p in problems]


# --------------------------------------------------------------------------------------
# Consistency checks.

BAD = """\
language: fr
entries:
  - id: attack
    en: attack
    terms: [attaque]
  - id: strike
    en: strike
    terms: [attaque]
  - id: attack-again
    en: Attack
    terms: [assaut]
  - id: city
    en: city
    terms:
      - term: cité
      - term: attaque
        status: deprecated
        replaced_by: bourg
    see: [town]
"""


def test_consistency_findings(tmp_path: Path) -> None:
    loaded = load(tmp_path, "fr", BAD)
    messages = [str(p) for p in glossary.check_glossary(loaded)]
    assert any("two English terms have the same target 'attaque'" in m for m in messages)
    assert any("'Attack' is in entries 'attack' and 'attack-again'" in m for m in messages)
    assert any("'attaque' is deprecated here but preferred" in m for m in messages)
    assert any("replaced by 'bourg', which is not a term of entry 'city'" in m for m in messages)
    assert any("refers to unknown entry 'town'" in m for m in messages)
    assert glossary.check_glossary(load(tmp_path, "fr", FR)) == []


def test_ability_without_english_counterpart(tmp_path: Path) -> None:
    fr = load(tmp_path, "fr", FR)
    english = glossary.Glossary("en")
    assert any(
        "'bodyguard' is not in the English abilities list" in str(p)
        for p in glossary.check_glossary(fr, english)
    )


# --------------------------------------------------------------------------------------
# Export.


def test_csv_export(tmp_path: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(glossary.to_csv(load(tmp_path, "fr", FR)))))
    ville = next(r for r in rows if r["term"] == "ville")
    assert (ville["id"], ville["status"], ville["replaced_by"], ville["date"]) == (
        "city",
        "deprecated",
        "cité",
        "2020-05-01",
    )
    assert any(r["section"] == "ability" and r["term"] == "Garde du corps" for r in rows)


def test_tbx_round_trip_through_translate_toolkit(tmp_path: Path) -> None:
    tbx = pytest.importorskip("translate.storage.tbx")
    fr = load(tmp_path, "fr", FR)
    text = glossary.to_tbx(fr)
    store = tbx.tbxfile.parsestring(text.encode("utf-8"), "en", "fr")
    units = {unit.getid(): unit for unit in store.units}
    for entry in fr.entries.values():
        unit = units[entry.id]
        assert [t.text for t in unit.get_source_terms()] == [entry.en]
        target = unit.get_target_terms("fr")
        assert [t.text for t in target] == [t.text for t in entry.terms]
        assert [t.deprecated for t in target] == [t.deprecated for t in entry.terms]
    assert [t.text for t in units["ability-bodyguard"].get_target_terms("fr")] == ["Garde du corps"]
    # Written back by translate-toolkit, it still reads the same.
    again = tbx.tbxfile.parsestring(bytes(store), "en", "fr")
    assert [
        (
            u.getid(),
            [t.text for t in u.get_target_terms("fr")],
            [t.administrative_status for t in u.get_target_terms("fr")],
        )
        for u in again.units
    ] == [
        (
            u.getid(),
            [t.text for t in u.get_target_terms("fr")],
            [t.administrative_status for t in u.get_target_terms("fr")],
        )
        for u in store.units
    ]


def test_compound_subtypes(tmp_path: Path) -> None:
    text = """\
language: fr
subtypes: {order: reverse, separator: ", ", capitalize: first}
entries:
  - {id: human, en: Human, section: subtype, terms: [humain]}
  - {id: wizard, en: Wizard, section: subtype, terms: [Sorcier]}
  - {id: undead, en: Undead, section: subtype, terms: [mort-vivant]}
  - {id: skeleton, en: Skeleton, section: subtype, terms: [squelette]}
  - {id: token, en: Token, section: subtype, terms: [jeton]}
  - {id: dark-elf, en: Dark Elf, section: subtype, terms: [elfe noir]}
"""
    fr = load(tmp_path, "fr", text)
    assert fr.subtype("Human Wizard") == ("Sorcier, humain", [])
    assert fr.subtype("Undead Skeleton Token") == ("Jeton, squelette, mort-vivant", [])
    assert fr.subtype("Dark Elf Wizard") == ("Sorcier, elfe noir", [])
    assert fr.subtype("Human Plumber") == (None, ["Plumber"])
