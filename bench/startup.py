"""Benchmark: how long a command takes from the shell, start-up included.

    .venv/bin/python bench/startup.py            # median of 5 whole-process runs each

Issue 20's targets on the 2-core machine: ``translator --help`` at most 150 ms,
``markup xml -`` of a short text at most 200 ms, ``lint`` of one card with a warm
spelling cache at most 300 ms.  Each command is run as a translator runs it (the
installed ``translator`` script, a new process each time), once to warm the file
cache, the bytecode cache and the spelling cache, then timed.  ``python -c pass`` is
measured too: the floor no command goes under.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402

TRANSLATOR = str(Path(sys.executable).with_name("translator"))
CARD = str(ROOT / "cards" / "sample" / "courier.fr.md")


def timed(command: list[str], stdin: str = "", runs: int = 5) -> list[float]:
    """Wall-clock seconds of each of ``runs`` runs of ``command`` (after one warm-up)."""
    # Bytecode caching on, as in an installed translator (this machine's environment
    # may turn it off for the checkout).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for index in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, check=False)
        if index:
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    rows = [
        ("python -c pass (the floor)", [sys.executable, "-c", "pass"], "", None),
        ("translator --help", [TRANSLATOR, "--help"], "", 0.150),
        (
            "translator markup xml - (a short text)",
            [TRANSLATOR, "markup", "xml", "-"],
            ":g1: Draw.",
            0.200,
        ),
        ("translator lint ONE_CARD (warm cache)", [TRANSLATOR, "lint", CARD], "", 0.300),
    ]
    for label, command, stdin, target in rows:
        times = timed(command, stdin)
        median = sorted(times)[len(times) // 2]
        verdict = (
            ""
            if target is None
            else f" (target {target * 1000:.0f} ms: {'met' if median <= target else 'missed'})"
        )
        print(f"{label}: {summary([t * 1000 for t in times], '.0f', 'ms')}{verdict}")


if __name__ == "__main__":
    main()
