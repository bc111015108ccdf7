"""Benchmark: an editor's card preview, and ``translator build --watch``'s rebuild.

    .venv/bin/python bench/preview.py            # medians of 7

Issue 20's target: the preview of one card, rendered from the editor's unsaved text,
in at most 1 s warm (the second call in a process: WeasyPrint imported, the fonts,
the theme and the glossaries loaded).  Timed on a copy of the sample, the French
veil-stalker, its text changed at every call (each call really renders):

- ``api.preview_card``, cold (the first call of the process, imports included) and
  warm, as a soft proof through the press's profile (Ghostscript: the colours of the
  build's previews, the default) and as PDFium's render (``proof=False``);
- the watch's latency: ``translator build --watch`` on that card, from a change saved
  to the card file until its line is printed (the PDF rebuilt, its PNG written, the
  card linted), the watcher's quiet time (100 ms) included.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402

RUNS = 7
CARD = "cards/sample/veil-stalker.fr.md"
TARGET = 1.0


def preview_times(folder: Path) -> None:
    """``api.preview_card`` cold, then warm with and without the soft proof."""
    from translator import api  # noqa: PLC0415 - timed: the cold call imports it

    text = (folder / CARD).read_text("utf-8")
    card = str(folder / CARD)

    def call(number: int, proof: bool) -> float:
        start = time.perf_counter()
        api.preview_card(
            card,
            text=text.replace("Rôdeur du voile", f"Rôdeur du voile {number}"),
            out=folder / "out" / "preview",
            proof=proof,
        )
        return time.perf_counter() - start

    cold = call(0, True)
    print(f"preview_card, cold (imports, fonts, theme): {cold:.2f} s")
    for proof, label in ((True, "soft proof (Ghostscript)"), (False, "PDFium")):
        times = [call(number, proof) for number in range(1, RUNS + 1)]
        median = sorted(times)[len(times) // 2]
        verdict = f" (target {TARGET:g} s: {'met' if median <= TARGET else 'missed'})"
        print(f"preview_card, warm, {label}: {summary(times, '.3f', 's')}{verdict}")


def watch_latency(folder: Path) -> None:
    """From a card file saved to its line printed by ``translator build --watch``."""
    command = ["build", "cards/sample", "--lang", "fr", "--card", "veil-stalker"]
    process = subprocess.Popen(
        [sys.executable, "-m", "translator", *command, "--out", "out/watch", "--watch"],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: list[tuple[float, str]] = []
    arrived = threading.Condition()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with arrived:
                lines.append((time.perf_counter(), line))
                arrived.notify_all()

    def wait_for(pattern: str, after: int) -> float:
        with arrived:
            while True:
                for when, line in lines[after:]:
                    if re.search(pattern, line):
                        return when
                if not arrived.wait(120):
                    raise RuntimeError(f"no line matching {pattern!r}")

    threading.Thread(target=read, daemon=True).start()
    try:
        wait_for(r"previews at", 0)
        path = folder / CARD
        text = path.read_text("utf-8")
        times = []
        for number in range(RUNS):
            time.sleep(0.5)  # apart from the last build's events
            seen = len(lines)
            start = time.perf_counter()
            path.write_text(text.replace("Rôdeur du voile", f"Rôdeur {number}"), "utf-8")
            times.append(wait_for(r"^veil-stalker\.fr: ", seen) - start)
        print(f"build --watch, saved to printed (one card): {summary(times, '.3f', 's')}")
    finally:
        process.terminate()
        process.wait(timeout=60)


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        shutil.copytree(ROOT / "cards" / "sample", folder / "cards" / "sample")
        preview_times(folder)
        watch_latency(folder)


if __name__ == "__main__":
    main()
