"""Benchmark: parse and convert 10,000 varied card texts on one core.

Target (issue 2): at least 5,000 cards/s for parse + layout XML.

    .venv/bin/python bench/markup.py            # median of 5 runs
    .venv/bin/python bench/markup.py --runs 9 --cards 20000

The texts are generated from a fixed seed out of realistic pieces: drop caps, bold
and italic ability names, cypher and mark symbols, line breaks, empty paragraphs,
flavour text in three languages, and the sample deck's own cards.  The report also
times the diagnostics and the formatter, which are not part of the target.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator import markup  # noqa: E402
from translator.textio import read_source  # noqa: E402

OPENINGS = [
    ":W:hen I come into play, ",
    ":Q:uand ***je*** viens en jeu, ",
    ":K:iam mi venas en ludon, ",
    ":A:t the start of your turn, ",
    ":m: ",
    ":m2: ",
    ":mc: ",
    "",
    "",
]
EFFECTS = [
    "deal **2 damage** to target ***creature***.",
    "inflige **2 dégâts** à la ***créature*** ciblée.",
    "kaŭzu **2 damaĝojn** al cela ***estaĵo***.",
    "pay :g2: to draw a card.",
    "paye :g1: et :gx: pour piocher deux cartes.",
    "put two 1/1 ***Addax*** tokens\\\ninto target ***city***.",
    "mets un marqueur +1/+1 sur la créature ***mort-vivant*** ciblée dans cette ***cité***.",
    "each player draws two cards, then discards one card.",
    "target creature gains ***Flying*** until the end of the turn.",
    "I cannot attack unless you pay :g3: resources.",
]
ABILITIES = [
    "***Flying***\\\n*Only creatures with flying and ranged can defend against me.*",
    "***Vol***\\\n*Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer.*",
    "***Korpogardisto 2***\\\n*Ĉiun vicon, mi povas deturni ĝis 2 damaĝon el cela estaĵo.*",
    "***First Strike***\\\n*In combat, I deal damage first.*",
]
FLAVOUR = [
    '*"The herds follow her song."*',
    "*« Les troupeaux suivent son chant. »*",
    "*« La vento konas mian nomon. »*",
]


def generate(count: int, seed: int = 2026) -> list[str]:
    rng = random.Random(seed)
    sample = [read_source(str(p)).body for p in sorted((ROOT / "cards").rglob("*.md"))]
    texts: list[str] = []
    while len(texts) < count:
        if sample and rng.random() < 0.1:
            texts.append(rng.choice(sample))
            continue
        paragraphs = []
        if rng.random() < 0.15:
            paragraphs.append("\\")
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.3:
                paragraphs.append(rng.choice(ABILITIES))
            else:
                paragraphs.append(rng.choice(OPENINGS) + rng.choice(EFFECTS))
        if rng.random() < 0.5:
            paragraphs.append(rng.choice(FLAVOUR))
        texts.append("\n\n".join(paragraphs))
    return texts


def timed(function: Callable[[str], object], texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        function(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    texts = generate(args.cards)
    characters = sum(len(t) for t in texts)
    print(f"{len(texts):,} card texts, {characters / len(texts):.0f} characters on average")

    def convert(text: str) -> str:
        return markup.to_xml(markup.parse(text).document)

    def check(text: str) -> object:
        return markup.check(markup.parse(text))

    timed(convert, texts[:200])  # warm up: imports, regex compilation
    for name, function, runs in (
        ("parse + layout XML", convert, args.runs),
        ("parse + all MK checks", check, 3),
        ("format", markup.format_text, 3),
    ):
        rates = [len(texts) / seconds for seconds in repeat(partial(timed, function, texts), runs)]
        print(f"{name:<24} {summary(rates, ',.0f', 'cards/s')}")


if __name__ == "__main__":
    main()
