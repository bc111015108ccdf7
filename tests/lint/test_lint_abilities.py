"""The wiki's abilities lists linted as cards (tools/abilities_review.py).

The report in docs/ is generated; the known inconsistencies of the wiki are found;
every judgment quotes the wiki's own words, checked against the seed documents (the
wiki dumps in ../shared/seeds) and against the card the linter read.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import codes
from tests.toolkit import tool
from translator import lint
from translator.cards import source_fingerprint
from translator.glossary import load_glossary
from translator.lint.engine import Resources
from translator.lint.examples import lint_example, parse_example
from translator.lint.model import plain_text
from translator.markup.parser import parse

abilities = tool("abilities_review")
JUDGMENTS, SEEDS, WikiFinding = abilities.JUDGMENTS, abilities.SEEDS, abilities.WikiFinding


def seeds_dir() -> Path | None:
    candidates = [os.environ.get("TRANSLATOR_SHARED"), ROOT.parent / "shared", "/work/shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "seeds" / SEEDS["fr"]).is_file():
            return Path(candidate) / "seeds"
    return None


@cache
def seed(lang: str) -> str:
    directory = seeds_dir()
    if directory is None:
        pytest.skip("../shared/seeds is not next to this checkout (set TRANSLATOR_SHARED)")
    return (directory / SEEDS[lang]).read_text("utf-8")


@cache
def findings() -> list[WikiFinding]:
    return abilities.lint_abilities()


def wiki_entry(lang: str, ability_id: str) -> str:
    """An ability as the wiki page writes it: heading, then '' template '' - reminder."""
    ability = load_glossary(lang)[0].abilities[ability_id]
    return f"==={ability.name}===\n''{ability.template}'' - {ability.reminder}"


def test_the_report_is_up_to_date() -> None:
    generated = abilities.report(findings())
    on_disk = (ROOT / "docs" / "lint-abilities.md").read_text("utf-8")
    assert on_disk == generated, f"regenerate: {abilities.COMMAND}"


def test_each_ability_is_a_card_with_its_translations() -> None:
    library, origins = abilities.abilities_library()
    english = load_glossary("en")[0].abilities
    assert len(library.cards) == len(english)
    card = library.cards[(abilities.DECK, "salvage")]
    assert card.source is not None
    assert card.source.fields["name"] == "Salvage"
    assert card.source.body == (
        "***Salvage x***\\\n*You may pay x resources to return me to your hand from the graveyard.*"
    )
    french, esperanto = card.translations["fr"], card.translations["eo"]
    assert french.fields["name"] == "Sauvetage"
    assert french.body.startswith("***Sauvetage x***\\\n*Tu peux payer x ressources")
    # The Esperanto list's N is the English x, in the template and the reminder.
    assert esperanto.body.startswith("***Savebla x***\\\n*Vi povas pagi x rimedojn")
    for version in (french, esperanto):
        assert version.fields["source"] == source_fingerprint(card.source)
    # Each virtual file leads back to the ability's entry in the YAML file.
    for path, (yaml_path, line) in origins.items():
        lang = path.rsplit(".", 2)[-2]
        assert yaml_path == f"glossaries/{lang}/abilities.yaml"
        entry = (ROOT / yaml_path).read_text("utf-8").splitlines()[line - 1]
        assert entry.endswith(f"id: {Path(path).name.split('.')[0]}"), (path, entry)


def test_parameter_letters_are_the_english_ones() -> None:
    library, _ = abilities.abilities_library()

    def body(ability_id: str, lang: str) -> str:
        return library.cards[(abilities.DECK, ability_id)].translations[lang].body

    # By position, simultaneously: Sturmanto K N is Charge y x.
    assert body("charge", "eo") == (
        "***Sturmanto y x***\\\n*Kiam mi atakas kune kun aliaj "
        "sturmanta estaĵo, mi akiras +x/+0 kaj iĝas y.*"
    )
    assert body("battle-scream", "eo").startswith("***x-Batalkrianto y***")
    # Whole words only, and letters only: <frakcio> is a word the card writes itself.
    assert body("evolve", "eo").startswith("***Evoluonto x y***\\\n*Kiam mi mortas, metu unu x")
    assert body("produce", "eo").startswith("***Produkti x <frakcio> rimedoj***")
    # The French list uses the English letters already.
    assert body("charge", "fr").startswith("***Charge y x***")
    assert abilities.rename_parameters("N Nago N-a", {"N": "x"}) == "x Nago x-a"
    assert abilities.rename_parameters("K N", {"K": "y", "N": "x"}) == "y x"


def test_an_ability_without_english_reminder_has_none_in_any_language() -> None:
    library, _ = abilities.abilities_library()
    card = library.cards[(abilities.DECK, "peaceful")]
    assert card.source is not None and card.source.body == "***Peaceful***"
    assert card.translations["fr"].body == "***Pacifique***"
    assert card.translations["eo"].body == "***Paca***"
    assert not {"TR303"} & {f.finding.code for f in findings()}


def test_no_number_rule_fires_on_a_parameter_letter() -> None:
    """TR101/TR103/TR104 compare the lists' numbers, not their names for them."""
    letters = {"N", "K", "S"}
    for found in findings():
        if found.finding.code in ("TR101", "TR103", "TR104"):
            assert not letters & set(found.finding.message.replace(",", " ").split()), found


def test_staleness_and_markup_stay_quiet() -> None:
    codes = {f.finding.code for f in findings()}
    assert not {"TR601", "TR602"} & codes
    assert not any(code.startswith("MK") for code in codes)


@pytest.mark.parametrize(
    ("lang", "ability", "code", "word", "quote"),
    [
        # The Lexique says « counter : marqueur »; Boost and Gros bras write « compteurs ».
        ("fr", "boost", "GL201", "compteurs", "pour ajouter des compteurs +1/1."),
        (
            "fr",
            "bruiser",
            "GL201",
            "compteurs",
            "J'inflige des dégâts sous la forme de compteurs -1/-1 aux créatures.",
        ),
        # The Lexique says « player : la joueureuse »; Rage and Tempête write « joueuse ».
        ("fr", "rabies", "GL201", "joueuse", "À la fin du tour d'une joueuse, elle doit sacrifier"),
        ("fr", "water-tempest", "GL201", "joueuse", "contrôlée par la joueuse attaquée."),
        # The Leksikono says « defense strength: defendoforto »; Defia writes « defendforto ».
        (
            "eo",
            "defiance",
            "GL101",
            "defendoforto",
            "Ĉiu damaĝo kiun mi kaŭzas dum defendado de urbo estas aldonita al ĝia defendforto.",
        ),
    ],
)
def test_the_known_inconsistencies_are_found(
    lang: str, ability: str, code: str, word: str, quote: str
) -> None:
    assert quote in seed(lang), "the wording is the wiki's"
    assert quote in wiki_entry(lang, ability), "and the card is made of it"
    found = [
        f
        for f in findings()
        if (f.finding.lang, f.finding.card, f.finding.code) == (lang, ability, code)
        and word in f.finding.message
    ]
    assert found, f"{lang} {ability}: no {code} about {word}"
    assert found[0].judgment is not None and found[0].judgment.real


def test_every_finding_is_judged() -> None:
    unjudged = [(f.key, f.finding.message) for f in findings() if f.judgment is None]
    assert not unjudged, "judge them in glossaries/lint/abilities-review.yaml"


def test_every_judgment_judges_a_finding() -> None:
    used = {f.key for f in findings()}
    assert not set(JUDGMENTS) - used, "stale judgments: the linter no longer finds these"


@pytest.mark.parametrize("key", sorted(k for k, j in JUDGMENTS.items() if j.real))
def test_real_inconsistencies_quote_the_wiki(key: tuple[str, ...]) -> None:
    judgment = JUDGMENTS[key]
    lang, ability = key[0], key[1]
    assert judgment.quote is not None
    assert judgment.quote in seed(lang)
    assert judgment.quote.replace("''", "") in wiki_entry(lang, ability).replace("''", "")


def test_false_alarms_say_why() -> None:
    for key, judgment in JUDGMENTS.items():
        if not judgment.real:
            assert judgment.cause in abilities.CAUSES, key
            assert judgment.why, key


# --------------------------------------------------------------------------------------
# Abilities on cards: several in one paragraph, text after a reminder, no text at all.


@cache
def resources() -> Resources:
    return lint.load_resources(["fr"], lint.Options(), [])


def linted(example: str) -> list[lint.Finding]:
    """Every default rule's findings on a card set in the rule examples' format."""
    return lint_example(parse_example(example), resources())


def reminders(lang: str, *ids: str) -> list[str]:
    abilities_ = load_glossary(lang)[0].abilities
    return [abilities_[i].reminder for i in ids]


EN_FLYING, EN_RANGED = reminders("en", "flying", "ranged")
FLYING, RANGED = reminders("fr", "flying", "ranged")
#: Flying and Ranged in one paragraph, a line each (block and inline style), and the
#: lines of their reminders in the card's text.
TWO_ABILITIES = {
    "block": ("***{0}***\\\n  *{1}*\\\n  ***{2}***\\\n  *{3}*", (1, 3)),
    "inline": ("***{0} -*** *{1}*\\\n  ***{2} -*** *{3}*", (0, 1)),
}


def two_abilities(
    style: str, flying: str, flying_reminder: str, ranged: str, ranged_reminder: str
) -> str:
    layout, _ = TWO_ABILITIES[style]
    english = layout.format("Flying", EN_FLYING, "Ranged", EN_RANGED)
    french = layout.format(flying, flying_reminder, ranged, ranged_reminder)
    return f"en: {english}\nfr: {french}"


@pytest.mark.parametrize("style", sorted(TWO_ABILITIES))
def test_two_abilities_in_one_paragraph_written_right_are_silent(style: str) -> None:
    # FR303 took the second name for a name in running text: « 'longue portée'
    # (ability) in italics », on the Vol reminder that mentions it.
    assert linted(two_abilities(style, "Vol", FLYING, "Longue portée", RANGED)) == []


@pytest.mark.parametrize("style", sorted(TWO_ABILITIES))
def test_the_second_ability_of_a_paragraph_is_checked(style: str) -> None:
    [name] = linted(two_abilities(style, "Vol", FLYING, "Portée", RANGED))
    assert name.code == "TR403" and "'Longue portée'" in name.message
    [reminder] = linted(two_abilities(style, "Vol", FLYING, "Longue portée", "Je bloque."))
    assert reminder.code == "TR404" and "'Longue portée'" in reminder.message
    # each on its reminder's line (the file's body starts on line 5)
    first_line, second_line = TWO_ABILITIES[style][1]
    assert reminder.line == 5 + second_line
    [first] = linted(two_abilities(style, "Vol", "Je vole.", "Longue portée", RANGED))
    assert first.code == "TR404" and "'Vol'" in first.message and first.line == 5 + first_line


def test_a_reminder_in_bold_under_its_name_is_no_second_ability() -> None:
    english = f"en: ***Flying***\\\n  *{EN_FLYING}*\n"
    # its emphasis is FR305's; its words are still compared with the list's
    assert codes(linted(f"{english}fr: ***Vol***\\\n  ***{FLYING}***")) == ["FR305"]
    assert "TR404" in codes(linted(f"{english}fr: ***Vol***\\\n  ***Je vole.***"))


@pytest.mark.parametrize(
    ("english", "french"),
    [
        (f"***Flying -*** *{EN_FLYING}* Draw a card.", "***Vol -*** *{}* Pioche une carte."),
        (
            f"***Flying***\\\n  *{EN_FLYING}*\\\n  Draw a card.",
            "***Vol***\\\n  *{}*\\\n  Pioche une carte.",
        ),
    ],
)
def test_the_reminder_is_its_italic_run(english: str, french: str) -> None:
    # the text after it is the card's own: the English still follows the list, and
    # the French reminder is compared alone
    assert linted(f"en: {english}\nfr: {french.format(FLYING)}") == []
    found = linted(f"en: {english}\nfr: {french.format('Je vole.')}")
    [reminder] = [f for f in found if f.code == "TR404"]
    assert "'Vol'" in reminder.message


def test_ability_lines_of_a_paragraph() -> None:
    names = {"vol", "longue portée"}

    def lines(text: str) -> list[tuple[str, str | None]]:
        [paragraph] = plain_text(parse(text, 1).document, "fr").paragraphs
        return [
            (line.name, None if line.reminder is None else paragraph.text[slice(*line.reminder)])
            for line in paragraph.ability_lines(lambda name: name.casefold() in names)
        ]

    assert lines("***Vol***\\\n*Je vole.*\\\n***Longue portée***\\\n*Je bloque.*") == [
        ("Vol", "Je vole."),
        ("Longue portée", "Je bloque."),
    ]
    assert lines("***Vol -*** *Je vole.*\\\n***Longue portée -*** *Je bloque.*") == [
        ("Vol", "Je vole."),
        ("Longue portée", "Je bloque."),
    ]
    # a name in simple bold inside the reminder is part of it; plain text after it is not
    assert lines("***Vol***\\\n*Seules les créatures dotées du* **vol** *le peuvent.* Pioche.") == [
        ("Vol", "Seules les créatures dotées du vol le peuvent.")
    ]
    # a bold word opening a later line, or a bold reminder, names no second ability
    assert lines("***Vol -*** *Je vole.*\\\n**Vol** et **longue portée** pour tous.") == [
        ("Vol", "Je vole.")
    ]
    assert lines("***Vol***\\\n***Je vole.***") == [("Vol", "Je vole.")]
    # a reminder without italics is compared whole
    assert lines("***Vol -*** Je vole.") == [("Vol", "Je vole.")]


#: An English card with abilities and glossary terms, and its French translation as
#: `translator import po` writes it when only the subtype was translated: no text.
NO_TEXT = (
    "en: ***Overrun***\\\n"
    "  *The surplus of unblocked damage I deal is carried over to the attacked city.*\n"
    "  \n"
    "  When I come into play, deal 2 damage to target creature until end of turn.\n"
    "en.subtype: Hydra\n"
    "fr.subtype: {subtype}\n"
    "fr.wip: {wip}\n"
)


@pytest.mark.parametrize("wip", ["true", ""])
def test_a_translation_without_text_gets_tr401_alone(wip: str) -> None:
    # (before: GL101 'damage', 'city', ...; GL104; TR103; TR301; TR403 besides)
    [finding] = linted(NO_TEXT.format(subtype="Hydre", wip=wip))
    assert finding.code == "TR401" and "no card text" in finding.message
    # its name and subtype are still checked
    assert sorted(codes(linted(NO_TEXT.format(subtype="Hydra", wip=wip)))) == ["TR401", "TR402"]


def test_a_translation_with_text_is_still_checked() -> None:
    example = NO_TEXT.format(subtype="Hydre", wip="true") + "fr: Pioche une carte."
    found = set(codes(linted(example)))
    assert {"GL101", "TR103", "TR301", "TR403"} <= found and "TR401" not in found
