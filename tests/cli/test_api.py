"""The Python API (translator.api): every entry point, on a copy of the sample, says
what the command line prints for the same input."""

from __future__ import annotations

import doctest
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator import api
from translator.cli import main
from translator.errors import UsageError, UserError

SAMPLE = ROOT / "cards" / "sample"


def run(*args: str) -> tuple[int, str]:
    """The command line, in this process: exit code and standard output."""
    out = io.StringIO()
    code = main(list(args), out)
    return code, out.getvalue()


def run_json(*args: str) -> tuple[int, dict]:
    code, out = run(*args, "--format", "json")
    return code, json.loads(out)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding ``cards/sample``, a copy of the sample nobody changes (the
    build made there by one test is reused by the docstring examples)."""
    where = tmp_path_factory.mktemp("api")
    shutil.copytree(SAMPLE, where / "cards" / "sample")
    return where


@pytest.fixture
def here(pristine: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The pristine copy as the current directory: the API and the command line read
    the same library, and the same (absent) configuration file."""
    monkeypatch.chdir(pristine)
    return pristine


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the sample with an error (a lost minus sign, TR101) and three safe
    fixes (an apostrophe, two spaces, a space before a full stop), as the current
    directory: ``cards/sample`` is the deck."""
    deck = tmp_path / "cards" / "sample"
    shutil.copytree(SAMPLE, deck)
    edits = {
        "veil-stalker.fr.md": ("marqueurs -1/-1", "marqueurs 1/-1"),
        "war-drums.fr.md": ("jusqu’à", "jusqu'à"),
        "courier.fr.md": (
            "La *joueureuse ciblée* pioche une carte.",
            "La  *joueureuse ciblée* pioche une carte .",
        ),
    }
    for name, (old, new) in edits.items():
        path = deck / name
        text = path.read_text("utf-8")
        assert old in text, name
        path.write_text(text.replace(old, new), "utf-8")
    monkeypatch.chdir(tmp_path)
    yield deck


def contents(deck: Path) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(deck.glob("*.md"))}


# --------------------------------------------------------------------------------------
# import


def test_importing_the_api_loads_nothing_heavy() -> None:
    """Start-up time matters to a command line: the linter and the typesetter are
    imported by the calls that use them, not by ``import translator.api``."""
    script = (
        "import sys, translator.api; "
        "print(sorted(m for m in sys.modules if m.startswith('translator')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert found.strip() == "['translator', 'translator.api', 'translator.errors']"
    for heavy in ("weasyprint", "pikepdf", "yaml", "jinja2"):
        assert heavy not in found


def test_the_result_types_are_named_in_the_api() -> None:
    from translator.lint.config import Config
    from translator.pdf.preflight import FileReport
    from translator.review.sheet import Sheet
    from translator.typeset.batch import Report

    assert (api.Config, api.Sheet, api.BuildReport, api.FileReport) == (
        Config,
        Sheet,
        Report,
        FileReport,
    )
    with pytest.raises(AttributeError):
        api.Nothing  # noqa: B018


# --------------------------------------------------------------------------------------
# configuration


def test_the_configuration_is_the_one_every_command_reads(broken: Path) -> None:
    (broken.parent.parent / "translator.toml").write_text(
        '[lint]\nignore = ["TR101"]\nfail-on = "error"\n', "utf-8"
    )
    config = api.load_config()
    assert config.path is not None and config.path.endswith("translator.toml")
    assert (config.ignore, config.fail_on) == (["TR101"], "error")
    assert api.load_config(broken).path == config.path  # found up from a deck too
    result = api.lint("cards/sample", languages=["fr"])
    assert "TR101" not in {f.code for f in result.findings}
    assert not result.failed  # only warnings and infos: fail-on error
    code, data = run_json("lint", "cards/sample", "--lang", "fr")
    assert code == 0
    assert data["findings"] == [f.as_dict() for f in result.findings]
    # sign-off reads the same file: TR101 ignored, so nothing holds the card back
    done = api.sign_off(["veil-stalker"], lang="fr", library="cards/sample", dry_run=True)
    assert [r.card for r in done.reviewed] == ["veil-stalker"] and not done.held


def test_configuration_mistakes_are_user_errors(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UsageError, match=r"no configuration file missing\.toml"):
        api.load_config(file="missing.toml")
    assert run("lint", "cards/sample", "--config", "missing.toml")[0] == 2
    assert "no configuration file missing.toml" in capsys.readouterr().err
    config = broken.parent.parent / "translator.toml"
    config.write_text('[lint]\nselect = ["XX9"]\n', "utf-8")
    with pytest.raises(UsageError) as raised:
        api.lint("cards/sample")
    assert str(raised.value) == (
        f"no rule matches XX9 (in {config}) (see 'translator lint --list-rules')"
    )
    assert run("lint", "cards/sample")[0] == 2
    assert str(raised.value) in capsys.readouterr().err
    config.write_text("[lint]\nfail-on = 3\n", "utf-8")
    with pytest.raises(UserError) as raised:
        api.load_config()
    assert "translator.toml" in str(raised.value) and ":2:" in str(raised.value)


def test_lint_options_override_the_configuration() -> None:
    from translator.lint.config import Config

    config = Config("t.toml", select=["TR"], ignore=["TR5"], fail_on="error", glossary=["g"])
    options, fail_on = api.lint_options(
        config, select=["gl"], ignore=["GL3"], languages=["fr"], glossary=["cards"]
    )
    assert (options.select, options.ignore) == (["GL"], ["TR5", "GL3"])
    assert (options.languages, options.glossary_paths, fail_on.value) == (
        ["fr"],
        ["g", "cards"],
        "error",
    )
    assert api.lint_options(config, fail_on="info")[1].value == "info"


# --------------------------------------------------------------------------------------
# lint and fix


def test_lint_finds_what_the_command_line_prints(broken: Path) -> None:
    result = api.lint("cards/sample", languages=["fr"])
    code, data = run_json("lint", "cards/sample", "--lang", "fr")
    assert [f.as_dict() for f in result.findings] == data["findings"]
    assert {**result.summary.to_dict(), "fixed": 0} == data["summary"]
    assert (result.summary.errors, result.summary.fixable, result.files) == (1, 3, 24)
    assert result.failed and code == 1
    assert result.problems == [] and result.fail_on.value == "warning"
    assert {r.code for r in result.rules} >= {"TR101", "FR203"}
    # the text report counts the same
    assert run("lint", "cards/sample", "--lang", "fr")[1].endswith(
        "4 findings in 24 cards (24 translations, 24 files): 1 error, 2 warnings, 1 info."
        " 3 fixable with --fix.\n"
    )
    # a selection, as --select
    only = api.lint(["cards/sample"], languages=["fr"], select=["TR1"])
    assert [f.code for f in only.findings] == ["TR101"]
    assert [f.as_dict() for f in only.findings] == run_json(
        "lint", "cards/sample", "--lang", "fr", "--select", "TR1"
    )[1]["findings"]


def test_lint_refuses_what_the_command_line_refuses(broken: Path) -> None:
    with pytest.raises(UsageError, match="--source is for Aminduna JSON files"):
        api.lint("cards/sample", sources=["deck.en.json"])
    with pytest.raises(UsageError, match="no rule matches TR999 "):
        api.lint("cards/sample", select=["TR999"])


def test_fix_is_lint_fix_and_diff(
    broken: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = contents(broken)
    preview = api.fix("cards/sample", languages=["fr"], write=False)
    assert contents(broken) == before  # nothing written
    code, diff = run("lint", "cards/sample", "--lang", "fr", "--diff")
    assert code == 1 and preview.diff == diff
    assert preview.changed == ["cards/sample/courier.fr.md", "cards/sample/war-drums.fr.md"]
    assert (preview.fixed, preview.written) == (3, False)
    # the command line's --fix on a second copy, the API's on this one: the same files
    other = tmp_path_factory.mktemp("cli-fix")
    shutil.copytree(broken, other / "cards" / "sample")
    done = api.fix("cards/sample", languages=["fr"])
    assert done.written and done.fixed == 3 and done.diff == diff
    fixed_here = contents(broken)
    assert {f"cards/sample/{n}" for n in fixed_here if fixed_here[n] != before[n]} == set(
        done.changed
    )
    assert all(fixed_here[Path(p).name] == text for p, text in done.contents.items())
    monkeypatch.chdir(other)
    code, data = run_json("lint", "cards/sample", "--lang", "fr", "--fix")
    assert contents(other / "cards" / "sample") == fixed_here
    # what remains is what the command line reports after fixing, and a new lint
    assert [f.as_dict() for f in done.remaining.findings] == data["findings"]
    assert {**done.remaining.summary.to_dict(), "fixed": 3} == data["summary"]
    assert code == 1 and [f.code for f in done.remaining.findings] == ["TR101"]
    monkeypatch.chdir(broken.parent.parent)
    again = api.lint("cards/sample", languages=["fr"])
    assert [f.as_dict() for f in again.findings] == [f.as_dict() for f in done.remaining.findings]
    # idempotent
    twice = api.fix("cards/sample", languages=["fr"])
    assert (twice.fixed, twice.changed, twice.diff) == (0, [], "")
    assert contents(broken) == fixed_here


def test_aminduna_json_is_linted_and_not_fixed(broken: Path) -> None:
    for lang in ("en", "fr"):
        assert (
            run("export", "arcmage", "cards/sample", "--lang", lang, "-o", f"deck.{lang}.json")[0]
            == 0
        )
    result = api.lint("deck.fr.json", sources=["deck.en.json"])
    code, data = run_json("lint", "deck.fr.json", "--source", "deck.en.json")
    assert [f.as_dict() for f in result.findings] == data["findings"]
    assert "TR101" in {f.code for f in result.findings} and code == 1
    assert {f.path for f in result.findings} == {"deck.fr.json"}
    with pytest.raises(UsageError, match="--fix and --diff change card files, not Aminduna"):
        api.fix("deck.fr.json", write=False)


# --------------------------------------------------------------------------------------
# sign-off


def test_sign_off_is_translator_review(broken: Path) -> None:
    code, data = run_json(
        "review", "veil-stalker", "courier", "--lang", "fr", "--library", "cards/sample",
        "--dry-run",
    )  # fmt: skip
    done = api.sign_off(
        ["veil-stalker", "courier"], lang="fr", library="cards/sample", dry_run=True
    )
    assert [r.to_dict() for r in done.reviewed] == data["reviewed"]
    assert [h.to_dict() for h in done.held] == data["not_reviewed"]
    assert [f.as_dict() for f in done.report.findings] == data["findings"]
    assert done.held == [api.Held("veil-stalker", "fr", 1)] and code == 1
    assert done.dry_run and not done.reviewed[0].written
    before = contents(broken)
    signed = api.sign_off(["courier"], lang="fr", by="Ana", library="cards/sample")
    [reviewed] = signed.reviewed
    assert (reviewed.card, reviewed.written, reviewed.path) == (
        "courier",
        True,
        "cards/sample/courier.fr.md",
    )
    after = contents(broken)
    assert "reviewer: Ana" in after["courier.fr.md"]
    assert {n for n in after if after[n] != before[n]} == {"courier.fr.md"}
    forced = api.sign_off(["veil-stalker"], lang="fr", library="cards/sample", force=True)
    assert [r.card for r in forced.reviewed] == ["veil-stalker"] and not forced.held


def test_sign_off_refuses_what_review_refuses(here: Path) -> None:
    with pytest.raises(UsageError, match="--lang en: translations are into"):
        api.sign_off(["courier"], lang="en", library="cards/sample")
    with pytest.raises(UsageError, match="no card 'nobody'"):
        api.sign_off(["nobody"], lang="fr", library="cards/sample")
    assert run("review", "nobody", "--lang", "fr", "--library", "cards/sample")[0] == 2


def test_library_problems_are_listed(tmp_path: Path) -> None:
    deck = tmp_path / "sample"
    shutil.copytree(SAMPLE, deck)
    (deck / "courier.fr.md").write_text("---\nname: [\n---\n", "utf-8")
    with pytest.raises(api.LibraryProblems) as raised:
        api.load_library(deck)
    assert raised.value.problems and str(raised.value).endswith("; fix them and run again")
    assert any("courier.fr.md" in str(p) for p in raised.value.problems)


# --------------------------------------------------------------------------------------
# glossary


@pytest.mark.parametrize("term", ["créatures", "counter", "Infiltré", "joueureu"])
def test_glossary_search_is_glossary_lookup(here: Path, term: str) -> None:
    found = api.glossary_search(term, "fr")
    code, data = run_json("glossary", "lookup", term, "--lang", "fr")
    assert [r.to_dict() for r in found.results] == data["results"]
    assert found.results and code == 0
    assert (found.query, found.lang, found.problems) == (term, "fr", [])


def test_glossary_search_that_finds_nothing(here: Path) -> None:
    assert api.glossary_search("zzxq", "eo").results == []
    assert run("glossary", "lookup", "zzxq", "--lang", "eo")[0] == 1


# --------------------------------------------------------------------------------------
# review sheets


def test_review_sheets_are_review_sheet(here: Path) -> None:
    made = api.review_sheets("cards/sample", languages=["fr"], out="api-review", renders=False)
    code, data = run_json(
        "review-sheet", "cards/sample", "--lang", "fr", "--out", "cli-review", "--no-renders"
    )
    assert code == 0
    assert [s.to_dict() for s in made.sheets] == [
        {k: v for k, v in sheet.items() if k != "path"} for sheet in data["sheets"]
    ]
    assert [str(made.path(s)) for s in made.sheets] == ["api-review/sample.fr.html"]
    assert made.index == Path("api-review/index.html") and made.index.is_file()
    page = made.path(made.sheets[0]).read_text("utf-8")
    assert page.count('class="card') == Path("cli-review/sample.fr.html").read_text("utf-8").count(
        'class="card'
    )
    plan = api.plan_review_sheets("cards/sample", jobs=1)
    assert (plan.languages, plan.total) == (["eo", "fr"], 24 * 2 * 2)
    with pytest.raises(UsageError, match="--dpi is between 24 and 300"):
        api.plan_review_sheets("cards/sample", dpi=400)


# --------------------------------------------------------------------------------------
# build and preflight


def test_build_and_preflight_are_translator_build_and_preflight(here: Path) -> None:
    slugs = ["veil-stalker", "courier"]
    code, printed = run_json(
        "build", "cards/sample", "--lang", "fr", "--card", slugs[0], "--card", slugs[1],
        "--out", "out", "--jobs", "1",
    )  # fmt: skip
    assert code == 0
    report = api.build(
        "cards/sample", languages=["fr"], cards=slugs, out="api-out", jobs=1, force=True
    )
    assert report.ok and report.languages == ["fr"] and report.failed == []
    assert [Path(f).name for f in report.files] == [Path(f).name for f in printed["files"]]
    for mine, theirs in zip(report.cards, printed["cards"], strict=True):
        assert (mine.slug, mine.lang, mine.scale, mine.errors, mine.warnings) == (
            theirs["card"],
            theirs["lang"],
            theirs["scale"],
            theirs["errors"],
            theirs["warnings"],
        )
    assert [p.to_dict() for p in report.problems] == [
        {**p, "path": p["path"].replace("/out/", "/api-out/")} for p in printed["preflight"]
    ]
    assert (len(report.files), report.made, report.pages) == (
        printed["summary"]["files"],
        printed["summary"]["made"],
        printed["summary"]["pages"],
    )
    # the preflight of what the command line built, both ways
    checked = api.preflight(printed["files"], size="arcmage")
    code, data = run_json("preflight", *printed["files"], "--size", "arcmage")
    assert code == 0 and all(r.ok for r in checked)
    assert [
        {
            "path": r.path,
            "pages": r.pages,
            "ok": r.ok,
            "problems": [p.to_dict() for p in r.problems],
        }
        for r in checked
    ] == data["files"]


def test_build_settings_are_checked_before_anything_is_made(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = api.plan_build("cards/sample", languages=["all"], deck=True, jobs=1)
    assert (plan.request.languages, plan.total, plan.request.deck) == (["en", "eo", "fr"], 72, True)
    refused = {
        "--floor is a scale": {"floor": 0.1},
        "--sheet-backs goes with --sheets": {"sheet_backs": True},
        "--card nobodyy: no such card in cards/sample": {"cards": ["nobodyy"]},
        "--lang de: no card is in that language here": {"languages": ["de"]},
        "--ink-limit is a total ink coverage": {"ink_limit": 50},
    }
    for message, settings in refused.items():
        with pytest.raises(UsageError, match=message):
            api.plan_build("cards/sample", **settings)
    assert run("build", "cards/sample", "--floor", "0.1")[0] == 2
    assert "--floor is a scale" in capsys.readouterr().err
    with pytest.raises(UsageError):
        api.plan_build("cards/sample", size="huge")
    assert not Path("out/png").exists()


def test_preflight_refuses_what_is_not_a_pdf(here: Path) -> None:
    from translator.textio import InputError

    with pytest.raises(InputError):
        api.preflight("no-such.pdf")
    with pytest.raises(UsageError, match="--ink-limit"):
        api.preflight("no-such.pdf", ink_limit=500)


# --------------------------------------------------------------------------------------
# the examples


def test_the_docstring_examples_run(here: Path) -> None:
    """Every entry point's example says what it does, on the sample (last: the card
    the build test made is reused)."""
    results = doctest.testmod(api, optionflags=doctest.ELLIPSIS, report=True)
    assert results.attempted >= 15
    assert results.failed == 0


def test_the_documented_example_runs(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/api.md's example, as written (the build test's card is reused)."""
    page = (ROOT / "docs" / "api.md").read_text("utf-8")
    block = page.split("\n    from translator import api\n", 1)[1].split("\n\nRun it", 1)[0]
    code = "from translator import api\n" + "\n".join(
        line.removeprefix("    ") for line in block.splitlines()
    )
    exec(compile(code, "docs/api.md", "exec"), {})  # our own documentation
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "0 errors; passes" and printed[1] == "nothing to fix"
    assert printed[2].startswith("True [") and printed[3].endswith("print-ready")
    assert printed[4].startswith("entry creature ")


def test_the_converters_are_markup_xml_markdown_rules_and_html(tmp_path: Path) -> None:
    """The four conversions print what the API returns, and refuse what it refuses."""
    card = str(SAMPLE / "courier.fr.md")
    code, out = run("markup", "xml", card, "--format", "json")
    assert code == 0 and json.loads(out) == api.markup_xml([card])
    xml = tmp_path / "card.xml"
    xml.write_text(api.markup_xml([card])[card], "utf-8")
    for newline in ("crlf", "lf"):
        code, out = run("markup", "markdown", str(xml), "--newline", newline)
        assert code == 0 and out == api.markup_markdown(str(xml), newline=newline)
    assert "\r\n" not in api.markup_markdown(str(xml), newline="lf")
    code, out = run("markup", "rules", card, "--lang", "fr")
    assert code == 0 and json.loads(out) == api.markup_rule_text(card, "fr")
    code, out = run("markup", "html", card)
    assert code == 0 and out == api.markup_html(card) + "\n"
    broken = tmp_path / "broken.xml"
    broken.write_text("<layout><p>", "utf-8")
    with pytest.raises(UserError, match=str(broken)):
        api.markup_markdown(str(broken))
