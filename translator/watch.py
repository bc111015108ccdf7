"""``translator build --watch``: build once, then rebuild what changed whenever a card,
deck, glossary or theme file changes, with a preview of each card changed.

An application above the API, beside the command line and the language server: the
loop is a client of the public API, as the command line is (and of the typesetter's
public names for its previews and workers): each change makes a
new :func:`translator.api.plan_build` (the library read again: a file broken since is
reported, and the watch goes on), whose incremental build renders only the cards whose
inputs changed (:mod:`translator.typeset.manifest`); each of those gets one line on
standard output, its fit and its lint result (:func:`translator.api.lint` on its
file), and its picture in
``<out>/preview/<slug>.<lang>.png``: a soft proof of the PDF just built, or for a card
the build refused, :func:`translator.api.preview_card`'s picture with its faults
outlined.  ``<out>/preview/index.html`` shows the latest pictures; served on the
loopback (:mod:`http.server`, ``--port``), it reloads itself when they change
(Server-Sent Events); opened as a file, it reloads every few seconds.

What the server serves is the page and the pictures by name (:data:`PREVIEW_NAME`),
each a regular file of the output folder itself, opened without following any link
below it (``read_file`` of :mod:`translator.textio` with ``beneath``, at most
:data:`MAX_SERVED_BYTES`): a link named like a preview (to ``/proc/self/environ``, to
a key), a FIFO, a folder or a device is answered 404, and the next request is served
as usual.  ``<out>/preview`` that leads out of ``<out>`` through a link is refused
before the watch starts (exit 2), as every write there would be.

The build's caches live as long as the process:
:func:`translator.typeset.card_preview.refresh` drops the renderers and glossaries a
changed theme or glossary file makes stale, and the worker processes that hold their
own copies are stopped (the next build forks new ones).  The languages' own data
(``glossaries/<lang>/language.yaml``) is read once per process: a change to it is
reported, to be used by a new watch.

Ctrl-C (SIGINT) and SIGTERM stop it cleanly: the build in progress stops as an
interrupted build does (no half-written file), the workers and the server are
stopped, and the command exits 0.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from . import api
from .atomic import replacing
from .cards.library import deck_directories
from .errors import UsageError, UserError
from .paths import check_inside
from .pdf.sizes import card_size
from .shipped import glossaries_root
from .textio import InputError, read_file
from .typeset import card_preview, fitting, workers
from .typeset.preview import soft_proofs
from .typeset.theme import load_theme

if TYPE_CHECKING:
    from .cards.model import Card, Library
    from .lint import Finding
    from .typeset.batch import Report
    from .typeset.results import CardResult

#: The previews' resolution: an editor's, not a reviewer's (``--dpi`` is for ``--png``).
PREVIEW_DPI = 150
#: How long a burst of file events may take before it is built (ms), and the quiet
#: time that ends one (an editor's save is several events within a few ms).
DEBOUNCE_MS = 1000
QUIET_MS = 100
#: How long the watcher waits at most before it looks again (ms): its first wait
#: delays the first build by as much.
WAKE_MS = 200
#: The files whose change is worth a build (a swap file, a temporary file is not).
WATCHED_SUFFIXES = frozenset(
    {".md", ".yaml", ".yml", ".j2", ".css", ".svg", ".png", ".jpg", ".jpeg", ".webp"}
    | {".ttf", ".otf", ".woff", ".woff2", ".tif", ".tiff"}
)
#: What the server serves besides the page: the pictures, by name.
PREVIEW_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,99}\.[a-z]{2}\.png")
#: Bytes of a file served (a preview at 150 dpi is under 2 MB, the page a few KB).
MAX_SERVED_BYTES = 64 << 20
#: Seconds between an idle event stream's keep-alive comments.
KEEP_ALIVE = 15.0
#: Seconds a page opened as a file waits before reloading itself.
FILE_RELOAD = 2.0

#: Writes a line for the user (standard output) or a message (standard error).
Say = Callable[[str], None]


# ------------------------------------------------------------------------------ the page


@dataclass
class Shown:
    """A card on the preview page, as its last build left it."""

    key: str
    fit: str
    lint: str
    png: str | None
    #: Why it was not printed, what to look at (escaped when shown).
    messages: list[str] = field(default_factory=list)
    when: float = field(default_factory=time.time)


_SCRIPT = f"""
const version = document.body.dataset.version;
if (location.protocol === "http:") {{
  const events = new EventSource("events");
  events.onmessage = (event) => {{ if (event.data !== version) location.reload(); }};
}} else {{
  setTimeout(() => location.reload(), {int(FILE_RELOAD * 1000)});
}}
"""
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()
#: Nothing on the page runs but its own script; it reads only its own server.
CSP = (
    f"default-src 'none'; script-src 'sha256-{_SCRIPT_HASH}'; style-src 'unsafe-inline'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'"
)
_STYLE = """
body { font: 15px/1.4 sans-serif; margin: 1.5em; background: #f4f4f0; color: #222; }
header p { color: #555; } .notice { background: #fde8e8; border: 1px solid #d33;
padding: .5em 1em; } main { display: flex; flex-wrap: wrap; gap: 1.2em; }
figure { margin: 0; width: 384px; } img { border: 1px solid #bbb; max-width: 100%; }
figcaption b { font-family: monospace; } .refused { color: #b00; }
ul { margin: .3em 0; padding-left: 1.2em; font-size: 13px; } time { color: #777; }
"""


class Page:
    """``<out>/preview/index.html`` and its version: the server tells the pages open
    when it changes.  ``root``: the output folder the previews folder lies in (default:
    that folder itself), which the page is written in and served from, no link
    followed below it."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.folder = folder
        self.root = folder if root is None else root
        self.cards: dict[str, Shown] = {}
        self.notice: list[str] = []
        self.status = ""
        self.version = 0
        self.closed = False
        self._changed = threading.Condition()

    def update(
        self, shown: Sequence[Shown], notice: Sequence[str], status: str, keep: set[str] | None
    ) -> None:
        """The cards ``shown`` (newest), the problems stopping the build (``notice``),
        the last build's ``status``; ``keep``: the cards still in the build (others
        leave the page).  The page is written, then announced."""
        for item in shown:
            self.cards[item.key] = item
        if keep is not None:
            self.cards = {k: v for k, v in self.cards.items() if k in keep}
        self.notice, self.status = list(notice), status
        with self._changed:
            self.version += 1
            self._write()
            self._changed.notify_all()

    def _write(self) -> None:
        with replacing(self.folder / "index.html", 0o644, within=self.root) as temporary:
            temporary.write_text(self.html(), encoding="utf-8")

    def html(self) -> str:
        """The page: every text escaped (card names and messages are card text)."""
        e = html.escape
        cards = sorted(self.cards.values(), key=lambda s: (-s.when, s.key))
        notice = "".join(f"<li>{e(line)}</li>" for line in self.notice)
        figures = []
        for item in cards:
            image = (
                f'<img src="{e(item.png)}?v={self.version}" alt="{e(item.key)}">'
                if item.png
                else "<p>no picture</p>"
            )
            messages = "".join(f"<li>{e(m)}</li>" for m in item.messages)
            refused = ' class="refused"' if item.fit.startswith("refused") else ""
            figures.append(
                f'<figure data-card="{e(item.key)}">{image}<figcaption><b>{e(item.key)}</b> '
                f"<span{refused}>{e(item.fit)}</span>, {e(item.lint)} "
                f"<time>{time.strftime('%H:%M:%S', time.localtime(item.when))}</time>"
                f"{f'<ul>{messages}</ul>' if messages else ''}</figcaption></figure>"
            )
        return (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">'
            "<title>translator build --watch</title>"
            f"<style>{_STYLE}</style></head>\n"
            f'<body data-version="{self.version}"><header><h1>Card previews</h1>'
            f"<p>{e(self.status)}</p></header>\n"
            + (f'<section class="notice"><ul>{notice}</ul></section>\n' if notice else "")
            + f"<main>{''.join(figures)}</main>\n<script>{_SCRIPT}</script></body></html>\n"
        )

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it is not ``seen`` (or after ``timeout`` s, or closed)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen or self.closed, timeout)
            return self.version

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


# ---------------------------------------------------------------------------- the server


class _Handler(BaseHTTPRequestHandler):
    """The page, its pictures and its event stream; nothing else, and only for a
    request to this loopback address (a page of another site, through DNS rebinding,
    names another host)."""

    page: Page
    hosts: set[str]
    server_version = "translator-watch"

    def do_GET(self) -> None:
        if self.headers.get("Host", "") not in self.hosts:
            self.send_error(421, "this server answers for 127.0.0.1 only")
            return
        path = urlsplit(self.path).path
        if path in ("/", "/index.html"):
            self._file(self.page.folder / "index.html", "text/html; charset=utf-8")
        elif path == "/events":
            self._events()
        elif path == "/version":
            body = json.dumps({"version": self.page.version}).encode()
            self._send(body, "application/json")
        elif path == "/favicon.ico":
            self.send_response(204)  # none: a browser asks anyway
            self.end_headers()
        elif PREVIEW_NAME.fullmatch(path[1:]):
            self._file(self.page.folder / path[1:], "image/png")
        else:
            self.send_error(404)

    def _file(self, path: Path, kind: str) -> None:
        """A file of the previews folder (a name of the folder itself, PREVIEW_NAME):
        a regular file below the output folder, reached without a link (a FIFO is not
        waited for, a link not followed), or 404."""
        try:
            body = read_file(path, MAX_SERVED_BYTES, "preview", beneath=self.page.root)
        except InputError:
            self.send_error(404)
            return
        self._send(body, kind)

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        """Server-Sent Events: the page's version now, then at every change; a comment
        now and then keeps the connection open."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        with suppress(OSError):  # the page went away
            while not self.page.closed:
                version = self.page.wait(seen, KEEP_ALIVE if seen >= 0 else 0)
                if self.page.closed:
                    break
                if version != seen:
                    self.wfile.write(f"id: {version}\ndata: {version}\n\n".encode())
                    seen = version
                else:
                    self.wfile.write(b": still watching\n\n")
                self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: the terminal is for the cards."""


class _HTTPServer(ThreadingHTTPServer):
    """The standard library's server, quiet when a client goes away: a browser that
    reloads or closes the page resets the connections it no longer wants, and each
    would print a traceback on the terminal, which is for the cards.  Anything else
    that goes wrong with a request is one line on standard error."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        print(f"translator: the preview server: {type(error).__name__}: {error}", file=sys.stderr)


class Server:
    """The preview page served on 127.0.0.1:``port`` (0: a free one) from a thread."""

    def __init__(self, page: Page, port: int) -> None:
        hosts: set[str] = set()  # known once the port is
        handler = type("Handler", (_Handler,), {"page": page, "hosts": hosts})
        try:
            self.http = _HTTPServer(("127.0.0.1", port), handler)
        except OSError as error:
            raise UsageError(
                f"--port {port}: cannot serve on 127.0.0.1:{port} ({error.strerror or error}): "
                "choose another port, or leave --port out for a free one"
            ) from None
        self.http.daemon_threads = True
        self.port = int(self.http.server_address[1])
        hosts.update({f"127.0.0.1:{self.port}", f"localhost:{self.port}"})
        self.page = page
        self.thread = threading.Thread(
            target=self.http.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True
        )
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Stop serving: the event streams end, then the server."""
        self.page.close()
        self.http.shutdown()
        self.http.server_close()
        self.thread.join(timeout=5)


# ------------------------------------------------------------------------------ watching


@dataclass
class Settings:
    """What the watch builds: ``translator build``'s paths and settings (those of
    :func:`translator.api.plan_build`), where previews go."""

    paths: list[str]
    build: dict[str, Any]

    @property
    def out(self) -> Path:
        return Path(self.build.get("out", "out"))

    @property
    def previews(self) -> Path:
        return self.out / "preview"


class Watch:
    """One build after another, each reported card by card."""

    def __init__(self, settings: Settings, say: Say, warn: Say) -> None:
        self.settings = settings
        self.say, self.warn = say, warn
        self.page = Page(settings.previews, settings.out)
        #: The last line said of each card (a card the build refuses is rendered
        #: again at every build: it is said again only when something changed).
        self.said: dict[str, str] = {}
        #: The preflight's findings and the files not made, as last said.
        self.noted: set[str] = set()

    def targets(self) -> list[Path]:
        """What to watch: the library's decks (cards, deck files, their glossary files,
        artwork), the shipped glossaries in a source tree, the theme's folders."""
        problems: list[Any] = []
        found = [*deck_directories(self.settings.paths, problems)]
        found += [Path(p) for p in self.settings.paths if Path(p).is_dir()]
        shipped = glossaries_root()
        if shipped is not None and (shipped.parent / "pyproject.toml").is_file():
            found.append(shipped)  # a source tree: its glossaries are edited too
        with suppress(UserError):
            found += load_theme(self.settings.build.get("theme")).directories
        unique: list[Path] = []
        for path in (p.resolve() for p in found):
            if not any(path.is_relative_to(u) for u in unique):
                unique = [u for u in unique if not u.is_relative_to(path)] + [path]
        return unique

    def wanted(self, path: str) -> bool:
        """A change worth a build: a file the build reads, not the build's own output,
        not an editor's or a writer's temporary file."""
        file = Path(path)
        if file.name.startswith(".") or file.suffix.lower() not in WATCHED_SUFFIXES:
            return False
        return not file.resolve().is_relative_to(self.settings.out.resolve())

    def build(self, changed: Sequence[Path] = ()) -> None:
        """One build: the cards it renders said and pictured; a problem in a file said,
        and kept on the page until it is fixed."""
        for path in changed:
            if path.name == "language.yaml":
                self.warn(
                    f"translator: {path} changed: a language's data is read once; "
                    "stop and start the watch to print with it"
                )
        start = time.perf_counter()
        try:
            plan = api.plan_build(self.settings.paths, **self.settings.build)
            roots = [Path(d.directory).resolve() for d in plan.library.decks.values()]
            if card_preview.refresh(self.settings.build.get("theme"), roots, _languages(plan)):
                stop_workers()  # they hold the renderers and glossaries just dropped
            report = plan.run()
        except UserError as error:
            self._refused(error)
            return
        except OSError as error:
            self._refused(error)
            return
        shown = self._report(plan.library, report, {p.resolve() for p in changed})
        keep = {f"{r.slug}.{r.lang}" for r in report.cards}
        status = (
            f"built {time.strftime('%H:%M:%S')}: {len(report.cards)} cards, "
            f"{len(report.failed)} not printable, in {time.perf_counter() - start:.1f} s"
        )
        self.page.update(shown, [], status, keep)

    def _refused(self, error: Exception) -> None:
        lines = _problem_lines(error)
        for line in lines:
            self.warn(f"translator: {line}")
        self.warn("translator: still watching: fix it and save")
        self.page.update([], lines, f"not built {time.strftime('%H:%M:%S')}", None)

    def _report(self, library: Library, report: Report, changed: set[Path]) -> list[Shown]:
        """Each card the build rendered, and each whose file was saved (``changed``)
        though its print is up to date: its line said, its picture made.  A card the
        build refuses is rendered at every build: it is said again when its own files
        change, not at every other card's change."""
        todo = []
        for result in report.cards:
            key = f"{result.slug}.{result.lang}"
            card = _card(library, result.slug)
            version = card.version(result.lang) or card.source
            assert version is not None and card.source is not None  # the build's cards
            files = {Path(version.path).resolve(), Path(card.source.path).resolve()}
            touched = bool(files & changed)
            if result.reused and not touched:
                continue
            if not result.path and not touched and key in self.said:
                continue  # refused again, for the same reason
            todo.append((key, version.path, result))
        pictures = self._pictures([r for _, _, r in todo if r.path])
        lints = _lints([(path, r.lang) for _, path, r in todo])
        shown = []
        for key, path, result in todo:
            if result.path:
                fit, png, messages = _fit(result), pictures.get(key), list(result.warnings)
            elif result.withheld:  # not printed for its state: nothing to picture
                fit, png, messages = f"not printed ({result.state})", None, [result.withheld]
            else:
                fit, png, messages = self._refused_picture(path, result)
            lint, findings = lints.get(path, ("not linted", []))
            messages += findings
            line = f"{key}: {fit}, {lint}"
            self.say(line)
            self.said[key] = line
            shown.append(Shown(key, fit, lint, png, messages))
        # The preflight's findings and the files not made, each said once (the build
        # keeps those of the files it did not make again).
        notes = [f"preflight: {p}" for p in report.problems] + [str(m) for m in report.missing]
        for note in notes:
            if note not in self.noted:
                self.warn(f"translator: {note}")
        self.noted = set(notes)
        return shown

    def _pictures(self, printed: Sequence[CardResult]) -> dict[str, str]:
        """Soft proofs of the PDFs just built, one Ghostscript run for all, written
        into the preview folder: their names by card."""
        if not printed:
            return {}
        size = self.settings.build.get("size", "arcmage")
        size = card_size(size) if isinstance(size, str) else size
        images = soft_proofs(
            [Path(r.path) for r in printed if r.path], PREVIEW_DPI, trim=size.bleed
        )
        names = {}
        for result, image in zip(printed, images, strict=True):
            name = f"{result.slug}.{result.lang}.png"
            target = self.settings.previews / name
            with replacing(target, 0o644, within=self.settings.out) as temporary:
                image.save(temporary, "PNG", dpi=(PREVIEW_DPI, PREVIEW_DPI), compress_level=1)
            names[f"{result.slug}.{result.lang}"] = name
        return names

    def _refused_picture(self, path: str, result: CardResult) -> tuple[str, str | None, list[str]]:
        """A card the build refused: the preview's picture, its faults outlined."""
        build_settings = self.settings.build
        messages = [*result.errors, *result.missing_glyphs, *result.warnings]
        try:
            shown = api.preview_card(
                path,
                out=self.settings.previews,
                dpi=PREVIEW_DPI,
                library=self.settings.paths,
                theme=build_settings.get("theme"),
                size=build_settings.get("size", "arcmage"),
                icc=build_settings.get("icc"),
                floor=build_settings.get("floor", 0.52),
                min_size=build_settings.get("min_size", 6.0),
                cache=self.settings.out / ".cache",
            )
        except UserError as error:
            return f"refused: {error}", None, messages
        return shown.summary, Path(shown.png).name, messages


def _languages(plan: api.BuildPlan) -> list[str]:
    return list(plan.request.languages)


def _card(library: Library, slug: str) -> Card:
    return next(c for c in library.cards.values() if c.slug == slug and c.source is not None)


def _fit(result: CardResult) -> str:
    """A printed card's fit: ``fits``, ``shrunk to 92 %`` (its warnings are on the
    page)."""
    line = fitting.fit_words(result.scale)
    if result.warnings:
        count = len(result.warnings)
        line += f" ({count} build warning{'' if count == 1 else 's'})"
    return line


def _lints(files: Sequence[tuple[str, str]]) -> dict[str, tuple[str, list[str]]]:
    """Each card file's lint result in a few words (``no lint findings``, ``1 error,
    2 warnings (TR101, FR201)``): :func:`translator.api.lint` on those files, one run
    per language (the glossaries and dictionaries loaded once); and each finding, as
    the page lists it."""
    found: dict[str, tuple[str, list[str]]] = {}
    by_language: dict[str, list[str]] = {}
    for path, lang in files:
        by_language.setdefault(lang, []).append(path)
    for lang, paths in by_language.items():
        try:
            result = api.lint(paths, languages=[] if lang == "en" else [lang])
        except UserError as error:
            found.update((path, (f"not linted ({error})", [])) for path in paths)
            continue
        for path in paths:
            real = Path(path).resolve()
            findings = [f for f in result.findings if Path(f.path).resolve() == real]
            found[path] = (
                _lint_line(findings),
                [f"{f.line}:{f.column}: {f.code} {f.message}" for f in findings],
            )
    return found


def _lint_line(findings: Sequence[Finding]) -> str:
    if not findings:
        return "no lint findings"
    counts = []
    for severity in ("error", "warning", "info"):
        count = sum(1 for f in findings if f.severity.value == severity)
        if count:
            counts.append(f"{count} {severity}{'' if count == 1 else 's'}")
    codes = list(dict.fromkeys(f.code for f in findings))
    return f"{', '.join(counts)} ({', '.join(codes)})"


def _problem_lines(error: Exception) -> list[str]:
    """What stops a build, a line each: every problem of the library, else the error."""
    problems = getattr(error, "problems", None)
    if problems:
        return [str(p) for p in problems]
    if isinstance(error, OSError) and error.filename:
        return [f"cannot write {error.filename}: {error.strerror or error}"]
    return [str(error)]


def stop_workers() -> None:
    """Stop the build's worker processes (the next build forks new ones)."""
    workers.stop_workers()


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM handled as Ctrl-C, wherever the watch is (building, waiting)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def watch(settings: Settings, *, port: int, say: Say, warn: Say) -> int:
    """Build, then rebuild at every change until Ctrl-C or SIGTERM; 0 then.

    A wrong setting stops it at once (a :class:`UsageError`, exit 2, as the build);
    a file with problems does not: it is reported, and the watch waits for the fix."""
    import watchfiles  # noqa: PLC0415 - only the watching build needs it

    try:
        api.plan_build(settings.paths, **settings.build)  # a wrong setting: exit 2
    except UsageError:
        raise
    except UserError:
        pass  # a file's problem: said by the first build, and fixed while watching
    # Previews are written and served below the output folder only: a preview folder
    # that a link leads elsewhere is refused now (exit 2), not at the first write.
    check_inside(settings.previews, settings.out)
    session = Watch(settings, say, warn)
    server: Server | None = None
    try:
        with _terminate_as_interrupt():
            settings.previews.mkdir(parents=True, exist_ok=True)
            server = Server(session.page, port)
            targets = session.targets()
            # Watching from before the first build: a file saved while it runs is
            # built next.  (The watcher starts with the first wait, which returns
            # within WAKE_MS; it wakes that often, for nothing, from then on.)
            changes = watchfiles.watch(
                *targets,
                watch_filter=lambda change, path: session.wanted(path),
                debounce=DEBOUNCE_MS,
                step=QUIET_MS,
                rust_timeout=WAKE_MS,
                yield_on_timeout=True,
            )
            next(changes)
            session.build()
            say(
                f"translator: previews at {server.url} ({settings.previews / 'index.html'}); "
                f"watching {', '.join(str(t) for t in targets)}; Ctrl-C stops"
            )
            for batch in changes:
                if batch:
                    session.build(sorted({Path(path) for _, path in batch}))
    except KeyboardInterrupt:
        pass
    finally:
        _stop(server)
    say("translator: stopped")
    return 0


def _stop(server: Server | None) -> None:
    """Stop the server and the workers, a second Ctrl-C ignored meanwhile."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if server is not None:
            server.stop()
        stop_workers()
    finally:
        signal.signal(signal.SIGINT, previous)
