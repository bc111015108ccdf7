"""``translator lsp`` end to end: pytest-lsp's real client starts the server over
stdio (``python -m translator lsp``), as an editor does, on a copy of the sample
library, and goes through what a translator does: open a French card, type a mistake,
see it, fix it, fix everything, hover, complete, open the English card and the
preview, shut down."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

from tests.conftest import ROOT

SERVER = [sys.executable, "-m", "translator", "lsp"]
#: Generous: the first lint reads the glossaries and the spelling dictionaries.
TIMEOUT = 20.0


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "cards" / "sample", tmp_path / "cards" / "sample")
    return tmp_path


@asynccontextmanager
async def server(
    workspace: Path, capabilities: types.ClientCapabilities | None = None
) -> AsyncIterator[LanguageClient]:
    """A client connected to a new ``translator lsp``, initialized on ``workspace``;
    shut down and exited after (the exit status checked)."""
    client = make_test_lsp_client()
    await client.start_io(*SERVER)
    try:
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities or client_capabilities("visual-studio-code"),
                root_uri=from_fs_path(str(workspace)),
                workspace_folders=[types.WorkspaceFolder(str(from_fs_path(str(workspace))), "w")],
            )
        )
        client.initialize_result = result  # type: ignore[attr-defined]
        yield client
        await client.shutdown_session()
        assert client._server is not None and client._server.returncode == 0
    finally:
        process = client._server
        if process is not None and process.returncode is None:  # a test failed
            process.kill()
        await client.stop()


async def until(check: Callable[[], Any], what: str) -> Any:
    """Wait for ``check()`` to be true (a notification the server sends when it is
    ready), at most :data:`TIMEOUT`."""
    deadline = time.monotonic() + TIMEOUT
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


def codes(client: LanguageClient, uri: str) -> list[str | int | None]:
    return [d.code for d in client.diagnostics.get(uri, [])]


def units(text: str, encoding: str) -> int:
    """The length of ``text`` in the code units of a position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


class Buffer:
    """A document as the client holds it: opened, changed by range as an editor
    changes it, its text kept for the test to compute positions in (counted in the
    encoding agreed with the server)."""

    def __init__(self, client: LanguageClient, path: Path, encoding: str = "utf-16") -> None:
        self.client = client
        self.encoding = encoding
        self.uri = str(from_fs_path(str(path)))
        self.text = path.read_text("utf-8")
        self.version = 1
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(self.uri, "markdown", self.version, self.text)
            )
        )

    def position(self, offset: int) -> types.Position:
        before = self.text[:offset]
        line = before.count("\n")
        column = before[before.rfind("\n") + 1 :]
        return types.Position(line, units(column, self.encoding))

    def offset(self, position: types.Position) -> int:
        start = 0
        for _ in range(position.line):
            start = self.text.index("\n", start) + 1
        count = 0
        at = start
        while count < position.character:
            count += units(self.text[at], self.encoding)
            at += 1
        return at

    def replace(self, old: str, new: str) -> None:
        """Type ``new`` over the first ``old``: one incremental change."""
        start = self.text.index(old)
        self.apply([types.TextEdit(self.range(start, start + len(old)), new)])

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    def apply(self, edits: Sequence[types.TextEdit]) -> None:
        """Apply text edits (of a code action) as an editor does: each range in the
        text before any of them, sent as the changes it makes."""
        spans = [(self.offset(e.range.start), self.offset(e.range.end), e.new_text) for e in edits]
        changes = []
        for start, end, new_text in sorted(spans, reverse=True):
            changes.append(types.TextDocumentContentChangePartial(self.range(start, end), new_text))
            self.text = self.text[:start] + new_text + self.text[end:]
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
                changes,
            )
        )


async def code_actions(
    buffer: Buffer, start: int, end: int, only: list[str] | None = None
) -> list[types.CodeAction]:
    found = await buffer.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(buffer.uri),
            buffer.range(start, end),
            types.CodeActionContext(
                diagnostics=list(buffer.client.diagnostics.get(buffer.uri, [])), only=only
            ),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def source_actions(buffer: Buffer) -> set[str]:
    """The titles of the source actions offered on a buffer.  (lsprotocol reads any
    code action that carries a command as a Command, its ``command`` the action's
    command object as a string: the titles are what both shapes keep.)"""
    found = await buffer.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(buffer.uri),
            buffer.range(0, 0),
            types.CodeActionContext(diagnostics=[], only=["source"]),
        )
    )
    return {action.title for action in found or []}


@pytest.mark.asyncio
async def test_the_server_says_what_it_does_and_exits_as_lsp_asks(tmp_path: Path) -> None:
    async with server(tmp_path) as client:  # no library here: nothing is read
        result = client.initialize_result  # type: ignore[attr-defined]
        assert result.server_info.name == "translator"
        capabilities = result.capabilities
        assert list(capabilities.code_action_provider.code_action_kinds) == [
            "quickfix",
            "source.fixAll",
            "source.translator.showEnglish",
            "source.translator.preview",
        ]
        assert set(capabilities.execute_command_provider.commands) == {
            "translator.showEnglish",
            "translator.preview",
            "translator.reload",
        }
        assert list(capabilities.completion_provider.trigger_characters) == [":"]
        assert capabilities.hover_provider
        assert capabilities.position_encoding == "utf-16"
    # Exit without a shutdown request first: status 1.
    client = make_test_lsp_client()
    await client.start_io(*SERVER)
    try:
        await client.initialize_session(types.InitializeParams(types.ClientCapabilities()))
        client.exit(None)
        assert client._server is not None
        assert await asyncio.wait_for(client._server.wait(), TIMEOUT) == 1
    finally:
        await client.stop()


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_translator_types_fixes_looks_up_and_previews(workspace: Path) -> None:
    deck = workspace / "cards" / "sample"
    async with server(workspace) as client:
        # Open a French card: its diagnostics arrive (none: the sample is clean).
        card = Buffer(client, deck / "veil-stalker.fr.md")
        await until(lambda: card.uri in client.diagnostics, "the first diagnostics")
        assert list(client.diagnostics[card.uri]) == []
        await type_and_quick_fix(card)
        await type_and_fix_all(card)
        await type_in_the_english(card, deck)
        await change_the_english_on_disk(card, deck)
        await show_english_and_preview(card, deck, workspace)
        await hover_and_complete(card, deck)


async def type_and_quick_fix(card: Buffer) -> None:
    """A straight apostrophe typed: FR203, on it, with a quick fix that clears it."""
    client = card.client
    card.replace("J’inflige", "J'inflige")
    await until(lambda: "FR203" in codes(client, card.uri), "FR203")
    (diagnostic,) = client.diagnostics[card.uri]
    at = card.text.index("J'") + 1
    assert diagnostic.range == card.range(at, at + 1)
    assert diagnostic.source == "translator"
    assert diagnostic.severity == types.DiagnosticSeverity.Information
    (fix,) = await code_actions(card, at, at, only=["quickfix"])
    assert fix.title == "FR203: replace “'” with “’”" and fix.is_preferred
    assert list(fix.diagnostics or []) == [diagnostic]
    assert fix.edit is not None and fix.edit.changes is not None
    card.apply(fix.edit.changes[card.uri])
    await until(lambda: codes(client, card.uri) == [], "the fix to clear FR203")
    assert "J’inflige" in card.text


async def type_and_fix_all(card: Buffer) -> None:
    """Two mistakes, on accented lines, in their ranges: "apply all safe fixes"."""
    client = card.client
    card.replace("cités", "villes")
    card.replace("créatures.", "créatures !")
    await until(lambda: sorted(codes(client, card.uri)) == ["FR201", "GL201"], "two findings")
    nbsp = card.text.index(" !")
    (space,) = [d for d in client.diagnostics[card.uri] if d.code == "FR201"]
    assert space.range == card.range(nbsp, nbsp + 1)
    (every,) = await code_actions(card, 0, 0, only=["source.fixAll"])
    assert every.kind == "source.fixAll"
    assert every.title == "Apply all safe fixes (2 fixes)"
    assert every.edit is not None and every.edit.changes is not None
    card.apply(every.edit.changes[card.uri])
    await until(lambda: codes(client, card.uri) == [], "every fix applied")
    assert "les cités" in card.text and "créatures\u00a0!" in card.text


async def type_in_the_english(card: Buffer, deck: Path) -> None:
    """The English card typed in: its open translation is linted against the buffer;
    closed unsaved, the file on disk is the English again."""
    client = card.client
    english = Buffer(client, deck / "veil-stalker.en.md")
    english.replace("-1/-1", "-2/-2")
    await until(lambda: "TR101" in codes(client, card.uri), "TR101 on the translation")
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(english.uri))
    )
    await until(lambda: codes(client, card.uri) == [], "the English back from the disk")


async def change_the_english_on_disk(card: Buffer, deck: Path) -> None:
    """The English file changed on disk (a git pull), the client says so: the open
    translation is linted against it."""
    client = card.client
    english = deck / "veil-stalker.en.md"
    text = english.read_text("utf-8")

    def changed(content: str) -> None:
        english.write_text(content, "utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                [types.FileEvent(str(from_fs_path(str(english))), types.FileChangeType.Changed)]
            )
        )

    changed(text.replace("-1/-1", "-3/-3"))
    await until(lambda: "TR101" in codes(client, card.uri), "TR101 after the English changed")
    changed(text)
    await until(lambda: codes(client, card.uri) == [], "the English as it was")


async def show_english_and_preview(card: Buffer, deck: Path, workspace: Path) -> None:
    """The two commands, also offered as source actions; the client shows what they
    open (the preview: of the unsaved buffer, outside the library)."""
    client = card.client
    assert await source_actions(card) == {"Show the English card", "Preview the card (PNG)"}
    english = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("translator.showEnglish", [card.uri])
    )
    assert english == from_fs_path(str((deck / "veil-stalker.en.md").resolve()))
    assert client.shown_documents[-1].uri == english
    card.replace("Infiltré", "Infiltrée")
    shown = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("translator.preview", [card.uri])
    )
    assert client.shown_documents[-1].uri == shown["png"]
    png = Path(shown["png"].removeprefix("file://"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not png.is_relative_to(workspace)  # nothing written in the library
    assert shown["summary"]


async def hover_and_complete(card: Buffer, deck: Path) -> None:
    """Hover on a glossary term in an inflected form and on a symbol code; complete
    after ``:m``."""
    client = card.client
    term = card.text.index("marqueurs")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(card.uri), card.position(term + 2))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "marqueur" in hover.contents.value
    courier = Buffer(client, deck / "courier.fr.md")
    symbol = courier.text.index(":m:")
    where = types.TextDocumentIdentifier(courier.uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(where, courier.position(symbol + 1))
    )
    assert hover is not None and hover.range is not None
    assert hover.range.start == courier.position(symbol)
    courier.replace(":m: La", ":m La")
    after = courier.text.index(":m La") + 2
    completion = await client.text_document_completion_async(
        types.CompletionParams(where, courier.position(after))
    )
    assert isinstance(completion, types.CompletionList)
    inserted = [i.text_edit.new_text for i in completion.items if i.text_edit]
    assert ":m:" in inserted
    edit = next(i.text_edit for i in completion.items if i.text_edit)
    assert isinstance(edit, types.TextEdit)
    assert edit.range == courier.range(after - 2, after)
    # Inside a code, the edit replaces the whole of it (no ":g2:2:").
    courier.replace(":m La", ":g La")
    inside = courier.text.index(":g La") + 2
    completion = await client.text_document_completion_async(
        types.CompletionParams(where, courier.position(inside))
    )
    assert isinstance(completion, types.CompletionList)
    cypher = next(i for i in completion.items if i.text_edit and i.text_edit.new_text == ":g2:")
    assert isinstance(cypher.text_edit, types.TextEdit)
    assert cypher.text_edit.range.start == courier.position(inside - 2)
    # A deprecated term is found by its own letters and inserts its replacement.
    courier.replace(":g La", ":m: La vil")
    typed = courier.text.index(" vil") + 4
    completion = await client.text_document_completion_async(
        types.CompletionParams(where, courier.position(typed))
    )
    assert isinstance(completion, types.CompletionList)
    old = next(i for i in completion.items if i.tags)
    assert list(old.tags or []) == [types.CompletionItemTag.Deprecated]
    assert old.filter_text == "ville"
    assert isinstance(old.text_edit, types.TextEdit) and old.text_edit.new_text == "cité"


@pytest.mark.slow
@pytest.mark.asyncio
async def test_bad_files_get_a_diagnostic_or_nothing_and_positions_in_utf8(
    workspace: Path,
) -> None:
    """A card file outside any deck, a file of a deck that is no card, broken YAML, an
    unknown language: a diagnostic or nothing, and the server goes on; a client that
    counts in UTF-8 gets UTF-8 positions."""
    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf8]
        )
    )
    deck = workspace / "cards" / "sample"
    (workspace / "loose.fr.md").write_text("---\nname: Perdu\n---\nTexte.\n", "utf-8")
    (deck / "notes.md").write_text("# notes\n", "utf-8")
    async with server(workspace, capabilities) as client:
        result = client.initialize_result  # type: ignore[attr-defined]
        assert result.capabilities.position_encoding == "utf-8"

        loose = Buffer(client, workspace / "loose.fr.md")
        await until(lambda: loose.uri in client.diagnostics, "the loose file's diagnostic")
        (warning,) = client.diagnostics[loose.uri]
        assert "no deck.yaml next to this file" in warning.message

        notes = Buffer(client, deck / "notes.md", "utf-8")
        broken = Buffer(client, deck / "courier.fr.md", "utf-8")
        broken.replace("name: Messager", "name: Messager: du ciel")
        await until(lambda: codes(client, broken.uri) == [None], "the YAML problem")
        (problem,) = client.diagnostics[broken.uri]
        assert problem.message.startswith("malformed YAML")
        assert problem.severity == types.DiagnosticSeverity.Error

        # A command that cannot be done says why, once, and returns nothing.
        nothing = await client.workspace_execute_command_async(
            types.ExecuteCommandParams("translator.showEnglish", [loose.uri])
        )
        assert nothing is None
        assert "loose.fr.md: not a card file of a library" in client.messages[-1].message
        assert client.messages[-1].type == types.MessageType.Error
        nothing = await client.workspace_execute_command_async(
            types.ExecuteCommandParams("translator.preview", [broken.uri])
        )
        assert nothing is None and "courier.fr.md" in client.messages[-1].message

        german = deck / "courier.de.md"
        shutil.copy(deck / "courier.fr.md", german)
        Buffer(client, german)

        card = Buffer(client, deck / "veil-stalker.fr.md", "utf-8")
        card.replace("créatures.", "créatures !")
        await until(lambda: "FR201" in codes(client, card.uri), "FR201")
        (space,) = client.diagnostics[card.uri]
        line = card.text.splitlines()[space.range.start.line]
        assert space.range.start.character == len(line[: line.index(" !")].encode("utf-8"))
        assert space.range == card.range(card.text.index(" !"), card.text.index(" !") + 1)
        assert notes.uri not in client.diagnostics  # not a card file: nothing said
        assert not [m for m in client.log_messages if m.type == types.MessageType.Error]
