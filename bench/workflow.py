"""Benchmark: the translation workflow on a large library.

    .venv/bin/python bench/workflow.py            # 1,200 cards, median of 5 runs
    .venv/bin/python bench/workflow.py --cards 2400 --runs 3

The library is the sample copied under new slugs (bench/cards.py), in decks of 100
cards, English, French and Esperanto.  Timed, in-process through the command line's
own entry point (so that reading the library and the glossaries is counted):

- ``status``: every card in both languages;
- ``translate --lang eo``: drafts for every card, after the Esperanto files are removed
  (the files written, in a fresh copy each run);
- ``export po`` of one 100-card deck, French;
- ``import po`` of that file unchanged (read, compare, nothing to write: what a
  scheduled sync from Weblate does most of the time), and with one entry edited (the
  changed card linted, then written);
- the translation memory (``--memory-cards``, default 5,000 translated cards, target
  under 1 s): built in-process from a library whose every text is its own (the
  sample's cards copied, each copy with a word of its own in each paragraph, in
  English and French alike, so that its sentences, numbers and symbols are the
  card's; fingerprints fresh), then 100 fuzzy look-ups in it.
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402

from cards import make_library  # noqa: E402
from translator.cards import load_library  # noqa: E402
from translator.cards.model import Card, Library, source_fingerprint  # noqa: E402
from translator.cli import main as cli  # noqa: E402
from translator.workflow.memory import build_memory, paragraphs  # noqa: E402


def run(*args: str) -> str:
    out = io.StringIO()
    code = cli(list(args), out)
    assert code in (0, 1), (args, code, out.getvalue()[-500:])
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cards", type=int, default=1_200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memory-cards", type=int, default=5_000)
    parser.add_argument("--only-memory", action="store_true", help="only the memory figures")
    args = parser.parse_args()
    bench_memory(args.memory_cards, args.runs)
    if args.only_memory:
        return
    with tempfile.TemporaryDirectory() as scratch:
        library = Path(scratch) / "library"
        make_library(library, args.cards * 3)
        deck = sorted(library.glob("deck-*"))[0]
        cards = len(list(library.glob("*/*.en.md")))
        print(
            f"{cards:,} cards in {len(list(library.glob('deck-*')))} decks, "
            "English, French and Esperanto"
        )

        times = repeat(lambda: run("status", str(library), "--format", "json"), args.runs)
        print(f"status, {cards * 2:,} translations: {summary(times, '.2f', 's')}")

        def draft() -> None:
            copy = Path(scratch) / "drafts"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(library, copy, symlinks=True)
            for path in copy.glob("*/*.eo.md"):
                path.unlink()
            start = time.perf_counter()
            run("translate", str(copy), "--lang", "eo", "--format", "json")
            draft_times.append(time.perf_counter() - start)

        draft_times: list[float] = []
        for _ in range(args.runs):
            draft()
        print(
            f"translate --lang eo, {cards:,} drafts: {summary(draft_times, '.2f', 's')} "
            f"({1000 * sorted(draft_times)[len(draft_times) // 2] / cards:.1f} ms per card)"
        )

        po = Path(scratch) / "deck.fr.po"
        times = repeat(
            lambda: run("export", "po", str(deck), "--lang", "fr", "-o", str(po)), args.runs
        )
        entries = po.read_text("utf-8").count("msgctxt")
        print(
            f"export po, one deck ({entries} entries, TBX included): {summary(times, '.2f', 's')}"
        )

        times = repeat(lambda: run("import", "po", str(po), "--library", str(library)), args.runs)
        print(f"import po, nothing changed: {summary(times, '.2f', 's')}")

        text = po.read_text("utf-8")
        edited = text.replace('msgstr "Ossements sans repos"', 'msgstr "Os sans repos"', 1)
        assert edited != text
        po.write_text(edited, "utf-8")

        def import_edited() -> None:
            run("import", "po", str(po), "--library", str(library))
            po.write_text(
                text.replace('msgstr "Ossements sans repos"', 'msgstr "Os sans repos"', 1), "utf-8"
            )
            for path in deck.glob("restless-bones-*.fr.md"):
                content = path.read_text("utf-8")
                if "Os sans repos" in content:
                    path.write_text(
                        content.replace("Os sans repos", "Ossements sans repos"), "utf-8"
                    )

        times = repeat(import_edited, args.runs)
        print(
            f"import po, one entry changed (lint and write included): {summary(times, '.2f', 's')}"
        )


def memory_library(count: int) -> Library:
    """``count`` translated cards (English and French), each copy of a sample card
    with a sentence of its own on both sides and a fresh fingerprint: a memory of
    ``count`` cards' worth of distinct texts."""
    sample, problems = load_library([str(ROOT / "cards" / "sample")])
    assert not problems, problems
    originals = [c for c in sample.cards.values() if c.source and "fr" in c.translations]
    library = Library()
    copy = 0
    while len(library.cards) < count:
        for card in originals:
            if len(library.cards) >= count:
                break
            assert card.source is not None
            slug = f"{card.slug}-{copy}"
            word = _word(copy)
            source = replace(card.source, slug=slug, body=_own(card.source.body, word))
            french = card.translations["fr"]
            fields = {**french.fields, "source": source_fingerprint(source)}
            body = _own(french.body, word)
            library.cards[("bench", slug)] = Card(
                slug, "bench", source, {"fr": replace(french, slug=slug, fields=fields, body=body)}
            )
        copy += 1
    return library


def _word(number: int) -> str:
    """A word of letters only, one per copy (``zqb``, ``zqc``...)."""
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters += chr(ord("a") + digit)
        if not number:
            return "zq" + letters


def _own(body: str, word: str) -> str:
    """``body`` with ``word`` in each of its paragraphs, before the last sentence's
    end: every text its own, its sentences, numbers and symbols those of the card
    copied (as real cards differ: in their words)."""
    out = []
    for paragraph in paragraphs(body):
        end = max(paragraph.rfind("."), paragraph.rfind("!"), paragraph.rfind("?"))
        end = len(paragraph) if end < 0 else end
        out.append(f"{paragraph[:end]} {word}{paragraph[end:]}")
    return "\n\n".join(out) + "\n"


def bench_memory(count: int, runs: int) -> None:
    library = memory_library(count)
    times = repeat(lambda: build_memory(library, "fr"), runs)
    memory = build_memory(library, "fr")
    print(
        f"translation memory of {len(library.cards):,} translated cards ({len(memory):,} "
        f"English texts): built in {summary(times, '.3f', 's')} (target: under 1 s)"
    )
    queries = [
        paragraph.replace("target", "any", 1)
        for card in list(library.cards.values())[:100]
        if card.source is not None
        for paragraph in paragraphs(card.source.body)[:1]
    ]
    times = repeat(lambda: [memory.fuzzy("paragraph", query) for query in queries], runs)
    print(
        f"{len(queries)} fuzzy look-ups (>= 75 %) in it: {summary(times, '.3f', 's')} "
        f"({1000 * sorted(times)[len(times) // 2] / len(queries):.2f} ms each)"
    )


if __name__ == "__main__":
    main()
