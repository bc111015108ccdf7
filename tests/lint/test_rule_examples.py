"""Every registered rule's documented examples, executed: the bad one reports the rule,
the good one does not, and the rule's fix removes what the bad one reports.

The rules come from the registry, so a new rule is covered as soon as it is declared.
Markup rules' examples are card text (:func:`translator.markup.check_text`); lint
rules' are small card sets in the format of :mod:`translator.lint.examples`, linted in
memory by the engine, with the opt-in rule itself selected.  Every rule's examples
run, none is left out: PR101's too, which typesets its card as the build does (the
slowest: about five seconds, WeasyPrint's loading, then half a second an example).
The good examples are also clean of every other rule, unless :data:`NOT_CLEAN` says
why not.
"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from translator import lint, markup
from translator.diagnostics import REGISTRY, Rule, apply_fixes
from translator.lint.examples import (
    card_files,
    example_codes,
    fix_example,
    lint_example,
    lint_files,
    parse_example,
)
from translator.lint.rule import MARKUP
from translator.textio import InputError

RULES = REGISTRY.rules()
FIXABLE = [rule for rule in RULES if rule.fix]

#: Good examples that cannot be free of every other rule's finding, and why (none
#: today: a rule added here says why its good example cannot be clean).
NOT_CLEAN: dict[str, str] = {}


def _ids(rules: list[Rule]) -> list[str]:
    return [rule.code for rule in rules]


@pytest.fixture(scope="module")
def resources() -> lint.Resources:
    problems: list = []
    from translator.typeset.overflow import overflowing

    found = lint.load_resources(["fr", "eo"], lint.Options(fit=overflowing), problems)
    assert problems == []
    return found


def test_every_rule_has_examples() -> None:
    assert len(RULES) >= 80
    for rule in RULES:
        assert rule.bad and rule.good and rule.bad != rule.good, rule.code


@pytest.mark.parametrize("rule", RULES, ids=_ids(RULES))
def test_the_bad_example_reports_the_rule(rule: Rule, resources: lint.Resources) -> None:
    assert rule.code in example_codes(rule.code, rule.bad, resources), rule.bad


@pytest.mark.parametrize("rule", RULES, ids=_ids(RULES))
def test_the_good_example_does_not(rule: Rule, resources: lint.Resources) -> None:
    found = example_codes(rule.code, rule.good, resources)
    assert rule.code not in found, rule.good
    if rule.code not in NOT_CLEAN:
        assert found == [], f"{rule.code}'s good example reports {found}"


@pytest.mark.parametrize("rule", FIXABLE, ids=_ids(FIXABLE))
def test_the_fix_removes_the_finding(rule: Rule, resources: lint.Resources) -> None:
    if rule.target == MARKUP.name:
        found = [d for d in markup.check_text(rule.bad) if d.code == rule.code]
        fixed, applied = apply_fixes(rule.bad, found)
        assert applied >= 1, f"{rule.code}'s bad example has nothing to fix"
        assert rule.code not in [d.code for d in markup.check_text(fixed)], fixed
        return
    example = parse_example(rule.bad, f"{rule.code} bad example")
    fixed = fix_example(example, resources, [rule.code])
    assert fixed != card_files(example), f"{rule.code}'s bad example has nothing to fix"
    after = lint_files(fixed, resources, example.settings, opt_in=[rule.code])
    assert rule.code not in [f.code for f in after], fixed


# --------------------------------------------------------------------------------------
# The format of lint rules' examples.

DOCUMENTED = """\
en: ***Veteran***\\
  *I am not marked for attacking.*
fr: ***Vétéran***\\
  *Je ne suis pas engagé quand j’attaque.*
fr.name: Vétéran de fer
---
en: Draw two cards.
fr: Pioche deux cartes.
settings.french-spaces: narrow
"""


def test_the_format_reads_as_card_files() -> None:
    example = parse_example(
        "# a comment\n"
        "en: Draw one card.\n\n  Discard one card.\n"
        "en.subtype: Human Lord\n"
        "fr: Pioche une carte.\n\n\n  Défausse une carte.\n"
        "fr.subtype: Seigneur, humain\n"
        "fr.source:\n"
        "---\n"
        "eo: Eltiru unu karton.\n"
        "settings.spelling: false\n"
    )
    assert example.settings == {"spelling": False}
    assert example.languages() == ["en", "eo", "fr"]
    files = card_files(example)
    assert sorted(files) == [
        "example/card-1.en.md",
        "example/card-1.fr.md",
        "example/card-2.en.md",
        "example/card-2.eo.md",
    ]
    assert files["example/card-1.en.md"] == (
        "---\nname: Card\ntype: Creature\nfaction: Gaian\nsubtype: Human Lord\n---\n"
        "Draw one card.\n\nDiscard one card.\n"
    )
    # no source: the field is left out; two empty lines are kept as written
    assert files["example/card-1.fr.md"] == (
        "---\nname: Carte\nsubtype: Seigneur, humain\n---\n"
        "Pioche une carte.\n\n\nDéfausse une carte.\n"
    )
    assert files["example/card-2.eo.md"].startswith('---\nname: Karto\nsource: "')


def test_the_documented_example_lints_clean(resources: lint.Resources) -> None:
    """The example docs/lint.md gives of the format is valid, and clean."""
    assert DOCUMENTED in (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    example = parse_example(DOCUMENTED)
    assert example.settings == {"french-spaces": "narrow"}
    assert [f.code for f in lint_example(example, resources)] == []


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("  Draw one card.", 1, "a continuation line must follow a value"),
        ("en: Draw.\nDraw one card.", 2, "expected '<lang>: <text>'"),
        ("en: Draw.\nde: Zieh.", 2, "unknown language 'de'"),
        ("en: Draw.\nen: Discard.", 2, "en.text is given twice"),
        ("en: Draw.\nsettings.apostrophe: `", 2, "settings.apostrophe is one of"),
        ("en: Draw.\nsettings.spelling: yes", 2, "settings.spelling is true or false"),
        ("en: Draw.\nsettings.select: TR", 2, "unknown setting 'select'"),
        ("en: Draw.\n---\n---\nen: Discard.", 3, "a card with no line"),
        ("# nothing", 1, "no card"),
    ],
)
def test_a_broken_example_names_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_example(text, "TR999 bad example")
    assert raised.value.line == line and message in raised.value.message
    assert str(raised.value).startswith(f"TR999 bad example:{line}: ")


def test_a_value_that_makes_no_card_file_names_its_line() -> None:
    example = parse_example("en: Draw one card.\nfr: Pioche une carte.\nfr.type: Event", "ex")
    with pytest.raises(InputError) as raised:
        card_files(example)
    assert raised.value.line == 3 and raised.value.message.startswith("fr: ")
