"""The rule registry: one declaration per rule, checks bound to their rule's reporter,
declaration mistakes stopped at import, and docs/rules.md generated from it."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.toolkit import tool
from translator import markup
from translator.diagnostics import (
    REGISTRY,
    Applicability,
    Diagnostic,
    Fix,
    Registry,
    RegistryError,
    Rule,
    Severity,
    Target,
)
from translator.lint.context import Reporter
from translator.lint.model import Edit, Finding
from translator.lint.rule import ENGINE, LIBRARY, MARKUP, TRANSLATION
from translator.markup.checks import Reporter as MarkupReporter

FAMILIES = {"MK", "TR", "GL", "FR", "EO", "SP", "PR", "LN"}


def _rule(code: str = "ZZ101", **changes: object) -> Rule:
    fields: dict[str, object] = {
        "code": code,
        "name": "test-rule",
        "severity": Severity.WARNING,
        "summary": "s",
        "rationale": "r",
        "bad": "b",
        "good": "g",
        "target": "translation",
    }
    fields.update(changes)
    return Rule(**fields)  # type: ignore[arg-type]


def _nothing(subject: object, report: Reporter) -> Iterator[Finding]:
    return iter(())


def test_the_rules_page_is_what_the_script_writes() -> None:
    page = (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert page == tool("rules_doc").reference(), (
        "docs/rules.md is stale: run .venv/bin/python tools/rules_doc.py"
    )


def test_the_registry_loads_every_family_once() -> None:
    rules = REGISTRY.rules()
    assert {rule.code[:2] for rule in rules} == FAMILIES
    assert len({rule.code for rule in rules}) == len(rules) >= 84
    assert [r.code for r in REGISTRY.rules(MARKUP)] == [r.code for r in REGISTRY.rules("markup")]
    for rule in rules:
        assert REGISTRY.target(rule.code).name == rule.target, rule.code


def test_the_engine_declares_its_rules_and_imports_no_rule_module() -> None:
    for code in ("LN001", "LN002"):
        assert REGISTRY.target(code) is ENGINE
        with pytest.raises(KeyError):
            REGISTRY.check(code)  # no stand-in check: the engine reports them
    engine = ast.parse((ROOT / "translator" / "lint" / "engine.py").read_text("utf-8"))
    imported = [
        node.module or ""
        for node in ast.walk(engine)
        if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert imported and not any(m == "rules" or m.startswith("rules.") for m in imported)


def test_checking_markup_loads_only_the_markup_rules() -> None:
    code = (
        "import sys\n"
        "from translator import markup\n"
        "assert markup.check_text('At 10:30 and 11:45')[0].code == 'MK101'\n"
        "print('translator.lint.rules' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "False"


def test_declarations_say_where_they_apply_and_what_they_fix() -> None:
    for rule in REGISTRY.rules():
        if rule.code.startswith("FR"):
            assert rule.languages == {"fr"}, rule.code
        elif rule.code.startswith("EO"):
            assert rule.languages == {"eo"}, rule.code
        elif rule.code == "SP101":
            assert rule.languages == {"fr", "eo"}
        else:
            assert rule.languages is None, rule.code
        # --fix applies every fix a check makes: each one is declared safe.
        wanted = Applicability.SAFE if rule.fix else Applicability.NONE
        assert rule.applicability is wanted, rule.code
    assert REGISTRY.get("FR101").applies_to("fr")  # type: ignore[union-attr]
    assert not REGISTRY.get("FR101").applies_to("eo")  # type: ignore[union-attr]
    assert REGISTRY.get("TR101").applies_to("eo")  # type: ignore[union-attr]


def test_each_check_reports_its_own_rule() -> None:
    """The markup checker hands each check its rule's reporter: every diagnostic a
    check makes on the rules' bad examples carries that rule's code and severity."""
    rules = REGISTRY.rules(MARKUP)
    checks = REGISTRY.checks(MARKUP, rules)
    assert [rule for rule, _ in checks] == rules
    seen = set()
    for rule in rules:
        result = markup.parse(rule.bad)
        for checked, check in checks:
            for diagnostic in check(result):
                assert (diagnostic.code, diagnostic.severity) == (
                    checked.code,
                    checked.severity,
                )
                seen.add(checked.code)
    assert len(seen) == len(rules)


def test_checks_are_typed_by_target() -> None:
    assert REGISTRY.checks(TRANSLATION, REGISTRY.rules(MARKUP)) == []
    assert {r.code for r, _ in REGISTRY.checks(LIBRARY, REGISTRY.rules())} == {
        "GL301",
        "GL302",
        "PR101",
    }


def test_a_code_declared_twice_is_refused() -> None:
    registry = Registry(modules={})
    registry.declare(_rule(), TRANSLATION)
    with pytest.raises(RegistryError, match="ZZ101: declared twice"):
        registry.declare(_rule(), TRANSLATION)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"code": "ZZ1"}, "two capitals and three digits"),
        ({"fix": "Rewrites it."}, "says what it does"),
        ({"applicability": Applicability.SAFE}, "says what it does"),
        ({"languages": frozenset()}, "would never run"),
    ],
)
def test_a_wrong_declaration_is_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        Registry(modules={}).declare(_rule(**changes), TRANSLATION)


def test_a_rule_without_its_check_stops_the_load() -> None:
    registry = Registry(modules={})
    registry.declare(_rule(), TRANSLATION)
    registry.declare(_rule("ZZ102", target="engine"), ENGINE)  # reported by the engine
    with pytest.raises(RegistryError, match="without a check: ZZ101"):
        registry.rules()
    registry.declare(_rule("ZZ103"), TRANSLATION)(_nothing)
    with pytest.raises(RegistryError, match="a second check"):
        registry.attach("ZZ103", _nothing)  # type: ignore[arg-type]


def test_an_engine_rule_takes_no_check() -> None:
    declared = Registry(modules={}).declare(_rule(target="engine"), ENGINE)
    with pytest.raises(RegistryError, match="take no check"):
        declared(_nothing)


def test_a_check_bound_to_its_reporter() -> None:
    registry = Registry(modules={})
    target: Target[str, MarkupReporter, str] = Target("markup", MarkupReporter)
    seen: list[tuple[str, str]] = []

    def check(text: str, report: MarkupReporter) -> Iterator[str]:
        seen.append((text, report.rule.code))
        yield text

    registry.declare(_rule(target="markup"), target)(check)
    [(rule, bound)] = registry.checks(target, registry.rules())
    assert list(bound("card")) == ["card"] and seen == [("card", rule.code)]


def test_a_rule_without_a_fix_cannot_report_one() -> None:
    plain = _rule()
    with pytest.raises(RegistryError, match="ZZ101 declares no fix"):
        Reporter(plain).at(None, "text", 0, "m", Edit("text", 0, 1, "x"))  # type: ignore[arg-type]
    result = markup.parse("text")
    with pytest.raises(RegistryError, match="ZZ101 declares no fix"):
        MarkupReporter(plain).at(result, 0, 1, "m", Fix(0, 1, "x"))
    fixing = _rule(fix="Rewrites it.", applicability=Applicability.SAFE)
    diagnostic = MarkupReporter(fixing).at(result, 0, 1, "m", Fix(0, 1, "x"))
    assert isinstance(diagnostic, Diagnostic) and diagnostic.code == "ZZ101"


def test_explain_names_the_languages_of_a_language_rule() -> None:
    french = REGISTRY.get("FR101")
    assert french is not None and "\n\nLanguages: fr\n\n" in french.explain()
    english = REGISTRY.get("TR101")
    assert english is not None and "Languages" not in english.explain()


#: The registry a rule module below asks while it is being imported.
ASKED_WHILE_LOADING = Registry(modules={"translation": ("registry_asked_while_loading",)})


def test_asking_the_registry_while_it_loads_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "registry_asked_while_loading.py").write_text(
        "from tests.lint.test_registry import ASKED_WHILE_LOADING\nASKED_WHILE_LOADING.rules()\n",
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="while the rule modules load"):
        ASKED_WHILE_LOADING.rules()
    monkeypatch.delitem(sys.modules, "registry_asked_while_loading", raising=False)
