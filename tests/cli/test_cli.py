"""The command line: outputs, exit codes, and bad input handled without tracebacks."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator.cli import build_parser, main

SAMPLE = ROOT / "cards" / "sample"


def run(
    *args: str, stdin: str | bytes | None = None, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str]:
    if stdin is not None:
        assert monkeypatch is not None
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    out = io.StringIO()
    code = main(list(args), out)
    return code, out.getvalue()


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def test_xml_of_a_file(tmp_path: Path) -> None:
    path = write(tmp_path, "card.md", ":W:hen I come into play, draw a card.\n")
    code, out = run("markup", "xml", path)
    assert code == 0
    assert out == "<layout><p><c>W</c><n>hen I come into play, draw a card.</n></p></layout>\n"


def test_xml_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run("markup", "xml", "-", stdin="Pay :g2: now", monkeypatch=monkeypatch)
    assert code == 0
    assert "<g2 />" in out


def test_xml_of_card_files_skips_front_matter_and_keeps_lines() -> None:
    code, out = run("markup", "xml", "--format", "json", str(SAMPLE))
    assert code == 0
    data = json.loads(out)
    assert len(data) >= 10
    assert data[str(SAMPLE / "war-drums.eo.md")].startswith("<layout><p><c>Ĉ</c>")


def test_markdown_reverse(monkeypatch: pytest.MonkeyPatch) -> None:
    xml = "<layout><p><c>wh</c><n>en</n><br /><n>x</n></p><p></p></layout>"
    code, out = run("markup", "markdown", "-", stdin=xml, monkeypatch=monkeypatch)
    assert code == 0
    assert out == ":W:en\\\r\nx\r\n\r\n\\"
    code, out = run(
        "markup", "markdown", "--newline", "lf", "-", stdin=xml, monkeypatch=monkeypatch
    )
    assert out == ":W:en\\\nx\n\n\\\n"


def test_markdown_bad_xml_names_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("markup", "markdown", "-", stdin="<layout>\n<p><n>x</p>", monkeypatch=monkeypatch)
    assert code == 2
    err = capsys.readouterr().err
    assert "<stdin>:2:" in err and "not well-formed" in err


def test_rules_json(tmp_path: Path) -> None:
    path = write(tmp_path, "c.md", ":m: Pay :g2:.\n\n*« Les troupeaux suivent son chant. »*")
    code, out = run("markup", "rules", "--lang", "fr", path)
    assert code == 0
    assert json.loads(out) == {
        "ruleText": "M, Pay 2.",
        "flavorText": "Les troupeaux suivent son chant.",
    }


def test_html_escapes_card_text(tmp_path: Path) -> None:
    path = write(tmp_path, "c.md", "<script>alert(1)</script> & **b**")
    code, out = run("markup", "html", path)
    assert code == 0
    assert "<script>" not in out
    assert "&lt;script&gt;" in out and "&amp;" in out and "<b>b</b>" in out


def test_format_stdout_check_and_write(tmp_path: Path) -> None:
    path = write(tmp_path, "c.md", "---\nname: X\n---\n__Bold__ and _it_\r\nmore\n\n\n\\\n")
    code, out = run("markup", "format", path)
    assert code == 0
    assert out == "---\nname: X\n---\n**Bold** and *it* more\n\n\\\n"
    assert run("markup", "format", "--check", path) == (1, f"would reformat {path}\n")
    assert run("markup", "format", "--write", path)[0] == 0
    assert Path(path).read_text("utf-8") == "---\nname: X\n---\n**Bold** and *it* more\n\n\\\n"
    assert run("markup", "format", "--check", path) == (0, "")


def test_check_text_output_and_exit_code(tmp_path: Path) -> None:
    path = write(tmp_path, "c.en.md", "---\nname: X\n---\nAt 10:30 and 11:45.\n\nPay :G1:.\n")
    code, out = run("markup", "check", path)
    assert code == 1
    lines = out.splitlines()
    assert (
        lines[0] == f"{path}:4:6: MK101 ':30 and 11:' prints as a drop cap \"30 and 11\": "
        "these colons pair up"
    )
    assert lines[1].startswith(f"{path}:6:5: MK102 ") and lines[1].endswith("[fix]")
    assert lines[-1] == "2 findings in 1 file: 2 errors, 0 warnings, 0 infos. 1 fixable with --fix."


def test_check_json_shape(tmp_path: Path) -> None:
    path = write(tmp_path, "c.md", "Pay :G1:.")
    code, out = run("markup", "check", "--format", "json", path)
    assert code == 1
    data = json.loads(out)
    assert data["version"] == 1
    [finding] = data["findings"]
    assert finding == {
        "path": path,
        "code": "MK102",
        "severity": "error",
        "message": finding["message"],
        "line": 1,
        "column": 5,
        "end_line": 1,
        "end_column": 9,
        "fix": ":g1:",
    }
    assert data["summary"]["errors"] == 1


def test_check_select_ignore(tmp_path: Path) -> None:
    path = write(tmp_path, "c.md", "Pay :G1:. At 10:30 and 11:45.")
    assert run("markup", "check", "--select", "MK101", path)[1].count("MK1") == 1
    assert "MK101" not in run("markup", "check", "--ignore", "MK101", path)[1]
    assert run("markup", "check", "--select", "MK2", path)[0] == 0


def test_check_unknown_rule_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "c.md", "x")
    assert run("markup", "check", "--select", "XX9", path)[0] == 2
    assert "no rule matches XX9" in capsys.readouterr().err


def test_check_fix_is_idempotent_and_only_touches_findings(tmp_path: Path) -> None:
    text = "---\nname: X\n---\n:w:hen you pay :G1:, at 10:30 and 11:45.\r\n"
    path = write(tmp_path, "c.md", text)
    code, out = run("markup", "check", "--fix", path)
    assert code == 1  # the colon pair cannot be fixed automatically
    fixed = Path(path).read_bytes().decode("utf-8")
    assert fixed == "---\nname: X\n---\n:W:hen you pay :g1:, at 10:30 and 11:45.\r\n"
    assert "Fixed 2" in out
    run("markup", "check", "--fix", path)
    assert Path(path).read_bytes().decode("utf-8") == fixed


def test_explain() -> None:
    code, out = run("markup", "check", "--explain", "mk101")
    assert code == 0
    assert out.startswith("# MK101 colon-pair") and "## Bad" in out


def test_explain_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("markup", "check", "--explain", "MK199")[0] == 2
    assert "unknown rule MK199" in capsys.readouterr().err


def test_sample_deck_is_clean() -> None:
    code, out = run("markup", "check", str(SAMPLE))
    assert code == 0, out
    assert out.startswith("No findings in ")


# --------------------------------------------------------------------------------------
# Bad input: a clear message naming file and line, never a traceback.


def test_invalid_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.md", b"Draw a card.\nD\xe9fausse.\n")
    assert run("markup", "check", path)[0] == 2
    err = capsys.readouterr().err
    assert f"{path}:2:2: not valid UTF-8" in err and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("markup", "xml", "/nonexistent/card.md")[0] == 2
    assert "/nonexistent/card.md: no such file" in capsys.readouterr().err


def test_nul_bytes_are_findings_not_crashes(tmp_path: Path) -> None:
    path = write(tmp_path, "nul.md", "Draw\x00 a card.")
    code, out = run("markup", "check", path)
    assert code == 1
    assert f"{path}:1:5: MK002" in out


def test_xml_refuses_what_the_reference_cannot_convert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "crash.md", "Intro.\n\nSee u/www.arcmage.org.")
    assert run("markup", "xml", path)[0] == 2
    err = capsys.readouterr().err
    assert f"{path}:3:" in err and "Arcmage converter fails" in err


def test_one_megabyte_of_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "big.md", ("Deal 2 damage to target creature. " * 31_000)[:1_048_576])
    assert run("markup", "check", path)[0] == 2
    err = capsys.readouterr().err
    assert "1,048,576 characters" in err and "right file" in err


def test_deeply_nested_emphasis(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.md", "^" * 5000 + "x " + "*_" * 2000 + "x" + "_*" * 2000)
    code, out = run("markup", "check", "--select", "MK001", path)
    assert code == 1
    assert "nested more than" in out


def test_crlf_input(tmp_path: Path) -> None:
    path = write(tmp_path, "crlf.md", "Draw.\r\n\r\n:G1: x\r\n")
    _, out = run("markup", "check", path)
    assert f"{path}:3:1: MK102" in out


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[list[str]]:
    """Every command and subcommand of ``parser``, as the words that name it."""
    found = [list(prefix)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, (*prefix, name))
    return found


def test_help_has_examples() -> None:
    commands = _commands(build_parser())
    assert ["suggest"] in commands and ["import", "tmx"] in commands
    for words in commands:
        args = [*words, "--help"]
        out = io.StringIO()
        with pytest.raises(SystemExit) as exit_info:
            sys.stdout, saved = out, sys.stdout
            try:
                main(args, out)
            finally:
                sys.stdout = saved
        assert exit_info.value.code == 0
        assert "example:" in out.getvalue()


def test_installed_console_script() -> None:
    """The ``translator`` entry point of the installed package runs."""
    result = subprocess.run(
        [sys.executable, "-m", "translator", "markup", "xml", "-"],
        input=":g1:",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout == "<layout><p><g1 /></p></layout>\n"


def test_usage_error_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("markup", "frobnicate")[0] == 2
    assert "invalid choice" in capsys.readouterr().err


def test_every_subpackage_is_packaged() -> None:
    """pyproject.toml lists the packages explicitly: a new subpackage missing there
    works in the editable install and is absent from a wheel."""
    import tomllib

    from tests.conftest import ROOT

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "translator").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)


#: What ``translator --help`` must not import: the libraries of the commands that
#: parse card text, read YAML, lint, typeset, exchange files or match fuzzily.
HEAVY = (
    "markdown_it",
    "yaml",
    "weasyprint",
    "translate",
    "lxml",
    "PIL",
    "pikepdf",
    "pypdfium2",
    "spylls",
    "httpx",
    "jinja2",
    "babel",
    "rapidfuzz",
    "pygls",
    "lsprotocol",
    "watchfiles",
    "rich",
    "dataclasses",
    "translator.api",
    "translator.diagnostics",
    "translator.lint.engine",
    "translator.markup.parser",
    "translator.glossary.loader",
    "translator.cards.aminduna",
    "translator.typeset",
    "translator.workflow",
    "translator.review",
    "translator.editor",
)
#: What a lint of one card needs none of: print, exchange formats, editors, networks.
NOT_FOR_LINT = tuple(
    m
    for m in HEAVY
    if m.split(".")[0] not in ("markdown_it", "yaml", "spylls", "dataclasses")
    and m
    not in (
        "translator.api",
        "translator.diagnostics",
        "translator.lint.engine",
        "translator.markup.parser",
        "translator.glossary.loader",
    )
)
#: What converting card text needs none of: the linter, YAML, glossaries, print (the
#: API's markup module, which the command calls, imports no stage until called).
NOT_FOR_MARKUP = tuple(
    m
    for m in HEAVY
    if m
    not in (
        "markdown_it",
        "dataclasses",
        "translator.api",
        "translator.diagnostics",
        "translator.markup.parser",
    )
)


def imported(arguments: list[str], forbidden: tuple[str, ...], cwd: Path = ROOT) -> list[str]:
    """The modules of ``forbidden`` that running ``translator ARGUMENTS`` in a fresh
    interpreter imports (this process has imported everything).  A module the command
    line holds for later (importlib's LazyLoader) is not imported until it is used."""
    script = (
        "import contextlib, io, sys\n"
        "from translator.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({arguments!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = {n for n, m in sys.modules.items() if type(m).__name__ != '_LazyModule'}\n"
        f"print(sorted(f for f in {forbidden!r} if any(n == f or n.startswith(f + '.')"
        " for n in loaded)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=cwd
    )
    return [line for line in result.stdout.splitlines() if line.startswith("[")][-1:]


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["lint", "--help"],
        ["build", "--help"],
        ["lsp", "--help"],
        ["markup", "--help"],
        ["pull", "--help"],
        ["push", "--help"],
        ["login", "--help"],
    ],
    ids=" ".join,
)
def test_help_imports_no_heavy_library(arguments: list[str]) -> None:
    """Starting is quick only if ``--help`` (and the parser every command builds)
    imports none of what the commands themselves need."""
    assert imported(arguments, HEAVY) == ["[]"]


def test_each_command_imports_only_what_it_uses(tmp_path: Path) -> None:
    """Issue 20's start-up targets hold only if a command loads what it runs: card
    text converts without the linter or YAML, a card lints without print, exchange
    formats, the editor or the network."""
    text = tmp_path / "short.txt"
    text.write_text(":g1: Draw.", encoding="utf-8")
    assert imported(["markup", "xml", str(text)], NOT_FOR_MARKUP) == ["[]"]
    card = str(ROOT / "cards" / "sample" / "courier.fr.md")
    assert imported(["lint", card], NOT_FOR_LINT) == ["[]"]


def test_groups_declare_their_commands() -> None:
    """``GROUPS`` says which module registers which commands, so that a command
    builds only its group's parser: it must say what each register really declares."""
    import argparse

    from translator import cli

    for module, names in cli.GROUPS:
        commands = argparse.ArgumentParser().add_subparsers()
        cli._register(module)(commands)
        assert tuple(commands.choices) == names, module
        parser = build_parser([names[0], "--help"])
        listed = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
        assert tuple(listed) == names
