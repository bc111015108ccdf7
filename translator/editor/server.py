"""``translator lsp``: the Language Server Protocol for card files, over stdio (pygls).

What an editor gets for a card file of a library (``cards/<deck>/<slug>.<lang>.md``):

- diagnostics as the translator types: the file's problems (YAML, fields) and the
  linter's findings (markup, the translation against its English card and its deck,
  the glossary, the style guide, spelling), a short quiet time after the last change;
  an English card's change re-lints its translations that are open;
- code actions: a quick fix per safe fix, "Apply all safe fixes" (``source.fixAll``),
  and the two commands below as source actions;
- hover and completion (:mod:`.assist`): glossary terms, symbol codes, abilities;
- commands: ``translator.showEnglish`` (the English card, ``window/showDocument``),
  ``translator.preview`` (the card rendered to PNG from the buffer's text, shown by
  the client) and ``translator.reload`` (read the libraries again).

The protocol runs on the event loop; linting runs in one worker thread (the sessions'
state is touched by it alone) and the preview's render in another, so that the server
keeps answering (:mod:`.workers`).  A change makes the lint under way stale: it is
stopped, its results never published.  Nothing is printed to standard output but the
protocol: what the server has to say goes to the client (``window/logMessage``).

What a client sends is untrusted (docs/security.md): messages are read and checked
by :mod:`.transport` (sizes, JSON, JSON-RPC; every request answered), the open
documents are the server's own (:mod:`.buffers`: only what the client opened, never
a file read by pygls; a buffer too large for a card file is not linted, and said so),
a lone surrogate in a buffer is a diagnostic; files are read only by the session, in
the worker, through :func:`translator.textio.read_file`.  ``translator lsp`` runs the
server under a supervisor (:mod:`.supervisor`) that ends it within a second of
``exit`` whatever it is doing.
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
import io
import logging
import os
import sys
import tempfile
import threading
import traceback
from collections.abc import Awaitable, Callable, Generator, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, TypeVar

from lsprotocol import types
from lsprotocol.types import ResponseErrorMessage
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCResponseMessage, LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..cards.model import SOURCE_LANGUAGE
from ..diagnostics import REGISTRY
from .buffers import Buffer, Buffers, Change
from .frames import peek
from .session import (
    Fix,
    Issue,
    Lines,
    Linted,
    Session,
    Sessions,
    deck_folder,
    is_card_name,
    readable,
    too_large,
)
from .transport import MAX_MESSAGE_BYTES, Writer, converse, reply_error
from .workers import Stopped, Worker

T = TypeVar("T")

#: Seconds of quiet after a change before the buffer is linted: a burst of key
#: strokes lints once, and one card's diagnostics still arrive within 100 ms of the
#: last change (a lint takes 25 to 40 ms warm; see bench/lsp.py).
DEBOUNCE = 0.025
#: The longest quiet time a client may set (``debounce``, in its options).
MAX_DEBOUNCE = 5.0
#: Seconds the workers have, once the client said exit, to stop what they run (then
#: the process ends without the spelling cache's save, which would race them).
STOP_WAIT = 0.2

SHOW_ENGLISH = "translator.showEnglish"
PREVIEW = "translator.preview"
RELOAD = "translator.reload"
#: The code action kinds of the two commands offered as source actions.
SHOW_ENGLISH_KIND = "source.translator.showEnglish"
PREVIEW_KIND = "source.translator.preview"

SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
COMPLETION_KINDS = {
    "symbol": types.CompletionItemKind.Constant,
    "term": types.CompletionItemKind.Text,
    "ability": types.CompletionItemKind.Function,
}
ERROR = types.MessageType.Error
WARNING = types.MessageType.Warning
#: Files whose change may change what every card of a library is judged against.
SETUP_FILES = ("translator.toml", "pyproject.toml")

logger = logging.getLogger(__name__)


def rules_page() -> Path | None:
    """The rules' reference (docs/rules.md) when running from a checkout: a finding's
    code links to its rule there."""
    page = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    return page if page.is_file() else None


class CommandError(Exception):
    """A command that cannot do what it was asked: its message is shown to the user
    (``window/showMessage``), and the command returns null."""


class CardProtocol(LanguageServerProtocol):
    """pygls's protocol without its documents and its exit.

    pygls puts every opened document in its workspace and reads one that is not open
    from the disk; here the documents are the server's (:class:`.buffers.Buffers`),
    the three notifications go to the server's handlers alone.  pygls's ``exit``
    calls :func:`sys.exit` inside a handler; here it tells the server, whose loop
    ends (:func:`.transport.converse`) and whose process ends after it
    (:func:`run_server`)."""

    _server: CardServer

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Any:
        yield from self._handle(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        yield from self._handle(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Any:
        yield from self._handle(types.TEXT_DOCUMENT_DID_CLOSE, params)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        self._server.exited = True
        yield from ()

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    async def lsp_workspace__execute_command(  # type: ignore[override] # a coroutine
        self, params: types.ExecuteCommandParams
    ) -> Any:
        """A command, awaited as the request's own task: cancelling the request
        cancels the command (pygls runs it as a task of its own under a generator,
        which fails when that task ends cancelled before the request does)."""
        handler = self.fm.commands.get(params.command)
        if handler is None:
            raise JsonRpcInvalidParams(f"{params.command!r}: no such command")
        return await handler(*(params.arguments or ()))

    def answered(self, data: dict[str, Any]) -> None:
        """The client's answer to a request of the server's (a document shown, a
        capability registered).  One that does not read as LSP says fails the
        request it answers (which pygls would leave waiting for ever)."""
        ident: Any = data.get("id")
        waiting = self._request_futures.get(ident)  # pygls's table of requests sent
        kind = self._result_types.pop(ident, None) or JsonRPCResponseMessage
        try:
            message = self.fm.converter.structure(
                data, ResponseErrorMessage if "error" in data else kind
            )
        except Exception as error:
            self._request_futures.pop(ident, None)
            if waiting is not None and not waiting.done():
                waiting.set_exception(ValueError(f"the editor's answer is not LSP's: {error}"))
            raise
        self.handle_message(message)

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's, cancelling the requests under way from a copy of their table: the
        cancelled ones take themselves out of it as they go (pygls's own loop then
        failed, and shutdown was answered with an error)."""
        handler = self.fm.features.get(types.SHUTDOWN)
        if handler is not None:
            yield handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True

    @lsp_method(types.INITIALIZED)
    def lsp_initialized(self, params: types.InitializedParams) -> Any:
        yield from self._handle(types.INITIALIZED, params)

    def _handle(self, method: str, params: Any) -> Iterator[Any]:
        """The server's handler of a notification: a plain one run at once, a
        coroutine as a task of the server's.  (pygls runs a coroutine as a task under
        a generator that fails when the task ends cancelled: at shutdown, at exit.)"""
        handler = self.fm.features.get(method)
        if handler is None:
            return
        if inspect.iscoroutinefunction(handler):
            self._server.spawn(handler(params))
            return
        yield handler, (params,), None


class CardServer(LanguageServer):
    """The language server: the workspace's sessions, the open buffers and their lint
    state, and the two workers."""

    def __init__(self) -> None:
        super().__init__(
            "translator",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=CardProtocol,
        )
        self.sessions = Sessions()
        self.buffers = Buffers()
        self.linter = Worker("translator-lint")
        self.renderer = Worker("translator-preview")
        self.debounce = DEBOUNCE
        #: Open card buffers: uri -> how many changes it has had (a lint started at an
        #: older count publishes nothing).
        self.generations: dict[str, int] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        #: The lint under way of each buffer (cancelled by its next change).
        self.linting: dict[str, asyncio.Task[Any]] = {}
        #: Buffers not linted (too large), said once with a message: uri -> why.
        self.refused: dict[str, str] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        #: Libraries being read: every buffer of one waits for the same reading.
        self.loading: dict[Path, asyncio.Future[None]] = {}
        self.preview_external = False
        self.preview_base: Path | None = None
        self.last_uri: str | None = None
        self.initialized = False
        self.shut_down = False
        self.exited = False
        #: What sends the libraries' warnings to the client (from ``initialized`` on).
        self.client_log: logging.Handler | None = None
        self._logged: set[Path] = set()
        self._rules = rules_page()

    # -- helpers

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client (UTF-16 unless it chose)."""
        chosen = self.server_capabilities.position_encoding
        if chosen is None:
            return "utf-16"
        return str(chosen.value if isinstance(chosen, types.PositionEncodingKind) else chosen)

    def lines(self, text: str) -> Lines:
        return Lines(text, self.encoding)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))

    def target(self, uri: str) -> tuple[Session, str] | None:
        """The session and library path of a card file (None: not a card file of a
        library, or no path at all: a URI is the client's word)."""
        try:
            fs_path = to_fs_path(uri) if uri.startswith("file:") else None
            if fs_path is None:
                return None
            path = Path(fs_path)
            if not is_card_name(path):
                return None
            session = self.sessions.for_path(path)
            if session is None:
                return None
            return session, session.path_of(path)
        except (OSError, ValueError):  # a NUL, a name too long
            return None

    def text(self, uri: str) -> str | None:
        """The text of an open buffer that may be linted (None: not open, or too large
        for a card file), as it would be saved (:func:`.session.readable`).  Never a
        file: what is not open has no text here."""
        buffer = self.buffers.get(uri)
        if buffer is None or too_large(buffer.text, buffer.size) is not None:
            return None
        return readable(buffer.text)

    async def ready(self, uri: str) -> tuple[Session, str] | None:
        """:meth:`target`, its library read first (and the path asked again: the
        library's name for a file is known once it is read)."""
        found = self.target(uri)
        if found is None:
            return None
        await self.load(found[0])
        return self.target(uri)

    async def work(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the lint worker (the sessions' own thread); stopped
        there when the awaiting task is cancelled."""
        result: T = await self.linter.submit(function, *args)
        return result

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        """Run ``coroutine`` as a task of the server's (cancelled by shutdown); what
        makes it fail, a bug, is said to the client."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        task.add_done_callback(self._report)
        return task

    def _report(self, task: asyncio.Future[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None and not isinstance(error, Stopped):
            shown = "".join(traceback.format_exception(error))
            self.log(f"translator: a task failed:\n{shown}", ERROR)

    # -- diagnostics

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds of quiet (a change restarts the wait,
        and stops the lint under way: its result would be stale)."""
        self.generations[uri] = self.generations.get(uri, 0) + 1
        self.stop_linting(uri)
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, self.start_lint, uri)

    def start_lint(self, uri: str) -> None:
        task = self.linting[uri] = self.spawn(self.publish(uri))

        def forget(done: asyncio.Task[Any]) -> None:
            if self.linting.get(uri) is done:
                del self.linting[uri]

        task.add_done_callback(forget)

    async def publish(self, uri: str) -> None:
        """Lint the buffer and publish its diagnostics, unless it changed meanwhile."""
        self.timers.pop(uri, None)
        generation = self.generations.get(uri)
        buffer = self.buffers.get(uri)
        if generation is None or buffer is None:
            return
        text, version = buffer.text, buffer.version
        if self.target(uri) is None:
            self.publish_outside(uri, buffer)
            return
        refused = too_large(text, buffer.size)
        linted = await self.lint(uri, text) if refused is None else None
        if self.generations.get(uri) != generation:
            return  # stale: the buffer changed while it was linted
        if linted is not None and linted.refused is not None:
            refused = linted.refused
        if refused is not None:
            self.refuse(uri, version, refused)
        elif linted is not None:
            self.refused.pop(uri, None)
            lines = self.lines(text)
            diagnostics = [self.diagnostic(issue, lines) for issue in linted.issues]
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri, diagnostics, version)
            )
            if linted.dependents:
                self.relint(linted.dependents)

    async def lint(self, uri: str, text: str) -> Linted | None:
        """The buffer linted in the worker (its library read first); None when that
        failed (a bug, said to the client) or the server is ending."""
        try:
            found = await self.ready(uri)
            assert found is not None
            session, path = found
            linted: Linted = await self.work(session.lint, path, text, self.encoding)
        except Stopped:  # the server is ending
            return None
        except Exception:  # a bug: said to the client, the server goes on
            self.log(f"translator: linting {uri} failed:\n{traceback.format_exc()}", ERROR)
            return None
        return linted

    def refuse(self, uri: str, version: int | None, why: str) -> None:
        """A buffer not linted: one diagnostic at its start says why (its text is
        not looked at: it may be 64 MB), and a message says it once, when the
        buffer becomes too large (not on each key stroke)."""
        issue = Issue(0, 0, "error", why)
        diagnostic = self.diagnostic(issue, None)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri, [diagnostic], version)
        )
        if uri not in self.refused:
            name = uri.rsplit("/", 1)[-1]
            message = types.ShowMessageParams(WARNING, f"translator: {name}: {why}")
            self.window_show_message(message)
        self.refused[uri] = why

    def refused_message(self, size: int, head: bytes) -> None:
        """A message larger than :data:`.transport.MAX_MESSAGE_BYTES`, unread: a
        request is answered with an error, a document it opened or changed is a
        buffer without text (:meth:`refuse` says so), anything else is said."""
        found = peek(head)
        why = (
            f"a message of {size:,} bytes, more than the server reads "
            f"({MAX_MESSAGE_BYTES:,}): ignored"
        )
        method, uri, ident = found.get("method"), found.get("uri"), found.get("id")
        if ident is not None:
            said = f"{method or 'a request'}: {why}"
            reply_error(self, ident, types.ErrorCodes.InvalidRequest, said)
            return
        # A notification that large is a document's text (opened, or changed whole).
        documents = (None, types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE)
        if method in documents and isinstance(uri, str) and self.initialized:
            version = found.get("version")
            self.buffers.drop(uri, size, version if isinstance(version, int) else None)
            self.last_uri = uri
            self.schedule(uri, 0)
        else:
            self.window_show_message(types.ShowMessageParams(WARNING, f"translator: {why}"))

    def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        """A buffer changed: its changes applied, its lint scheduled."""
        uri = params.text_document.uri
        changes: list[Change] = []
        for change in params.content_changes:
            span = None
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                span = (start.line, start.character, end.line, end.character)
            changes.append((span, change.text))
        version = params.text_document.version
        if self.buffers.change(uri, version, changes, self.encoding) is None:
            return  # not open: nothing to change (the client's mistake)
        self.last_uri = uri
        self.schedule(uri, self.debounce)

    def forget(self, uri: str) -> None:
        """A buffer closed: its text, its lint state, its lint under way."""
        self.buffers.close(uri)
        self.generations.pop(uri, None)
        self.refused.pop(uri, None)
        self.stop_linting(uri)

    def stop_linting(self, uri: str) -> None:
        """The lint of ``uri`` waiting for quiet, or under way, stopped: its result
        would be stale."""
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        running = self.linting.pop(uri, None)
        if running is not None:
            running.cancel()

    def relint(self, paths: list[str]) -> None:
        """Lint again the open buffers of ``paths`` (an English card changed)."""
        wanted = {Path(p).resolve() for p in paths}
        for uri in list(self.generations):
            fs_path = to_fs_path(uri)
            if fs_path is not None and Path(fs_path).resolve() in wanted:
                self.schedule(uri, 0)

    def publish_outside(self, uri: str, buffer: Buffer) -> None:
        """A card file outside any deck: one warning saying where card files go.  Any
        other file (a README, notes) gets nothing: it is no card."""
        try:
            fs_path = to_fs_path(uri)
            path = Path(fs_path) if fs_path else None
            if path is None or not is_card_name(path) or deck_folder(path) is not None:
                return
        except (OSError, ValueError):  # no path
            return
        small = too_large(buffer.text, buffer.size) is None
        lines = self.lines(buffer.text) if small else None
        issue = Issue(
            0,
            lines.word_end(0) if lines is not None else 0,
            "warning",
            "no deck.yaml next to this file: translator lints the card files of a deck "
            "(cards/<deck>/deck.yaml)",
        )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri, [self.diagnostic(issue, lines)])
        )

    def diagnostic(self, issue: Issue, lines: Lines | None) -> types.Diagnostic:
        """An issue as LSP shows it: its range in the client's units (None: at the
        text's start), the rule's code (linked to its documentation when there is a
        checkout), source ``translator``."""
        description = None
        rule = REGISTRY.get(issue.code) if issue.code is not None else None
        if rule is not None and self._rules is not None:
            anchor = f"{rule.code}-{rule.name}".lower()  # the heading "## FR201 name"
            description = types.CodeDescription(f"{from_fs_path(str(self._rules))}#{anchor}")
        start = types.Range(types.Position(0, 0), types.Position(0, 0))
        return types.Diagnostic(
            range=self.range(lines, issue.start, issue.end) if lines is not None else start,
            message=issue.message,
            severity=SEVERITIES.get(issue.severity, types.DiagnosticSeverity.Error),
            code=issue.code,
            code_description=description,
            source="translator",
            data={"fixable": issue.fixable},
        )

    @staticmethod
    def range(lines: Lines, start: int, end: int) -> types.Range:
        first, last = lines.position(start), lines.position(end)
        return types.Range(types.Position(*first), types.Position(*last))

    # -- loading

    async def load(self, session: Session) -> None:
        """Read the session's library (and warm the spelling dictionaries) in the
        worker, once however many buffers ask at the same time."""
        if session.loaded:
            return
        loading = self.loading.get(session.root)
        if loading is None:
            loading = self.loading[session.root] = asyncio.ensure_future(self.read(session))
            loading.add_done_callback(lambda _: self.loading.pop(session.root, None))
        await asyncio.shield(loading)

    async def read(self, session: Session) -> None:
        """Read a library, with a progress report when the client takes one; log its
        problems (a glossary file, a deck file) once."""
        token = await self.begin_progress(f"translator: reading {session.root.name}")
        try:
            await self.work(session.warm)
        except Stopped:  # the server is ending
            return
        finally:
            self.end_progress(token)
        if session.failure:
            self.log(f"translator: {session.root}: {session.failure}", WARNING)
        if session.root not in self._logged:
            self._logged.add(session.root)
            for problem in session.load_problems:
                self.log(f"translator: {problem}", WARNING)

    async def begin_progress(self, title: str) -> str | None:
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"translator-{id(title)}-{len(self._logged)}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception:  # the client refused: no progress shown
            return None
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title))
        return token

    def end_progress(self, token: str | None) -> None:
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd())

    async def warm_up(self) -> None:
        """Read the workspace's default libraries before the first file is opened."""
        try:
            for root in self.sessions.default_roots():
                await self.load(self.sessions.session(root))
        except Exception:  # a bug: said to the client; the first file opened tries again
            self.log(f"translator: reading the library failed:\n{traceback.format_exc()}", ERROR)

    # -- code actions

    async def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        """The quick fixes of the range asked about, "apply all safe fixes", and the
        commands; none (and the reason logged) if something goes wrong."""
        try:
            return await self._code_actions(params)
        except Stopped:  # the server is ending
            return []
        except Exception:  # a bug: said to the client, the server goes on
            self.log(f"translator: code actions failed:\n{traceback.format_exc()}", ERROR)
            return []

    async def _code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        found = await self.ready(uri)
        if found is None:
            return []
        session, path = found
        text = self.text(uri)
        if text is None:  # not open, or too large: nothing to fix, nothing to offer
            return []
        lines = self.lines(text)
        start = lines.offset(params.range.start.line, params.range.start.character)
        end = lines.offset(params.range.end.line, params.range.end.character)
        only = params.context.only

        def wanted(kind: str) -> bool:
            return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)

        actions: list[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix):
            fixes: list[Fix] = await self.work(session.fixes, path, text, start, end)
            actions += [self.quick_fix(uri, fix, lines, params.context) for fix in fixes]
        if wanted(types.CodeActionKind.SourceFixAll):
            every: Fix | None = await self.work(session.fix_all, path, text)
            if every is not None:
                actions.append(self.action(uri, every, lines, types.CodeActionKind.SourceFixAll))
        actions += self.command_actions(uri, path, session, wanted)
        return actions

    def quick_fix(
        self, uri: str, fix: Fix, lines: Lines, context: types.CodeActionContext
    ) -> types.CodeAction:
        action = self.action(uri, fix, lines, types.CodeActionKind.QuickFix)
        assert fix.issue is not None
        wanted = self.range(lines, fix.issue.start, fix.issue.end)
        sent = [d for d in context.diagnostics if d.code == fix.issue.code and d.range == wanted]
        action.diagnostics = sent or [self.diagnostic(fix.issue, lines)]
        action.is_preferred = True
        return action

    def action(self, uri: str, fix: Fix, lines: Lines, kind: str) -> types.CodeAction:
        edits = [
            types.TextEdit(self.range(lines, start, end), replacement)
            for start, end, replacement in fix.changes
        ]
        return types.CodeAction(
            title=fix.title, kind=kind, edit=types.WorkspaceEdit(changes={uri: edits})
        )

    def command_actions(
        self, uri: str, path: str, session: Session, wanted: Callable[[str], bool]
    ) -> list[types.CodeAction]:
        """The commands as source actions: every client lists them, none needs a key
        binding configured."""
        actions = []
        if wanted(SHOW_ENGLISH_KIND) and not path.endswith(f".{SOURCE_LANGUAGE}.md"):
            command = types.Command("Show the English card", SHOW_ENGLISH, arguments=[uri])
            actions.append(types.CodeAction(command.title, kind=SHOW_ENGLISH_KIND, command=command))
        if wanted(PREVIEW_KIND):
            command = types.Command("Preview the card (PNG)", PREVIEW, arguments=[uri])
            actions.append(types.CodeAction(command.title, kind=PREVIEW_KIND, command=command))
        return actions

    # -- commands

    def command_uri(self, arguments: tuple[Any, ...]) -> str:
        """The document a command is about: its first argument (a URI, or an object
        with one), else the buffer last opened or changed."""
        if arguments:
            first = arguments[0]
            if isinstance(first, dict):
                document = first.get("textDocument")
                inner = document.get("uri") if isinstance(document, dict) else None
                first = first.get("uri") or inner
            if isinstance(first, str) and first:
                return first if ":" in first else str(from_fs_path(first))
        if self.last_uri is None:
            raise CommandError("no card file open: pass the card file's URI")
        return self.last_uri

    async def command_card(self, arguments: tuple[Any, ...]) -> tuple[str, Session, str]:
        """The URI, session and path of the card file a command is about; a
        :class:`CommandError` saying what is wrong when it is none."""
        uri = self.command_uri(arguments)
        found = await self.ready(uri)
        if found is None:
            raise CommandError(f"{uri}: not a card file of a library (no deck.yaml beside it)")
        return uri, *found

    async def show_english(self, *arguments: Any) -> str:
        _, session, path = await self.command_card(arguments)
        english = await self.work(session.english, path)
        if english is None:
            raise CommandError(f"{Path(path).name}: its deck has no English card of it")
        shown = str(from_fs_path(str(Path(english).resolve())))
        await self.show(types.ShowDocumentParams(shown, take_focus=True))
        return shown

    async def show(self, params: types.ShowDocumentParams) -> None:
        """Ask the client to show a document; a client that cannot is no failure of
        the command (its result names the document), said in the log."""
        try:
            await self.window_show_document_async(params)
        except (Exception, asyncio.CancelledError) as error:
            if isinstance(error, asyncio.CancelledError) and self.shut_down:
                raise
            self.log(f"translator: the editor did not show {params.uri}: {error}", WARNING)

    async def preview(self, *arguments: Any) -> dict[str, Any]:
        from ..errors import UserError  # noqa: PLC0415

        uri, session, path = await self.command_card(arguments)
        buffer = self.buffers.get(uri)
        text = None  # not open: the session reads the file, in the worker
        if buffer is not None:
            refused = too_large(buffer.text, buffer.size)
            if refused is not None:
                raise CommandError(f"{Path(path).name}: {refused}")
            text = buffer.text
        try:
            shown = await self.renderer.submit(session.preview, path, text, self.previews())
        except UserError as error:  # the card cannot be laid out: say why, as the CLI would
            raise CommandError(str(error)) from None
        png = str(from_fs_path(str(Path(shown.png).resolve())))
        await self.show(
            types.ShowDocumentParams(png, external=self.preview_external, take_focus=False)
        )
        self.window_show_message(
            types.ShowMessageParams(
                types.MessageType.Info, f"{shown.card}.{shown.lang}: {shown.summary}"
            )
        )
        return {"png": png, "summary": shown.summary, "seconds": shown.seconds}

    def previews(self) -> Path:
        """Where the previews go: the user's cache (never the project, whose files are
        in git), or a temporary folder without one."""
        if self.preview_base is None:
            from ..lint.spelling import cache_directory  # noqa: PLC0415

            cache = cache_directory()
            self.preview_base = (
                cache / "preview" if cache is not None else Path(tempfile.mkdtemp("-preview"))
            )
        return self.preview_base

    async def reload(self, *_: Any) -> int:
        """Read every library again (a glossary, a configuration or a deck changed
        outside the editor) and lint the open buffers again."""
        for root in list(self.sessions.by_root):
            self.sessions.reload(root)
        self._logged.clear()
        for uri in list(self.generations):
            self.schedule(uri, 0)
        return len(self.sessions.by_root)

    # -- files changed on disk

    def files_changed(self, params: types.DidChangeWatchedFilesParams) -> None:
        """A card file changed on disk and is not open: the library reads it again; a
        deck, glossary or configuration file: the library is read again."""
        touched: set[Path] = set()
        for change in params.changes:
            fs_path = to_fs_path(change.uri)
            if fs_path is None:
                continue
            path = Path(fs_path).resolve()
            setup = path.suffix in (".yaml", ".yml") or path.name in SETUP_FILES
            if not (setup or is_card_name(path)):
                continue  # a README, notes: nothing a card is judged against
            for root, session in list(self.sessions.by_root.items()):
                if not (path.is_relative_to(root) or path.name in SETUP_FILES):
                    continue
                touched.add(root)
                if is_card_name(path):
                    self.spawn(self.work(session.refresh, session.path_of(path)))
                else:
                    self.sessions.reload(root)
        for uri in list(self.generations):
            fs_path = to_fs_path(uri)
            if fs_path and any(Path(fs_path).resolve().is_relative_to(r) for r in touched):
                self.schedule(uri, self.debounce)

    async def watch_files(self) -> None:
        """Ask the client to say when card, deck and glossary files change on disk
        (a git pull, another editor), when it can be asked."""
        workspace = self.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace else None
        if watched is None or not watched.dynamic_registration:
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[
                types.FileSystemWatcher(glob_pattern=pattern)
                for pattern in ("**/*.md", "**/*.yaml", "**/translator.toml", "**/pyproject.toml")
            ]
        )
        registration = types.Registration(
            "translator-files", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options
        )
        try:
            await self.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception:  # the client would not: files changed outside are read on reload
            self.log("translator: the client does not watch files; run translator.reload")

    def stop_workers(self) -> None:
        """Stop everything under way and take no more work."""
        for timer in self.timers.values():
            timer.cancel()
        self.linter.stop()
        self.renderer.stop()


# --------------------------------------------------------------------------------------
# the features


def make_server() -> CardServer:
    """The server with its features registered."""
    server = CardServer()
    _register_documents(server)
    _register_assist(server)
    _register_actions(server)
    return server


def _register_documents(server: CardServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        folders = [to_fs_path(f.uri) for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [to_fs_path(params.root_uri)]
        server.sessions = Sessions([Path(f) for f in folders if f])
        options = params.initialization_options
        if isinstance(options, dict):
            server.preview_external = bool(options.get("previewExternal", False))
            if isinstance(options.get("debounce"), int | float):
                wanted = float(options["debounce"]) / 1000
                server.debounce = min(max(0.0, wanted), MAX_DEBOUNCE)
        server.initialized = True

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        server.client_log = ClientLog(server, asyncio.get_running_loop())
        logging.getLogger().addHandler(server.client_log)
        await server.watch_files()
        await server.warm_up()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        server.buffers.open(document.uri, document.text, document.version)
        server.last_uri = document.uri
        server.schedule(document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.changed(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        server.forget(uri)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
        found = server.target(uri)
        if found is not None:
            session, path = found
            await server.work(session.close, path)
            server.relint(await server.work(session.translations, path))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        server.files_changed(params)

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.shut_down = True
        server.stop_workers()
        for task in list(server.tasks):
            task.cancel()


def _register_assist(server: CardServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        found = await _assistant(server, params.text_document.uri, params.position)
        if found is None:
            return None
        assistant, text, lines, offset = found
        shown = _guarded(server, "hover", lambda: assistant.hover(text, offset))
        if shown is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, shown.markdown),
            range=server.range(lines, shown.start, shown.end),
        )

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[":"])
    )
    async def complete(params: types.CompletionParams) -> types.CompletionList | None:
        found = await _assistant(server, params.text_document.uri, params.position)
        if found is None:
            return None
        assistant, text, lines, offset = found
        items = []
        for item in _guarded(server, "completion", lambda: assistant.complete(text, offset)) or []:
            # Inside a code (``:g|2:``) the edit replaces the rest of it too.
            end = offset if item.end is None else item.end
            items.append(
                types.CompletionItem(
                    label=item.label,
                    kind=COMPLETION_KINDS.get(item.kind, types.CompletionItemKind.Text),
                    detail=item.detail or None,
                    documentation=types.MarkupContent(types.MarkupKind.Markdown, item.documentation)
                    if item.documentation
                    else None,
                    sort_text=item.sort_text or None,
                    # A deprecated term is found by what is typed, and inserts its
                    # replacement.
                    filter_text=item.filter_text or item.insert,
                    tags=[types.CompletionItemTag.Deprecated] if item.deprecated else None,
                    text_edit=types.TextEdit(server.range(lines, item.start, end), item.insert),
                )
            )
        return types.CompletionList(is_incomplete=False, items=items)


def _guarded(server: CardServer, what: str, answer: Callable[[], T]) -> T | None:
    """``answer()``, or None when it fails (a bug, logged to the client): a hover
    that cannot be made is no hover, and the server goes on."""
    try:
        return answer()
    except Exception:
        server.log(f"translator: {what} failed:\n{traceback.format_exc()}", ERROR)
        return None


async def _assistant(
    server: CardServer, uri: str, position: types.Position
) -> tuple[Any, str, Lines, int] | None:
    """The hover and completion logic for a card buffer, its text and lines, and the
    offset of ``position`` in it (None while its library is being read: the answer
    would wait for seconds)."""
    found = server.target(uri)
    if found is None or not found[0].loaded:
        return None
    session, path = found
    text = server.text(uri)
    if text is None:  # not open, or too large
        return None
    lang = Path(path).name.split(".")[1]
    assistant = session.cached_assistant(lang) or await server.work(session.assistant, lang)
    if assistant is None:
        return None
    lines = server.lines(text)
    return assistant, text, lines, lines.offset(position.line, position.character)


def _register_actions(server: CardServer) -> None:
    kinds = [
        types.CodeActionKind.QuickFix,
        types.CodeActionKind.SourceFixAll,
        SHOW_ENGLISH_KIND,
        PREVIEW_KIND,
    ]

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(kinds))
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        return await server.code_actions(params)

    @server.command(SHOW_ENGLISH)
    async def show_english(*arguments: Any) -> str | None:
        return await _said(server, server.show_english(*arguments))

    @server.command(PREVIEW)
    async def preview(*arguments: Any) -> dict[str, Any] | None:
        return await _said(server, server.preview(*arguments))

    @server.command(RELOAD)
    async def reload(*arguments: Any) -> int:
        return await server.reload(*arguments)


async def _said(server: CardServer, running: Awaitable[T]) -> T | None:
    """A command's result; when it cannot be done, what is wrong is shown to the
    user (one message, which a client shows once) and the result is null."""
    try:
        return await running
    except CommandError as error:
        server.window_show_message(types.ShowMessageParams(types.MessageType.Error, str(error)))
        return None
    except Stopped:  # the server is ending
        return None


# --------------------------------------------------------------------------------------
# running it


class ClientLog(logging.Handler):
    """Warnings and errors of the libraries the server uses, sent to the client as
    log messages rather than written to standard error (which editors show as noise,
    or not at all)."""

    def __init__(self, server: CardServer, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logging.WARNING)
        self.server = server
        self.loop = loop
        self._inside = threading.local()

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(self._inside, "busy", False) or self.loop.is_closed():
            return
        self._inside.busy = True
        try:
            kind = ERROR if record.levelno >= logging.ERROR else WARNING
            message = f"{record.name}: {self.format(record)}"
            self.loop.call_soon_threadsafe(self.server.log, message, kind)
        except RuntimeError:  # the loop is closing
            pass
        finally:
            self._inside.busy = False


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Run the server on ``stdin`` and ``stdout`` until the client says exit (or goes
    away); the exit status LSP asks for: 0 after a shutdown request, 1 without.

    The server runs in a child process that a supervisor (this process) ends within a
    second of ``exit`` whatever it is doing (:mod:`.supervisor`), and this process
    then ends with that status (it does not return); without ``fork`` or file
    descriptors, the server runs in this process (:func:`run`), and its status is
    returned."""
    try:
        descriptors = stdin.fileno(), stdout.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return run(stdin, stdout)
    if not hasattr(os, "fork"):
        return run(stdin, stdout)
    from .supervisor import supervise  # noqa: PLC0415

    status = supervise(*descriptors, run_server)
    # Ended at once, as the server is: this process's threads may be blocked reading
    # the editor's pipe, and its teardown is a tenth of a second of nothing.
    end_process(status, [])


def run(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """The server in this process, on two streams with file descriptors; its exit
    status.  Its workers are stopped when it returns (what they run is interrupted);
    only the end of the process frees them of a call of C code."""
    server = make_server()
    return server_loop(server, stdin.fileno(), stdout.fileno())


def server_loop(server: CardServer, stdin: int, stdout: int) -> int:
    """Serve until exit, or until the client goes away; the exit status.

    Standard output carries the protocol alone: anything else that would print there
    goes to standard error instead."""
    writer = Writer(stdout)
    server.protocol.set_writer(writer)
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        asyncio.run(_serve(server, stdin, writer))
    finally:
        sys.stdout = saved
        server.stop_workers()
    return 0 if server.shut_down else 1


async def _serve(server: CardServer, stdin: int, writer: Writer) -> None:
    """:func:`.transport.converse`, then what the server was doing stopped, before
    the loop ends (and with no more log to the client, who is gone or said exit)."""
    try:
        await converse(server, stdin, writer)
    finally:
        if server.client_log is not None:
            logging.getLogger().removeHandler(server.client_log)
        server.stop_workers()
        for task in list(server.tasks):
            task.cancel()


def run_server(stdin: int, stdout: int) -> NoReturn:
    """The server process (:func:`.supervisor.supervise`'s child): serve, then end at
    once.  The interpreter's own end would wait for nothing (the workers are daemon
    threads) but would free a whole process's objects, a second of work; the atexit
    handlers (the spelling lookups' cache) run first, when the workers stopped in
    time (else they could race a lint still filling that cache)."""
    server = make_server()
    status = server_loop(server, stdin, stdout)
    end_process(status, [server.linter, server.renderer])


def end_process(status: int, workers: list[Worker]) -> NoReturn:
    """End the process now with ``status``, its atexit handlers run if ``workers``
    stopped in time, standard output and error flushed."""
    if all(worker.idle(STOP_WAIT) for worker in workers):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
