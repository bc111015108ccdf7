"""Benchmark: load and validate 5,000 card files.

Target (issue 3): at most 2 s for 5,000 card files.

    .venv/bin/python bench/cards.py            # median of 5 runs
    .venv/bin/python bench/cards.py --files 20000

The library is made in a temporary directory by copying the sample deck's card
files under new slugs (source and translations together), split in decks of 100
cards, each with its deck.yaml; artwork paths point at real files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator.cards import load_library  # noqa: E402
from translator.cards.files import CARD_FILE_RE  # noqa: E402


def _link_art(art: Path, shared: Path, target: Path) -> None:
    """The artwork in each deck as hard links to one copy beside the decks (a symbolic
    link to a folder outside the deck is refused, as an attack would be)."""
    if not shared.is_dir():
        shutil.copytree(art, shared)
    target.mkdir()
    for image in shared.iterdir():
        os.link(image, target / image.name)


def make_library(directory: Path, count: int) -> int:
    """Copy the sample deck's cards until ``count`` files exist; returns the count."""
    sample = ROOT / "cards" / "sample"
    groups: dict[str, list[tuple[Path, str]]] = {}  # slug: (file, language)
    for path in sorted(sample.glob("*.md")):
        match = CARD_FILE_RE.match(path.name)
        if match:
            groups.setdefault(match["slug"], []).append((path, match["lang"]))
    written = 0
    copy = 0
    while written < count:
        for slug, paths in groups.items():
            deck = directory / f"deck-{copy // 100:03d}"
            if not deck.exists():
                deck.mkdir(parents=True)
                if (sample / "art").is_dir():
                    _link_art(sample / "art", directory / ".art", deck / "art")
                (deck / "deck.yaml").write_text(
                    f"name: Deck {copy // 100}\ncards: {{}}\n", encoding="utf-8"
                )
            new_slug = f"{slug}-{copy}"
            for path, lang in paths:
                (deck / f"{new_slug}.{lang}.md").write_text(
                    path.read_text(encoding="utf-8"), encoding="utf-8"
                )
                written += 1
            copy += 1
            if written >= count:
                break
    return written


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        count = make_library(Path(scratch), args.files)
        times = repeat(lambda: load_library([scratch]), args.runs)
        library, problems = load_library([scratch])
        assert not problems, problems[:3]
        print(f"{count:,} card files, {len(library.cards):,} cards in {len(library.decks)} decks")
        print(f"load + validate: {summary(times, '.3f', 's')}")


if __name__ == "__main__":
    main()
