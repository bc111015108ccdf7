"""The language server (``translator lsp``) as an attacker and a clumsy editor use it
(issue #35): each attack below succeeded before, and is made here against the real
server, started as an editor starts it (``python -m translator lsp``) on a copy of the
sample library, with pytest-lsp's client, or, for bytes no client would send, written
raw to the server's standard input.

- a 50 MB buffer (3.9 GB and a minute without an answer before): not linted, said in
  a message and a diagnostic, memory bounded, other requests answered meanwhile; a
  buffer grown past the limit by edits, and brought back under it;
- ``exit`` during a lint that holds the interpreter's lock for a minute, or during a
  preview: the process gone within a second; the client closing its end: gone too;
  a stale lint and a cancelled request stopped, not waited for;
- a FIFO, and a link to ``/dev/zero``, named like a card file: preview, the English
  card, hover: answered, and the server answers the next request at once;
- a lone surrogate in a buffer: linted, the surrogate pointed at, no traceback;
- hypothesis over JSON-RPC bodies, headers and bytes, and over buffer edits: every
  request answered, every changed card's diagnostics published, the server alive.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tests.conftest import ROOT
from translator.editor.buffers import MAX_BUFFER_BYTES
from translator.editor.frames import Frames, Message, Refused, Skipped, frame
from translator.editor.session import Lines, offset_at
from translator.editor.workers import Worker
from translator.limits import MAX_CARD_FILE_BYTES, MAX_TEXT_CHARS

SERVER = [sys.executable, "-m", "translator", "lsp"]
#: Generous: the first lint reads the glossaries and the spelling dictionaries.
TIMEOUT = 20.0
CARD = "veil-stalker.fr.md"
#: A lint stuck inside one call of C code, holding the interpreter's lock all along
#: (nothing else of that process runs meanwhile): the server of :data:`STUCK_SERVER`,
#: whose lint of a text holding :data:`STUCK_BODY` first runs a regular expression that
#: backtracks for ever.  A real one did (the spelling check's pattern of addresses was
#: quadratic in a word's length: a minute for one 65,000-letter word, fixed since);
#: whatever the next one is, the supervisor must end the server within a second.
STUCK_BODY = "STUCK-IN-C"
STUCK_SERVER = [
    sys.executable,
    "-c",
    """if True:
    import re, sys
    from translator.editor import session
    lint = session.Session.lint
    def stuck(self, path, text, *args, **kwargs):
        if "STUCK-IN-C" in text:
            re.match(r"(a+)+$", "a" * 64 + "b")
        return lint(self, path, text, *args, **kwargs)
    session.Session.lint = stuck
    sys.argv = ["translator", "lsp"]
    from translator._entry import main
    main()
""",
]
#: A card text within every limit whose lint takes seconds of Python (120,000
#: findings): a lint that can be stopped.
SLOW_BODY = ":" * 65_000


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "cards" / "sample", tmp_path / "cards" / "sample")
    return tmp_path


class Client(LanguageClient):
    """pytest-lsp's client, keeping each ``publishDiagnostics`` with its version."""

    published: list[types.PublishDiagnosticsParams]


def new_client() -> Client:
    client = Client(converter_factory=default_converter)
    client.published = []
    features = {
        method: feature
        for method, feature in DEFAULT_CLIENT_FEATURES.items()
        if method != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
    }
    register_lsp_features(client, features)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    return client


@asynccontextmanager
async def server(workspace: Path, command: list[str] = SERVER) -> AsyncIterator[Client]:
    """A client connected to a new ``translator lsp`` on ``workspace``; shut down
    and exited after, unless the test ended the server itself."""
    client = new_client()
    await client.start_io(*command)
    try:
        await client.initialize_session(
            types.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                root_uri=from_fs_path(str(workspace)),
                workspace_folders=[types.WorkspaceFolder(str(from_fs_path(str(workspace))), "w")],
            )
        )
        yield client
        if client._server is not None and client._server.returncode is None:
            await client.shutdown_session()
            assert client._server.returncode == 0
    finally:
        process = client._server
        if process is not None and process.returncode is None:  # a test failed
            for pid in descendants(process.pid):
                kill(pid)
            process.kill()
        await client.stop()


async def until(check: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


def uri_of(path: Path) -> str:
    return str(from_fs_path(str(path)))


def open_card(client: Client, path: Path, text: str | None = None) -> str:
    uri = uri_of(path)
    shown = path.read_text("utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "markdown", 1, shown))
    )
    return uri


def change(
    client: Client, uri: str, version: int, text: str, span: types.Range | None = None
) -> None:
    """One change: the whole text (no ``span``), or ``span`` replaced by ``text``."""
    content: types.TextDocumentContentChangeEvent = (
        types.TextDocumentContentChangeWholeDocument(text)
        if span is None
        else types.TextDocumentContentChangePartial(span, text)
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri), [content]
        )
    )


def diagnostics_of(client: Client, uri: str, version: int | None) -> list[types.Diagnostic] | None:
    """The diagnostics published for ``version`` of ``uri``, if they came."""
    for params in client.published:
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)
    return None


async def diagnostics(
    client: Client, uri: str, version: int | None, timeout: float = TIMEOUT
) -> list[types.Diagnostic]:
    """The diagnostics published for ``version`` of ``uri`` (waiting for them)."""
    await until(
        lambda: diagnostics_of(client, uri, version) is not None,
        f"the diagnostics of version {version} of {uri[-30:]}",
        timeout,
    )
    found = diagnostics_of(client, uri, version)
    assert found is not None
    return found


async def hover_time(client: Client, uri: str) -> float:
    """Seconds a hover on ``uri`` takes to be answered."""
    start = time.perf_counter()
    await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 3))
        ),
        TIMEOUT,
    )
    return time.perf_counter() - start


def card_text(workspace: Path, body: str) -> str:
    """The French card's front matter over ``body``."""
    text = (workspace / "cards" / "sample" / CARD).read_text("utf-8")
    front = text[: text.index("---\n", 4) + 4]
    return front + body


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (its children, theirs...)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, up in parents.items() if up == parent]
        found += children
        frontier += children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def kill(pid: int) -> None:
    with suppress(ProcessLookupError):
        os.kill(pid, 9)


def peak_rss_mb(pid: int) -> float:
    """The most memory the process ever held (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def the_server(client: Client) -> int:
    """The process that lints: the child of the supervisor the client started."""
    assert client._server is not None
    (pid,) = descendants(client._server.pid)
    return pid


# --------------------------------------------------------------------------------------
# 1. the size of open documents


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_50_mb_buffer_is_not_linted_said_so_and_the_server_answers_meanwhile(
    workspace: Path,
) -> None:
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        courier = open_card(client, deck / "courier.fr.md")
        await diagnostics(client, courier, 1)
        baseline = peak_rss_mb(the_server(client))
        big = card_text(workspace, "x" * (50 << 20))
        start = time.perf_counter()
        uri = open_card(client, deck / CARD, big)
        # A request sent behind 50 MB is answered as soon as they are read.
        assert await hover_time(client, courier) < 5
        (said,) = await diagnostics(client, uri, 1)
        seen = time.perf_counter() - start
        assert said.range == types.Range(types.Position(0, 0), types.Position(0, 0))
        assert said.severity == types.DiagnosticSeverity.Error
        assert "this buffer is 50 MB" in said.message and "does not lint it" in said.message
        # The message comes after the diagnostic: wait to read it.
        await until(lambda: [m for m in client.messages if CARD in m.message], "its message")
        (message,) = [m for m in client.messages if CARD in m.message]
        assert "more than a card file may be (1 MB)" in message.message
        # Meanwhile, and after: answers within a second.
        assert await hover_time(client, courier) < 1
        assert await hover_time(client, uri) < 1  # on the big one: nothing, at once
        grown = peak_rss_mb(the_server(client)) - baseline
        print(f"50 MB buffer: said in {seen:.2f} s, the server's peak memory +{grown:.0f} MB")
        assert grown < 600  # the buffer, its JSON and its message: not 3.9 GB

        # Brought back under the limit by a change: linted again (the sample is clean).
        change(client, uri, 2, (deck / CARD).read_text("utf-8"))
        assert await diagnostics(client, uri, 2) == []
        assert len([m for m in client.messages if CARD in m.message]) == 1


@pytest.mark.asyncio
@pytest.mark.slow  # seconds, even alone: out of the quick loop
async def test_edits_that_grow_a_buffer_past_the_limits_and_back(workspace: Path) -> None:
    """300,000 characters typed in three edits: past the card-file limit (1 MB of
    UTF-8, é being two bytes), not linted; deleted in one edit: linted again.  A card
    text of more than 65,536 characters (a short file) is not linted either."""
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        text = (deck / CARD).read_text("utf-8")
        uri = open_card(client, deck / CARD, text)
        assert await diagnostics(client, uri, 1) == []
        end = Lines(text).position(len(text))
        at = types.Range(types.Position(*end), types.Position(*end))
        for version in (2, 3, 4):
            change(client, uri, version, "é" * 200_000, at)
        (said,) = await diagnostics(client, uri, 4)
        assert "this buffer is 1.1 MB" in said.message
        # Said once, after the diagnostic (the server writes it next: wait to read it).
        await until(
            lambda: len([m for m in client.messages if CARD in m.message]) == 1, "its message"
        )
        grown = Lines(text + "é" * 600_000).position(len(text) + 600_000)
        change(client, uri, 5, "", types.Range(at.start, types.Position(*grown)))
        assert await diagnostics(client, uri, 5) == []

        long_text = card_text(workspace, "Les cités. " * 7_000)
        assert len(long_text) < MAX_CARD_FILE_BYTES
        change(client, uri, 6, long_text)
        (said,) = await diagnostics(client, uri, 6)
        limit = f"more than a card may hold ({MAX_TEXT_CHARS:,})"
        assert f"the card text is 77,000 characters long, {limit}" in said.message
        change(client, uri, 7, text)
        assert await diagnostics(client, uri, 7) == []


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_buffer_grown_past_what_is_kept_and_a_message_too_large_to_read(
    workspace: Path,
) -> None:
    """Edits of 16 MB each past 64 MB: the text is no longer kept (memory stays
    bounded), a diagnostic says how large it is; the whole text sent again brings
    it back.  A message of 70 MB is not read at all: the document it opens gets its
    diagnostic from what the message's start says, a request its error."""
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        text = (deck / CARD).read_text("utf-8")
        uri = open_card(client, deck / CARD, text)
        await diagnostics(client, uri, 1)
        at = types.Range(types.Position(0, 0), types.Position(0, 0))
        chunk = "y" * (16 << 20)
        for version in range(2, 8):  # 96 MB in all
            change(client, uri, version, chunk, at)
        (said,) = await diagnostics(client, uri, 7)
        # Its size when its text was dropped (what later edits do is not known).
        assert "this buffer is 64 MB, more than a card file may be" in said.message
        assert peak_rss_mb(the_server(client)) < 1200
        change(client, uri, 8, text)
        assert await diagnostics(client, uri, 8) == []

        huge = deck / "courier.fr.md"
        huge_uri = open_card(client, huge, card_text(workspace, "z" * (70 << 20)))
        (said,) = await diagnostics(client, huge_uri, 1)  # its version, read off its start
        assert "more than a card file may be" in said.message
        with pytest.raises(Exception, match="more than the server reads"):
            await client.text_document_hover_async(
                types.HoverParams(
                    types.TextDocumentIdentifier("file:///" + "q" * (70 << 20)),
                    types.Position(0, 0),
                )
            )
        assert await hover_time(client, uri) < 1
        assert MAX_BUFFER_BYTES == 64 << 20


# --------------------------------------------------------------------------------------
# 2. work that can be stopped; shutdown and exit, whatever runs


async def stuck(client: Client, workspace: Path) -> str:
    """A card whose lint holds the server's interpreter for a minute, under way and
    inside its long call of C code: a hover is no longer answered."""
    uri = open_card(client, workspace / "cards" / "sample" / CARD)
    await diagnostics(client, uri, 1)
    change(client, uri, 2, card_text(workspace, STUCK_BODY))
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        hover = asyncio.ensure_future(
            client.text_document_hover_async(
                types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 3))
            )
        )
        try:
            await asyncio.wait_for(asyncio.shield(hover), 0.5)
        except TimeoutError:
            assert diagnostics_of(client, uri, 2) is None
            # Answered later, cancelled by shutdown, or failed with the server.
            hover.add_done_callback(lambda done: done.cancelled() or done.exception())
            return uri
        await asyncio.sleep(0.1)
    raise AssertionError(
        "the lint of STUCK_BODY does not hold the server's interpreter: is the server STUCK_SERVER?"
    )


async def gone(client: Client, pids: list[int]) -> tuple[float, int]:
    """Seconds until the client's process ends (and every process under it), its
    exit status."""
    assert client._server is not None
    start = time.perf_counter()
    status = await asyncio.wait_for(client._server.wait(), TIMEOUT)
    while any(alive(pid) for pid in pids):
        await asyncio.sleep(0.005)
    return time.perf_counter() - start, status


@pytest.mark.slow
@pytest.mark.asyncio
async def test_shutdown_is_answered_and_exit_ends_the_server_within_a_second_mid_lint(
    workspace: Path,
) -> None:
    async with server(workspace, STUCK_SERVER) as client:
        await stuck(client, workspace)
        pids = descendants(client._server.pid)  # type: ignore[union-attr]
        start = time.perf_counter()
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        answered = time.perf_counter() - start
        client.exit(None)
        seconds, status = await gone(client, pids)
        print(f"stuck lint: shutdown answered in {answered:.2f} s, gone {seconds:.2f} s after exit")
        assert answered < 0.5
        assert seconds < 1.0
        assert status == 0


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_client_closing_its_end_ends_the_server_within_a_second_mid_lint(
    workspace: Path,
) -> None:
    async with server(workspace, STUCK_SERVER) as client:
        await stuck(client, workspace)
        assert client._server is not None and client._server.stdin is not None
        pids = descendants(client._server.pid)
        client._server.stdin.close()
        seconds, status = await gone(client, pids)
        print(f"stuck lint: gone {seconds:.2f} s after the client closed its end")
        assert seconds < 1.0
        assert status == 1  # no shutdown came first


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_killed_process_takes_the_other_with_it(workspace: Path) -> None:
    """``kill -9`` of the process the editor started (an editor that gives up on
    it): the server, stuck in a lint, dies with it.  ``kill -9`` of the server (out
    of memory): the process the editor started ends at once, status 1."""
    async with server(workspace, STUCK_SERVER) as client:
        await stuck(client, workspace)
        assert client._server is not None
        (pid,) = descendants(client._server.pid)
        client._server.kill()
        start = time.perf_counter()
        while alive(pid):
            assert time.perf_counter() - start < 1.0, "the server outlived its supervisor"
            await asyncio.sleep(0.005)
        await client._server.wait()
    async with server(workspace, STUCK_SERVER) as client:
        await stuck(client, workspace)
        kill(the_server(client))
        seconds, status = await gone(client, [])
        assert seconds < 1.0 and status == 1


@pytest.mark.slow
@pytest.mark.asyncio
async def test_exit_ends_the_server_within_a_second_mid_preview(workspace: Path) -> None:
    async with server(workspace) as client:
        uri = open_card(client, workspace / "cards" / "sample" / CARD)
        await diagnostics(client, uri, 1)
        preview = asyncio.ensure_future(
            client.workspace_execute_command_async(
                types.ExecuteCommandParams("translator.preview", [uri])
            )
        )
        await asyncio.sleep(0.5)  # WeasyPrint is being imported, the card laid out
        assert not preview.done()
        pids = descendants(client._server.pid)  # type: ignore[union-attr]
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        seconds, status = await gone(client, pids)
        print(f"preview under way: gone {seconds:.2f} s after exit")
        assert seconds < 1.0 and status == 0
        preview.cancel()


@pytest.mark.asyncio
@pytest.mark.slow  # seconds, even alone: out of the quick loop
async def test_a_stale_lint_and_a_cancelled_request_are_stopped_not_waited_for(
    workspace: Path,
) -> None:
    """A lint of seconds, made stale by the next change: the next change's
    diagnostics come at once, not after it.  A code action that must lint for
    seconds, cancelled: answered as cancelled, and the worker free at once."""
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        text = (deck / CARD).read_text("utf-8")
        uri = open_card(client, deck / CARD, text)
        await diagnostics(client, uri, 1)
        courier = open_card(client, deck / "courier.fr.md")
        await diagnostics(client, courier, 1)

        started = time.perf_counter()
        change(client, uri, 2, card_text(workspace, SLOW_BODY))
        assert diagnostics_of(client, uri, 2) is None
        await asyncio.sleep(0.5)  # its lint runs (seconds of it)
        change(client, uri, 3, text)
        assert await diagnostics(client, uri, 3) == []
        seconds = time.perf_counter() - started
        print(f"stale lint: the next version's diagnostics {seconds:.2f} s after it began")
        assert seconds < 1.5  # the slow lint alone takes 4 s
        assert diagnostics_of(client, uri, 2) is None  # never published

        # Fixes asked of the slow text (their lint runs), then the text put back.
        change(client, uri, 4, card_text(workspace, SLOW_BODY))
        everything = types.Range(types.Position(0, 0), types.Position(0, 0))
        asked = asyncio.ensure_future(
            client.protocol.send_request_async(
                types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionParams(
                    types.TextDocumentIdentifier(uri),
                    everything,
                    types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
                ),
                msg_id="slow-fixes",
            )
        )
        await asyncio.sleep(0.5)  # the fixes' lint runs
        change(client, uri, 5, text)
        start = time.perf_counter()
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="slow-fixes"))
        with pytest.raises(Exception, match="cancel"):
            await asyncio.wait_for(asked, TIMEOUT)
        assert await diagnostics(client, uri, 5) == []  # the worker free at once
        found = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(courier),
                everything,
                types.CodeActionContext(diagnostics=[], only=["quickfix"]),
            )
        )
        assert list(found or []) == []
        seconds = time.perf_counter() - start
        print(f"cancelled fixes: the next lint and code action {seconds:.2f} s after")
        assert seconds < 1.0


# --------------------------------------------------------------------------------------
# 3. only open buffers and regular files


@pytest.mark.asyncio
@pytest.mark.slow  # seconds, even alone: out of the quick loop
async def test_a_fifo_or_a_device_named_like_a_card_gets_an_answer_and_blocks_nothing(
    workspace: Path,
) -> None:
    deck = workspace / "cards" / "sample"
    fifo = deck / "x.fr.md"
    os.mkfifo(fifo)
    (deck / "z.fr.md").symlink_to("/dev/zero")
    async with server(workspace) as client:
        courier = open_card(client, deck / "courier.fr.md")
        await diagnostics(client, courier, 1)
        for path in (fifo, deck / "z.fr.md"):
            uri = uri_of(path)
            start = time.perf_counter()
            shown = await asyncio.wait_for(
                client.workspace_execute_command_async(
                    types.ExecuteCommandParams("translator.preview", [uri])
                ),
                TIMEOUT,
            )
            assert shown is None
            said = client.messages[-1].message
            print(f"{path.name}: {said}")
            # The FIFO: refused by the reader; the link: a file of /dev, in no deck.
            assert path.name in said
            assert "not a regular file" in said or "not a card file of a library" in said
            english = await asyncio.wait_for(
                client.workspace_execute_command_async(
                    types.ExecuteCommandParams("translator.showEnglish", [uri])
                ),
                TIMEOUT,
            )
            assert english is None
            hover = await asyncio.wait_for(
                client.text_document_hover_async(
                    types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
                ),
                TIMEOUT,
            )
            assert hover is None  # not open: nothing is read to answer it
            client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams(
                    [types.FileEvent(uri, types.FileChangeType.Changed)]
                )
            )
            assert await hover_time(client, courier) < 1
            print(f"{path.name}: answered in {time.perf_counter() - start:.2f} s")
        assert any("a named pipe (FIFO), not a regular file" in m.message for m in client.messages)


# --------------------------------------------------------------------------------------
# 4. a lone surrogate in a buffer


@pytest.mark.asyncio
@pytest.mark.slow  # seconds, even alone: out of the quick loop
async def test_a_lone_surrogate_gets_its_diagnostic_and_the_rest_is_linted(
    workspace: Path,
) -> None:
    deck = workspace / "cards" / "sample"
    text = (deck / CARD).read_text("utf-8")
    text = text.replace("voile", "vo\ud800ile").replace("J’inflige", "J'inflige")
    text = text.replace("cités", "cités \U0001d11e\udc00")
    async with server(workspace) as client:
        uri = open_card(client, deck / CARD, text)
        found = await diagnostics(client, uri, 1)
        surrogates = [d for d in found if "lone surrogate" in d.message]
        assert [d.code for d in found if d.code] == ["FR203"]  # the rest linted as usual
        for diagnostic, char in zip(surrogates, "\ud800\udc00", strict=True):
            before = text[: text.index(char)]
            line = before.count("\n")
            # In UTF-16 units, counted here apart: the 𝄞 before U+DC00 is two.
            column = len(before[before.rfind("\n") + 1 :].encode("utf-16-le", "surrogatepass")) // 2
            assert diagnostic.range == types.Range(
                types.Position(line, column), types.Position(line, column + 1)
            )
            assert f"U+{ord(char):04X}" in diagnostic.message
            assert "delete it, or type the character again" in diagnostic.message
            assert diagnostic.severity == types.DiagnosticSeverity.Error
        lines = Lines(text)
        # Fixed by the quick fix, still: the apostrophe.
        at = text.index("J'") + 1
        line, column = lines.position(at)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri),
                types.Range(types.Position(line, column), types.Position(line, column)),
                types.CodeActionContext(diagnostics=[], only=["quickfix"]),
            )
        )
        assert [a.title for a in actions or []] == ["FR203: replace “'” with “’”"]
        said = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
        assert not said and not any("Traceback" in m.message for m in client.log_messages)


# --------------------------------------------------------------------------------------
# 5. fuzz: JSON-RPC messages and bytes, and buffer edits


class Raw:
    """The server over raw bytes: what no LSP client would send is written as it is;
    its answers kept by id, its notifications in order; its requests answered
    ``null``."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.answers: dict[Any, dict[str, Any]] = {}
        self.unnamed: list[dict[str, Any]] = []  # answers with a null id
        self.notes: list[dict[str, Any]] = []
        self.count = 0
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while True:
            try:
                header = await self.process.stdout.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                return
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            message = json.loads(await self.process.stdout.readexactly(length))
            if "method" in message and "id" in message:  # a request of the server's
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" in message:
                self.notes.append(message)
            elif message.get("id") is None:
                self.unnamed.append(message)
            else:
                self.answers[message["id"]] = message

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)

    def send(self, message: Any) -> None:
        self.write(frame(json.dumps(message).encode("utf-8")))

    def ident(self) -> str:
        self.count += 1
        return f"id-{self.count}"

    async def answer(self, ident: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        found: dict[str, Any] = await until(
            lambda: self.answers.get(ident), f"answer {ident}", timeout
        )
        return found

    async def request(self, method: str, params: Any) -> dict[str, Any]:
        ident = self.ident()
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return await self.answer(ident)

    async def probe(self, uri: str) -> None:
        """A hover answered (a result or an error): the server is alive and in step.
        Asked again while no answer comes: a header that claimed more than was sent
        is found out by the next header."""
        asked = []
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            ident = self.ident()
            asked.append(ident)
            position = {"line": 0, "character": 1}
            self.send(
                {
                    "jsonrpc": "2.0",
                    "id": ident,
                    "method": "textDocument/hover",
                    "params": {"textDocument": {"uri": uri}, "position": position},
                }
            )
            try:
                await until(lambda: any(a in self.answers for a in asked), "a probe", 0.5)
            except AssertionError:
                continue
            return
        raise AssertionError("the server went silent")


async def raw_server(workspace: Path) -> tuple[Raw, str]:
    process = await asyncio.create_subprocess_exec(
        *SERVER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    raw = Raw(process)
    root = uri_of(workspace)
    initialized = await raw.request(
        "initialize", {"processId": None, "rootUri": root, "capabilities": {}}
    )
    assert "result" in initialized
    raw.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    card = workspace / "cards" / "sample" / CARD
    uri = uri_of(card)
    document = {"uri": uri, "languageId": "markdown", "version": 1, "text": card.read_text()}
    raw.send(
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}
    )
    await until(
        lambda: any(n.get("method") == "textDocument/publishDiagnostics" for n in raw.notes),
        "the first diagnostics",
    )
    return raw, uri


CHARS = st.one_of(
    st.characters(),
    st.sampled_from(["\ud800", "\udfff", "\u2028", "\r", "\n", "\x00", "\U0001f600", "é"]),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(CHARS, max_size=12),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)
METHODS = st.sampled_from(
    [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/codeAction",
        "workspace/executeCommand",
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/didClose",
        "workspace/didChangeWatchedFiles",
        "$/cancelRequest",
        "$/setTrace",
        "textDocument/definition",
        "initialized",
        "window/showMessage",
        "foo/bar",
        "",
    ]
)
NUMBERS = st.one_of(st.integers(-3, 40), st.integers(2**31, 2**70), JSON_VALUES)


def params(uri: str) -> st.SearchStrategy[Any]:
    """LSP's shapes with wrong values in them, and anything at all."""
    position = st.fixed_dictionaries({"line": NUMBERS, "character": NUMBERS})
    document = st.fixed_dictionaries({"uri": st.one_of(st.just(uri), JSON_VALUES)})
    return st.one_of(
        JSON_VALUES,
        st.fixed_dictionaries({"textDocument": document, "position": position}),
        st.fixed_dictionaries(
            {
                "textDocument": document,
                "range": st.fixed_dictionaries({"start": position, "end": position}),
                "context": st.fixed_dictionaries(
                    {"diagnostics": st.lists(JSON_VALUES, max_size=2)}
                ),
            }
        ),
        st.fixed_dictionaries(
            {
                "command": st.sampled_from(["translator.preview", "translator.showEnglish", "x"]),
                "arguments": st.lists(st.one_of(st.just(uri), JSON_VALUES), max_size=2),
            }
        ),
        st.fixed_dictionaries({"id": JSON_VALUES}),
    )


@st.composite
def messages(draw: st.DrawFn, uri: str) -> tuple[str, Any]:
    """(kind, what to send): ``request`` (a dict, its id answerable), ``invalid``
    (a dict with a bad id: answered with a null id), ``message`` (no answer due),
    ``bytes`` (written as they are)."""
    kind = draw(
        st.sampled_from(["request", "request", "notification", "invalid", "bytes", "header"])
    )
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": draw(METHODS), "params": draw(params(uri))}
    if kind == "request":
        body["id"] = draw(
            st.one_of(st.text(max_size=8).map(lambda t: f"fuzz-{t}"), st.integers(10**6, 2**52))
        )
        if draw(st.booleans()):
            body[draw(st.sampled_from(["jsonrpc", "method", "params"]))] = draw(JSON_VALUES)
        return "request", body
    if kind == "notification":
        return "message", body
    if kind == "invalid":
        body["id"] = draw(
            st.one_of(
                st.floats(),
                st.lists(SCALARS, max_size=2),
                st.booleans(),
                st.none(),
                st.integers(2**60, 2**70),
            )
        )
        return "invalid", body
    if kind == "bytes":
        depth = draw(st.integers(60, 100_000))
        raw = draw(
            st.one_of(
                st.binary(max_size=64),
                st.just(b"[" * depth + b"]" * depth),
                st.just(
                    b'{"jsonrpc":"2.0","id":"deep","method":"textDocument/hover","params":'
                    + b"[" * depth
                    + b"]" * depth
                    + b"}"
                ),
                st.just(b"1" * 5000),
                st.just(b'{"jsonrpc":"2.0","id":1e999,"method":"x"}'),
                st.just(b'[{"jsonrpc":"2.0","id":"batch","method":"textDocument/hover"}]'),
                st.just(b"NaN"),
            )
        )
        return "bytes", frame(raw)
    body_bytes = json.dumps(body).encode()
    header = draw(
        st.one_of(
            st.just(b"Content-Length: -1\r\n\r\n"),
            st.just(b"Content-Length: abc\r\n\r\n"),
            st.just(b"Content-Length: 99999999999999\r\n\r\n"),
            st.just(b"Content-Length: 123456789012345678901234\r\n\r\n"),
            st.integers(0, len(body_bytes) + 300).map(lambda n: b"Content-Length: %d\r\n\r\n" % n),
            st.just(b"Content-Length: %d\r\n" % len(body_bytes)),
            st.just(b"content-length: %d\r\ncontent-type: x\r\n\r\n" % len(body_bytes)),
            st.just(b""),
            st.binary(max_size=30),
        )
    )
    return "bytes", header + body_bytes


@pytest.mark.slow
def test_fuzz_json_rpc_every_request_is_answered_and_the_server_stays(workspace: Path) -> None:
    """Hypothesis over what a client writes: JSON-RPC messages with wrong types,
    unknown methods, huge numbers, bad ids, and raw bytes (invalid JSON, 100,000
    brackets, lying or missing headers).  Every request whose id can be answered is
    answered (a result or an error); after each, a hover is answered."""
    loop = asyncio.new_event_loop()
    try:
        raw, uri = loop.run_until_complete(raw_server(workspace))
        counts: dict[str, int] = {}

        @settings(max_examples=150, derandomize=True, deadline=None, database=None)
        @given(messages(uri))
        def check(message: tuple[str, Any]) -> None:
            kind, sent = message
            counts[kind] = counts.get(kind, 0) + 1

            async def run() -> None:
                if kind == "bytes":
                    raw.write(sent)
                else:
                    raw.send(sent)
                if kind == "request":
                    answer = await raw.answer(sent["id"])
                    assert "result" in answer or "error" in answer
                elif kind == "invalid":
                    before = len(raw.unnamed)
                    await until(lambda: len(raw.unnamed) > before, "an error with a null id")
                await raw.probe(uri)
                said = [n["params"]["message"] for n in raw.notes if "Traceback" in json.dumps(n)]
                assert not said, said[0]

            loop.run_until_complete(run())

        start = time.perf_counter()
        check()
        print(f"fuzz messages: {counts} in {time.perf_counter() - start:.1f} s")
        assert raw.process.returncode is None
        shut = loop.run_until_complete(raw.request("shutdown", None))
        assert shut.get("result", shut) is None, shut
        raw.send({"jsonrpc": "2.0", "method": "exit"})
        assert loop.run_until_complete(asyncio.wait_for(raw.process.wait(), TIMEOUT)) == 0
        tracebacks = [n for n in raw.notes if "Traceback" in json.dumps(n)]
        assert not tracebacks, tracebacks[0]["params"]["message"]
    finally:
        if raw.process.returncode is None:
            for pid in descendants(raw.process.pid):
                kill(pid)
            raw.process.kill()
        loop.close()


def lsp_offset(text: str, line: int, character: int) -> int:
    """The offset of an LSP position (UTF-16 units) as the test understands LSP:
    lines end at \\r\\n, \\r or \\n; past a line's end is its end, past the last line
    the text's end; inside a character, the next one."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if line < 0:
        return 0
    if line >= len(starts):
        return len(text)
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content = re.sub(r"[\r\n]+$", "", text[starts[line] : end])
    units = 0
    for index, char in enumerate(content):
        if units >= character:
            return starts[line] + index
        units += 2 if ord(char) > 0xFFFF else 1
    return starts[line] + len(content)


EDIT_TEXT = st.text(
    st.one_of(
        st.sampled_from([*"ab é\n\r\t!’", "\ud83d", "\ude00", "\U0001d11e", "\u2028", "\ud800"])
    ),
    max_size=12,
)
EDITS = st.lists(
    st.tuples(
        st.one_of(st.integers(-1, 14), st.just(10**6)),
        st.one_of(st.integers(0, 60), st.just(2**31 - 1)),
        st.one_of(st.integers(-1, 14), st.just(10**6)),
        st.one_of(st.integers(0, 60), st.just(2**31 - 1)),
        EDIT_TEXT,
    ),
    min_size=1,
    max_size=4,
)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_fuzz_buffer_edits_are_applied_as_lsp_says_and_linted(workspace: Path) -> None:
    """Hypothesis over incremental edits: random ranges (past the last line, past a
    line's end, backwards), text with line breaks of every kind, surrogates and
    astral characters.  Each edited version gets its diagnostics; the same text sent
    whole gets the same diagnostics (the server applied the edits as LSP says);
    a hover is answered after each."""
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        text = (deck / CARD).read_text("utf-8")
        uri = open_card(client, deck / CARD, text)
        await diagnostics(client, uri, 1)
        state = {"text": text, "version": 1}
        loop = asyncio.get_running_loop()
        examples: list[list[tuple[int, int, int, int, str]]] = []

        @settings(max_examples=40, derandomize=True, deadline=None, database=None)
        @given(EDITS)
        def collect(edits: list[tuple[int, int, int, int, str]]) -> None:
            examples.append(edits)

        collect()
        start = time.perf_counter()
        for edits in examples:
            model = state["text"]
            changes = []
            for start_line, start_char, end_line, end_char, new in edits:
                span = types.Range(
                    types.Position(max(start_line, 0), start_char),
                    types.Position(max(end_line, 0), end_char),
                )
                changes.append(types.TextDocumentContentChangePartial(span, new))
                a = lsp_offset(model, max(start_line, 0), start_char)
                b = lsp_offset(model, max(end_line, 0), end_char)
                a, b = min(a, b), max(a, b)
                model = model[:a] + new + model[b:]
            version = state["version"] + 1
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri), changes
                )
            )
            edited = await diagnostics(client, uri, version)
            change(client, uri, version + 1, model)
            whole = await diagnostics(client, uri, version + 1)
            shown = [(d.range, d.message, d.code) for d in edited]
            assert shown == [(d.range, d.message, d.code) for d in whole], edits
            state.update(text=model, version=version + 1)
            assert await hover_time(client, uri) < 2
        assert loop.is_running()
        print(f"fuzz edits: {len(examples)} in {time.perf_counter() - start:.1f} s")
        errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
        assert not errors, errors[0]


# --------------------------------------------------------------------------------------
# the pieces, alone


def test_frames_keep_step_whatever_comes_and_however_it_is_cut() -> None:
    one, two = frame(b'{"a":1}'), frame(b'{"b":2}')
    cases = {
        one + two: [Message(b'{"a":1}'), Message(b'{"b":2}')],
        b"garbage\r\n" + one: [Skipped(9), Message(b'{"a":1}')],
        b"Content-Type: x\r\n" + one: [Message(b'{"a":1}')],  # fields first: no garbage
        b"Content-Length: 5\r\n\r\n" + b'{"a":1111}' + two: [
            Message(b'{"a":'),
            Skipped(5),
            Message(b'{"b":2}'),
        ],
        b"Content-Length: 500\r\n\r\n" + b'{"a":1}' + two: [
            Message(b'{"a":1}'),
            Message(b'{"b":2}'),
        ],
        b"Content-Length: 99999999\r\n\r\n" + b'{"id":3}' + two: [
            Refused(99999999, b'{"id":3}'),
            Message(b'{"b":2}'),
        ],
        b"Content-Length: -5\r\n\r\n{}" + two: [Skipped(24), Message(b'{"b":2}')],
        b"content-length:3\n\n{}1" + two: [Message(b"{}1"), Message(b'{"b":2}')],
    }
    for stream, expected in cases.items():
        for size in (1, 3, 7, len(stream)):
            frames = Frames(1000)
            events = []
            for at in range(0, len(stream), size):
                events += frames.feed(stream[at : at + size])
            assert events + frames.end() == expected, (stream, size)
    # Bodies above ``keep`` are passed over unheld; garbage is never held.
    frames = Frames(1 << 30, keep=16)
    assert frames.feed(frame(b"x" * 100) + two) == [Message(b'{"b":2}')]
    frames = Frames(1000)
    assert frames.feed(b"q" * 10_000_000) == []
    assert frames.end() == [Skipped(10_000_000)]


@given(
    st.lists(st.binary(max_size=40), max_size=6),
    st.lists(st.integers(1, 50), min_size=1, max_size=5),
)
@settings(max_examples=200, derandomize=True)
def test_frames_cut_anywhere_give_the_same_messages(parts: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(frame(part) if index % 2 else part for index, part in enumerate(parts))
    whole = Frames(100)
    expected = whole.feed(stream) + whole.end()
    pieces = Frames(100)
    events, at, turn = [], 0, 0
    while at < len(stream):
        size = cuts[turn % len(cuts)]
        events += pieces.feed(stream[at : at + size])
        at, turn = at + size, turn + 1
    assert [e for e in events + pieces.end() if isinstance(e, Message)] == [
        e for e in expected if isinstance(e, Message)
    ]


@pytest.mark.asyncio
async def test_a_worker_drops_waiting_work_and_stops_running_work() -> None:
    worker = Worker("test-worker")
    ran: list[str] = []

    def spin() -> None:
        ran.append("spin")
        while True:  # Python, forever: only Cancelled ends it
            pass

    running = worker.submit(spin)
    waiting = worker.submit(ran.append, "never")
    await asyncio.sleep(0.2)
    start = time.perf_counter()
    waiting.cancel()
    running.cancel()
    assert await worker.submit(lambda: 42) == 42
    assert time.perf_counter() - start < 0.5
    assert ran == ["spin"]
    with pytest.raises(ZeroDivisionError):
        await worker.submit(lambda: 1 / 0)
    worker.stop()
    assert worker.idle(1)


def test_offsets_without_a_table_are_those_of_lines() -> None:
    text = "a\r\nbé\u2028c\rd\n𝄞\ud800x\n"
    for encoding in ("utf-8", "utf-16", "utf-32"):
        lines = Lines(text, encoding)
        for line in range(-1, 7):
            for character in range(0, 9):
                assert offset_at(text, line, character, encoding) == lines.offset(line, character)
