"""Drafts: ``translator translate`` fills what the glossary can and marks the rest.

The wiki's roadmap for a new language: copy every card "with what can already be
filled in", then translate and review.  These tests draft Esperanto from scratch on a
copy of the sample and check the drafts against the Leksikono's own words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from translator.cards import load_library
from translator.cards.files import parse_card_text

from .lintkit import copy_sample, run


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The sample without its Esperanto, drafted again (once for the module)."""
    deck = copy_sample(tmp_path_factory.mktemp("draft"))
    for path in deck.glob("*.eo.md"):
        path.unlink()
    code, output = run("translate", str(deck), "--lang", "eo")
    assert code == 0, output
    return deck, output


def _drafts(deck: Path) -> dict[str, dict]:
    found = {}
    for path in sorted(deck.glob("*.eo.md")):
        problems: list = []
        parsed = parse_card_text(str(path), "sample", path.read_text("utf-8"), problems)
        assert parsed is not None and not problems, problems
        found[parsed.slug] = {"fields": parsed.fields, "body": parsed.body}
    return found


def test_every_card_gets_a_draft_with_the_leksikono_footer(drafted: tuple[Path, str]) -> None:
    deck, output = drafted
    drafts = _drafts(deck)
    assert len(drafts) == 24
    assert "24 drafts created in eo" in output
    for slug, draft in drafts.items():
        fields = draft["fields"]
        # Seed 001 (Rekomendoj por traduki en esperanton), section Ĝenerale:
        # "* arcmage.org - aligu nin!"
        assert fields["info"] == "arcmage.org - aligu nin!", slug
        assert fields["wip"] is True and fields["status"] == "Draft", slug
        assert len(fields["source"].split("-")) == 5


def test_subtypes_are_the_leksikonos(drafted: tuple[Path, str]) -> None:
    deck, _ = drafted
    drafts = _drafts(deck)
    # Seed 001, section Estaĵospecoj: "* Human Lord: Homo Sinjoro",
    # "* Addax Archer: Adakso Arkisto"; compound subtypes word by word.
    assert drafts["harbor-lord"]["fields"]["subtype"] == "Homo Sinjoro"
    assert drafts["sandhorn-archer"]["fields"]["subtype"] == "Adakso Arkisto"
    library, _ = load_library([str(deck)])
    for (_, slug), card in library.cards.items():
        english = card.source.fields.get("subtype")
        if english:
            assert drafts[slug]["fields"]["subtype"] != english, slug


def test_abilities_take_the_lists_name_and_reminder(drafted: tuple[Path, str]) -> None:
    deck, _ = drafted
    body = _drafts(deck)["courier"]["body"]
    # Seed 001 (Listo de kapabloj): "''Fluganto'' - Nur estaĵoj flugantaj aŭ
    # distancfrapantaj povas defendi kontraŭ mi."
    assert body.startswith(
        "***Fluganto***\\\n*Nur estaĵoj flugantaj aŭ distancfrapantaj povas defendi kontraŭ mi.*\n"
    )
    # The English card words Peaceful's reminder its own way: kept in English.
    assert "***Paca***\\\n*I cannot attack.*" in body
    # Parameters: a number stays, a subtype is translated.
    assert "***Savebla 2***" in _drafts(deck)["thornback-hydra"]["body"]
    assert "***Evoluonto Malmortulo 4***" in _drafts(deck)["restless-bones"]["body"]


def test_bold_game_terms_are_filled_in_their_number(drafted: tuple[Path, str]) -> None:
    deck, _ = drafted
    drafts = _drafts(deck)
    assert "Target ***ludanto*** draws" in drafts["courier"]["body"]
    assert "***estaĵoj*** you control" in drafts["war-drums"]["body"]  # creatures
    assert "number of ***urboj***" in drafts["tithe-of-tides"]["body"]  # cities
    # Symbols, numbers and the paragraph layout are the English card's.
    english = (deck / "tithe-of-tides.en.md").read_text("utf-8").split("---\n", 2)[2]
    assert drafts["tithe-of-tides"]["body"].count(":gt:") == english.count(":gt:")
    assert drafts["tithe-of-tides"]["body"].count("\n\n") == english.count("\n\n")


def test_the_linter_reports_what_is_left_in_english(drafted: tuple[Path, str]) -> None:
    deck, _ = drafted
    code, output = run("lint", str(deck), "--lang", "eo", "--format", "json")
    assert code == 1
    findings = json.loads(output)["findings"]
    courier = [(f["code"], f["field"], f["message"]) for f in findings if f["card"] == "courier"]
    assert ("TR401", "name", "draft: the name is still the English 'Courier'") in courier
    # (the JSON's field for a second name line is "name")
    assert (
        "TR401",
        "name",
        "draft: the second name line is still the English 'of the Iron Sky'",
    ) in courier
    assert [m for c, _, m in courier if c == "TR401" and "paragraph" in m] == [
        "draft: paragraph 2 is still in English",
        "draft: paragraph 3 is still in English",
    ]
    # Style and spelling rules say nothing about the English paragraphs themselves.
    assert not {f["code"][:2] for f in findings} & {"EO", "SP"}
    # A paragraph the glossary filled entirely is not reported.
    assert not [m for c, _, m in courier if "paragraph 1 " in m]


def test_a_translation_is_never_overwritten(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    (deck / "courier.eo.md").unlink()
    before = {p.name: p.read_bytes() for p in deck.glob("*.md")}
    code, output = run("translate", str(deck), "--lang", "eo", "--dry-run")
    assert code == 0
    assert "would create" in output and "courier.eo.md" in output
    assert {p.name: p.read_bytes() for p in deck.glob("*.md")} == before  # dry run
    code, output = run("translate", str(deck), "--lang", "eo", "--format", "json")
    data = json.loads(output)
    assert [d["card"] for d in data["drafts"]] == ["courier"]
    after = {p.name: p.read_bytes() for p in deck.glob("*.md")}
    assert {k: v for k, v in after.items() if k != "courier.eo.md"} == before
    # Running it again creates nothing.
    code, output = run("translate", str(deck), "--lang", "eo", "--format", "json")
    assert code == 0 and json.loads(output)["drafts"] == []


def test_a_draft_is_a_draft_in_status_then_reviewed(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    (deck / "courier.fr.md").unlink()
    run("translate", str(deck), "--lang", "fr")
    code, output = run("status", str(deck), "--lang", "fr", "--format", "json")
    states = {c["card"]: c["state"] for c in json.loads(output)["cards"]}
    assert states["courier"] == "draft"
    # A draft still in English cannot be marked reviewed without --force.
    code, _ = run("review", "courier", "--lang", "fr", "--library", str(deck))
    assert code == 1
    assert "wip: true" in (deck / "courier.fr.md").read_text("utf-8")


def test_bad_language_is_a_usage_error(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    code, _ = run("translate", str(deck), "--lang", "en")
    assert code == 2
    code, _ = run("translate", str(tmp_path / "nowhere"), "--lang", "eo")
    assert code == 2
