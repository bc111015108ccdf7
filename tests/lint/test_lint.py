"""The lint engine and command: rules on real cards, outputs, configuration, suppression,
Aminduna JSON input, exit codes.  The one-defect-per-card corpus is test_lint_corpus.py."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import copy_sample, edit, run
from translator import cards, lint
from translator.cli import main, reports
from translator.diagnostics import REGISTRY
from translator.languages.fr import LANGUAGE as FRENCH
from translator.lint.numbers import compare, read_numbers

SAMPLE = ROOT / "cards" / "sample"
EN_NUMBERS = {"one": "1", "two": "2", "three": "3"}
FR_NUMBERS = {"un": "1", "une": "1", "deux": "2", "trois": "3"}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def lint_json(*args: str) -> tuple[int, dict]:
    code, text = run("lint", "--no-config", "--format", "json", *args)
    return code, json.loads(text)


def codes(report: dict, card: str | None = None) -> list[str]:
    return sorted(f["code"] for f in report["findings"] if card in (None, f["card"]))


# --------------------------------------------------------------------------------------
# The sample and the engine.


def test_the_sample_lints_clean() -> None:
    code, report = lint_json(str(SAMPLE))
    assert code == 0, report["findings"]
    assert report["findings"] == []
    assert report["summary"]["cards"] == 24
    assert report["summary"]["translations"] == 48


def test_every_rule_is_documented_with_examples() -> None:
    lint_rules = [r for r in REGISTRY.rules() if r.code[:2] in ("TR", "GL", "LN")]
    assert len(lint_rules) >= 28
    for rule in lint_rules:
        assert re.fullmatch(r"(TR|GL|LN)\d{3}", rule.code)
        assert rule.summary and rule.rationale and rule.bad and rule.good, rule.code
        assert rule.bad != rule.good, rule.code


def test_json_shape_is_the_contract(library: Path) -> None:
    edit(library / "harbor-lord.fr.md", "subtype: Seigneur, humain", "subtype: Seigneur Humain")
    code, report = lint_json(str(library), "--lang", "fr")
    assert code == 1
    assert report["version"] == 1
    assert set(report["summary"]) >= {"cards", "errors", "warnings"}
    [finding] = report["findings"]
    assert set(finding) >= {
        "code",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "card",
        "guid",
        "lang",
        "field",
        "fix",
    }
    assert finding == {
        **finding,
        "code": "TR402",
        "severity": "warning",
        "line": 4,
        "column": 10,
        "card": "harbor-lord",
        "guid": None,
        "lang": "fr",
        "field": "subtype",
        "fix": "Seigneur, humain",
    }
    assert finding["path"].endswith("harbor-lord.fr.md")


def test_stat_sign_and_number_word_are_found_where_they_are(library: Path) -> None:
    path = library / "sudden-bloom.fr.md"
    edit(path, "gagne +2/+2", "gagne -2/+2")
    code, report = lint_json(str(path))
    assert code == 1
    [finding] = report["findings"]
    assert finding["code"] == "TR101"
    assert "+2/+2" in finding["message"] and "-2/+2" in finding["message"]
    line = path.read_text(encoding="utf-8").splitlines()[finding["line"] - 1]
    assert line[finding["column"] - 1 :].startswith("-2/+2")


def test_text_output_is_grouped_by_card_with_a_summary(library: Path) -> None:
    edit(library / "courier.eo.md", "eltiras unu karton", "eltiras tri kartojn")
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    code, text = run("lint", "--no-config", str(library))
    assert code == 1
    lines = text.splitlines()
    assert lines[0] == "courier (eo)"
    assert re.match(r".*courier\.eo\.md:\d+:\d+: TR103 number 1 of the English text", lines[1])
    assert "courier (fr)" in lines
    assert lines[-1] == (
        "2 findings in 24 cards (48 translations, 72 files): 2 errors, 0 warnings, 0 infos."
    )


def test_color_only_on_a_terminal(library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    inputs = lint.Options()
    loaded, problems = cards.load_library([str(library)])
    report = lint.lint(loaded, lint.load_resources(["fr", "eo"], inputs, problems), inputs)
    plain, colored = io.StringIO(), io.StringIO()
    reports.write_text(report, plain)
    reports.write_text(report, colored, color=True)
    assert "\033[" not in plain.getvalue()
    assert "\033[31mTR103\033[0m" in colored.getvalue()


def test_select_ignore_and_fail_on(library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    assert lint_json(str(library), "--select", "GL")[0] == 0
    assert lint_json(str(library), "--ignore", "TR1")[0] == 0
    assert lint_json(str(library), "--select", "TR103")[0] == 1
    # an info finding fails only with --fail-on info
    edit(library / "courier.eo.md", 'source: "', 'old: "')
    edit(library / "courier.eo.md", "old: ", "# old: ")
    code, report = lint_json(str(library), "--select", "TR602")
    assert codes(report) == ["TR602"] and code == 0
    assert lint_json(str(library), "--select", "TR602", "--fail-on", "info")[0] == 1


def test_unknown_rule_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("lint", "--select", "TR999", str(SAMPLE))[0] == 2
    assert "no rule matches TR999" in capsys.readouterr().err


def test_explain_and_list_rules() -> None:
    code, text = run("lint", "--explain", "TR101")
    assert code == 0 and text.startswith("# TR101 stat-modifier") and "## Bad" in text
    code, text = run("lint", "--list-rules")
    listed = re.findall(r"^([A-Z]{2}\d{3}) ", text, flags=re.M)
    assert listed == [r.code for r in REGISTRY.rules()]
    assert {"MK101", "TR101", "GL201", "LN001"} <= set(listed)


# --------------------------------------------------------------------------------------
# Suppression and configuration.


def test_suppression_is_used_and_unused_ones_are_reported(library: Path) -> None:
    path = library / "courier.fr.md"
    edit(path, "pioche une carte", "pioche trois cartes")
    edit(path, "status: Draft\n", "status: Draft\nlint-ignore: [TR103, GL2, XX9]\n")
    code, report = lint_json(str(path))
    assert code == 1
    found = {f["code"]: f for f in report["findings"]}
    assert set(found) == {"LN001", "LN002"}
    assert "'GL2'" in found["LN001"]["message"]
    assert "'XX9'" in found["LN002"]["message"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[found["LN001"]["line"] - 1].startswith("lint-ignore:")


def test_the_samples_suppressions_explain_themselves() -> None:
    for path in SAMPLE.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        if "lint-ignore:" in text:
            before = text.split("lint-ignore:")[0].splitlines()[-1]
            assert before.startswith("#"), f"{path.name}: say why above lint-ignore"


@pytest.mark.parametrize(
    "name, table", [("translator.toml", "[lint]"), ("pyproject.toml", "[tool.translator.lint]")]
)
def test_configuration_file(
    library: Path, monkeypatch: pytest.MonkeyPatch, name: str, table: str
) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    (library.parent / name).write_text(f'{table}\nignore = ["TR103"]\n', encoding="utf-8")
    monkeypatch.chdir(library.parent)
    assert run("lint", "sample")[0] == 0
    assert run("lint", "sample", "--no-config")[0] == 1
    (library.parent / name).write_text(f'{table}\nfail-on = "loud"\n', encoding="utf-8")
    assert run("lint", "sample")[0] == 2


def test_allow_english_words(library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit(library / "song-of-the-herd.fr.md", "Chut.", "Hush, the harbor sleeps.")
    code, report = lint_json(str(library))
    assert code == 1 and codes(report) == ["TR504"]
    config = library.parent / "translator.toml"
    config.write_text('[lint]\nallow-english = ["the", "harbor", "sleeps"]\n', "utf-8")
    monkeypatch.chdir(library.parent)
    assert run("lint", "sample")[0] == 0


# --------------------------------------------------------------------------------------
# Aminduna JSON, linted without importing it.


def test_json_export_lints_like_the_library(tmp_path: Path, library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    for lang in ("en", "fr"):
        assert (
            run(
                "export",
                "arcmage",
                str(library),
                "--lang",
                lang,
                "-o",
                str(tmp_path / f"deck.{lang}.json"),
            )[0]
            == 0
        )
    code, report = lint_json(
        str(tmp_path / "deck.fr.json"), "--source", str(tmp_path / "deck.en.json")
    )
    assert code == 1
    [finding] = report["findings"]
    assert finding["code"] == "TR103" and finding["card"] == "courier"
    assert finding["path"] == str(tmp_path / "deck.fr.json")
    line = (tmp_path / "deck.fr.json").read_text("utf-8").splitlines()[finding["line"] - 1]
    assert '"markdownText"' in line and "trois cartes" in line


def test_json_translations_without_their_english_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run("export", "arcmage", str(SAMPLE), "--lang", "eo", "-o", str(tmp_path / "deck.eo.json"))[
            0
        ]
        == 0
    )
    assert run("lint", str(tmp_path / "deck.eo.json"))[0] == 2
    err = capsys.readouterr().err
    assert "24 translated cards without their English card" in err and "--source" in err


# --------------------------------------------------------------------------------------
# The comparisons themselves.


def numbers(en: str, fr: str):
    return compare(read_numbers(en, EN_NUMBERS), read_numbers(fr, FR_NUMBERS))


def test_number_words_match_digits_and_words() -> None:
    assert numbers("Draw two cards.", "Pioche deux cartes.").missing_numbers == []
    assert numbers("Draw two cards.", "Pioche 2 cartes.").missing_numbers == []
    assert numbers("Draw two cards.", "Pioche trois cartes.").missing_numbers == ["2"]
    # articles are not extra numbers; digits are
    assert numbers("Draw a card.", "Pioche une carte.").extra_numbers == []
    assert [n.value for n in numbers("Deal 2 damage.", "Inflige 3 dégâts.").extra_numbers] == ["3"]


def test_signs_order_and_variables() -> None:
    assert numbers("gets -1/-1", "reçoit +1/+1").missing_stats == ["-1/-1"]
    assert numbers("gets -1/-1", "reçoit −1/−1").missing_stats == []
    result = numbers("+1/+0, then +0/+1", "+0/+1, puis +1/+0")
    assert result.missing_stats == [] and result.stat_order is not None
    assert numbers("gains +x/+0", "gagne +X/+0").missing_stats == []
    assert numbers("x+1/+0 counters", "marqueurs x+1/+0").missing_stats == []
    assert numbers("pay 2 more", "paye -2 de plus").missing_numbers == ["2"]
    assert numbers("Pay X resources", "Paye x ressources").missing_numbers == []


def test_french_imperative_with_a_pronoun_is_a_form_of_the_verb() -> None:
    assert {"joue-moi", "désengage-la", "défausse-les"} <= (
        FRENCH.verb_forms("jouer")
        | FRENCH.verb_forms("désengager")
        | FRENCH.verb_forms("défausser")
    )


def test_stale_translation_names_the_changed_fields(library: Path) -> None:
    edit(library / "courier.en.md", "draws one card", "draws one card at random")
    code, report = lint_json(str(library), "--select", "TR6")
    assert code == 1
    messages = {f["lang"]: f["message"] for f in report["findings"]}
    assert set(messages) == {"fr", "eo"}
    source = cards.load_library([str(library)])[0].find("courier")[0].source
    assert source is not None
    assert "its text changed" in messages["fr"]
    assert cards.source_fingerprint(source) in messages["fr"]


def test_old_single_hash_fingerprints_are_still_read(library: Path) -> None:
    path = library / "courier.fr.md"
    text = re.sub(
        r'source: "[0-9a-f-]+"', 'source: "0123456789ab"', path.read_text(encoding="utf-8")
    )
    path.write_text(text, encoding="utf-8")
    code, report = lint_json(str(path), "--select", "TR6")
    assert code == 1 and "old fingerprint format" in report["findings"][0]["message"]


def test_deprecated_term_fix_keeps_the_form(library: Path) -> None:
    # The list's own reminder (« compteurs ») is the list's matter, reported on the
    # list (docs/lint-abilities.md): a reminder worded otherwise is the card's.
    edit(
        library / "veil-stalker.fr.md",
        "sous la forme de marqueurs -1/-1 aux créatures",
        "sous la forme de Compteurs -1/-1 à toutes les créatures",
    )
    code, report = lint_json(str(library), "--select", "GL201")
    assert code == 1
    [finding] = report["findings"]
    assert finding["fix"] == "Marqueurs"
    assert "marqueur" in finding["message"]


def test_inconsistent_sentence_reports_the_minority(library: Path) -> None:
    # Three Veterans: two say "Je ne suis pas engagé quand j’attaque.", one rewords it.
    for copy in ("iron-veteran", "iron-recruit"):
        for lang in ("en", "fr", "eo"):
            shutil.copy(library / f"iron-legionnaire.{lang}.md", library / f"{copy}.{lang}.md")
    edit(
        library / "iron-recruit.fr.md",
        "Je ne suis pas engagé quand j’attaque.",
        "Attaquer ne m’engage pas.",
    )
    code, report = lint_json(str(library), "--select", "GL302", "--lang", "fr")
    assert code == 1
    [finding] = report["findings"]
    assert finding["card"] == "iron-recruit"
    assert "Je ne suis pas engagé quand j’attaque." in finding["message"]


def test_outputs_for_ci(library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    code, text = run("lint", "--no-config", "--format", "github", str(library))
    assert code == 1
    assert re.fullmatch(
        r"::error file=[^,]+courier\.fr\.md,line=\d+,col=\d+,title=TR103::"
        r"TR103 number 1 .*\n",
        text,
    )
    code, text = run("lint", "--no-config", "--format", "sarif", str(library))
    sarif = json.loads(text)
    assert sarif["version"] == "2.1.0"
    [result] = sarif["runs"][0]["results"]
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "TR103" == result["ruleId"]
    assert result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] > 1


def test_github_escaping() -> None:
    finding = lint.Finding(
        "TR101",
        REGISTRY.get("TR101").severity,
        "a: b, 50%\nc",  # type: ignore[union-attr]
        "dir,x/a:b.md",
        3,
        4,
        "c",
        None,
        "fr",
        "text",
    )
    assert reports.github_line(finding) == (
        "::error file=dir%2Cx/a%3Ab.md,line=3,col=4,title=TR101::TR101 a: b, 50%25%0Ac"
    )


def test_lint_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["lint", "--help"])
    assert "example:\n  translator lint" in capsys.readouterr().out


def test_the_readme_example_is_true(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("Example (a French card whose `-1/-1` lost its sign):")[1]
    lines = [line[4:] for line in block.split("\n\n    $ ")[1].split("\n\n")[0].splitlines()]
    block_end = block.split("\n\n    $ ")[1].split("\n\n")[1]
    expected = "\n".join(lines[1:]) + "\n\n" + block_end.strip() + "\n"
    shutil.copytree(SAMPLE, tmp_path / "cards" / "sample")
    edit(tmp_path / "cards" / "sample" / "veil-stalker.fr.md", "marqueurs -1/-1", "marqueurs 1/-1")
    monkeypatch.chdir(tmp_path)
    code, text = run("lint", "--no-config", "cards/sample", "--lang", "fr")
    assert code == 1
    assert text == expected
