"""Write ``tests/slow-tests.txt``: the tests the quick loop leaves out because they
took long, measured on a run of the quick loop.

    ./dev test -m "not slow" --durations=0 > /tmp/quick.log
    .venv/bin/python tools/slow_tests.py /tmp/quick.log            # adds to the list
    .venv/bin/python tools/slow_tests.py /tmp/quick.log --over 0.5

A test whose setup, call and teardown took ``--over`` seconds or more in the log is
added (the tests already listed stay: run it on a log of the quick loop, which no
longer runs them).  ``tests/conftest.py`` marks every listed test ``slow``, as if it
were written ``@pytest.mark.slow``: the quick loop (``-m "not slow"``) stays under its
target without a mark written by hand on each test, and a test that became slow is
listed by measure, not by guess.  Listed tests still run in the full suite.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "tests" / "slow-tests.txt"
HEADER = """\
# Tests the quick loop (./dev test -m "not slow") leaves out: each took half a second or
# more there (its setup, call and teardown together).  Written by tools/slow_tests.py
# from a --durations=0 log; tests/conftest.py marks each listed test slow.  The full
# suite (./dev test) runs them all.
"""
#: Tests the quick loop keeps whatever they take, and why: each alone runs modules
#: that run only in a process the test starts (the quick loop must run every module).
KEPT = {
    "tests/editor/test_editor_lsp.py::test_the_server_says_what_it_does_and_exits_as_lsp_asks": (
        "translator.editor.server, .supervisor and .transport run only in the language "
        "server it starts"
    ),
}
#: A line of the report: seconds, phase, and the test id, which runs to the end of the
#: line (a parametrised id may hold spaces: ``test_x[cards show x]``).
_DURATION = re.compile(r"^([\d.]+)s (?:call|setup|teardown) +(\S+::.+?)\s*$")


def measured(log: str) -> dict[str, float]:
    """Seconds per test id in a pytest ``--durations=0`` report."""
    found: defaultdict[str, float] = defaultdict(float)
    for line in log.splitlines():
        match = _DURATION.match(line)
        if match:
            found[match.group(2)] += float(match.group(1))
    return found


def listed(text: str) -> list[str]:
    """The test ids of a list (comments and blank lines left out)."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path, help="a pytest --durations=0 report")
    parser.add_argument("--over", type=float, default=0.5, help="seconds (default: 0.5)")
    args = parser.parse_args(argv)
    times = measured(args.log.read_text(encoding="utf-8"))
    if not times:
        print(f"{args.log}: no durations (run pytest with --durations=0)", file=sys.stderr)
        return 2
    before = listed(LIST.read_text(encoding="utf-8")) if LIST.exists() else []
    slow = sorted(
        {*before, *(test for test, seconds in times.items() if seconds >= args.over)} - set(KEPT)
    )
    LIST.write_text(HEADER + "".join(f"{test}\n" for test in slow), encoding="utf-8")
    print(f"{LIST.relative_to(ROOT)}: {len(slow)} tests ({len(slow) - len(before)} added)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
