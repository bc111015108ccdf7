"""Drafts: ``translator translate`` fills what the glossary can and marks the rest.

The wiki's roadmap for a new language: copy every card "with what can already be
filled in", then translate and review.  These tests draft Esperanto from scratch on a
copy of the sample and check the drafts against the Leksikono's own words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lintkit import copy_sample, run
from translator import languages
from translator.cards import load_library
from translator.cards.files import parse_card_text
from translator.glossary import load_glossary
from translator.lint.rules.translation import substitute
from translator.typeset.labels import card_labels


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


# Both ability styles, types as subtypes, glossary names (Aminduna imports) ----------

BODYGUARD_EN = (
    "Each turn, I may divert up to 2 damage from target creature you control and put "
    "that damage on myself instead."
)
FLYING_EN = "Only creatures with flying and ranged can defend against me."
#: The same ability in each way cards write it: on its own line, then inline with the
#: separator inside the bold run or after it (the French guide's Example 3 and most
#: Aminduna imports: ``***Vol -*** *...*``).
STYLES = {
    "own-line": ("***{name}***\\\n*{reminder}*"),
    "hyphen": ("***{name} -*** *{reminder}*"),
    "en-dash": ("***{name} –*** *{reminder}*"),
    "em-dash": ("***{name} —*** *{reminder}*"),
    "after": ("***{name}*** - *{reminder}*"),
}


def _deck(root: Path, cards: dict[str, tuple[str, str]]) -> Path:
    """A deck of English cards: slug -> (front matter lines, text)."""
    deck = root / "imported"
    deck.mkdir()
    listed = "".join(f"  {slug}: 1\n" for slug in cards)
    (deck / "deck.yaml").write_text(f"name: Imported\ncreator: test\ncards:\n{listed}", "utf-8")
    for slug, (front, text) in cards.items():
        (deck / f"{slug}.en.md").write_text(f"---\n{front}---\n{text}\n", "utf-8")
    return deck


def _creature(name: str = "Shield Bearer") -> str:
    return (
        f"name: {name}\ntype: Creature\nfaction: The Empire\nsubtype: Human\n"
        "cost: 3\nloyalty: 1\nattack: 1\ndefense: 4\n"
    )


def _translate(deck: Path, lang: str) -> dict[str, dict]:
    """Draft ``deck`` in ``lang``: each card's draft (fields, body) and report."""
    code, output = run("translate", str(deck), "--lang", lang, "--format", "json")
    assert code == 0, output
    reports = {d["card"]: d for d in json.loads(output)["drafts"]}
    found = {}
    for slug, draft in reports.items():
        path = deck / f"{slug}.{lang}.md"
        parsed = parse_card_text(str(path), deck.name, path.read_text("utf-8"), [])
        assert parsed is not None
        found[slug] = {"fields": parsed.fields, "body": parsed.body.strip("\n"), **draft}
    return found


@pytest.mark.parametrize("lang", ["fr", "eo"])
def test_both_ability_styles_draft_alike(tmp_path: Path, lang: str) -> None:
    glossary, problems = load_glossary(lang)
    assert not problems
    bodyguard, flying = glossary.abilities["bodyguard"], glossary.abilities["flying"]
    cards = {}
    for style, pattern in STYLES.items():
        text = "\n\n".join(
            [
                pattern.format(name="Bodyguard 2", reminder=BODYGUARD_EN),
                pattern.format(name="Flying", reminder=FLYING_EN),
            ]
        )
        cards[style] = (_creature(), text)
    drafts = _translate(_deck(tmp_path, cards), lang)
    # Seed 000 (Liste des capacités): "''Garde du corps x'' - Je peux endurer jusqu'à x
    # dégâts ..."; seed 001 (Listo de kapabloj): Korpogardisto N.
    name = {"fr": "Garde du corps 2", "eo": "Korpogardisto 2"}[lang]
    assert substitute(bodyguard.template, bodyguard.params, ["2"]) == name
    # The list's reminder, set as the language sets card text (the lists write
    # jusqu'à, the style guide jusqu’à).
    typeset = languages.get(lang).typography.apply
    reminder = typeset(substitute(bodyguard.reminder, bodyguard.params, ["2"]))
    for style, pattern in STYLES.items():
        draft = drafts[style]
        assert draft["body"] == "\n\n".join(
            [
                pattern.format(name=name, reminder=reminder),
                pattern.format(name=flying.name, reminder=typeset(flying.reminder)),
            ]
        ), style
        assert "ability Bodyguard" in draft["filled"] and "ability Flying" in draft["filled"]
        assert not [e for e in draft["english"] if e.startswith("paragraph")], style


def test_an_inline_colon_is_kept_and_french_typography_asks_for_its_space(
    tmp_path: Path,
) -> None:
    deck = _deck(tmp_path, {"colon": (_creature(), f"***Flying:*** *{FLYING_EN}*")})
    draft = _translate(deck, "fr")["colon"]
    assert draft["body"].startswith("***Vol:*** *Seules les créatures")
    _, output = run("lint", str(deck), "--lang", "fr", "--format", "json")
    other = {f["code"] for f in json.loads(output)["findings"]} - {"TR401"}
    assert other == {"FR201"}  # the guide's no-break space before ':'


def test_a_cards_own_reminder_stays_english_in_either_style(tmp_path: Path) -> None:
    own = "*Each turn, I may protect one of your creatures.*"
    deck = _deck(
        tmp_path,
        {
            "inline": (_creature(), f"***Bodyguard 2 -*** {own}"),
            "own-line": (_creature(), f"***Bodyguard 2***\\\n{own}"),
        },
    )
    drafts = _translate(deck, "fr")
    assert drafts["inline"]["body"] == f"***Garde du corps 2 -*** {own}"
    assert drafts["own-line"]["body"] == f"***Garde du corps 2***\\\n{own}"
    for draft in drafts.values():
        assert "paragraph 1" in draft["english"]
    code, output = run("lint", str(deck), "--lang", "fr", "--format", "json")
    assert code == 1
    messages = {(f["card"], f["code"], f["message"]) for f in json.loads(output)["findings"]}
    for slug in drafts:
        assert (slug, "TR401", "draft: paragraph 1 is still in English") in messages


def test_text_after_a_reminder_and_a_second_ability_are_drafted_in_turn(tmp_path: Path) -> None:
    text = (
        f"***Flying -*** *{FLYING_EN}*\\\n"
        "***Ranged -*** *I can defend against creatures with flying.* Then draw a ***city***."
    )
    draft = _translate(_deck(tmp_path, {"both": (_creature(), text)}), "fr")["both"]
    assert draft["body"] == (
        "***Vol -*** *Seules les créatures dotées du vol ou de la longue portée peuvent me "
        "bloquer.*\\\n***Longue portée -*** *Je peux bloquer les créatures volantes.* "
        "Then draw a ***cité***."
    )
    assert {"ability Flying", "ability Ranged", "term city"} <= set(draft["filled"])
    assert "paragraph 1" in draft["english"]  # "Then draw a"


def test_inline_drafts_lint_without_false_alarms(tmp_path: Path) -> None:
    text = f"***Bodyguard 2 -*** *{BODYGUARD_EN}*\n\n***Flying*** - *{FLYING_EN}*"
    deck = _deck(tmp_path, {"guard": (_creature(), text)})
    for lang in ("fr", "eo"):
        _translate(deck, lang)
    _, output = run("lint", str(deck), "--format", "json")
    findings = [(f["lang"], f["code"], f["message"]) for f in json.loads(output)["findings"]]
    # Only the name is still English (the French list's "jusqu'à" is drafted with the
    # configured apostrophe: no FR203).
    assert [f for f in findings if f[1] != "TR401"] == []
    assert [f for f in findings if f[1] == "TR401"] == [
        (lang, "TR401", "draft: the name is still the English 'Shield Bearer'")
        for lang in ("eo", "fr")
    ]


CITY = "name: Old Keep\ntype: City\nfaction: House of Nobles\nsubtype: City\ndefense: 13\n"


def test_a_subtype_that_is_the_type_takes_the_types_name(tmp_path: Path) -> None:
    equipment = "name: Iron Keep\ntype: Equipment\nfaction: Gaian\nsubtype: Equipment\ncost: 1\n"
    deck = _deck(
        tmp_path, {"keep": (CITY, "Draw one card."), "gear": (equipment, "Draw one card.")}
    )
    for lang, city, gear in (("fr", "Cité", "Équipement"), ("eo", "Urbo", "Ekipaĵo")):
        drafts = _translate(deck, lang)
        assert drafts["keep"]["fields"]["subtype"] == city
        assert drafts["gear"]["fields"]["subtype"] == gear
        assert "subtype" in drafts["keep"]["filled"]
    _, output = run("lint", str(deck), "--format", "json")
    assert not [f for f in json.loads(output)["findings"] if f["field"] == "subtype"]
    # The card prints its type once: the subtype equal to the translated type is dropped.
    library, _ = load_library([str(deck)])
    card = library.cards[("imported", "keep")]
    for lang, city in (("fr", "Cité"), ("eo", "Urbo")):
        glossary, _ = load_glossary(lang)
        assert card_labels(card, lang, glossary).type_line == city


@pytest.mark.parametrize(
    ("subtype", "expected"),
    [
        ("", []),  # nothing printed in English: the card prints the type once
        ("subtype: Cité\n", []),
        ("subtype: Ville\n", ["TR402"]),  # not the type's name
    ],
)
def test_the_lint_takes_the_types_name_for_such_a_subtype(
    tmp_path: Path, subtype: str, expected: list[str]
) -> None:
    deck = _deck(tmp_path, {"keep": (CITY, "Draw one card.")})
    (deck / "keep.fr.md").write_text(f"---\nname: Vieux donjon\n{subtype}---\nPioche.\n", "utf-8")
    _, output = run("lint", str(deck), "--lang", "fr", "--format", "json")
    found = [f["code"] for f in json.loads(output)["findings"] if f["field"] == "subtype"]
    assert [c for c in found if c.startswith("TR")] == expected


def test_a_name_that_is_a_glossary_name_takes_it(tmp_path: Path) -> None:
    deck = _deck(
        tmp_path,
        {
            "legion": (CITY.replace("Old Keep", "dark legion"), "Draw one card."),
            "token": (_creature("Addax Token") + "name2: The Empire\n", ""),
            "scout": (_creature("Dark Legion Scout"), ""),
        },
    )
    # Seed 000 (Lexique): "Dark Legion : L'Ost de l'ombre"; "Addax Token : Jeton, addax".
    # Seed 001 (Leksikono): Ombra Legio; Adakso Ĵetono.
    for lang, legion, token, empire in (
        # As the language sets card text: the typographic apostrophe, and Esperanto's
        # elided article bound to its word.
        ("fr", "Ost de l’ombre", "Jeton, addax", "Empire"),
        ("eo", "Ombra Legio", "Adakso Ĵetono", "L’\u00a0Imperio"),
    ):
        drafts = _translate(deck, lang)
        assert drafts["legion"]["fields"]["name"] == legion  # the glossary's case
        assert drafts["token"]["fields"]["name"] == token
        assert drafts["token"]["fields"]["name2"] == empire
        assert {"name", "name2"} <= set(drafts["token"]["filled"])
        # Only the whole name: a name holding a glossary name is the translator's.
        assert drafts["scout"]["fields"]["name"] == "Dark Legion Scout"
        assert "name" in drafts["scout"]["english"]
