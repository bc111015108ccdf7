"""Benchmark: typeset the sample library x 10 (240 cards, a 400-card deck) for print.

Targets (issue 22, build speed), on 2 cores, medians of 3 runs:

- a default build (``translator build --lang fr --force``: the card PDFs and their
  preflight), at most 1.5 times the WeasyPrint floor per card at 240 cards, the floor
  measured in the same run (``floor.py``: a bare WeasyPrint job of as many one-page
  cards, as many processes), the build into a fresh folder; printed with the same
  build without its preflight, and again into the same folder (what its record keeps);
- rebuilding after one card changed, with its deck: at most 1 s.

Targets (print parts 1 and 2), on 2 cores, medians of 3 runs:

- card PDFs from scratch: at most 20 ms per card, text fitting included; peak memory
  at most 500 MB;
- the deck PDF of that library (each card by its quantity, backs in duplex order):
  at most 15 ms per card;
- rebuilding after one card changed: at most 1 s;
- preflight of the deck PDF (a 200-card deck or more): at most 10 s.

    .venv/bin/python bench/build.py            # median of 3 runs
    .venv/bin/python bench/build.py --copies 20 --jobs 2
    .venv/bin/python bench/build.py --theme out/themes/arcmage --cards-only

The official look (print part 4) must stay within 1.5 times the default theme's time per
card: ``--theme DIR`` times a theme (``translator theme import-arcmage`` makes it), and
``--cards-only`` only the card PDFs (part 1 below).

The library is the sample deck copied on disk under new slugs (text, artwork and all;
each copy with the sample's quantity, so 24 cards x 10 make 240 card files and a deck
of 400 cards); the artwork cache is warmed once before timing (a deck is built many
times and its art converted once); "from scratch" runs rebuild every file (--force).
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import repeat, summary  # noqa: E402
from floor import Floor  # noqa: E402

from translator import cards  # noqa: E402
from translator.pdf import preflight  # noqa: E402
from translator.pdf.sizes import PRESETS  # noqa: E402
from translator.typeset import batch, workers  # noqa: E402
from translator.typeset import build as typeset  # noqa: E402
from translator.typeset.options import BuildOptions  # noqa: E402

#: The default build's time per card, at most this many times the floor's (issue 22).
FLOOR_TARGET = 1.5


def make_library(directory: Path, copies: int) -> Path:
    """``copies`` copies of every sample card in one deck directory, each listed with
    the sample deck's quantity."""
    sample = ROOT / "cards" / "sample"
    quantities = cards.load_library([str(sample)])[0].decks["sample"].quantities
    deck = directory / "deck"
    shutil.copytree(sample / "art", deck / "art")
    listed = []
    for path in sorted(sample.glob("*.md")):
        slug, lang, _ = path.name.split(".")
        for copy in range(copies):
            (deck / f"{slug}-{copy}.{lang}.md").write_text(path.read_text("utf-8"), "utf-8")
            if lang == "en":
                listed.append(f"  {slug}-{copy}: {quantities[slug]}")
    (deck / "deck.yaml").write_text(
        "name: Bench\ncards:\n" + "\n".join(listed) + "\n", encoding="utf-8"
    )
    return deck


def _peak_mb(pid: int) -> float:
    """A live worker's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        deck = make_library(directory, args.copies)
        library, problems = cards.load_library([str(deck)])
        assert not problems, problems[:3]
        options = BuildOptions(
            PRESETS["arcmage"], args.theme, jobs=args.jobs, cache_dir=directory / "cache"
        )
        print(f"theme: {args.theme or 'default'}")
        bench = _Bench(args, deck, library, options, directory / "out")
        start = time.perf_counter()
        warm = typeset.build_cards(library, args.lang, directory / "warm", options)
        print(f"warm-up (artwork converted once): {time.perf_counter() - start:.2f} s")
        _time_floor(bench, warm, directory)
        _time_card_pdfs(bench, warm)
        if args.cards_only:
            return
        report = _time_deck_pdf(bench, len(warm))
        _time_rebuild(bench)
        _time_preflight(bench, report, len(warm))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--theme", metavar="DIR", help="a theme directory (default: translator's)")
    parser.add_argument("--cards-only", action="store_true", help="time the card PDFs only")
    return parser.parse_args()


@dataclass
class _Bench:
    """What the timed parts share: the command line, the library (its deck folder and
    the cards read from it), the build options and the output folder."""

    args: argparse.Namespace
    deck: Path
    library: cards.Library
    options: BuildOptions
    out: Path

    def deck_build(self, force: bool = True, check: bool = False) -> batch.Report:
        """The cards, the back and the deck PDF (and their preflight with ``check``)."""
        request = batch.Request(
            [self.args.lang], self.out, self.options, force=force, deck=True, check=check
        )
        return batch.produce(self.library, request)


#: The builds timed against the floor: (label, preflight, into the folder of the build
#: before).
_VARIANTS = (
    ("default build", True, False),
    ("without preflight", False, False),
    ("again into the same folder", True, True),
)


def _time_floor(bench: _Bench, warm: list, directory: Path) -> None:
    """0. The default build against the WeasyPrint floor: in each round the default
    build, the same without its preflight and the default build again into the folder
    of the first, each round between two floors, so that a slow minute of this shared
    machine slows them all (each round's ratio is to the mean of its two floors).
    The default build writes into a fresh folder, as from scratch: no record of an
    earlier build (nor of its preflight) to reuse; built again (``--force`` as well),
    it shows what its record lets a build keep.  The artwork cache and the worker
    processes are warm, as they are for the floor."""
    args, count = bench.args, len(warm)
    named = {slug: card.name(args.lang) for (_, slug), card in bench.library.cards.items()}
    names = [named[r.slug] for r in warm]
    floor_times: list[float] = []
    builds: dict[str, list[float]] = {label: [] for label, _, _ in _VARIANTS}
    loads = []
    with Floor(directory, args.jobs, bench.options.size) as bare:
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            floor_times.append(bare.run(names))
            for label, check, again in _VARIANTS:
                out = directory / f"default-{run}-{check}"
                request = batch.Request([args.lang], out, bench.options, force=True, check=check)
                start = time.perf_counter()
                report = batch.produce(bench.library, request)
                builds[label].append(time.perf_counter() - start)
                # A faster build whose files no longer pass is no faster build.
                assert len(report.cards) == count and report.ok, report.problems[:3]
                if again or not check:
                    shutil.rmtree(out)
        floor_times.append(bare.run(names))  # each round between two floors
    loads.append(os.getloadavg()[0])
    floor_ms = [t / count * 1000 for t in floor_times]
    floor = statistics.median(floor_ms)
    # A round's own floor: the mean of the two around it (the load may change within).
    brackets = [(a + b) / 2 for a, b in itertools.pairwise(floor_ms)]
    print(
        f"against the WeasyPrint floor (bench/floor.py): {count} cards ({args.lang}), "
        f"{args.jobs} processes, one PDF per card, {args.runs} rounds between "
        f"{args.runs + 1} floors; load average (1 min) at each: {_runs(loads)} "
        f"({os.cpu_count()} cores; this bench adds about {args.jobs})"
    )
    print(f"floor: {floor:.1f} ms per card (runs: {_runs(floor_ms)})")
    for label, _, _ in _VARIANTS:
        per_card = [t / count * 1000 for t in builds[label]]
        rounds = ", ".join(f"{b / f:.2f}" for b, f in zip(per_card, brackets, strict=True))
        print(
            f"{label}: {statistics.median(per_card):.1f} ms per card = "
            f"{statistics.median(per_card) / floor:.2f} x the floor "
            f"(runs: {_runs(per_card)}; each round's ratio: {rounds})"
        )
    ratio = statistics.median(builds["default build"]) / count * 1000 / floor
    verdict = "met" if ratio <= FLOOR_TARGET else "not met"
    if max(loads) > args.jobs + 1:  # others' processes shared the cores
        verdict += f" (others ran meanwhile, load up to {max(loads):.1f}: measure again)"
    print(
        f"target: default build <= {FLOOR_TARGET} x the floor "
        f"({FLOOR_TARGET * floor:.1f} ms per card): {verdict}"
    )


def _runs(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values)


def _time_card_pdfs(bench: _Bench, warm: list) -> None:
    """1. Card PDFs, every one rendered: time per card and peak memory."""
    args, count = bench.args, len(warm)
    shrunk = sum(1 for r in warm if r.scale < 1)
    times = repeat(
        lambda: typeset.build_cards(bench.library, args.lang, bench.out, bench.options, force=True),
        args.runs,
    )
    per_card = [t / count * 1000 for t in times]
    peak = max(
        [
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            *(_peak_mb(pid) for pid in workers.worker_pids()),
        ]
    )
    print(
        f"card PDFs: {count} cards ({args.lang}, {shrunk} with shrunk text), {args.jobs} processes"
    )
    print(f"  time: {summary(times, '.2f', 's')}")
    print(f"  per card: {summary(per_card, '.1f', 'ms')} (target <= 20)")
    print(f"  peak memory of the largest process: {peak:.0f} MB (target <= 500)")


def _time_deck_pdf(bench: _Bench, count: int) -> batch.Report:
    """2. The deck PDF from scratch (cards, back, deck), then with the preflight of
    every file; the first build's report, for the preflight's part."""
    report = bench.deck_build()
    fronts = sum(bench.library.decks["deck"].quantities.values())
    times = repeat(bench.deck_build, bench.args.runs)
    print(
        f"deck PDF from scratch: {count} card files, a deck of {fronts} cards "
        f"({report.pages - count} pages with backs)"
    )
    print(f"  time: {summary(times, '.2f', 's')}")
    print(
        f"  per card of the deck: {summary([t / fronts * 1000 for t in times], '.1f', 'ms')}"
        " (target <= 15)"
    )
    print(f"  per card file: {summary([t / count * 1000 for t in times], '.1f', 'ms')}")
    checked = repeat(lambda: bench.deck_build(check=True), bench.args.runs)
    print(f"  with the preflight of every file: {summary(checked, '.2f', 's')}")
    return report


def _time_rebuild(bench: _Bench) -> None:
    """3. Rebuild after one card changed (the card, the deck, their preflight): one
    card edited on disk and the library read again, as a translator's edit would."""
    args = bench.args
    bench.deck_build(force=False, check=True)
    rebuilds = []
    for run in range(args.runs):
        card = bench.deck / f"courier-{run}.{args.lang}.md"
        card.write_text(card.read_text("utf-8").replace("carte", "carte ", 1), "utf-8")
        bench.library, _ = cards.load_library([str(bench.deck)])
        start = time.perf_counter()
        done = batch.produce(
            bench.library, batch.Request([args.lang], bench.out, bench.options, deck=True)
        )
        rebuilds.append(time.perf_counter() - start)
        assert sum(1 for r in done.cards if not r.reused) == 1
    print(
        "rebuild after changing one card (card, deck, preflight of both): "
        f"{summary(rebuilds, '.2f', 's')} (target <= 1)"
    )


def _time_preflight(bench: _Bench, report: batch.Report, count: int) -> None:
    """4. Preflight of the deck PDF, ink measured on every page."""
    deck_pdf = next(Path(f) for f in report.files if f.endswith(".deck.pdf"))
    fronts = sum(bench.library.decks["deck"].quantities.values())
    pages = report.pages - count
    found: list = []
    times = repeat(lambda: found.append(preflight.preflight(deck_pdf)), bench.args.runs)
    print(
        f"preflight of the deck PDF ({pages} pages, {fronts} cards): "
        f"{summary(times, '.2f', 's')} (target <= 10); "
        f"{statistics.mean(len(f) for f in found):.0f} problems"
    )


if __name__ == "__main__":
    main()
