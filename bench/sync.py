"""Benchmark: ``translator pull`` and ``translator push`` against the local stand-in.

    .venv/bin/python bench/sync.py            # medians of 5

Issue 21 sets no speed target; these figures say what a translator waits for, and
how many requests each command makes (what costs time against the real server,
which answers in tens of milliseconds each, not the stand-in's one or two):

- a pull of the 30-card deck with its French and Esperanto translations (64 files
  and their records) into an empty library, then again in place (nothing changes);
- a dry run of a push with two reviewed translations to send (no request at all);
- a push of those two (one created, one patched), including the lint that must
  pass first and the refetch before each write.
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402

from tests.aminduna_standin import StandIn  # noqa: E402
from tests.sync.test_sync_e2e import RAID_FR  # noqa: E402
from tests.synckit import seed  # noqa: E402
from translator import cli  # noqa: E402

RUNS = 5


def run(*argv: str) -> str:
    out = io.StringIO()
    code = cli.main([*argv], out=out)
    if code != 0:
        raise SystemExit(f"translator {' '.join(argv)}: exit {code}\n{out.getvalue()}")
    return out.getvalue()


def timed(*argv: str) -> tuple[float, str]:
    start = time.perf_counter()
    out = run(*argv)
    return time.perf_counter() - start, out


def main() -> None:
    pulls, repulls, dry, pushes = [], [], [], []
    requests = {}
    for _ in range(RUNS):
        folder = Path(tempfile.mkdtemp(prefix="bench-sync."))
        with StandIn(folder / "db.sqlite3") as server:
            seeded = seed(server)
            deck = folder / "cards" / "deck30"
            address = seeded.deck_address()
            server.clear_log()
            seconds, _ = timed("pull", address, "--into", str(deck), "--lang", "fr,eo")
            pulls.append(seconds)
            requests["pull"] = len(server.requests)
            seconds, _ = timed("pull", address, "--into", str(deck), "--lang", "fr,eo")
            repulls.append(seconds)
            (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, encoding="utf-8")
            herd = deck / "addax-herdmother.fr.md"
            herd.write_text(
                herd.read_text("utf-8").replace("**addax**", "***addax***"), encoding="utf-8"
            )
            run(
                "review",
                "raid-the-granaries",
                "addax-herdmother",
                "--lang",
                "fr",
                "--library",
                str(deck.parent),
            )
            seconds, _ = timed("push", str(deck), "--lang", "fr", "--dry-run")
            dry.append(seconds)
            import os  # noqa: PLC0415

            os.environ["TRANSLATOR_TOKEN"] = seeded.token("ana@example.org")
            server.clear_log()
            seconds, _ = timed("push", str(deck), "--lang", "fr")
            pushes.append(seconds)
            requests["push"] = len(server.requests)
            del os.environ["TRANSLATOR_TOKEN"]
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"pull of 30 cards + 34 translations: {summary(pulls, '.2f', 's')}, "
        f"{requests['pull']} requests"
    )
    print(f"pull again, nothing changed:        {summary(repulls, '.2f', 's')}")
    print(f"push --dry-run, 2 cards:            {summary(dry, '.2f', 's')}, 0 requests")
    print(
        f"push, 1 created + 1 patched:        {summary(pushes, '.2f', 's')}, "
        f"{requests['push']} requests"
    )


if __name__ == "__main__":
    main()
