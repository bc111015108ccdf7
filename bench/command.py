"""Benchmark: the whole ``translator build`` command, as a user runs it, against the
whole command of a bare WeasyPrint job.

Issue 39's targets on 2 cores, medians, each round's ratio to a floor of the same run:
the sample x 10 (240 French cards in one deck, ``build.make_library``) built by one
``translator build --lang fr`` into a fresh folder (start-up, loading the library,
starting the workers, fitting, writing and preflight included), with the artwork
already converted once (a user's store of converted images is warm after the first
build): the default look at most 1.5 times the floor, the official look at most 2.0.

The floor is ``floor.py --whole``: a new Python process that starts as many workers
(WeasyPrint imported in each) and writes one bare one-page PDF per card, timed from
outside in the same way.  Each round is floor, default, official, and one more floor
closes the last, so that each round's ratio is to the mean of the floors around it.

    .venv/bin/python bench/command.py                      # 3 rounds, both looks
    .venv/bin/python bench/command.py --runs 5 --copies 10
    .venv/bin/python bench/command.py --theme ~/.local/share/translator/themes/arcmage

The official look is imported from ``../shared/arcmage-official`` into the bench's
folder unless ``--theme`` names one.  HOME and the XDG folders are the bench's own, so
the user's cache neither helps nor changes.  The official look is timed twice: as a
user's next build runs (the answers of fitting kept by the build before,
``translator/typeset/fits.py``: each card laid out once), and fitted from the start
(that record removed first: a library never built before).
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from build import make_library  # noqa: E402

TRANSLATOR = str(Path(sys.executable).with_name("translator"))
OFFICIAL = ROOT.parent / "shared" / "arcmage-official"
TARGETS = {"default look": 1.5, "official look": 2.0, "official look, fitted from the start": 2.0}


def _run(command: list[str], env: dict[str, str], out: Path | None = None, count: int = 0) -> float:
    """Wall-clock seconds of ``command``; it must succeed, or for a build (``out``)
    write its ``count`` PDFs with warnings at most (the official look prints a few
    texts the preflight warns about): a faster build that fails is no faster build."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - start
    written = len(list(out.glob("*.pdf"))) if out else 0
    if done.returncode != 0 and not (done.returncode == 1 and out and written == count):
        sys.exit(
            f"{' '.join(command)}: exit {done.returncode}\n{done.stdout[-2000:]}"
            f"\n{done.stderr[-2000:]}"
        )
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--theme", metavar="DIR", help="the official theme (default: imported)")
    parser.add_argument("--only", choices=["default", "official"], help="time one look only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            HOME=str(directory / "home"),
            XDG_CACHE_HOME=str(directory / "home" / "cache"),
            XDG_DATA_HOME=str(directory / "home" / "data"),
            XDG_CONFIG_HOME=str(directory / "home" / "config"),
        )
        env.pop("TRANSLATOR_CACHE", None)
        deck = make_library(directory, args.copies)
        count = args.copies * len(list((ROOT / "cards" / "sample").glob("*.fr.md")))
        theme = args.theme
        if theme is None and args.only != "default":
            theme = str(directory / "official")
            _run([TRANSLATOR, "theme", "import-arcmage", str(OFFICIAL), "--out", theme], env)
        looks = {
            "default look": [],
            "official look": ["--theme", str(theme)],
            "official look, fitted from the start": ["--theme", str(theme)],
        }
        if args.only:
            looks = {label: v for label, v in looks.items() if label.startswith(args.only)}
        kept = directory / "home" / "cache" / "translator" / "fits" / "fits.json"
        build = [TRANSLATOR, "build", str(deck), "--lang", "fr", "--jobs", str(args.jobs)]
        for label, extra in list(looks.items())[:2]:  # the artwork converted once
            warm = directory / f"warm-{label.split()[0]}"
            _run([*build, *extra, "--out", str(warm)], env, warm, count)
        floor = [
            sys.executable,
            str(ROOT / "bench" / "floor.py"),
            "--whole",
            "--runs",
            "1",
            "--cards",
            str(count),
            "--jobs",
            str(args.jobs),
        ]
        floors: list[float] = []
        times: dict[str, list[float]] = {label: [] for label in looks}
        loads = []
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            floors.append(_run(floor, env))
            for label, extra in looks.items():
                out = directory / f"{label.replace(' ', '-')}-{run}"
                if label.endswith("from the start"):
                    kept.unlink(missing_ok=True)  # no answer kept by the builds before
                times[label].append(_run([*build, *extra, "--out", str(out)], env, out, count))
                shutil.rmtree(out)
        floors.append(_run(floor, env))
        loads.append(os.getloadavg()[0])
    brackets = [(a + b) / 2 for a, b in itertools.pairwise(floors)]
    print(
        f"whole commands, {count} French cards, {args.jobs} processes, {args.runs} rounds "
        f"between {args.runs + 1} floors; load average (1 min): "
        f"{', '.join(f'{v:.2f}' for v in loads)} ({os.cpu_count()} cores)"
    )
    print(
        f"floor (floor.py --whole): median {statistics.median(floors):.2f} s "
        f"(runs: {', '.join(f'{v:.2f}' for v in floors)})"
    )
    for label, seconds in times.items():
        ratios = [t / f for t, f in zip(seconds, brackets, strict=True)]
        print(
            f"{label}: median {statistics.median(seconds):.2f} s "
            f"(runs: {', '.join(f'{v:.2f}' for v in seconds)}); "
            f"{statistics.median(ratios):.2f}x the floor "
            f"(rounds: {', '.join(f'{v:.2f}' for v in ratios)}; target <= {TARGETS[label]})"
        )


if __name__ == "__main__":
    main()
