"""Benchmark: a cold ``translator lint cards/sample``, a new process each run.

    .venv/bin/python bench/lint_cold.py                # median of 5 each, and the profile
    .venv/bin/python bench/lint_cold.py --runs 9 --no-profile
    .venv/bin/python bench/lint_cold.py --checkout /tmp/old   # another copy of the code

Issue 22's target on the 2-core machine: at most 1.5 s from the shell to the exit
status, whatever the user's caches hold.  Two kinds of run, since what a run costs
depends on what earlier runs left in ``$XDG_CACHE_HOME/translator``:

- warm caches: the kept glossaries and the spelling lookups of an earlier run are
  there (a cache directory made by one untimed run first), so no Hunspell dictionary
  is read;
- an empty cache directory (a new one each run): the glossaries are parsed and the
  French and Esperanto Hunspell dictionaries read, as on a first run.

Then where the time goes, in an empty cache directory: the imports
(``python -X importtime``), the main's functions (cProfile, which about doubles
Python-heavy code: compare shares, not seconds), and the time from the last output
line to the exit (interpreter teardown) of the timed runs.  Bytecode caching is on,
as in an installed translator; one untimed run first warms the file cache.
"""

from __future__ import annotations

import argparse
import io
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402

#: Issue 22's target for a cold lint of the sample, in seconds.
TARGET = 1.5


@dataclass(frozen=True)
class Run:
    """One process: seconds to its exit, and to its last line of output."""

    total: float
    last_line: float
    status: int

    @property
    def tail(self) -> float:
        """From the last line to the exit: what the process does once it has said
        everything (atexit handlers, interpreter teardown)."""
        return self.total - self.last_line


def environment(cache: Path) -> dict[str, str]:
    """This process's environment with ``cache`` as ``$XDG_CACHE_HOME``, and bytecode
    caching on (this machine's environment may turn it off for the checkout)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONDONTWRITEBYTECODE", "TRANSLATOR_CACHE")
    }
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def lint_command(library: str, *python_options: str) -> list[str]:
    return [sys.executable, *python_options, "-m", "translator", "lint", library]


def run_once(library: str, env: dict[str, str], checkout: Path = ROOT) -> Run:
    """Time one lint process in ``checkout``, and when its last line of output came."""
    start = time.perf_counter()
    process = subprocess.Popen(
        lint_command(library),
        cwd=checkout,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert process.stdout is not None
    last = start
    for _ in process.stdout:
        last = time.perf_counter()
    status = process.wait()
    return Run(time.perf_counter() - start, last - start, status)


def warm_runs(library: str, runs: int, checkout: Path = ROOT) -> list[Run]:
    """``runs`` runs sharing one cache directory that an untimed run filled first."""
    with tempfile.TemporaryDirectory(prefix="lint-cold-") as directory:
        env = environment(Path(directory))
        run_once(library, env, checkout)
        return [run_once(library, env, checkout) for _ in range(runs)]


def empty_runs(library: str, runs: int, checkout: Path = ROOT) -> list[Run]:
    """``runs`` runs, each in a new, empty cache directory."""
    found = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="lint-cold-") as directory:
            found.append(run_once(library, environment(Path(directory)), checkout))
    return found


def report(label: str, runs: list[Run]) -> None:
    totals = [run.total for run in runs]
    median = statistics.median(totals)
    verdict = "met" if median <= TARGET else "missed"
    print(f"{label}: {summary(totals, '.2f', 's')} (target {TARGET} s: {verdict})")
    print(f"  last line of output to exit: {summary([r.tail for r in runs], '.3f', 's')}")
    statuses = sorted({run.status for run in runs})
    print(f"  exit status: {', '.join(map(str, statuses))}")


def import_times(library: str, checkout: Path = ROOT, shown: int = 10) -> None:
    """The imports of one run in an empty cache directory (``-X importtime``): their
    total, and the slowest of the two outer levels (what the program imports, and what
    those import themselves), each with what it imports in turn."""
    with tempfile.TemporaryDirectory(prefix="lint-cold-") as directory:
        done = subprocess.run(
            lint_command(library, "-X", "importtime"),
            cwd=checkout,
            env=environment(Path(directory)),
            capture_output=True,
            text=True,
            check=False,
        )
    rows: list[tuple[int, int, str]] = []  # (cumulative us, depth, name)
    total = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "imported package" in line:
            continue
        self_us, cumulative, name = _split_importtime(line)
        total += int(self_us)
        rows.append((int(cumulative), _depth(name), name.strip()))
    print(f"imports (-X importtime, empty cache): {total / 1e6:.3f} s in all; the slowest:")
    top = sorted((row for row in rows if row[1] <= 1), reverse=True)[:shown]
    for microseconds, _, name in top:
        print(f"  {microseconds / 1e6:7.3f} s  {name}")


def _split_importtime(line: str) -> tuple[str, str, str]:
    """(self, cumulative, name) of a line ``import time: SELF | CUMULATIVE | NAME``."""
    head, cumulative, name = line.split("|", 2)
    return head.removeprefix("import time:").strip(), cumulative.strip(), name


def _depth(name: str) -> int:
    """How deep an import is nested: the name's indent (two spaces a level), 0 for
    what the script imports itself."""
    return (len(name) - len(name.lstrip(" ")) - 1) // 2


def profile(library: str, checkout: Path = ROOT, shown: int = 16) -> None:
    """cProfile of one run in an empty cache directory: the functions of translator
    and spylls that take the most time with their callees, then on their own."""
    with tempfile.TemporaryDirectory(prefix="lint-cold-") as directory:
        stats_file = Path(directory) / "lint.prof"
        subprocess.run(
            lint_command(library, "-m", "cProfile", "-o", str(stats_file)),
            cwd=checkout,
            env=environment(Path(directory) / "cache"),
            capture_output=True,
            check=False,
        )
        stats = pstats.Stats(str(stats_file))
    print(f"cProfile of one run (empty cache): {stats.total_tt:.2f} s profiled")  # type: ignore[attr-defined]
    for order, heading, count in (
        ("cumulative", "callees included", shown),
        ("tottime", "on their own", shown // 2),
    ):
        print(f"  by {order} seconds ({heading}):")
        for line in _stats_lines(stats, order, count):
            print(f"    {line}")


def _stats_lines(stats: pstats.Stats, order: str, count: int) -> list[str]:
    """The table pstats prints for the ``count`` first functions of translator and
    spylls in ``order``, without its header."""
    text = io.StringIO()
    stats.stream = text  # type: ignore[attr-defined]
    stats.sort_stats(order).print_stats(r"translator/|spylls/", count)
    lines = text.getvalue().splitlines()
    start = next((n for n, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return [line.strip().replace(str(ROOT) + "/", "") for line in lines[start:] if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--library", default="cards/sample", help="relative to the checkout")
    parser.add_argument("--no-profile", action="store_true", help="the timings only")
    parser.add_argument(
        "--checkout",
        type=Path,
        default=ROOT,
        help="run the translator of another copy of the code (an older one, to compare)",
    )
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    empty_runs(args.library, 1, checkout)  # the file cache and the bytecode cache
    print(
        f"translator lint {args.library} in {checkout}, a new process each run, "
        f"median of {args.runs}"
    )
    report("warm caches", warm_runs(args.library, args.runs, checkout))
    report("empty cache directory", empty_runs(args.library, args.runs, checkout))
    if not args.no_profile:
        import_times(args.library, checkout)
        profile(args.library, checkout)


if __name__ == "__main__":
    main()
