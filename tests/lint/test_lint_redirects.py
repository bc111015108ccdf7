"""Former rule codes (ruff's rule redirects): ``--select``, ``--ignore``, the
configuration and ``lint-ignore`` naming a code a rule no longer has mean the rule's
code now, with a warning naming it.  And the rule families that declare the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import run
from translator import api, lint
from translator.diagnostics import (
    REDIRECTS,
    REGISTRY,
    Family,
    Registry,
    RegistryError,
    Severity,
)
from translator.lint.config import Config
from translator.lint.examples import lint_example, parse_example
from translator.lint.rule import TRANSLATION

SAMPLE = ROOT / "cards" / "sample"
#: A card GL201 reports (« défendre contre » is deprecated: « bloquer »).
DEFEND = (
    "en: I can defend against flying creatures.\n"
    "fr: Je peux défendre contre les créatures volantes.\n"
)


@pytest.fixture(scope="module")
def resources() -> lint.Resources:
    problems: list = []
    found = lint.load_resources(["fr"], lint.Options(), problems)
    assert problems == []
    return found


def test_every_redirect_leads_to_a_rule_and_from_none() -> None:
    assert REDIRECTS["FR403"] == "GL201"
    for old, new in REDIRECTS.items():
        assert REGISTRY.get(old) is None, f"{old} is a rule's code again"
        assert REGISTRY.get(new) is not None, f"{old} leads to {new}, which is no rule"


def test_the_registry_redirects_whole_codes_only() -> None:
    registry = Registry(modules={}, redirects={"XX101": "YY202"})
    assert registry.redirected(["xx101", "XX1", "TR"]) == (
        ["YY202", "XX1", "TR"],
        ["XX101 is now YY202: write YY202"],
    )
    assert registry.redirect(" xx101 ") == "YY202"
    assert registry.redirect("XX10") is None


def test_select_and_ignore_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    options, _ = api.lint_options(Config(), select=["FR403"], ignore=["fr403"])
    assert options.select == ["GL201"] and options.ignore == ["GL201"]
    assert options.redirected == [
        "FR403 is now GL201: write GL201",
        "FR403 is now GL201: write GL201",
    ]
    code, _ = run("lint", "--no-config", "--select", "FR403", str(SAMPLE))
    assert code == 0
    assert "translator: warning: FR403 is now GL201: write GL201" in capsys.readouterr().err


def test_select_and_ignore_in_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "translator.toml"
    config = Config(str(path), select=["FR403"], ignore=["FR403"])
    options, _ = api.lint_options(config)
    assert options.select == ["GL201"] and options.ignore == ["GL201"]
    assert options.redirected == [f"FR403 is now GL201: write GL201 (in {path})"] * 2
    # the command line's selection replaces the configured one, and says nothing of it
    options, _ = api.lint_options(Config(str(path), select=["FR403"]), select=["TR"])
    assert options.select == ["TR"] and options.redirected == []


def test_a_former_code_in_lint_ignore_suppresses_the_rule_now(
    resources: lint.Resources,
) -> None:
    found = lint_example(parse_example(DEFEND), resources)
    assert "GL201" in [f.code for f in found]
    found = lint_example(parse_example(DEFEND + "fr.lint-ignore: [FR403]\n"), resources)
    assert [(f.code, f.message) for f in found] == [
        ("LN003", "lint-ignore 'FR403' is now GL201: write GL201")
    ]
    assert found[0].severity is Severity.WARNING
    found = lint_example(parse_example(DEFEND + "fr.lint-ignore: [GL201]\n"), resources)
    assert found == []


def test_a_former_code_that_suppresses_nothing_is_unused_too(
    resources: lint.Resources,
) -> None:
    text = "en: Draw a card.\nfr: Pioche une carte.\nfr.lint-ignore: [FR403]\n"
    found = lint_example(parse_example(text), resources)
    assert sorted((f.code, f.message) for f in found) == [
        ("LN001", "lint-ignore 'FR403' suppresses nothing on this card: remove it"),
        ("LN003", "lint-ignore 'FR403' is now GL201: write GL201"),
    ]


def test_markup_check_honours_redirects(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(REGISTRY.redirects, "MK199", "MK101")
    card = tmp_path / "card.txt"
    card.write_text("At 10:30 and 11:45\n", "utf-8")
    code, out = run("markup", "check", "--select", "MK199", str(card))
    assert "MK101" in out and code == 1
    assert "translator: warning: MK199 is now MK101: write MK101" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# Families.


def _declare(family: Family, code: str) -> None:
    family.rule(
        code=code,
        name="x",
        severity=Severity.INFO,
        summary="s",
        rationale="r",
        bad="b",
        good="g",
    )


def test_a_family_gives_its_rules_their_target_and_languages() -> None:
    french = REGISTRY.get("FR201")
    assert french is not None and french.languages == frozenset({"fr"})
    assert french.target == "translation"
    glossary = REGISTRY.get("GL301")
    assert glossary is not None and glossary.target == "library" and glossary.languages is None


def test_a_family_refuses_a_code_outside_it() -> None:
    family = Family(prefix="XX", target=TRANSLATION, languages=("fr",))
    with pytest.raises(RegistryError, match="part of family XX"):
        family.part("YY1")
    with pytest.raises(RegistryError, match="rule XX201: declared in family XX1"):
        _declare(family.part("XX1"), "XX201")
    assert family.part("XX1") == Family("XX1", TRANSLATION, ("fr",))


def test_explain_a_former_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run("lint", "--explain", "fr403")
    assert code == 0 and text.startswith("# GL201 deprecated-term")
    assert "translator: warning: FR403 is now GL201" in capsys.readouterr().err
