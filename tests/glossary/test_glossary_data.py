"""The shipped glossaries: complete, consistent, with their history, and usable.

Sentences quoted here come from the seed dumps of the Arcmage wiki (the French
abilities list and rules, the Esperanto abilities list and rules).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator import cards, glossary
from translator.cli import main

GLOSSARIES, PROBLEMS = glossary.load_all()
EN, FR, EO = GLOSSARIES["en"], GLOSSARIES["fr"], GLOSSARIES["eo"]


def test_shipped_glossaries_load_clean_and_consistent() -> None:
    assert PROBLEMS == []
    for lang in ("en", "fr", "eo"):
        assert glossary.check_glossary(GLOSSARIES[lang], EN) == [], lang


def test_sizes_and_sections() -> None:
    for target in (FR, EO):
        sections = {e.section for e in target.entries.values()}
        assert {"concept", "faction", "type", "subtype", "footer"} <= sections
        assert len(target.entries_by_section("subtype")) >= 60
        assert len(target.entries_by_section("faction")) == 5
        assert len(target.abilities) >= 40
        assert set(target.abilities) <= set(EN.abilities)
    assert len(EN.entries) >= 100


def term(target: glossary.Glossary, entry_id: str, text: str) -> glossary.Term:
    found = target.entries[entry_id].term(text)
    assert found is not None, (entry_id, text)
    return found


@pytest.mark.parametrize(
    ("target", "entry_id", "old", "new"),
    [
        ("eo", "army", "militistaro", "armeo"),
        ("eo", "resource", "resurso", "rimedo"),
        ("fr", "defend", "défendre contre", "bloquer"),
        ("fr", "devotion", "dévotion d'une cité", "dévotion"),
        ("fr", "spell", "enchantements, magie, évènements", "sort"),
        ("fr", "counter", "compteur", "marqueur"),
        ("fr", "city", "ville", "cité"),
    ],
)
def test_history_is_recorded(target: str, entry_id: str, old: str, new: str) -> None:
    gloss = GLOSSARIES[target]
    deprecated = term(gloss, entry_id, old)
    assert deprecated.status == "deprecated"
    assert deprecated.replaced_by == new
    assert deprecated.date and deprecated.evidence
    assert gloss.entries[entry_id].preferred.text == new


def test_contradictions_carry_a_decision() -> None:
    tactics = FR.entries["tactics"]
    assert tactics.preferred.text == "dévotion"
    assert "dévouement" in tactics.decision and "2025" in tactics.decision
    assert EO.entries["devotion"].decision


def test_style_notes_are_attached() -> None:
    assert "joueureuse" in FR.entries["player"].preferred.text
    assert FR.entries["player"].note


@pytest.mark.parametrize(
    ("english", "french", "esperanto"),
    [
        ("Human Wizard", "Sorcier, humain", "Homo Sorĉisto"),
        ("Undead Skeleton Token", "Jeton, squelette, mort-vivant", "Malmortulo Skeleto Ĵetono"),
        ("Human Lord", "Seigneur, humain", "Homo Sinjoro"),
    ],
)
def test_compound_subtypes(english: str, french: str, esperanto: str) -> None:
    assert FR.subtype(english) == (french, [])
    assert EO.subtype(english) == (esperanto, [])


def test_faction_adjectives() -> None:
    assert FR.entries["gaian"].adjective == {
        "m": "gaïen",
        "f": "gaïenne",
        "mp": "gaïens",
        "fp": "gaïennes",
    }


def test_footers_agree_with_the_card_model() -> None:
    for lang in ("fr", "eo"):
        [footer] = GLOSSARIES[lang].entries_by_section("footer")
        assert footer.preferred.text == cards.DEFAULT_FOOTERS[lang]


def test_abilities_have_names_and_reminders() -> None:
    for target in (FR, EO):
        for ability in target.abilities.values():
            assert ability.name and ability.template
            assert ability.reminder or ability.id in ("peaceful",), ability.id
    assert FR.abilities["bodyguard"].params == ("x",)
    assert FR.abilities["flying"].name == "Vol"


# --------------------------------------------------------------------------------------
# Finding terms in real sentences.

FR_MATCHER = glossary.Matcher(FR)
EO_MATCHER = glossary.Matcher(EO)


def ids(matcher: glossary.Matcher, text: str) -> dict[str, set[str]]:
    """Entry ids found, by the words that matched (a word may name several entries:
    'cité' is the concept city and the card type City)."""
    found: dict[str, set[str]] = {}
    for match in matcher.find(text):
        found.setdefault(match.text.casefold(), set()).add(match.hit.id)
    return found


def test_french_sentences_from_the_seeds() -> None:
    # Liste des capacités, Vengeance sanguinaire and Infiltré; Assemblage de Règles Chouettes.
    found = ids(
        FR_MATCHER,
        "J'entre en jeu avec des marqueurs x+1/+0, où x est égal aux dégâts "
        "infligés au tour précédent par la créature adverse ciblée.",
    )
    assert "counter" in found["marqueurs"]
    assert "damage" in found["dégâts"]
    found = ids(FR_MATCHER, "Je peux me déplacer dans la cité d'un adversaire.")
    assert "city" in found["cité"]
    found = ids(FR_MATCHER, "Place-la dans ton armée, engagée. Les cités de l'armée adverse.")
    assert "army" in found["armée"] and "city" in found["cités"]


def test_french_near_misses() -> None:
    found = ids(FR_MATCHER, "Un chevalier armé cita la citation d'une armoire.")
    assert "armé" not in found and "cita" not in found and "armoire" not in found


def test_french_deprecated_terms_are_flagged() -> None:
    matches = [
        m
        for m in FR_MATCHER.find("Mets deux compteurs sur la ville ciblée.")
        if m.hit.status == "deprecated"
    ]
    assert {(m.text, m.hit.id) for m in matches} == {("compteurs", "counter"), ("ville", "city")}


def test_esperanto_sentences_from_the_seeds() -> None:
    # Listo de kapabloj: Evoluonto; Elterigonto.
    found = ids(
        EO_MATCHER,
        "Kiam mi mortas, metu unu nagon kun ĵetkosto 4 aŭ malpli el via "
        "mano al vian armeon, markitan.",
    )
    assert "army" in found["armeon"]
    found = ids(EO_MATCHER, "Kiam mi estas konvertita en rimedokarton, montru min.")
    assert "resource-card" in found["rimedokarton"]


def test_esperanto_near_misses_and_deprecated_forms() -> None:
    found = ids(EO_MATCHER, "La armeisto kaj la rimedaro.")
    assert "armeisto" not in found and "rimedaro" not in found
    matches = [(m.text, m.hit.status) for m in EO_MATCHER.find("Metu ĝin en vian militistaron.")]
    assert ("militistaron", "deprecated") in matches


# --------------------------------------------------------------------------------------
# Commands.


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_lookup_both_sides_and_forms() -> None:
    code, out = run("glossary", "lookup", "armées", "--lang", "fr", "--library", "/none")
    assert code == 0 and out.startswith("army (concept, noun)")
    code, out = run(
        "glossary",
        "lookup",
        "militistaron",
        "--lang",
        "eo",
        "--library",
        "/none",
        "--format",
        "json",
    )
    [result] = json.loads(out)["results"]
    assert result["id"] == "army"
    assert any(
        t["term"] == "militistaro" and t["status"] == "deprecated" and t["replaced_by"] == "armeo"
        for t in result["terms"]
    )
    code, out = run("glossary", "lookup", "Bodyguard", "--lang", "fr", "--library", "/none")
    assert code == 0 and "Garde du corps x (ability, preferred)" in out
    # Both sides of the reminder, and the parameter, for the translator to compare.
    assert "parameters: x" in out
    assert "en: Bodyguard x: Each turn, I may divert up to x damage" in out
    assert "fr: Garde du corps x: Je peux endurer jusqu'à x dégâts" in out
    assert run("glossary", "lookup", "xyzzy", "--lang", "fr", "--library", "/none")[0] == 1


def test_check_command_is_clean() -> None:
    code, out = run("glossary", "check", "--library", "/none")
    assert code == 0, out
    assert out.endswith("No problems.\n")


def test_tbx_export_reads_back_in_translate_toolkit(tmp_path: Path) -> None:
    tbx = pytest.importorskip("translate.storage.tbx")
    output = tmp_path / "fr.tbx"
    assert (
        run(
            "glossary",
            "export",
            "--lang",
            "fr",
            "--format",
            "tbx",
            "-o",
            str(output),
            "--library",
            "/none",
        )[0]
        == 0
    )
    store = tbx.tbxfile.parsestring(output.read_bytes(), "en", "fr")
    units = {u.getid(): u for u in store.units}
    assert len(units) == len(FR.entries) + len(FR.abilities)
    city = units["city"].get_target_terms("fr")
    assert [(t.text, t.deprecated) for t in city] == [("cité", False), ("ville", True)]
    assert [t.text for t in units["army"].get_source_terms()] == ["army"]


def test_csv_export() -> None:
    code, out = run("glossary", "export", "--lang", "eo", "--format", "csv", "--library", "/none")
    assert code == 0
    assert out.splitlines()[0].startswith("id,section,en,term,status")
    assert "army,concept,army,militistaro,deprecated" in out


@pytest.mark.slow
def test_glossaries_ship_with_the_installed_package(tmp_path: Path) -> None:
    """Built and installed (not editable), translator finds its glossaries anywhere.
    Built from a copy of the checkout: a build writes build/ and *.egg-info next to
    the sources it builds."""
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "out", "build", "*.egg-info", "__pycache__", ".*_cache"
        ),
    )
    target = tmp_path / "site"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        pytest.fail(build.stderr[-2000:])
    assert (target / "translator" / "glossaries" / "fr" / "terms.yaml").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    environment = dict(os.environ, PYTHONPATH=str(target))
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import translator.glossary.loader as l, translator.shipped as s, json; "
            "print(json.dumps([str(s.glossaries_root()), "
            "len(l.load_glossary('fr')[0].entries)]))",
        ],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    root, count = json.loads(result.stdout)
    assert root.startswith(str(target)) and count == len(FR.entries)
