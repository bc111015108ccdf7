"""The pre-commit hooks: .pre-commit-hooks.yaml (for card libraries) and this
repository's .pre-commit-config.yaml (for contributors) name real commands, which
take their options, and match the files they are meant for."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

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


# --------------------------------------------------------------------------------------
# The library hooks run by pre-commit itself, from a card library's own repository.
#
# pre-commit installs this package (``language: python``: ``pip install .`` of the hook
# repository, with its dependencies, from the package index) into an environment of its
# own: tens of seconds, so these tests are slow and share one environment (a
# PRE_COMMIT_HOME of their own); ``try-repo`` always makes a fresh one.  The hook
# repository is a snapshot of this checkout as it is on disk: ``try-repo`` given the
# checkout itself would clone its last commit and add the changes to tracked files
# (``git add -u``), leaving out every new file not yet committed.

#: Git that reads none of the user's configuration (signing, hooks, templates).
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Translator Tests",
    "GIT_AUTHOR_EMAIL": "tests@translator.invalid",
    "GIT_COMMITTER_NAME": "Translator Tests",
    "GIT_COMMITTER_EMAIL": "tests@translator.invalid",
}
#: A lint error (a number lost) and a spelling ``markup format`` rewrites (``_`` italics).
LINT_ERROR = ("pioche une carte", "pioche trois cartes")
LOOSE_SPELLING = ("*Je ne peux pas attaquer.*", "_Je ne peux pas attaquer._")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        check=True,
        timeout=120,
    )
    return done.stdout.decode("utf-8", "replace")


def commit_all(repository: Path) -> str:
    """Everything in ``repository`` committed; the commit's hash."""
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "--no-verify", "-m", "test")
    return git(repository, "rev-parse", "HEAD").strip()


def snapshot(into: Path) -> tuple[Path, str]:
    """This checkout as it is on disk (the files git tracks or would track, changes
    included), committed in a repository of its own: the hook repository."""
    names = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, names.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted from the working tree is not there
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name, follow_symlinks=False)
    git(into, "init", "-q", "-b", "main")
    return into, commit_all(into)


def pre_commit(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args, "--color", "never"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def card_library(
    where: Path, hook_repo: tuple[Path, str], cards: str = "cards", **hook: object
) -> Path:
    """A card library's repository: the sample deck under ``cards/``, and a
    ``.pre-commit-config.yaml`` naming the hook repository (``hook``: more keys of the
    lint hook, as a library would override them)."""
    shutil.copytree(ROOT / "cards" / "sample", where / cards / "sample")
    repo, rev = hook_repo
    lint_hook = {"id": "translator-lint", **hook}
    config = {
        "repos": [
            {
                "repo": str(repo),
                "rev": rev,
                "hooks": [lint_hook, {"id": "translator-markup-format"}],
            }
        ]
    }
    (where / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), "utf-8")
    git(where, "init", "-q", "-b", "main")
    commit_all(where)
    return where


def change(library: Path, card: str, old_new: tuple[str, str], cards: str = "cards") -> None:
    """Edit a card and stage it, as before a commit."""
    path = library / cards / "sample" / card
    old, new = old_new
    text = path.read_text("utf-8")
    assert old in text, (card, old)
    path.write_text(text.replace(old, new, 1), "utf-8")
    git(library, "add", "-A")


def hook_result(output: str, name: str) -> str:
    """``Passed``, ``Failed`` or ``Skipped``: what pre-commit said of hook ``name``."""
    found = re.search(rf"^{re.escape(name)}\.+(?:\([^)]*\))?(Passed|Failed|Skipped)$", output, re.M)
    assert found, output
    return found.group(1)


@pytest.fixture(scope="module")
def hooks_installed(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[tuple[Path, str], dict[str, str]]:
    """The hook repository, and the environment in which pre-commit has installed its
    hooks once (``pre-commit install-hooks``) for every library test to reuse."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the hook repository is made from this git checkout: git is needed")
    pytest.importorskip(
        "pre_commit", reason="pre-commit is in the test extra: pip install -e '.[test]'"
    )
    hook_repo = snapshot(tmp_path_factory.mktemp("hook-repository"))
    env = {
        **os.environ,
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
        "PIP_NO_COMPILE": "1",  # no bytecode for the hook's environment: a few seconds
    }
    library = card_library(tmp_path_factory.mktemp("first-library"), hook_repo)
    done = pre_commit(library, env, "install-hooks")
    assert done.returncode == 0, done.stdout + done.stderr
    return hook_repo, env


@pytest.mark.slow
def test_try_repo_from_a_card_library(tmp_path: Path, hooks_installed: tuple) -> None:
    """``pre-commit try-repo`` (its own environment, installed from the repository):
    both hooks fail on a library with a lint error and a loose spelling, and print
    what is wrong."""
    hook_repo, env = hooks_installed
    library = card_library(tmp_path, hook_repo)
    change(library, "courier.fr.md", LINT_ERROR)
    change(library, "courier.fr.md", LOOSE_SPELLING)
    done = pre_commit(library, env, "try-repo", str(hook_repo[0]), "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert hook_result(output, "translator lint") == "Failed"
    assert "cards/sample/courier.fr.md:14:1: TR103 number 1 of the English text" in output
    assert hook_result(output, "translator markup format") == "Failed"
    assert "would reformat cards/sample/courier.fr.md" in output.lower(), output


@pytest.mark.slow
def test_a_clean_library_passes_both_hooks(tmp_path: Path, hooks_installed: tuple) -> None:
    hook_repo, env = hooks_installed
    done = pre_commit(card_library(tmp_path, hook_repo), env, "run", "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert hook_result(output, "translator lint") == "Passed"
    assert hook_result(output, "translator markup format") == "Passed"


@pytest.mark.slow
def test_a_lint_error_fails_the_lint_hook(tmp_path: Path, hooks_installed: tuple) -> None:
    """The library's own cards/ is linted (pre-commit runs hooks at the repository's
    root), and the finding is printed."""
    hook_repo, env = hooks_installed
    library = card_library(tmp_path, hook_repo)
    change(library, "courier.fr.md", LINT_ERROR)
    done = pre_commit(library, env, "run", "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert hook_result(output, "translator lint") == "Failed"
    assert "cards/sample/courier.fr.md:14:1: TR103" in output
    assert "in 24 cards (48 translations, 72 files)" in output  # the whole library
    assert hook_result(output, "translator markup format") == "Passed"


@pytest.mark.slow
def test_a_loose_spelling_fails_the_format_hook(tmp_path: Path, hooks_installed: tuple) -> None:
    hook_repo, env = hooks_installed
    library = card_library(tmp_path, hook_repo)
    change(library, "courier.fr.md", LOOSE_SPELLING)
    done = pre_commit(library, env, "run", "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert hook_result(output, "translator lint") == "Passed"
    assert hook_result(output, "translator markup format") == "Failed"
    assert "cards/sample/courier.fr.md" in output


@pytest.mark.slow
def test_the_library_translator_toml_applies(tmp_path: Path, hooks_installed: tuple) -> None:
    """The library's translator.toml, at its root, configures the lint hook."""
    hook_repo, env = hooks_installed
    library = card_library(tmp_path, hook_repo)
    change(library, "courier.fr.md", LINT_ERROR)
    (library / "translator.toml").write_text('[lint]\nignore = ["TR103"]\n', "utf-8")
    git(library, "add", "-A")
    done = pre_commit(library, env, "run", "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert hook_result(output, "translator lint") == "Passed"


@pytest.mark.slow
def test_a_library_elsewhere_than_cards_names_it(tmp_path: Path, hooks_installed: tuple) -> None:
    """Cards under ``content/cards/``: the lint hook, made for ``cards/`` at the root,
    does not run (pre-commit says Skipped) until the library's config gives it the
    folder (``args``) and the files that start it (``files``)."""
    hook_repo, env = hooks_installed
    plain = card_library(tmp_path / "plain", hook_repo, cards="content/cards")
    change(plain, "courier.fr.md", LINT_ERROR, cards="content/cards")
    output = pre_commit(plain, env, "run", "--all-files").stdout
    assert hook_result(output, "translator lint") == "Skipped"
    named = card_library(
        tmp_path / "named",
        hook_repo,
        cards="content/cards",
        files="^content/cards/",
        args=["content/cards"],
    )
    change(named, "courier.fr.md", LINT_ERROR, cards="content/cards")
    done = pre_commit(named, env, "run", "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert hook_result(output, "translator lint") == "Failed"
    assert "content/cards/sample/courier.fr.md:14:1: TR103" in output
