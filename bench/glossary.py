"""Benchmark: find every glossary term in 5,000 card texts.

Target (issue 4): at most 1 s for 5,000 card texts.

    .venv/bin/python bench/glossary.py            # median of 5 runs
    .venv/bin/python bench/glossary.py --cards 20000

The texts are the sample deck's French and Esperanto card texts, repeated with a
varying prefix, each searched with its language's glossary (terms and abilities,
every inflected form).  Building the matchers is timed apart (it happens once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator import cards, glossary  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cards", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    library, _ = cards.load_library([str(ROOT / "cards" / "sample")])
    texts: list[tuple[str, str]] = []
    sources = [
        (lang, card.get("text", lang))
        for card in library.cards.values()
        for lang in ("fr", "eo")
        if card.version(lang)
    ]
    while len(texts) < args.cards:
        for lang, text in sources:
            texts.append((lang, f"{len(texts)} {text}"))
            if len(texts) >= args.cards:
                break
    start = time.perf_counter()
    matchers = {lang: glossary.Matcher(glossary.load_glossary(lang)[0]) for lang in ("fr", "eo")}
    built = time.perf_counter() - start

    def find_all() -> int:
        return sum(1 for lang, text in texts for _ in matchers[lang].find(text))

    times = repeat(find_all, args.runs)
    print(
        f"{len(texts):,} card texts ({sum(len(t) for _, t in texts) // len(texts)} characters "
        f"on average); {find_all():,} terms found; matchers built in {built:.2f} s"
    )
    print(f"find every term: {summary(times, '.3f', 's')}")


if __name__ == "__main__":
    main()
