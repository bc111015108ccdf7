"""Documentation that is generated, or that promises something, stays true."""

from __future__ import annotations

from tests.conftest import ROOT
from translator import lint  # noqa: F401  (registers every rule)
from translator.diagnostics import REGISTRY, rules_reference


def test_rules_reference_is_up_to_date() -> None:
    generated = rules_reference(REGISTRY.rules(), "Rules")
    on_disk = (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert on_disk == generated, "regenerate: .venv/bin/python tools/rules_doc.py"


def test_every_rule_is_in_the_card_text_guide() -> None:
    guide = (ROOT / "docs" / "card-text.md").read_text("utf-8")
    for rule in REGISTRY.rules("markup"):
        assert rule.code in guide, rule.code


def test_readme_starts_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    commands = [line.split("#")[0].strip() for line in lines[:6] if line.startswith("    ./dev")]
    assert commands == ["./dev sample", "./dev test"]
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "./dev test" in ci


def test_every_limit_is_documented() -> None:
    from translator import limits

    page = (ROOT / "docs" / "security.md").read_text("utf-8")
    for name in (n for n in vars(limits) if n.startswith("MAX_")):
        assert f"`{name}`" in page, name
