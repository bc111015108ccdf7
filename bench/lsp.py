"""Benchmark: ``translator lsp``'s latency in a warm server, as an editor sees it.

    .venv/bin/python bench/lsp.py                # 30 changes, 7 previews
    .venv/bin/python bench/lsp.py --changes 100

Issue 20's targets on the 2-core machine: diagnostics within 100 ms of a change for
one card in a warm server, and the preview command in at most 1 s warm.  A real LSP
client (pytest-lsp's, over stdio) starts ``python -m translator lsp`` on a copy of the
sample library, opens a French card and waits for its first diagnostics (the server
reads the glossaries and the spelling dictionaries: printed, not counted), then:

- change: the time from a ``didChange`` sent (one character typed, a finding made or
  undone) to its ``publishDiagnostics`` received, for each of ``--changes`` changes,
  each sent after the last one's diagnostics: the debounce, the lint and the protocol;
- burst: five changes 5 ms apart (a paste, fast typing) lint once: the publishes
  counted, and the time from the last change;
- preview: ``translator.preview`` (render the buffer to PNG, the client told to show
  it), once cold (WeasyPrint imported), then ``--previews`` times warm.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import summary  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp.client import (  # noqa: E402
    DEFAULT_CLIENT_FEATURES,
    LanguageClient,
    register_lsp_features,
)

CARD = "veil-stalker.fr.md"
#: What each change types: a space before "!" (FR201) and back.
BEFORE, AFTER = "adversaires.", "adversaires !"


class TimedClient:
    """A real LSP client that records when each ``publishDiagnostics`` arrives."""

    def __init__(self) -> None:
        self.client = LanguageClient(converter_factory=default_converter)
        features = {
            method: feature
            for method, feature in DEFAULT_CLIENT_FEATURES.items()
            if method != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        }
        register_lsp_features(self.client, features)
        self.published: list[tuple[float, int | None]] = []
        self.arrived = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.append((time.perf_counter(), params.version))
            self.arrived.set()

    async def version(self, version: int) -> float:
        """When the diagnostics of ``version`` arrived (waiting for them)."""
        while True:
            for at, published in self.published:
                if published == version:
                    return at
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 60)


class Document:
    def __init__(self, timed: TimedClient, path: Path) -> None:
        self.timed = timed
        self.uri = str(from_fs_path(str(path)))
        self.text = path.read_text("utf-8")
        self.version = 1
        timed.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(self.uri, "markdown", 1, self.text)
            )
        )

    def type(self, old: str, new: str) -> tuple[float, int]:
        """Replace ``old`` by ``new`` (one incremental change); when it was sent."""
        start = self.text.index(old)
        line = self.text.count("\n", 0, start)
        column = start - (self.text.rfind("\n", 0, start) + 1)
        end = types.Position(line, column + len(old))  # ASCII: UTF-16 units are characters
        change = types.TextDocumentContentChangePartial(
            types.Range(types.Position(line, column), end), new
        )
        self.text = self.text[:start] + new + self.text[start + len(old) :]
        self.version += 1
        sent = time.perf_counter()
        self.timed.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
                [change],
            )
        )
        return sent, self.version


def p90(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.9 * len(values)) - 1)]


async def run(changes: int, previews: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="translator-bench-lsp-"))
    try:
        shutil.copytree(ROOT / "cards" / "sample", folder / "cards" / "sample")
        await measure(folder, changes, previews)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def measure(folder: Path, changes: int, previews: int) -> None:
    timed = TimedClient()
    client = timed.client
    start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "translator", "lsp")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(folder))
        )
    )
    document = Document(timed, folder / "cards" / "sample" / CARD)
    first = await timed.version(1)
    print(f"start, read the library, first diagnostics: {(first - start) * 1000:.0f} ms")

    latencies = []
    for index in range(changes):
        old, new = (BEFORE, AFTER) if index % 2 == 0 else (AFTER, BEFORE)
        sent, version = document.type(old, new)
        latencies.append((await timed.version(version) - sent) * 1000)
    verdict = "met" if statistics.median(latencies) <= 100 else "missed"
    print(
        f"change -> diagnostics: {summary(latencies, '.0f', 'ms')}, "
        f"p90 {p90(latencies):.0f} ms (target 100 ms: {verdict})"
    )

    await burst(timed, document)
    await preview(client, document, previews)
    await client.shutdown_session()
    await client.stop()


async def burst(timed: TimedClient, document: Document) -> None:
    """Five changes 5 ms apart: how many lints are published, and how soon."""
    before = len(timed.published)
    sent, version = 0.0, 0
    for index in range(5):
        old, new = (BEFORE, AFTER) if index % 2 == 0 else (AFTER, BEFORE)
        sent, version = document.type(old, new)
        await asyncio.sleep(0.005)
    arrived = await timed.version(version)
    await asyncio.sleep(0.3)  # anything published late would be counted
    count = len(timed.published) - before
    print(
        f"burst of 5 changes 5 ms apart: {count} publish{'es' if count != 1 else ''}, "
        f"{(arrived - sent) * 1000:.0f} ms after the last change"
    )


async def preview(client: Any, document: Document, runs: int) -> None:
    params = types.ExecuteCommandParams("translator.preview", [document.uri])
    start = time.perf_counter()
    shown = await client.workspace_execute_command_async(params)
    cold = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        shown = await client.workspace_execute_command_async(params)
        times.append(time.perf_counter() - start)
    verdict = "met" if statistics.median(times) <= 1.0 else "missed"
    print(f"preview, cold (WeasyPrint imported): {cold * 1000:.0f} ms ({shown['summary']})")
    print(
        f"preview, warm: {summary([t * 1000 for t in times], '.0f', 'ms')} (target 1 s: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--previews", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(run(args.changes, args.previews))


if __name__ == "__main__":
    main()
