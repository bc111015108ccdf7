"""Benchmark: lint card translations with the rules of the two lint issues.

Targets: at least 2,000 card translations per second on one core for the checks of
lint part 1 (translation, glossary and the library-wide consistency rules), and at
least 1,000 for parts 1 and 2 together (French and Esperanto style, spelling).

    .venv/bin/python bench/lint.py                  # 5,000 translations, median of 5
    .venv/bin/python bench/lint.py --translations 20000

The library is the sample deck's cards copied in memory under new slugs (each copy
an English card with its French and Esperanto translations); reading files is
measured by bench/cards.py.  Glossaries (and the Hunspell dictionaries) are loaded
once, outside the timing, as a long-running linter (or a batch over many decks) does;
their load time is printed.  The copies repeat the sample's words, so spelling looks
each word up once: with TRANSLATOR_CACHE= (no lookup cache on disk) the first run of a
process pays about 0.3 ms per new French word of game text (1.6 ms for a word the
dictionary rejects), once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from translator import cards, lint, markup  # noqa: E402
from translator.cards.model import Card, Library  # noqa: E402
from translator.lint.engine import fewer_collections  # noqa: E402
from translator.lint.model import plain_text  # noqa: E402


def make_library(translations: int) -> Library:
    """The sample's cards copied until ``translations`` translations exist."""
    sample, problems = cards.load_library([str(ROOT / "cards" / "sample")])
    assert not problems, problems
    originals = [card for _, card in sorted(sample.cards.items())]
    library = Library(decks=dict(sample.decks))
    count = copy = 0
    while count < translations:
        for card in originals:
            slug = f"{card.slug}-{copy}"
            assert card.source is not None
            clone = Card(
                slug, card.deck, replace(card.source, slug=slug, path=card.source.path + f"#{copy}")
            )
            for lang, version in card.translations.items():
                clone.translations[lang] = replace(
                    version, slug=slug, path=version.path + f"#{copy}"
                )
                count += 1
            library.cards[(card.deck, slug)] = clone
            if count >= translations:
                break
        copy += 1
    return library


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--translations", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    library = make_library(args.translations)
    translations = sum(len(c.translations) for c in library.cards.values())
    options = lint.Options()
    problems: list = []
    start = time.perf_counter()
    resources = lint.load_resources(["fr", "eo"], options, problems)
    lint.lint(make_library(2), resources, options)  # builds the glossary indexes
    load = time.perf_counter() - start
    assert not problems, problems
    reports: list[lint.Report] = []

    def run(select: list[str]) -> list[float]:
        chosen = lint.Options(select=select)
        return repeat(lambda: reports.append(lint.lint(library, resources, chosen)), args.runs)

    def parse_only() -> None:
        with fewer_collections():
            for card in library.cards.values():
                for version in (card.source, *card.translations.values()):
                    if version is None:
                        continue  # a translation without its English card
                    plain_text(markup.parse(version.body, version.body_line).document, version.lang)

    everything = run([])
    report = reports[-1]
    part1 = run(["TR", "GL", "LN"])
    parts = run(["TR", "GL", "LN", "FR", "EO", "SP"])
    parsing = repeat(parse_only, args.runs)
    parse_median = statistics.median(parsing)

    def rates(times: list[float]) -> str:
        return summary([translations / t for t in times], ",.0f", "translations/s")

    print(
        f"lint: {translations:,} translations ({report.files:,} card files, "
        f"{len(lint.selected_rules(options))} rules), {len(report.findings)} findings"
    )
    print(f"  glossaries, indexes and dictionaries loaded once: {load:.2f} s")
    print(
        f"  every rule (MK TR GL LN FR EO SP), parsing included: {summary(everything, '.3f', 's')}"
    )
    print(f"    rate: {rates(everything)}")
    print(f"  parsing every card version (markup stage): {summary(parsing, '.3f', 's')}")
    print(f"  lint part 1 (TR GL LN), parsing included: {summary(part1, '.3f', 's')}")
    print(f"    rate: {rates(part1)}")
    print(
        f"    its checks alone (minus the median parse time): "
        f"{rates([t - parse_median for t in part1])} (target >= 2,000)"
    )
    print(
        f"  lint parts 1 and 2 (TR GL LN FR EO SP), parsing and spelling included: "
        f"{summary(parts, '.3f', 's')}"
    )
    print(f"    rate: {rates(parts)} (target >= 1,000)")


if __name__ == "__main__":
    main()
