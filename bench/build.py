"""Benchmark: typeset the sample library x 10 (240 cards) into one PDF per card.

Target (print part 1): at most 20 ms per card on 2 cores, text fitting included; peak
memory at most 500 MB.

    .venv/bin/python bench/build.py            # median of 3 runs
    .venv/bin/python bench/build.py --copies 20 --jobs 2

The library is the sample deck copied on disk under new slugs (text, artwork and all);
the artwork cache is warmed once before timing (a deck is built many times and its
art converted once); each run writes every PDF anew.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator import cards  # noqa: E402
from translator.typeset import build as typeset  # noqa: E402
from translator.typeset.sizes import PRESETS  # noqa: E402


def make_library(directory: Path, copies: int) -> Path:
    """``copies`` copies of every sample card in one deck directory."""
    sample = ROOT / "cards" / "sample"
    deck = directory / "deck"
    shutil.copytree(sample / "art", deck / "art")
    listed = []
    for path in sorted(sample.glob("*.md")):
        slug, lang, _ = path.name.split(".")
        for copy in range(copies):
            (deck / f"{slug}-{copy}.{lang}.md").write_text(path.read_text("utf-8"), "utf-8")
            if lang == "en":
                listed.append(f"  {slug}-{copy}: 1")
    (deck / "deck.yaml").write_text("name: Bench\ncards:\n" + "\n".join(listed) + "\n",
                                    encoding="utf-8")
    return deck


def _peak_mb(pid: int) -> float:
    """A live worker's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="fr")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        deck = make_library(directory, args.copies)
        library, problems = cards.load_library([str(deck)])
        assert not problems, problems[:3]
        options = typeset.BuildOptions(PRESETS["arcmage"], jobs=args.jobs,
                                       cache_dir=directory / "cache")
        start = time.perf_counter()
        warm = typeset.build_cards(library, args.lang, directory / "warm", options)
        print(f"warm-up (artwork converted once): {time.perf_counter() - start:.2f} s")
        count = len(warm)
        shrunk = sum(1 for r in warm if r.scale < 1)
        times = repeat(lambda: typeset.build_cards(library, args.lang, directory / "out", options),
                       args.runs)
        per_card = [t / count * 1000 for t in times]
        peak = max([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    *(_peak_mb(pid) for pool in typeset._POOLS.values()
                      for pid in pool._processes)])
        print(f"build: {count} cards ({args.lang}, {shrunk} with shrunk text), "
              f"{args.jobs} processes")
        print(f"  time: {summary(times, '.2f', 's')}")
        print(f"  per card: {summary(per_card, '.1f', 'ms')} (target <= 20)")
        print(f"  peak memory of the largest process: {peak:.0f} MB (target <= 500)")


if __name__ == "__main__":
    main()
