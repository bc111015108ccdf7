"""Translation rules on correct cards written the way translators write them (issue 15):
the footer compared with its typography applied, number words inside idioms, the
French guide's inline ability style, a markup finding copied from the English, the
cross-card rules with drafts and one file linted, drop caps and flavour paragraphs;
and the command line around them (unknown languages, the text format, statistics,
reviews held back card by card)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lintkit import codes, copy_sample, edit, lint_card, run
from translator import cards, lint
from translator.cards.model import DEFAULT_FOOTERS
from translator.glossary import load_glossary
from translator.untrusted import invisible_difference

NBSP, NNBSP = "\u00a0", "\u202f"
FOOTER = "arcmage.org - un jeu de carte libre - rejoignez-nous"


@pytest.fixture(scope="module")
def options() -> lint.Options:
    return lint.Options()


@pytest.fixture(scope="module")
def resources(options: lint.Options) -> lint.Resources:
    problems: list = []
    found = lint.load_resources(["fr", "eo"], options, problems)
    assert problems == []
    return found


def _library(tmp_path: Path, files: dict[str, str]) -> Path:
    deck = tmp_path / "deck"
    deck.mkdir()
    slugs = sorted({name.split(".")[0] for name in files})
    (deck / "deck.yaml").write_text(
        "name: Deck\ncards:\n" + "".join(f"  {slug}: 1\n" for slug in slugs), "utf-8"
    )
    for name, text in files.items():
        (deck / name).write_text(text, "utf-8")
    for name in files:  # every translation gets its English card's fingerprint
        if not name.endswith(".en.md"):
            english = deck / f"{name.split('.')[0]}.en.md"
            source = cards.files.parse_card_file(english, "deck", [])
            path = deck / name
            path.write_text(
                path.read_text("utf-8").replace(
                    "---\n", f'---\nsource: "{cards.source_fingerprint(source)}"\n', 1
                ),
                "utf-8",
            )
    return deck


def _lint(deck: Path, *paths: Path) -> list[lint.Finding]:
    library, problems = cards.load_library([str(p) for p in (paths or (deck,))])
    assert problems == []
    options = lint.Options()
    resources = lint.load_resources(["fr", "eo"], options, problems)
    options.files = {str(p) for p in paths}
    return lint.lint(library, resources, options).findings


ENGLISH = "---\nname: Courier\ntype: Event\nfaction: Gaian\n---\nDraw a card.\n"


# The footer -------------------------------------------------------------------------


def test_the_french_footer_is_stored_in_french_typography() -> None:
    glossary, _ = load_glossary("fr")
    footer = next(entry for entry in glossary.entries_by_section("footer"))
    assert footer.preferred is not None and footer.preferred.text == f"{FOOTER}{NBSP}!"
    assert DEFAULT_FOOTERS["fr"] == footer.preferred.text  # the printed default too


@pytest.mark.parametrize(
    ("footer", "expected"),
    [
        (f"{FOOTER}{NBSP}!", []),  # the glossary's
        (f"{FOOTER}{NNBSP}!", []),  # the narrow no-break space: also right
        (f"{FOOTER} !", ["FR201"]),  # the wiki's plain space: typography only
        ("arcmage.org - rejoins-nous\u00a0!", ["TR701"]),  # another footer
    ],
)
def test_footers_are_compared_with_the_typography_applied(
    tmp_path: Path, footer: str, expected: list[str]
) -> None:
    deck = _library(
        tmp_path,
        {
            "courier.en.md": ENGLISH,
            "courier.fr.md": f'---\nname: Coursier\ninfo: "{footer}"\n---\nPioche une carte.\n',
        },
    )
    assert codes(_lint(deck)) == expected


def test_a_difference_in_invisible_characters_is_named() -> None:
    assert invisible_difference(f"{FOOTER} !", f"{FOOTER}{NBSP}!") == (
        f"character {len(FOOTER) + 1} is U+0020 SPACE where it should be U+00A0 NO-BREAK SPACE"
    )
    assert invisible_difference("a\u200bb", "ab") is not None
    assert invisible_difference("rejoins-nous", "rejoignez-nous") is None


# Number words in idioms -------------------------------------------------------------


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("No one can block me.", "Personne ne peut me bloquer."),
        ("Once I die, draw two cards.", ":D:ès que je meurs, pioche deux cartes."),
        ("Destroy one of them at once.", "Détruis l’un d’eux immédiatement."),
        (
            "If anyone attacks, someone draws a card.",
            "Si quelqu’un attaque, quelqu’un pioche une carte.",
        ),
        # Two number phrases overlapping ("only once", "once each"): one number.
        ("Use this only once each turn.", "N’utilise ceci qu’une fois par tour."),
    ],
)
def test_number_words_inside_idioms_are_no_numbers(
    resources: lint.Resources, options: lint.Options, english: str, french: str
) -> None:
    if english.startswith("Once"):
        english = ":O:" + english[1:]
    assert "TR103" not in codes(lint_card(resources, options, english, french, lang="fr"))


def test_a_counted_number_word_is_still_a_number(
    resources: lint.Resources, options: lint.Options
) -> None:
    found = lint_card(
        resources,
        options,
        "Once per turn, draw one card.",
        "À chaque tour, pioche une carte.",
        lang="fr",
    )
    assert codes(found).count("TR103") == 1  # « une fois par tour » is lost
    found = lint_card(resources, options, "Draw two cards.", "Pioche trois cartes.", lang="fr")
    assert "TR103" in codes(found)


# Abilities --------------------------------------------------------------------------

FLYING_EN = "***Flying***\\\n*Only creatures with flying and ranged can defend against me.*"


def test_the_inline_ability_style_is_checked_like_the_other(
    resources: lint.Resources, options: lint.Options
) -> None:
    french = resources.language("fr").glossary.abilities["flying"]
    right = f"***{french.name} -*** *{french.reminder}*"
    assert lint_card(resources, options, FLYING_EN, right, lang="fr") == []
    wrong = f"***{french.name} -*** *Seules les créatures dotées du vol peuvent me bloquer.*"
    assert codes(lint_card(resources, options, FLYING_EN, wrong, lang="fr")) == ["TR404"]


def test_the_ability_name_message_uses_the_cards_parameter(
    resources: lint.Resources, options: lint.Options
) -> None:
    found = lint_card(
        resources,
        options,
        "***Bodyguard 2***\\\n*I can take up to 2 damage.*",
        "***Protecteur 2***\\\n*Je peux prendre 2 dégâts.*",
        lang="fr",
    )
    messages = [f.message for f in found if f.code == "TR403"]
    assert messages == [
        "the English text has the ability 'Bodyguard 2': name it 'Garde du corps 2' in bold italics"
    ]


# Drop caps and flavour ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("french", "expected"),
    [
        (":Q:uand je meurs, pioche une carte.", []),
        (":W:Quand je meurs, pioche une carte.", ["TR203"]),  # the English letter kept
        ("Quand je meurs, pioche une carte.", ["TR203"]),  # none
    ],
)
def test_the_drop_cap_is_the_first_letter_of_the_translated_word(
    resources: lint.Resources, options: lint.Options, french: str, expected: list[str]
) -> None:
    found = lint_card(resources, options, ":W:hen I die, draw a card.", french, lang="fr")
    assert codes(found) == expected


def test_a_repeated_flavour_paragraph_is_reported(
    resources: lint.Resources, options: lint.Options
) -> None:
    english = 'Draw a card.\n\n*"Steel does not hesitate."*'
    quote = f"*«{NBSP}L’acier n’hésite pas.{NBSP}»*"
    assert lint_card(resources, options, english, f"Pioche une carte.\n\n{quote}", lang="fr") == []
    found = lint_card(
        resources, options, english, f"Pioche une carte.\n\n{quote}\n\n{quote}", lang="fr"
    )
    assert codes(found) == ["TR302"] and "2 flavour paragraphs here, 1" in found[0].message


# Findings of the English card -------------------------------------------------------


def test_a_vanishing_space_copied_from_the_english_is_reported_there_once(tmp_path: Path) -> None:
    deck = _library(
        tmp_path,
        {
            "toll.en.md": "---\nname: Toll\ntype: Event\nfaction: Gaian\n---\nPay :g1: :g2:.\n",
            "toll.fr.md": "---\nname: Péage\n---\nPaie :g1: :g2:.\n",
            "toll.eo.md": "---\nname: Pago\n---\nPagu :g1: :g2:.\n",
        },
    )
    found = [f for f in _lint(deck) if f.code == "MK107"]
    assert [Path(f.path).name for f in found] == ["toll.en.md"]
    # Linting the translations alone: the English is not linted, so the finding stays.
    alone = _lint(deck, deck / "toll.fr.md")
    assert [Path(f.path).name for f in alone if f.code == "MK107"] == ["toll.fr.md"]


# Cross-card rules ---------------------------------------------------------------------

VALOR = (
    "---\nname: {name}\ntype: Event\nfaction: Gaian\n---\n"
    "Target creature gets +1/+1 until the end of the turn.\n"
)


def _valor_deck(tmp_path: Path, statuses: dict[str, str]) -> Path:
    wordings = {
        "a": "La créature ciblée gagne +1/+1 jusqu’à la fin du tour.",
        "b": "La créature ciblée gagne +1/+1 jusqu’à la fin du tour.",
        "c": "La créature ciblée reçoit +1/+1 jusqu’à la fin du tour.",
    }
    files = {}
    for slug, wording in wordings.items():
        files[f"{slug}.en.md"] = VALOR.format(name=slug.upper())
        files[f"{slug}.fr.md"] = (
            f"---\nname: Carte {slug}\n{statuses.get(slug, '')}---\n{wording}\n"
        )
    return _library(tmp_path, files)


def test_one_card_linted_is_compared_with_its_deck(tmp_path: Path) -> None:
    deck = _valor_deck(tmp_path, {})
    assert [(Path(f.path).name, f.code) for f in _lint(deck)] == [("c.fr.md", "GL302")]
    assert codes(_lint(deck, deck / "c.fr.md")) == ["GL302"]
    assert codes(_lint(deck, deck / "a.fr.md")) == []


def test_drafts_are_not_the_reference_wording(tmp_path: Path) -> None:
    # Two work-in-progress cards do not outvote a finished one.
    deck = _valor_deck(tmp_path, {"a": "wip: true\n", "b": "wip: true\n"})
    found = [(Path(f.path).name, f.code) for f in _lint(deck) if f.code == "GL302"]
    assert ("c.fr.md", "GL302") not in found
    # A Final card is the reference over Drafts.
    (tmp_path / "final").mkdir()
    deck = _valor_deck(tmp_path / "final", {"c": "status: Final\n"})
    found = sorted((Path(f.path).name, f.code) for f in _lint(deck) if f.code == "GL302")
    assert found == [("a.fr.md", "GL302"), ("b.fr.md", "GL302")]


# The command line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["lint", "cards/sample"],
        ["status", "cards/sample"],
        ["translate", "cards/sample"],
        ["export", "po", "cards/sample"],
        ["build", "cards/sample", "--out", "/nonexistent"],
        ["review-sheet", "cards/sample"],
    ],
)
def test_an_unknown_language_is_a_usage_error_everywhere(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, output = run(*command, "--lang", "fe")
    assert code == 2 and output == ""
    assert "--lang fe: unknown language" in capsys.readouterr().err


def test_text_output_has_a_colon_after_the_column(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    code, output = run("lint", "--no-config", str(deck / "courier.fr.md"))
    assert code == 1
    line = next(line for line in output.splitlines() if "TR103" in line)
    assert line.startswith(f"{deck / 'courier.fr.md'}:") and ": TR103 number" in line


def test_statistics_count_findings_per_rule(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    edit(deck / "mossgate.fr.md", "---\n", "---\ninfo: arcmage.org - rejoins-nous\u00a0!\n")
    code, output = run("lint", "--no-config", "--statistics", str(deck))
    assert code == 1
    rows = output.splitlines()
    assert any(r.split()[:2] == ["1", "TR103"] for r in rows)
    assert any(r.split()[:3] == ["1", "TR701", "[*]"] for r in rows)
    assert rows[-1].startswith("Found 2 findings")
    code, output = run("lint", "--no-config", "--statistics", "--format", "json", str(deck))
    data = json.loads(output)
    assert {r["code"]: r["count"] for r in data["statistics"]} == {"TR103": 1, "TR701": 1}


def test_review_holds_back_only_the_card_with_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "pioche une carte", "pioche 7 cartes")  # TR103: an error
    before = (deck / "courier.fr.md").read_bytes()
    code, output = run("review", "courier", "mossgate", "--lang", "fr", "--library", str(deck))
    assert code == 1
    assert "courier (fr) not reviewed: 1 error to fix first" in capsys.readouterr().err
    assert (deck / "courier.fr.md").read_bytes() == before
    assert "marked" in output and "mossgate.fr.md reviewed" in output
    assert "reviewed:" in (deck / "mossgate.fr.md").read_text("utf-8")
