"""The console entry point's quick exit (issue 22): a ``lint`` that has said everything
ends without the interpreter's teardown, after its atexit handlers and with its output
flushed; any other command, a caller in-process, a profiler, or a thread still running
gets the ordinary exit.  Real processes: the teardown is what is tested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import SAMPLE

#: A program that calls the entry point as the console script does, after saying
#: ``atexit ran`` from an atexit handler and ``torn down`` from the teardown (a
#: module-level object freed as the interpreter ends).
PROBE = """\
import atexit, os, sys
atexit.register(lambda: print("atexit ran", file=sys.stderr))
class Torn:
    def __del__(self, write=os.write):
        write(2, b"torn down\\n")
kept = Torn()
{before}
sys.argv = ["translator", *{arguments!r}]
from translator._entry import main
{call}
"""


def probe(
    arguments: list[str],
    *,
    before: str = "",
    call: str = "main()",
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run :data:`PROBE` with the command line ``arguments``."""
    script = PROBE.format(arguments=arguments, before=before, call=call)
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=120,
    )


def test_lint_exits_at_once_after_its_atexit_handlers() -> None:
    result = probe(["lint", str(SAMPLE)])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("No findings in 24 cards"), result.stdout
    assert "atexit ran" in result.stderr
    assert "torn down" not in result.stderr  # the teardown skipped


def test_other_commands_exit_as_ever(tmp_path: Path) -> None:
    text = tmp_path / "short.txt"
    text.write_text(":g1: Draw.", encoding="utf-8")
    result = probe(["markup", "xml", str(text)])
    assert result.returncode == 0, result.stderr
    assert "atexit ran" in result.stderr and "torn down" in result.stderr


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_exit_status_and_every_byte_of_output_are_kept() -> None:
    """A long report through a pipe is whole (flushed before the process ends), and
    the exit status is the command's: the same as the ordinary exit gives."""
    corpus = str(ROOT / "tests" / "data" / "lint-corpus" / "broken")
    quick = probe(["lint", corpus, "--format", "json"])
    ordinary = probe(
        ["lint", corpus, "--format", "json"],
        before="import translator._entry as entry; entry.EXIT_AT_ONCE = frozenset()",
    )
    assert "torn down" not in quick.stderr and "torn down" in ordinary.stderr
    assert quick.returncode == ordinary.returncode == 1
    assert quick.stdout == ordinary.stdout
    assert json.loads(quick.stdout)["findings"]


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_spelling_cache_is_written(tmp_path: Path) -> None:
    """The spelling lookups are saved by an atexit handler: a quick exit runs it, and
    the next run, reading them, says the same."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("TRANSLATOR_CACHE", None)
    first = probe(["lint", str(SAMPLE), "--format", "json"], env=env)
    assert "torn down" not in first.stderr
    cache = tmp_path / "translator"
    saved = sorted(path.name.split("-")[1] for path in cache.glob("spelling-*.txt"))
    assert {"fr", "eo"} <= set(saved), saved
    for path in cache.glob("spelling-*.txt"):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# translator:") and len(lines) > 1
    again = probe(["lint", str(SAMPLE), "--format", "json"], env=env)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)


def test_a_caller_in_process_gets_system_exit() -> None:
    """Called from another module than ``__main__`` (a test, a tool), the entry point
    raises SystemExit as it always did, and the caller goes on."""
    call = (
        "import types\n"
        "caller = types.ModuleType('caller')\n"
        "exec('def call(main):\\n try:\\n  main()\\n except SystemExit as exit:\\n"
        '  print("SystemExit", exit.code)\', caller.__dict__)\n'
        "caller.call(main)\n"
        "print('went on')\n"
    )
    result = probe(["lint", str(SAMPLE)], call=call)
    assert result.stdout.splitlines()[-2:] == ["SystemExit 0", "went on"], result.stdout
    assert "torn down" in result.stderr


def test_a_profiler_gets_its_profile(tmp_path: Path) -> None:
    """``python -m cProfile -o FILE -m translator lint``: cProfile writes FILE once the
    program returns, so the program must return."""
    stats = tmp_path / "lint.prof"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cProfile",
            "-o",
            str(stats),
            "-m",
            "translator",
            "lint",
            *[str(SAMPLE)],
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert stats.stat().st_size > 0


def test_a_thread_still_running_is_waited_for() -> None:
    """A thread still running when the command returns (started as it returns): the
    ordinary exit, which waits for it."""
    before = (
        "import threading, time\n"
        "import translator.cli as cli\n"
        "def later():\n"
        "    time.sleep(0.3)\n"
        "    print('thread done', file=sys.stderr, flush=True)\n"
        "command = cli.main\n"
        "cli.main = lambda: (command(), threading.Thread(target=later).start())[0]"
    )
    result = probe(["lint", str(SAMPLE)], before=before)
    assert result.returncode == 0, result.stderr
    assert "thread done" in result.stderr and "torn down" in result.stderr


def test_a_closed_pipe_exits_as_ever() -> None:
    """Standard output closed by its reader (``| head -0``): the same exit status and
    the same messages as the ordinary exit (the teardown aside)."""

    def closed_pipe(before: str = "") -> tuple[int, str]:
        read, write = os.pipe()
        os.close(read)
        try:
            script = PROBE.format(arguments=["lint", str(SAMPLE)], before=before, call="main()")
            done = subprocess.run(
                [sys.executable, "-c", script],
                stdout=write,
                stderr=subprocess.PIPE,
                text=True,
                check=False,
                timeout=120,
            )
        finally:
            os.close(write)
        return done.returncode, done.stderr

    ordinary = closed_pipe("import translator._entry as entry; entry.EXIT_AT_ONCE = frozenset()")
    assert "torn down" in ordinary[1]
    assert closed_pipe() in (ordinary, (ordinary[0], ordinary[1].replace("torn down\n", "")))
