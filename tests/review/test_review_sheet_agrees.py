"""The review sheet marks the differences the linter reports, and no others.

A reviewer must never see a number, symbol or term outlined as a difference where
``translator lint`` accepts the card (the Esperanto sheet once outlined *ranged* in
Flying's reminder, the abilities list's own words), nor miss one it reports.  Each
difference on the sheet carries the finding it shows (``data-rule``, ``data-line``,
the message as its title); here they are compared, card by card, with the findings of
``translator lint --format json``, both commands run as the user runs them, on the
sample, on the sample with its abilities written inline (``***Vol -*** *rappel*``),
and on both with defects of every kind the sheet marks.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import html as lxml_html

from tests.lintkit import SAMPLE, edit

#: The rules about a number, a symbol, a glossary term or an ability name that differ
#: between the English and the translated text: what the sheet marks in the texts.
MARKED = frozenset(
    {
        "TR101",  # stat modifiers differ
        "TR102",  # stat modifiers in another order
        "TR103",  # a number missing
        "TR104",  # a number the English lacks
        "TR201",  # symbols differ
        "TR202",  # symbols in another order
        "TR403",  # an ability not named as the list names it
        "GL101",  # a glossary term missing
        "GL102",  # a faction or type missing
        "GL103",  # a subtype missing
        "GL201",  # a deprecated term
        "GL202",  # a deprecated ability name
    }
)

#: Necromancer as each abilities list writes it, but for the Esperanto name: the list's
#: former one (GL202).
NECROMANCER = {
    "en": "***Necromancer***\\\n*When a creature I have dealt damage to this turn dies, "
    "put a +1/+1 Undead Skeleton token into your army marked.*",
    "fr": "***Nécromancien***\\\n*Quand une créature que j'ai blessé ce tour meurt, mets "
    "un jeton Squelette Mort-vivant +1/+1 dans ton armée, engagée.*",
    "eo": "***Nekromancianto***\\\n*Kiam estaĵo, kiun mi kaŭzis damaĝo ĉi tiun vicon, "
    "mortas, metu unu ĵetonon, kiu estas 1/1 Malmortulo Skeleto, en vian armeon, markitan.*",
}

#: (file, old, new): what breaks the translations, a defect or two of each kind.
DEFECTS = [
    # French
    ("veil-stalker.fr.md", "marqueurs -1/-1", "marqueurs 1/-1"),  # TR101
    ("veil-stalker.fr.md", "cités des adversaires", "villes des ennemis"),  # GL101, GL201
    ("courier.fr.md", "pioche une carte", "pioche 3 cartes"),  # TR103, TR104
    # A finding the card suppresses is no difference on the sheet either.
    ("courier.fr.md", "status: Draft", "status: Draft\nlint-ignore: [TR104]"),
    ("courier.fr.md", "Pacifique", "Paisible"),  # TR403
    ("courier.fr.md", ":m: La", ":g2: La"),  # TR201
    ("war-drums.fr.md", "gagnent +1/+0", "gagnent +2/+0"),  # TR102
    ("war-drums.fr.md", "+2/+0 à la place", "+1/+0 à la place"),
    ("mossgate.fr.md", ":m2: Tes", ":m4: Tes"),  # TR202
    ("mossgate.fr.md", ":m4: Tes sorts", ":m2: Tes sorts"),
    ("sudden-bloom.fr.md", "gaïenne", "sylvestre"),  # GL102
    ("iron-discipline.fr.md", "**soldat**", "**guerrier**"),  # GL103
    ("iron-discipline.fr.md", "**soldat**", "**guerrier**"),
    # Paragraphs that no longer pair up: the rules compare the whole texts.
    ("soul-drain.fr.md", ".\\\nSi elle", ".\n\nSi elle"),  # TR301
    ("soul-drain.fr.md", "nflige 2", "nflige 4"),  # TR103, TR104
    ("soul-drain.fr.md", "*créature ciblée*", "*bête ciblée*"),  # GL101
    # Esperanto
    ("veil-stalker.eo.md", "-1/-1 indikiloj", "1/-1 indikiloj"),  # TR101
    ("veil-stalker.eo.md", "de kontraŭuloj", "de malamikoj"),  # GL101
    ("courier.eo.md", "eltiras unu karton", "eltiras 3 kartojn"),  # TR103, TR104
    ("courier.eo.md", "***Paca", "***Pacema"),  # TR403
    ("courier.eo.md", ":m: Cela", ":g2: Cela"),  # TR201
    ("war-drums.eo.md", "akiras +1/+0", "akiras +2/+0"),  # TR102
    ("war-drums.eo.md", "anstataŭe akiras +2/+0", "anstataŭe akiras +1/+0"),
    ("mossgate.eo.md", ":m2: Viaj", ":m4: Viaj"),  # TR202
    ("mossgate.eo.md", ":m4: Viaj ***sorĉoj", ":m2: Viaj ***sorĉoj"),
    ("sudden-bloom.eo.md", "***Geo***", "***Tero***"),  # GL102
    ("iron-discipline.eo.md", "***soldato***", "***militisto***"),  # GL103
    ("iron-discipline.eo.md", "***soldaton***", "***militiston***"),
    ("iron-discipline.eo.md", "via ***armeo***", "via ***militistaro***"),  # GL201
    ("soul-drain.eo.md", ".\\\nSe ĝi", ".\n\nSe ĝi"),  # TR301
    ("soul-drain.eo.md", "aŭzu 2", "aŭzu 4"),  # TR103, TR104
    ("soul-drain.eo.md", "***estaĵo***", "***besto***"),  # GL101
    # An ability under its former name (GL202) in Esperanto, its current one in French.
    ("thornback-hydra.en.md", "graveyard.*", "graveyard.*\n\n" + NECROMANCER["en"]),
    (
        "thornback-hydra.fr.md",
        "cimetière vers ta main.*",
        "cimetière vers ta main.*\n\n" + NECROMANCER["fr"],
    ),
    ("thornback-hydra.eo.md", "el la tombejo.*", "el la tombejo.*\n\n" + NECROMANCER["eo"]),
]

#: An ability's name on its line, its reminder on the next (`***Flying***\` then
#: `*reminder*`): written inline instead, as the French guide and Aminduna imports do.
_ABILITY_ON_ITS_LINE = re.compile(r"^(\*\*\*[^*\n]+)\*\*\*\\\n(\*)", re.MULTILINE)


def inline(deck: Path) -> int:
    """Write every ability of the deck's cards inline (`***Flying -*** *reminder*`),
    in every language; how many were rewritten."""
    count = 0
    for path in sorted(deck.glob("*.md")):
        text, n = _ABILITY_ON_ITS_LINE.subn(r"\1 -*** \2", path.read_text("utf-8"))
        path.write_text(text, "utf-8")
        count += n
    return count


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command line, in a process of its own (in the test's working
    folder, with its environment: the same configuration for both commands)."""
    return subprocess.run(
        [sys.executable, "-m", "translator", *args], capture_output=True, text=True, check=False
    )


def lint_differences(
    deck: Path, langs: tuple[str, ...]
) -> dict[str, set[tuple[str, str, int, str]]]:
    """By language, (card, rule, line, message) of each finding of ``translator lint
    --format json`` on a card text that is about a difference the sheet marks."""
    args = [a for lang in langs for a in ("--lang", lang)]
    done = cli("lint", str(deck), *args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    findings = json.loads(done.stdout)["findings"]
    return {
        lang: {
            (f["card"], f["code"], f["line"], f["message"])
            for f in findings
            if f["lang"] == lang and f["field"] == "text" and f["code"] in MARKED
        }
        for lang in langs
    }


def sheet_differences(
    deck: Path, out: Path, langs: tuple[str, ...]
) -> dict[str, set[tuple[str, str, int, str]]]:
    """By language, (card, rule, line, message) of the findings the sheet's
    differences show: every ``diff`` mark must carry one."""
    args = [a for lang in langs for a in ("--lang", lang)]
    done = cli("review-sheet", str(deck), *args, "--out", str(out), "--no-renders")
    assert done.returncode == 0, done.stderr
    found = {}
    for lang in langs:
        page = lxml_html.fromstring((out / f"{deck.name}.{lang}.html").read_bytes())
        shown: set[tuple[str, str, int, str]] = set()
        for card in page.xpath("//section[@data-slug]"):
            slug = card.get("data-slug")
            for mark in card.xpath(".//*[contains(concat(' ', @class, ' '), ' diff ')]"):
                # A symbol's drawing is in a <span> that carries its finding.
                holders = mark.xpath("ancestor-or-self::*[@data-rule][1]")
                assert holders, f"{slug}: no finding is about {mark.text_content()!r} ({lang})"
                [holder] = holders
                code, line = holder.get("data-rule"), int(holder.get("data-line"))
                title = holder.get("title")
                assert title.startswith(f"{code}: "), (slug, title)
                shown.add((slug, code, line, title[len(code) + 2 :]))
        found[lang] = shown
    return found


@pytest.fixture(scope="module")
def libraries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample as it is, inline, and both with :data:`DEFECTS`."""
    root = tmp_path_factory.mktemp("agree")
    made = {"sample": SAMPLE}
    for name, abilities_inline, broken in (
        ("inline", True, False),
        ("defects", False, True),
        ("inline-defects", True, True),
    ):
        deck = root / name / "sample"
        deck.parent.mkdir()
        shutil.copytree(SAMPLE, deck)
        if abilities_inline:
            assert inline(deck) >= 20
        if broken:
            for file, old, new in DEFECTS:
                edit(deck / file, old, new)
        made[name] = deck
    return made


@pytest.mark.parametrize("library", ["sample", "inline", "defects", "inline-defects"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_sheet_marks_what_lint_reports(
    libraries: dict[str, Path], library: str, tmp_path: Path
) -> None:
    deck = libraries[library]
    sheets = sheet_differences(deck, tmp_path / "review", ("fr", "eo"))
    linted = lint_differences(deck, ("fr", "eo"))
    for lang in ("fr", "eo"):
        expected = linted[lang]
        assert sheets[lang] == expected, (lang, sheets[lang] - expected, expected - sheets[lang])
        if "defects" in library:  # every kind of difference is there to be marked
            kinds = {code for _, code, _, _ in expected}
            assert kinds >= MARKED - ({"GL202"} if lang == "fr" else set()), lang
        else:  # the sample is clean: nothing outlined, the list's own reminders included
            assert not expected


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_abilities_lists_own_reminder_is_no_difference(
    libraries: dict[str, Path], tmp_path: Path
) -> None:
    """The issue: *ranged* in Flying's Esperanto reminder, the list's own words (as
    *flying* in the French), is a term of the sheet, not a difference."""
    for library in ("sample", "inline"):
        out = tmp_path / library
        done = cli("review-sheet", str(libraries[library]), "--out", str(out), "--no-renders")
        assert done.returncode == 0, done.stderr
        for lang, word in (("eo", "ranged"), ("fr", "flying")):
            page = lxml_html.fromstring((out / f"sample.{lang}.html").read_bytes())
            [english, _] = page.xpath("//section[@id='card-courier']//tr[@class='field-text']/td")
            classes = {
                t.text_content(): t.get("class") for t in english.xpath(".//span[@data-term]")
            }
            assert classes[word] == "term", (library, lang, classes)
