"""What translator serves and what it downloads, attacked (issue #35): the watch
server (``build --watch``) answers only with regular files of its output folder,
never through a link, and a FIFO named like a preview does not hang it; a template
server that drips its answers is cut off by the download's deadlines; a damaged
download cache is fetched again, never a traceback or a hang.

Real servers on 127.0.0.1: the watch's own :class:`~translator.watch.Server`
asked with real HTTP requests, and for the download a socket server that sends a
byte at a time.  docs/security.md lists these rules.
"""

from __future__ import annotations

import dataclasses
import http.server
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator.cli import main
from translator.paths import OutsideError
from translator.themes.arcmage import source
from translator.themes.arcmage.source import SourceError, open_source
from translator.watch import Page, Server

SECRET = b"TRANSLATOR_TOKEN=tr_s3cret-of-the-user"
PNG = b"\x89PNG\r\n\x1a\n a preview"


def get(url: str, timeout: float = 10) -> tuple[int, bytes]:
    """The status and body of a GET (an error status with its body)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A watch server on 127.0.0.1 for ``out/preview``, holding one real preview, and
    a secret outside the output folder: (previews folder, base address)."""
    out = tmp_path / "out"
    folder = out / "preview"
    folder.mkdir(parents=True)
    (folder / "imp.fr.png").write_bytes(PNG)
    (tmp_path / "credentials.json").write_bytes(SECRET)
    page = Page(folder)
    page.update([], [], "", None)
    server = Server(page, 0)
    try:
        yield folder, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


# --------------------------------------------------------------------- the watch server


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_clients_that_go_away_leave_no_traceback(
    served: tuple[Path, str], capfd: pytest.CaptureFixture[str]
) -> None:
    """A browser reloading or closing the page resets the connections it no longer
    wants, before or while the answer is sent: each printed a traceback on the watch's
    terminal (ConnectionResetError, BrokenPipeError).  Now nothing, and the next
    request is served."""
    import struct

    folder, base = served
    (folder / "big.fr.png").write_bytes(PNG + b"x" * (1 << 20))
    port = int(base.rsplit(":", 1)[1])
    for path in ("/big.fr.png", "/index.html", "/events"):
        for _ in range(8):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            # SO_LINGER 0: closing sends a reset, as a browser's cancelled request does
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()
    time.sleep(0.5)
    assert get(f"{base}/imp.fr.png")[0] == 200
    said = capfd.readouterr()
    assert "Traceback" not in said.err and "Error" not in said.err, said.err[-2000:]


def test_a_link_named_like_a_preview_is_never_followed(
    served: tuple[Path, str], tmp_path: Path
) -> None:
    """The attack: ``help.fr.png`` -> ``/proc/self/environ`` (the token in the
    environment), and a link to the credentials file: 404, their bytes in no answer."""
    folder, base = served
    (folder / "help.fr.png").symlink_to("/proc/self/environ")
    (folder / "keys.fr.png").symlink_to(tmp_path / "credentials.json")
    (folder / "near.fr.png").symlink_to(folder / "imp.fr.png")  # a link inside: refused too
    (folder / "zero.fr.png").symlink_to("/dev/zero")
    environ = Path("/proc/self/environ").read_bytes()
    for name in ("help", "keys", "near", "zero"):
        status, body = get(f"{base}/{name}.fr.png")
        assert status == 404, name
        assert SECRET not in body and (not environ or environ[:40] not in body), name
    assert get(f"{base}/imp.fr.png") == (200, PNG)  # the server goes on


def test_the_page_itself_as_a_link_is_not_served(served: tuple[Path, str], tmp_path: Path) -> None:
    folder, base = served
    (folder / "index.html").unlink()
    (folder / "index.html").symlink_to(tmp_path / "credentials.json")
    status, body = get(f"{base}/")
    assert status == 404 and SECRET not in body


def test_a_fifo_a_folder_a_socket_and_a_device_named_like_previews(
    served: tuple[Path, str],
) -> None:
    """A FIFO would block the reader for ever (no writer comes), a device never end:
    answered 404 at once, and the next request is served."""
    folder, base = served
    os.mkfifo(folder / "pipe.fr.png")
    (folder / "dir.fr.png").mkdir()
    names = ["pipe", "dir", "sock"]
    try:  # /dev/zero's own node (root only; a link to it is tested above)
        os.mknod(folder / "zero.fr.png", stat.S_IFCHR | 0o600, os.makedev(1, 5))
        names.append("zero")
    except PermissionError:
        pass
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(folder / "sock.fr.png"))
        for name in names:
            started = time.monotonic()
            assert get(f"{base}/{name}.fr.png", timeout=5)[0] == 404, name
            assert time.monotonic() - started < 2, name
    assert get(f"{base}/imp.fr.png") == (200, PNG)


def test_a_previews_folder_reached_through_a_link_is_not_served(tmp_path: Path) -> None:
    """``out/preview`` a link to a folder elsewhere: nothing below it is served (the
    server opens no link below the output folder), nothing is written there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "imp.fr.png").write_bytes(SECRET)
    out = tmp_path / "out"
    out.mkdir()
    (out / "preview").symlink_to(elsewhere, target_is_directory=True)
    page = Page(out / "preview", out)
    with pytest.raises(OutsideError, match="leads out of"):
        page.update([], [], "", None)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["imp.fr.png"]
    server = Server(page, 0)
    try:
        status, body = get(f"http://127.0.0.1:{server.port}/imp.fr.png")
        assert status == 404 and SECRET not in body
    finally:
        server.stop()


def test_a_large_file_named_like_a_preview_is_not_served(
    served: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from translator import watch

    folder, base = served
    monkeypatch.setattr(watch, "MAX_SERVED_BYTES", 1000)
    with open(folder / "huge.fr.png", "wb") as stream:
        stream.truncate(1001)
    assert get(f"{base}/huge.fr.png")[0] == 404
    assert get(f"{base}/imp.fr.png") == (200, PNG)


def test_the_watch_refuses_a_previews_folder_leading_out_of_its_output(tmp_path: Path) -> None:
    """``build --watch`` itself: exit 2 at once, one line naming the folder, nothing
    written where the link leads."""
    shutil.copytree(ROOT / "cards" / "sample", tmp_path / "cards" / "sample")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "preview").symlink_to(elsewhere, target_is_directory=True)
    done = subprocess.run(
        [sys.executable, "-m", "translator", "build", "cards/sample", "--watch", "--out", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "out/preview: leads out of its folder through a link" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert list(elsewhere.iterdir()) == []


# ---------------------------------------------------------- a template server that drips


class Dripping:
    """A server on 127.0.0.1 that answers every request with the headers of a 1 MB PNG,
    then one byte every ``pause`` seconds: no read waits long, the answer never ends."""

    def __init__(self, pause: float = 0.1) -> None:
        self.pause = pause
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/arcmage/"
        self.requests = 0
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.requests += 1
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection: socket.socket) -> None:
        with connection:
            try:
                connection.recv(65536)
                connection.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1000000\r\n\r\n"
                )
                while not self.stopped.is_set():
                    connection.sendall(b"\0")
                    time.sleep(self.pause)
            except OSError:
                return

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


@pytest.fixture
def dripping() -> Iterator[Dripping]:
    server = Dripping()
    yield server
    server.close()


def test_a_dripping_server_is_cut_off_by_the_files_deadline(
    dripping: Dripping, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "FILE_SECONDS", 1.5)
    started = time.monotonic()
    with pytest.raises(SourceError) as caught:
        open_source(dripping.url, cache_dir=tmp_path / "cache", progress=False)
    took = time.monotonic() - started
    assert took < 4, took
    message = str(caught.value)
    assert message.startswith(f"{dripping.url}CardTemplates/back.png: took longer than 1.5 s")
    assert "\n" not in message
    assert dripping.requests == 1  # not retried: it would only drip again


def test_a_dripping_server_is_cut_off_by_the_whole_downloads_deadline(
    dripping: Dripping,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command line: exit 2 within the bound, one line saying which bound."""
    monkeypatch.setattr(source, "DOWNLOAD_SECONDS", 1.5)
    started = time.monotonic()
    code = main(
        [
            "theme",
            "import-arcmage",
            dripping.url,
            "--out",
            str(tmp_path / "theme"),
            "--cache",
            str(tmp_path / "cache"),
            "--no-progress",
        ]
    )
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 2 and took < 4, (took, err)
    assert "took longer than 1.5 s in all" in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert not (tmp_path / "theme").exists()


# ------------------------------------------------------------------ a damaged cache


@pytest.fixture
def two_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server of the two files of a cut-down catalogue (the back and the generic
    border, made to size here), and its cache folder: (address, cache of the set)."""
    from PIL import Image

    full = source.catalogue()
    wanted = ("CardTemplates/back.png", "CardTemplates/border.png")
    small = dataclasses.replace(full, files=tuple(e for e in full.files if e.path in wanted))
    monkeypatch.setattr(source, "catalogue", lambda: small)
    www = tmp_path / "www"
    (www / "CardTemplates").mkdir(parents=True)
    for name, size in (("back.png", (756, 1063)), ("border.png", (803, 1110))):
        Image.new("RGB", size, "white").save(www / "CardTemplates" / name, dpi=(300, 300))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(www), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    monkeypatch.setattr(source, "RETRY_DELAYS", (0.01,))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    yield url, tmp_path / "cache"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda p: p.write_text("[" * 100_000 + "]" * 100_000), id="deep"),
        pytest.param(lambda p: p.write_text('{"version": 1, "files": []}'), id="wrong-type"),
        pytest.param(
            lambda p: p.write_text(
                json.dumps({"version": 1, "files": {"CardTemplates/back.png": {"size": "x"}}})
            ),
            id="wrong-value",
        ),
        pytest.param(lambda p: p.write_bytes(b"\xff\xfe"), id="not-utf8"),
        pytest.param(lambda p: (p.unlink(), os.mkfifo(p)), id="fifo"),
    ],
)
def test_a_damaged_cache_record_is_fetched_again(two_files: tuple[str, Path], damage) -> None:
    """The record of a cached set nested 100,000 deep, of the wrong shape, not UTF-8,
    a FIFO: an empty record (every file fetched again), never a traceback or a hang."""
    url, cache = two_files
    first = open_source(url, cache_dir=cache, progress=False)
    damage(first.root / source.INDEX_NAME)
    started = time.monotonic()
    again = open_source(url, cache_dir=cache, progress=False)
    assert again.files == first.files and time.monotonic() - started < 5
    record = json.loads((first.root / source.INDEX_NAME).read_text("utf-8"))
    assert sorted(record["files"]) == sorted(first.files)  # written anew


def test_a_cached_file_that_is_a_fifo_is_fetched_again(two_files: tuple[str, Path]) -> None:
    url, cache = two_files
    first = open_source(url, cache_dir=cache, progress=False)
    cached = first.path("CardTemplates/back.png")
    cached.unlink()
    os.mkfifo(cached)
    started = time.monotonic()
    again = open_source(url, cache_dir=cache, progress=False)
    assert again.files == first.files and time.monotonic() - started < 5
    assert cached.is_file()


@pytest.mark.parametrize("leads_to", ["/dev/zero", "secret"])
def test_a_cached_file_linked_out_of_the_cache_is_neither_read_nor_written(
    two_files: tuple[str, Path], tmp_path: Path, leads_to: str
) -> None:
    """A cached template (or the record) replaced by a link to a device or to a file
    outside the cache: not read as cached (no hang, nothing of it used), and not
    written through: one line naming it, the file it leads to unchanged."""
    url, cache = two_files
    first = open_source(url, cache_dir=cache, progress=False)
    secret = tmp_path / "credentials.json"
    secret.write_bytes(SECRET)
    for name in ("CardTemplates/back.png", source.INDEX_NAME):
        linked = first.root / name
        linked.unlink()
        linked.symlink_to(secret if leads_to == "secret" else leads_to)
        with pytest.raises(OutsideError, match="leads out of") as caught:
            open_source(url, cache_dir=cache, progress=False)
        assert str(caught.value).startswith(f"{linked}: ") and "\n" not in str(caught.value)
        assert secret.read_bytes() == SECRET
        linked.unlink()
