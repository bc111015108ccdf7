"""Benchmark: the review sheet of the sample deck in one language.

Target (issue 10): at most 10 s for the sample deck in one language, renders included.

    .venv/bin/python bench/review.py             # median of 3 runs each

Timed through the command line's entry point (library, glossaries, lint, renders,
the deck PDF and its preflight, the page):

- from scratch: a new output directory each run (the card renders, previews and deck
  made again);
- again: the same directory, nothing changed (the build's record keeps every render).
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator.cli import main as cli  # noqa: E402


def sheet(out: Path, lang: str) -> None:
    code = cli(
        ["review-sheet", str(ROOT / "cards" / "sample"), "--lang", lang, "--out", str(out)],
        io.StringIO(),
    )
    assert code == 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "review"

        def fresh() -> None:
            shutil.rmtree(out, ignore_errors=True)
            sheet(out, args.lang)

        times = repeat(fresh, args.runs)
        print(f"sample deck, {args.lang}, from scratch: {summary(times, '.2f', 's')} (target 10 s)")
        times = repeat(lambda: sheet(out, args.lang), args.runs)
        print(f"sample deck, {args.lang}, again (renders kept): {summary(times, '.2f', 's')}")


if __name__ == "__main__":
    main()
