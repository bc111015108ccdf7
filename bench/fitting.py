"""Benchmark: how many text measures fitting needs, and how often its guess is right.

A card whose text is too tall at full size is measured at a few scales until the
largest step of 0.02 that fits is known (``translator/typeset/fitting.py``: each
measure bounds the height at every other scale; the next scale measured is where the
measures so far say the text meets its frame).  Each measure is a layout of the text
box (about half a card's), so their number is what fitting costs.

This bench measures every card of the sample and the stress library that is too tall
at full size, in English, French and Esperanto, at *every* step down to its floor: the
truth.  On that table it replays, without laying anything out again:

- the build's choice of scales (``fitting._next_scale``, as it is now);
- a first probe where the height would fit if it went as the square of the scale,
  then bisection (the build's choice until 2026-12-08);
- plain bisection of the unknown steps;
- the least any choice could do: the answer measured, and the step above it when the
  answer's measure does not bound it;

and prints the measures per card printed of each, per card refused (too tall at every
step: before it is refused, the build measures every step whose bound is within a line
of fitting), how often the first guess is the answer, and the cards whose answer
differs from the reference's (its loop from 1.00 down takes the first step that fits;
the bounds assume that shrinking never adds a line, which a hyphenation or a float
can break).

    .venv/bin/python bench/fitting.py                      # the default look
    .venv/bin/python bench/fitting.py --theme DIR          # a theme (the official look)
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator import cards  # noqa: E402
from translator.pdf.sizes import PRESETS  # noqa: E402
from translator.typeset import build, fitting  # noqa: E402
from translator.typeset.options import TOLERANCE_MM, BuildOptions  # noqa: E402
from translator.typeset.render import card_page, overflows  # noqa: E402

LIBRARIES = {
    "sample": ROOT / "cards" / "sample",
    "stress": ROOT / "tests" / "data" / "stress-library",
}
Row = tuple[float, float, float]  # scale, text height, frame height (mm)


def truth(theme: str | None) -> dict[str, list[Row]]:
    """Every card too tall at full size, measured at every step to its floor."""
    table: dict[str, list[Row]] = {}
    for name, folder in LIBRARIES.items():
        library, _ = cards.load_library([str(folder)])
        options = BuildOptions(PRESETS["arcmage"], theme, jobs=1)
        roots = (folder.resolve(),)
        renderer = fitting.cached_renderer(theme, options.size, roots)
        steps = fitting.scales(options.text_floor)
        for lang in ("en", "fr", "eo"):
            glossary = fitting.cached_glossary(lang, roots)
            pages = [
                card_page(c, lang, renderer.theme, glossary) for c in build.chosen_cards(library)
            ]
            first = overflows(renderer.render(pages, measure=True))
            tall = [i for i, (content, frame) in enumerate(first) if content - frame > TOLERANCE_MM]
            rows: dict[int, list[Row]] = {i: [] for i in tall}
            for scale in steps:
                for i in tall:
                    pages[i].scale = scale
                measured = overflows(renderer.render([pages[i] for i in tall], measure=True))
                for i, (content, frame) in zip(tall, measured, strict=True):
                    rows[i].append((scale, content, frame))
            for i in tall:
                table[f"{name}/{pages[i].slug}.{lang}"] = rows[i]
    return table


def reference(rows: Sequence[Row]) -> float:
    """The reference's answer: the first step from the top that fits, else the floor."""
    return next((s for s, c, f in rows if c - f <= TOLERANCE_MM), rows[-1][0])


Chooser = Callable[[list[Row], list[float]], tuple[float, bool]]


def replay(rows: Sequence[Row], choose: Chooser) -> tuple[float, int, float | None]:
    """(the answer, measures after the full size, the first scale measured)."""
    steps = [s for s, _, _ in rows]
    by_step = {round(s, 2): row for row in rows for s in [row[0]]}
    samples = [by_step[1.0]]
    first = None
    while True:
        scale, settled = choose(samples, steps)
        if settled and fitting._status(samples, scale) is False:
            # Refused: the steps not measured yet that might fit are measured first
            # (fitting._refused_on_measures).
            samples += [
                row
                for row in rows
                if not any(row[0] == m for m, _, _ in samples)
                and fitting._within_a_line(samples, row[0])
            ]
            fits = [s for s, c, f in samples if c - f <= TOLERANCE_MM]
            return (max(fits) if fits else steps[-1]), len(samples) - 1, first
        if settled:
            return scale, len(samples) - 1, first
        first = scale if first is None else first
        samples.append(by_step[round(scale, 2)])


def bisect(samples: list[Row], steps: list[float]) -> tuple[float, bool]:
    scale, settled = fitting._next_scale(samples, steps)
    if settled:
        return scale, True
    unknown = [s for s in steps if fitting._status(samples, s) is None]
    return unknown[len(unknown) // 2], False


def square_root(samples: list[Row], steps: list[float]) -> tuple[float, bool]:
    """The choice before the guess: a first probe where the height would fit if it went
    as the square of the scale, then bisection."""
    scale, settled = fitting._next_scale(samples, steps)
    if settled:
        return scale, True
    unknown = [s for s in steps if fitting._status(samples, s) is None]
    if len(samples) == 1 and samples[0][1] > samples[0][2] > 0:
        measured, content, frame = samples[0]
        guess = measured * math.sqrt(frame / content)
        return min(unknown, key=lambda s: abs(s - guess)), False
    return unknown[len(unknown) // 2], False


def least(rows: Sequence[Row]) -> int:
    """Measures an oracle needs: the answer's, and the step above when not bounded."""
    by_step = {round(s, 2): row for row in rows for s in [row[0]]}
    samples, count = [by_step[1.0]], 0
    answer = reference(rows)
    for scale in (answer, round(answer + 0.02, 2)):
        if scale in by_step and scale < 1.0 and fitting._status(samples, scale) is None:
            samples.append(by_step[scale])
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", metavar="DIR", help="a theme directory (default: translator's)")
    args = parser.parse_args()
    table = truth(args.theme)
    count = len(table)
    print(
        f"theme: {args.theme or 'default'}; {count} cards too tall at full size "
        "(sample and stress library, en, fr, eo), measured at every step"
    )
    choices: tuple[tuple[str, Chooser], ...] = (
        ("the build's choice", fitting._next_scale),
        ("a square-root guess, then bisection (before)", square_root),
        ("plain bisection", bisect),
    )
    # A card too tall at every step is refused; the others are printed.
    printed = {key: rows for key, rows in table.items() if _fits_somewhere(rows)}
    refused = count - len(printed)
    for label, choose in choices:
        measures, extra, right, differ = 0, 0, 0, []
        for key, rows in table.items():
            answer, used, first = replay(rows, choose)
            if key not in printed:
                extra += used
                continue
            measures += used
            right += first is not None and math.isclose(first, answer)
            if not math.isclose(answer, reference(rows)):
                differ.append(f"{key} {answer:.2f} (reference {reference(rows):.2f})")
        print(
            f"{label}: {measures / len(printed):.2f} measures per card printed; first guess "
            f"the answer for {right} of {len(printed)}; {refused} cards refused, "
            f"{extra / max(refused, 1):.1f} measures each; answers unlike the reference's: "
            f"{len(differ)}" + (f" ({', '.join(differ)})" if differ else "")
        )
    least_measures = sum(least(rows) for rows in printed.values()) / len(printed)
    print(f"the least possible: {least_measures:.2f} measures per card printed")


def _fits_somewhere(rows: Sequence[Row]) -> bool:
    return any(c - f <= TOLERANCE_MM for _, c, f in rows)


if __name__ == "__main__":
    main()
