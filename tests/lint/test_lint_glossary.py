"""The GL rules on cards written here: every deprecated form of the glossary data found
where a card can hold it, the abilities lists' reminders as their own authority,
compound subtypes with words between their parts, and the phrases of GL104."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.lintkit import codes, lint_card
from translator import lint
from translator.glossary import load_glossary
from translator.glossary.inflection import plural
from translator.glossary.matcher import Matcher
from translator.lint.engine import load_resources
from translator.lint.rules.translation import substitute

OPTIONS = lint.Options(languages=["fr", "eo"], ignore=["MK", "FR", "EO", "SP"])


@pytest.fixture(scope="module")
def resources() -> lint.Resources:
    problems: list = []
    found = load_resources(["fr", "eo"], OPTIONS, problems)
    assert not problems
    return found


def _case_tells(form: str, current: str) -> bool:
    """A later word capitalised in the deprecated form, in lower case in the current."""
    old, new = re.findall(r"[^\W_][\w-]*", form), re.findall(r"[^\W_][\w-]*", current)
    return len(old) == len(new) and any(
        o[:1].isupper() and n[:1].islower() for o, n in zip(old[1:], new[1:], strict=True)
    )


def _deprecated_forms() -> list[tuple[str, str, str, str, str, str]]:
    """(lang, section, English, form, code, why excused in running text or '') of every
    deprecated term and ability name of the shipped data, in its singular and plural."""
    found = []
    for lang in ("fr", "eo"):
        glossary, problems = load_glossary(lang)
        assert not problems
        matcher = Matcher(glossary)
        items = [
            (e.section, e.pos, e.en, t.text, "GL201")
            for e in glossary.entries.values()
            for t in e.terms
            if t.deprecated and e.section != "footer"
        ]
        items += [
            ("ability", "phrase", a.en, t.text, "GL202")
            for a in glossary.abilities.values()
            for t in a.deprecated
        ]
        for section, pos, english, term, code in items:
            for form in sorted({term, plural(term, lang) if pos == "noun" else term}):
                current = [h for h in matcher.lookup(form) if h.status != "deprecated"]
                excused = ""
                if current and not all(_case_tells(form, h.term) for h in current):
                    excused = f"the same words as the current '{current[0].term}'"
                found.append((lang, section, english, form, code, excused))
    return found


DEPRECATED = _deprecated_forms()


def test_the_data_has_deprecated_forms_to_find() -> None:
    assert len(DEPRECATED) > 140  # 83 deprecated terms and names, with their plurals
    excused = {(lang, form) for lang, _, _, form, _, why in DEPRECATED if why}
    # What running text cannot tell: a comma (Jeton boue, Leader soldat), a form of a
    # current term (cartes ressources), another entry's current word (Dévouement).
    assert excused == {
        ("fr", "dévouement"),
        ("fr", "Jeton boue"),
        ("fr", "Jetons boues"),
        ("fr", "Leader soldat"),
        ("fr", "Leaders soldats"),
        ("fr", "cartes ressources"),
    }


@pytest.mark.parametrize(
    ("lang", "section", "english", "form", "code", "excused"),
    DEPRECATED,
    ids=[f"{d[0]}-{d[3]}" for d in DEPRECATED],
)
def test_every_deprecated_form_is_found(
    resources: lint.Resources,
    lang: str,
    section: str,
    english: str,
    form: str,
    code: str,
    excused: str,
) -> None:
    def found(key: str, **fields: str) -> list[str]:
        text = fields.pop("text", "Ici.")
        return [
            f.code
            for f in lint_card(resources, OPTIONS, "Here.", text, lang=lang, **fields)
            if f.key == key
        ]

    if section == "subtype":  # TR402 gives the glossary's whole rendering
        assert "TR402" in found("subtype", subtype=form, english_subtype=english)
    if excused:
        return
    if section != "subtype":  # an English subtype the glossary cannot render
        assert code in found("subtype", subtype=form, english_subtype="Zorblax")
    assert code in found("text", text=f"Mets {form} ici.")
    assert code in found("name", name=form, english_name="Some Card")


def test_the_checklist_expressions_are_found(resources: lint.Resources) -> None:
    """« À ne pas oublier avant l'impression » (seed 000): each superseded expression."""
    for text in (
        "Ta dévotion d'une cité compte double.",
        "Sacrifie tous tes enchantements, magie, évènements.",
        "Je peux défendre contre les créatures volantes.",
    ):
        assert "GL201" in codes(lint_card(resources, OPTIONS, "Here.", text, lang="fr")), text


def test_deprecated_in_a_name_with_its_fix(resources: lint.Resources) -> None:
    findings = lint_card(
        resources,
        OPTIONS,
        "Here.",
        "Ici.",
        lang="fr",
        name="Les compteurs du roi",
        english_name="The King's Counters",
    )
    [finding] = [f for f in findings if f.code == "GL201"]
    assert finding.key == "name" and finding.edit is not None
    assert (finding.edit.start, finding.edit.end, finding.edit.replacement) == (4, 13, "marqueurs")


def test_a_list_reminder_is_its_own_authority(resources: lint.Resources) -> None:
    english = "***Infiltrate***\\\n*I can move into an opponent's city.*"
    french = "***Infiltré***\\\n*Je peux aller dans la cité d'un adversaire.*"
    assert "GL101" not in codes(lint_card(resources, OPTIONS, english, french, lang="fr"))
    # Not the list's words: the Lexique's 'déplacer' is asked for.
    other = "***Infiltré***\\\n*Je peux partir vers la cité d'un adversaire.*"
    assert "GL101" in codes(lint_card(resources, OPTIONS, english, other, lang="fr"))
    # The list's own deprecated word (Boost: « compteurs ») is the list's matter...
    boost_en = (
        "***Boost 2***\\\n*When you play me, you may pay 2 more resources to put "
        "2 +1/+1 counters on me.*"
    )
    boost = resources.language("fr").glossary.abilities["boost"]
    reminder = substitute(boost.reminder, boost.params, ["2"])
    assert "compteurs" in reminder
    assert "GL201" not in codes(
        lint_card(resources, OPTIONS, boost_en, f"***Boost 2***\\\n*{reminder}*", lang="fr")
    )
    # ... but not when the card says it itself.
    assert "GL201" in codes(
        lint_card(
            resources,
            OPTIONS,
            boost_en,
            f"***Boost 2***\\\n*{reminder}*\n\nPlace deux compteurs.",
            lang="fr",
        )
    )


def test_the_harness_lints_the_lists_themselves() -> None:
    """Linting the lists, nothing is its own authority: the setting is off."""
    source = Path(__file__).parents[2] / "tools" / "abilities_review.py"
    assert 'settings={"list-reminders": False}' in source.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "english", "text"),
    [
        ("fr", "Create a 1/1 Orc Token.", "Crée un jeton 1/1 orc."),
        ("fr", "Create a 1/1 Orc Token.", "Crée un jeton orc 1/1."),
        ("fr", "Create an Orc Token.", "Crée un jeton d'orc."),
        (
            "fr",
            "Put a +1/+1 Undead Skeleton token into your army.",
            "Mets un jeton +1/+1 squelette mort-vivant dans ton armée.",
        ),
        (
            "fr",
            "Put a 1/1 Goblin Token into your army.",
            "Mets un jeton 1/1 gobelin dans ton armée.",
        ),
        ("eo", "Create a 1/1 Orc Token.", "Kreu Orkon 1/1 Ĵetonon."),
        ("eo", "Create a 1/1 Orc Token.", "Kreu 1/1 Orko-Ĵetonon kaj Orkon."),
    ],
)
def test_compound_subtypes_with_words_between(
    resources: lint.Resources, lang: str, english: str, text: str
) -> None:
    assert "GL103" not in codes(lint_card(resources, OPTIONS, english, text, lang=lang))


def test_a_compound_subtype_still_missing(resources: lint.Resources) -> None:
    found = lint_card(
        resources,
        OPTIONS,
        "Create a 1/1 Orc Token.",
        "Crée un jeton 1/1 de la cité, puis un orc.",
        lang="fr",
    )
    assert "GL103" in codes(found)


@pytest.mark.parametrize(
    ("lang", "english", "text", "expected"),
    [
        (
            "fr",
            "Target creature gets +1/+1 until the end of the turn.",
            "La *créature ciblée* gagne +1/+1.",
            ["GL104"],
        ),
        (
            "fr",
            "Target creature gets +1/+1 until the end of the turn.",
            "La *créature ciblée* gagne +1/+1 jusqu’à la fin du tour.",
            [],
        ),
        (
            "fr",
            "Target creature gets +1/+1 until the end of the turn.",
            "La *créature ciblée* gagne +1/+1 jusqu'à la fin de ce tour.",
            [],
        ),
        (
            "fr",
            "I get +1/+0 for each card in your graveyard.",
            "Je gagne +1/+0 pour chaque carte de ton cimetière.",
            [],
        ),
        (
            "fr",
            "I get +1/+0 for each card in your graveyard.",
            "Je gagne +1/+0 si tu as des cartes dans ton cimetière.",
            ["GL104"],
        ),
        (
            "eo",
            "I get +2/+0 as long as you control a city.",
            "Mi akiras +2/+0, dum vi regas urbon.",
            [],
        ),
        (
            "eo",
            "I get +2/+0 as long as you control a city.",
            "Mi akiras +2/+0, se vi regas urbon.",
            ["GL104"],
        ),
        ("eo", "Each player draws one card.", "Ĉiuj ludantoj eltiras unu karton.", []),
        # x-system: EO101's; the phrase reads the same.
        ("eo", "Each player draws one card.", "Cxiu ludanto eltiras unu karton.", []),
        # The phrase is missing with the term inside it: GL104 names the phrase, and GL101
        # does not report the term again.
        ("eo", "Each player draws one card.", "Eltiru unu karton.", ["GL104"]),
    ],
)
def test_missing_phrase(
    resources: lint.Resources, lang: str, english: str, text: str, expected: list[str]
) -> None:
    found = lint_card(resources, OPTIONS, english, text, lang=lang)
    assert [c for c in codes(found) if c == "GL104"] == expected


def test_a_phrase_in_a_list_reminder_is_the_lists(resources: lint.Resources) -> None:
    """Garde du corps drops 'Each turn' (the French list's own wording)."""
    english = (
        "***Bodyguard 2***\\\n*Each turn, I may divert up to 2 damage from target "
        "creature you control and put that damage on myself instead.*"
    )
    reminder = resources.language("fr").glossary.abilities["bodyguard"].reminder
    french = f"***Garde du corps 2***\\\n*{substitute(reminder, ('x',), ['2'])}*"
    assert "GL104" not in codes(lint_card(resources, OPTIONS, english, french, lang="fr"))


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            "  - id: p\n    en: this turn\n    section: phrase\n    terms: [ce tour]\n",
            "phrase 'p' has pos 'noun'",
        ),
        (
            "  - id: p\n    en: this turn\n    section: phrase\n    pos: phrase\n",
            "phrase 'p' has no renderings",
        ),
        (
            "  - id: p\n    en: this turn\n    section: phrase\n    pos: phrase\n    terms:\n"
            "      - term: ce tour\n      - term: ce tour-là\n        status: deprecated\n"
            "        replaced_by: ce tour\n",
            "rendering 'ce tour-là' of phrase 'p' has a status deprecated",
        ),
    ],
)
def test_malformed_phrases_are_rejected(tmp_path: Path, entry: str, message: str) -> None:
    path = tmp_path / "glossary" / "fr" / "phrases.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(f"language: fr\nsource: test\nentries:\n{entry}", encoding="utf-8")
    glossary, problems = load_glossary("fr", [str(tmp_path)], shipped=False)
    assert [p.message for p in problems] == [message]
    assert problems[0].path == str(path) and problems[0].line >= 4
    assert problems[0].hint
    assert "p" not in glossary.phrases


def test_shipped_phrases_load() -> None:
    for lang in ("fr", "eo"):
        glossary, problems = load_glossary(lang)
        assert not problems
        assert {
            "until-the-end-of-the-turn",
            "this-turn",
            "for-each",
            "each-player",
            "in-combat",
            "as-long-as",
            "while",
        } <= set(glossary.phrases)
        assert not set(glossary.phrases) & set(glossary.entries)
