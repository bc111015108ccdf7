"""The pre-commit hooks: .pre-commit-hooks.yaml (for card libraries) and this
repository's .pre-commit-config.yaml (for contributors) name real commands, which
take their options, and match the files they are meant for."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

#: What pre-commit requires of a hook in .pre-commit-hooks.yaml.
REQUIRED = {"id", "name", "entry", "language"}


def library_hooks() -> list[dict]:
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))


def contributor_hooks() -> list[dict]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text("utf-8"))
    return [hook for repo in config["repos"] for hook in repo["hooks"]]


def command(entry: str) -> list[str]:
    """The hook's entry as pre-commit runs it: ``translator`` is the console script
    pip installs beside this Python (else its entry point, the same code); a path is
    from the repository's root."""
    words = shlex.split(entry)
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    if words[0] in scripts:
        script = Path(sys.executable).parent / words[0]
        module, function = scripts[words[0]].split(":")
        runner = (
            [str(script)]
            if script.is_file()
            else [sys.executable, "-c", f"from {module} import {function}; {function}()"]
        )
        return [*runner, *words[1:]]
    executable = ROOT / words[0]
    if not executable.is_file():
        pytest.skip(f"{words[0]} is not there: ./dev setup makes it")
    return [str(executable), *words[1:]]


def test_every_library_hook_is_complete_and_runs_translator() -> None:
    hooks = library_hooks()
    assert [hook["id"] for hook in hooks] == ["translator-lint", "translator-markup-format"]
    for hook in hooks:
        assert hook.keys() >= REQUIRED, hook
        assert hook["language"] == "python", hook  # pre-commit installs this package
        assert shlex.split(hook["entry"])[0] == "translator", hook


@pytest.mark.parametrize(
    "hook", [*library_hooks(), *contributor_hooks()], ids=lambda hook: hook["id"]
)
def test_every_entry_is_a_real_command(hook: dict, tmp_path: Path) -> None:
    """Each entry with --help: the command and every option it gives exist."""
    done = subprocess.run(
        [*command(hook["entry"]), "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "usage" in done.stdout.lower(), done.stdout


@pytest.mark.parametrize(
    ("name", "card_file"),
    [
        ("cards/sample/courier.fr.md", True),
        ("cards/sample/courier.en.md", True),
        ("docs/lint.md", False),
        ("README.md", False),
        ("translator/cli/lint.py", False),
    ],
)
def test_the_library_hooks_run_on_card_files(name: str, card_file: bool) -> None:
    for hook in library_hooks():
        assert bool(re.search(hook["files"], name)) == card_file, (hook["id"], name)


def test_lint_reads_the_whole_library_and_format_each_file() -> None:
    """Lint needs every card of the library (a translation against its English card,
    terms across cards): no file names; format checks the files that changed."""
    hooks = {hook["id"]: hook for hook in library_hooks()}
    assert hooks["translator-lint"]["pass_filenames"] is False
    assert hooks["translator-markup-format"].get("pass_filenames", True) is True


def test_the_format_hook_passes_the_sample_and_fails_a_file_to_rewrite(tmp_path: Path) -> None:
    [hook] = [hook for hook in library_hooks() if hook["id"] == "translator-markup-format"]
    card = ROOT / "cards" / "sample" / "courier.en.md"
    run = [*command(hook["entry"]), str(card)]
    assert subprocess.run(run, capture_output=True, timeout=120, check=False).returncode == 0
    loose = tmp_path / "cards" / "loose.en.md"
    loose.parent.mkdir()
    loose.write_text("---\nname: Loose\n---\nDraw __a__ card.\n", "utf-8")
    done = subprocess.run(
        [*run[:-1], str(loose)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1 and "loose.en.md" in done.stdout, done
