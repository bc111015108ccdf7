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

from translator.cards import source_fingerprint
from translator.glossary import load_glossary

from .conftest import ROOT
from .toolkit import tool

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
