"""The card library: files, validation, inheritance, Aminduna import and export."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator import cards
from translator.cards.aminduna import plan_import
from translator.cli import main

SAMPLE = ROOT / "cards" / "sample"
GUID = "3e2a7c51-0b9d-4f0e-a6c4-1d2e3f405162"
GUID_FR = "7b3f0e2a-1111-4f0e-a6c4-1d2e3f405162"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def deck(tmp_path: Path, files: dict[str, str | bytes], deck_yaml: str | None = None) -> Path:
    directory = tmp_path / "cards" / "demo"
    write(
        directory / "deck.yaml",
        deck_yaml if deck_yaml is not None else "name: Demo\ncards:\n  hawk: 2\n",
    )
    for name, text in files.items():
        write(directory / name, text)
    return directory


HAWK = """---
name: Storm Hawk
type: Creature
faction: Red Banner
subtype: Bird
cost: 2
loyalty: 1
attack: 2
defense: 1
status: Draft
---
***Flying***
"""
HAWK_FR = """---
name: Faucon des tempêtes
subtype: Oiseau
status: Draft
---
***Vol***
"""


def problems_of(directory: Path) -> list[str]:
    return [str(p) for p in cards.load_library([str(directory)])[1]]


# --------------------------------------------------------------------------------------
# Loading, inheritance.


def test_sample_library_loads_clean() -> None:
    library, problems = cards.load_library([str(SAMPLE)])
    assert problems == []
    assert library.decks["sample"].quantities
    for slug in library.decks["sample"].quantities:
        assert library.cards[("sample", slug)].source is not None


def test_translation_inherits_what_it_does_not_translate(tmp_path: Path) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK, "hawk.fr.md": HAWK_FR})
    library, problems = cards.load_library([str(directory)])
    assert problems == []
    card = library.find("hawk")[0]
    assert card.get("name", "fr") == "Faucon des tempêtes"
    assert card.get("attack", "fr") == 2 and card.get("faction", "fr") == "Red Banner"
    assert card.get("text", "fr") == "***Vol***\n"
    assert card.get("info", "fr") == cards.DEFAULT_FOOTERS["fr"]
    assert card.get("name", "eo") == "Storm Hawk"  # no translation: the source
    # Fixing a stat in English fixes it everywhere.
    write(directory / "hawk.en.md", HAWK.replace("attack: 2", "attack: 3"))
    card = cards.load_library([str(directory)])[0].find("hawk")[0]
    assert card.get("attack", "fr") == 3


def test_fingerprint_changes_with_translated_fields_only(tmp_path: Path) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK})
    source = cards.load_library([str(directory)])[0].find("hawk")[0].source
    assert source is not None
    before = cards.source_fingerprint(source)
    source.fields["attack"] = 5
    assert cards.source_fingerprint(source) == before
    source.body = "***Flying***\\\n*new reminder*\n"
    assert cards.source_fingerprint(source) != before


# --------------------------------------------------------------------------------------
# Validation: every problem at once, with file, line and hint.


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"hawk.en.md": HAWK.replace("faction: Red Banner", "faction: Red Baner")},
            "hawk.en.md:4: unknown faction 'Red Baner' (did you mean 'Red Banner'?)",
        ),
        (
            {"hawk.en.md": HAWK.replace("type: Creature", "type: Creatur")},
            "hawk.en.md:3: unknown type 'Creatur' (did you mean 'Creature'?)",
        ),
        (
            {"hawk.en.md": HAWK.replace("subtype: Bird", "subtyp: Bird")},
            "hawk.en.md:5: unknown key 'subtyp' (did you mean 'subtype'?)",
        ),
        (
            {"hawk.en.md": HAWK.replace("loyalty: 1", "loyalty: 4")},
            "hawk.en.md:7: loyalty '4' is not 0, 1, 2 or 3",
        ),
        (
            {"hawk.en.md": HAWK.replace("attack: 2", "attack: two")},
            "hawk.en.md:8: attack 'two' is not a number",
        ),
        (
            {"hawk.en.md": HAWK.replace("cost: 2", "cost: Y")},
            "hawk.en.md:6: cost 'Y' is not a number (a whole number, or X)",
        ),
        (
            {"hawk.en.md": HAWK.replace("type: Creature", "type: City")},
            "hawk.en.md:8: a City card prints no attack",
        ),
        (
            {"hawk.en.md": HAWK.replace("status: Draft", "status: draft")},
            "hawk.en.md:10: unknown status 'draft' (did you mean 'Draft'?)",
        ),
        (
            {"hawk.en.md": HAWK.replace("status: Draft", "status: Draft\nartwork: art/none.jpg")},
            "hawk.en.md:11: artwork 'art/none.jpg' not found",
        ),
        (
            {"hawk.en.md": HAWK.replace("status: Draft", "status: Draft\nguid: 42")},
            "hawk.en.md:11: '42' is not an Aminduna guid",
        ),
        (
            {"hawk.en.md": HAWK.replace("subtype: Bird", "subtype: [Bird")},
            "hawk.en.md:6:5: malformed YAML",
        ),
        (
            {"hawk.en.md": HAWK.replace("name: Storm Hawk\n", "name: Storm Hawk\nname: Hawk\n")},
            "hawk.en.md:3: 'name' is set twice",
        ),
        ({"hawk.en.md": "no front matter\n"}, "hawk.en.md:1: no front matter"),
        ({"hawk.en.md": "---\nname: x\n"}, "hawk.en.md:1: no front matter (close it"),
        ({"hawk.en.md": b"---\nname: Faucon\xe9\n---\n"}, "hawk.en.md:2:13: not valid UTF-8"),
        ({"hawk.en.md": HAWK, "hawk.fr.md": HAWK_FR}, None),
        (
            {
                "hawk.en.md": HAWK,
                "hawk.fr.md": HAWK_FR.replace("status: Draft", "status: Draft\nattack: 3"),
            },
            "hawk.fr.md:5: 'attack' is inherited from the source card (set it in hawk.en.md",
        ),
        (
            {
                "hawk.en.md": HAWK,
                "hawk.fr.md": HAWK_FR.replace(
                    "status: Draft", "status: Draft\nsource: 123456789012"
                ),
            },
            "hawk.fr.md:5: '123456789012' is not a source fingerprint",
        ),
        (
            {"hawk.en.md": HAWK, "bird.fr.md": HAWK_FR},
            "bird.fr.md:1: translation without a source card",
        ),
        ({"hawk.en.md": HAWK, "Hawk.en.md": HAWK}, "Hawk.en.md:1: card files are named"),
    ],
)
def test_problems(tmp_path: Path, files: dict, expected: str | None) -> None:
    found = problems_of(deck(tmp_path, files))
    if expected is None:
        assert found == []
        return
    assert any(expected in p for p in found), found


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    bad = (
        HAWK.replace("faction: Red Banner", "faction: Nope")
        .replace("loyalty: 1", "loyalty: 9")
        .replace("attack: 2", "attack: x")
    )
    found = problems_of(deck(tmp_path, {"hawk.en.md": bad}))
    assert len(found) == 3


def test_deck_problems(tmp_path: Path) -> None:
    directory = deck(
        tmp_path,
        {"hawk.en.md": HAWK},
        "name: Demo\ncards:\n  hawk: 2\n  owl: 1\n  crow: zero\nfoo: 1\n",
    )
    found = problems_of(directory)
    assert any("deck.yaml:4: the deck lists 'owl', which has no card file" in p for p in found)
    assert any("deck.yaml:5: quantity of 'crow' is not a positive number" in p for p in found)
    assert any("deck.yaml:6: unknown key 'foo'" in p for p in found)


def test_duplicate_guids_and_slugs(tmp_path: Path) -> None:
    with_guid = HAWK.replace("status: Draft", f"status: Draft\nguid: {GUID}")
    deck(tmp_path, {"hawk.en.md": with_guid, "owl.en.md": with_guid.replace("Storm Hawk", "Owl")})
    write(tmp_path / "cards" / "other" / "deck.yaml", "name: Other\ncards:\n  hawk: 1\n")
    write(tmp_path / "cards" / "other" / "hawk.en.md", HAWK)
    found = problems_of(tmp_path / "cards")
    assert any(f"guid {GUID} is used twice" in p for p in found)
    assert any("the slug 'hawk' is used in two decks" in p for p in found)


def test_no_deck_here(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert any("no deck here" in p for p in problems_of(tmp_path / "empty"))


# --------------------------------------------------------------------------------------
# Aminduna import.


def aminduna_card(
    name: str, lang: str = "en", guid: str = GUID, master: str | None = None, **extra: object
) -> dict:
    card = {
        "id": 913,
        "name": name,
        "firstName": name,
        "lastName": "",
        "subType": "Human Keeper",
        "type": {"id": 2, "name": "Creature"},
        "faction": {"id": 2, "name": "Gaian"},
        "status": {"id": 1, "name": "Draft"},
        "cost": "3",
        "loyalty": 1,
        "attack": "2",
        "defense": "2",
        "info": cards.DEFAULT_FOOTERS.get(lang, ""),
        "markdownText": ":W:hen x.\r\n\r\ny",
        "ruleText": "When x.",
        "flavorText": "",
        "language": {"name": "English" if lang == "en" else lang, "languageCode": lang},
        "artwork": "https://aminduna.arcmage.org/api/Cards/x/artwork.png",
        "artist": "Some One",
        "artworkLicense": {"name": "CC BY-SA 4.0"},
        "serie": {"name": "Rebirth"},
        "guid": guid,
    }
    if master:
        card["masterCard"] = {
            "guid": master,
            "name": "Addax Keeper",
            "language": {"name": "English", "languageCode": "en"},
        }
    card.update(extra)
    return card


def import_json(
    tmp_path: Path, documents: dict[str, object], into: str = "demo"
) -> tuple[int, str, str]:
    paths = []
    for name, document in documents.items():
        text = document if isinstance(document, str) else json.dumps(document)
        path = write(tmp_path / "in" / name, text)
        paths.append(str(path))
    out = io.StringIO()
    err = io.StringIO()
    import sys

    saved = sys.stderr
    sys.stderr = err
    try:
        code = main(["import", "arcmage", *paths, "--into", str(tmp_path / "cards" / into)], out)
    finally:
        sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def test_import_single_card_then_translation_in_another_file(tmp_path: Path) -> None:
    code, out, _ = import_json(tmp_path, {"card.json": aminduna_card("Addax Keeper")})
    assert code == 0 and "2 created" in out  # the card and its deck.yaml
    source = (tmp_path / "cards" / "demo" / "addax-keeper.en.md").read_text("utf-8")
    assert "guid: " + GUID in source and "artwork_url: https://" in source
    assert "info:" not in source  # the default footer is not written
    assert source.endswith("---\n:W:hen x.\n\ny\n")
    fr = aminduna_card(
        "Addax Keeper (fr wip)",
        "fr",
        GUID_FR,
        master=GUID,
        firstName="Gardien des addax",
        subType="Gardien, humain",
    )
    code, out, _ = import_json(tmp_path, {"fr.json": fr})
    assert code == 0
    translation = (tmp_path / "cards" / "demo" / "addax-keeper.fr.md").read_text("utf-8")
    assert "name: Gardien des addax" in translation and "wip: true" in translation
    assert "\ntype:" not in translation and "attack:" not in translation
    library, problems = cards.load_library([str(tmp_path / "cards")])
    assert problems == []
    assert library.find("addax-keeper")[0].get("attack", "fr") == 2


@pytest.mark.parametrize("shape", ["deck", "list", "search"])
def test_import_shapes(tmp_path: Path, shape: str) -> None:
    source = aminduna_card("Addax Keeper")
    translation = aminduna_card("Gardien des addax", "fr", GUID_FR, master=GUID)
    entries = [source, translation]
    if shape == "deck":
        document = {
            "guid": "11111111-2222-4333-8444-555555555555",
            "name": "Demo deck",
            "deckCards": [{"quantity": 3, "card": c} for c in entries],
        }
    elif shape == "list":
        document = entries
    else:
        document = {"items": entries, "totalItems": 2, "searchOptions": {}}
    code, _, err = import_json(tmp_path, {"doc.json": document})
    assert code == 0, err
    library, problems = cards.load_library([str(tmp_path / "cards")])
    assert problems == []
    card = library.find("addax-keeper")[0]
    assert card.get("name", "fr") == "Gardien des addax"
    if shape == "deck":
        assert library.decks["demo"].name == "Demo deck"
        assert library.decks["demo"].quantities == {"addax-keeper": 3}
        assert library.decks["demo"].guid == "11111111-2222-4333-8444-555555555555"


def test_reimport_updates_in_place_and_keeps_local_fields(tmp_path: Path) -> None:
    import_json(tmp_path, {"card.json": aminduna_card("Addax Keeper")})
    path = tmp_path / "cards" / "demo" / "addax-keeper.en.md"
    write(tmp_path / "cards" / "demo" / "art" / "addax.jpg", b"\xff\xd8\xff")
    path.write_text(
        path.read_text("utf-8").replace("status: Draft", "status: Draft\nartwork: art/addax.jpg"),
        encoding="utf-8",
    )
    code, out, _ = import_json(tmp_path, {"card.json": aminduna_card("Addax Keeper", attack="4")})
    assert code == 0 and "1 updated" in out
    text = path.read_text("utf-8")
    assert "attack: 4" in text and "artwork: art/addax.jpg" in text
    assert list((tmp_path / "cards" / "demo").glob("*.en.md")) == [path]


def test_failed_import_leaves_the_library_unchanged(tmp_path: Path) -> None:
    import_json(tmp_path, {"card.json": aminduna_card("Addax Keeper")})
    before = {p: p.read_bytes() for p in (tmp_path / "cards").rglob("*") if p.is_file()}
    orphan = aminduna_card("Orphelin", "fr", GUID_FR, master="99999999-9999-4999-8999-999999999999")
    code, _, err = import_json(
        tmp_path, {"ok.json": aminduna_card("Addax Keeper", attack="9"), "orphan.json": orphan}
    )
    assert code == 2
    assert "has no source card" in err and "library is unchanged" in err
    after = {p: p.read_bytes() for p in (tmp_path / "cards").rglob("*") if p.is_file()}
    assert after == before
    code, _, err = import_json(tmp_path, {"bad.json": "{not json"})
    assert code == 2 and "bad.json:1:2: not valid JSON" in err
    code, _, err = import_json(tmp_path, {"bad.json": aminduna_card("X", faction={"name": "Q"})})
    assert code == 2 and "unknown faction 'Q'" in err
    assert {p: p.read_bytes() for p in (tmp_path / "cards").rglob("*") if p.is_file()} == before


def test_translation_source_found_in_the_library(tmp_path: Path) -> None:
    import_json(tmp_path, {"card.json": aminduna_card("Addax Keeper")}, into="gaian")
    fr = aminduna_card("Gardien", "fr", GUID_FR, master=GUID)
    code, _, _ = import_json(tmp_path, {"fr.json": fr}, into="other")
    assert code == 0
    assert (tmp_path / "cards" / "gaian" / "addax-keeper.fr.md").is_file()


def test_plan_does_not_write(tmp_path: Path) -> None:
    plan = plan_import(
        [("x.json", aminduna_card("Addax Keeper"))], tmp_path / "demo", cards.Library()
    )
    assert list(plan.files) and not (tmp_path / "demo").exists()


# --------------------------------------------------------------------------------------
# Export, and the round trip.


def test_export_shape() -> None:
    library, _ = cards.load_library([str(SAMPLE)])
    data, deck_txt = cards.export_deck(library, "sample", "fr")
    assert data["language"] == {"name": "français", "languageCode": "fr"}
    first = data["deckCards"][0]
    card = first["card"]
    assert list(card)[-1] in ("guid", "translator")
    for key in (
        "name",
        "firstName",
        "type",
        "faction",
        "markdownText",
        "ruleText",
        "flavorText",
        "language",
        "masterCard",
        "info",
    ):
        assert key in card, key
    assert all(value is not None for value in card.values())
    assert card["masterCard"]["language"]["languageCode"] == "en"
    assert deck_txt.startswith("# Sample by ")
    assert deck_txt.splitlines()[1] == f"{first['quantity']}x {card['name']}"


def test_export_missing_translation_is_a_wip_stand_in(tmp_path: Path) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK})
    library, _ = cards.load_library([str(directory)])
    data, _ = cards.export_deck(library, "demo", "eo")
    card = data["deckCards"][0]["card"]
    assert card["name"] == "Storm Hawk (eo wip)"
    assert card["markdownText"] == "***Flying***"
    assert card["info"] == cards.DEFAULT_FOOTERS["eo"]


def test_import_of_export_is_lossless(tmp_path: Path) -> None:
    library, _ = cards.load_library([str(SAMPLE)])
    languages = sorted({lang for card in library.cards.values() for lang in card.languages()})
    documents = {
        f"deck.{lang}.json": cards.export_deck(library, "sample", lang)[0] for lang in languages
    }
    # The artwork files travel beside the JSON (Aminduna only has their URLs).
    shutil.copytree(SAMPLE / "art", tmp_path / "cards" / "sample" / "art")
    code, _, err = import_json(tmp_path, documents, into="sample")
    assert code == 0, err
    copy, problems = cards.load_library([str(tmp_path / "cards" / "sample")])
    assert problems == []
    assert copy.decks["sample"].quantities == library.decks["sample"].quantities
    assert copy.decks["sample"].name == library.decks["sample"].name
    assert set(copy.cards) == set(library.cards)
    for key, card in library.cards.items():
        other = copy.cards[key]
        assert other.languages() == card.languages()
        for lang in card.languages():
            mine, theirs = card.version(lang), other.version(lang)
            assert theirs.fields == mine.fields, (key, lang)
            assert theirs.body == mine.body, (key, lang)


def test_cli_export_writes_json_and_deck_txt(tmp_path: Path) -> None:
    output = tmp_path / "deck.fr.json"
    code = main(
        ["export", "arcmage", str(SAMPLE), "--lang", "fr", "-o", str(output)], io.StringIO()
    )
    assert code == 0
    assert json.loads(output.read_text("utf-8"))["language"]["languageCode"] == "fr"
    assert (tmp_path / "deck.fr.txt").read_text("utf-8").startswith("# Sample by")


# --------------------------------------------------------------------------------------
# Commands for humans.


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_cards_check_exit_codes(tmp_path: Path) -> None:
    code, out = run("cards", "check", str(SAMPLE))
    assert code == 0 and out.endswith("no problems.\n")
    bad = deck(tmp_path, {"hawk.en.md": HAWK.replace("loyalty: 1", "loyalty: 7")})
    code, out = run("cards", "check", str(bad))
    assert code == 2 and "loyalty '7'" in out
    code, out = run("cards", "check", "--format", "json", str(bad))
    data = json.loads(out)
    assert data["problems"][0]["line"] == 7 and data["summary"]["cards"] == 1


def test_cards_list(tmp_path: Path) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK, "hawk.fr.md": HAWK_FR})
    code, out = run("cards", "list", str(directory))
    assert code == 0
    assert "Demo (" in out and "[fr]" in out
    assert "Faucon des tempêtes  Creature  Red Banner  Draft   translated" in out
    code, out = run("cards", "list", "--format", "json", "--lang", "fr", str(directory))
    [block] = json.loads(out)["decks"]
    assert block["cards"][0]["translation"] == "translated"
    assert block["cards"][0]["quantity"] == 2


def test_cards_show(tmp_path: Path) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK, "hawk.fr.md": HAWK_FR})
    code, out = run("cards", "show", "hawk", "--library", str(directory))
    assert code == 0
    assert "Red Banner (inherited)" in out and "***Vol***" in out and "***Flying***" in out
    code, out = run("cards", "show", "hawk", "--library", str(directory), "--format", "json")
    assert json.loads(out)["languages"]["fr"]["attack"] == 2


def test_cards_show_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = deck(tmp_path, {"hawk.en.md": HAWK})
    assert run("cards", "show", "owl", "--library", str(directory))[0] == 2
    assert "no card 'owl'" in capsys.readouterr().err
