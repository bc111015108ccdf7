"""The attacks of issue #35 on ``translator pull``, ``push`` and ``login``, performed:
a pull request that edits the committed pull records or ``translator.toml`` to send
the CI's token elsewhere, a records folder that links out of the library, records that
are FIFOs, links to ``/dev/zero``, 100,000 brackets deep or of the wrong types, servers
on 127.0.0.1 that drip one byte a second, a pull killed with ``kill -9`` in the middle
of putting its files in place, and the lock file a logout left behind.

The servers are real sockets on 127.0.0.1: the Aminduna stand-in, a recorder that
keeps every byte that reaches it (to prove that none of a token did), and a dripper.
What could hang runs as a subprocess with a time-out and 2 GB of address space, so a
hang fails the test instead of blocking the run."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.synckit import FAST_RETRIES, Seeded, files, requests, run
from translator.sync import auth
from translator.sync.records import RECORD_DIR, server_hash

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 2 * 1024**3
HERD = "addax-herdmother"
HERD_BEFORE = "un jeton 1/1 **addax** dans la *cité ciblée*"
HERD_AFTER = "un jeton 1/1 ***addax*** dans la ***cité*** ciblée"
RAID_FR = """\
---
name: Pillage des greniers
subtype: Évènement
---
:C:hoisis une ***cité*** ciblée qu’un adversaire contrôle. Elle perd 3 points de défense.
"""


# --------------------------------------------------------------------------------------
# Servers on 127.0.0.1 that are not Aminduna


class _Listener:
    """A TCP server on 127.0.0.1 handling each connection in a thread of its own."""

    def __init__(self) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.settimeout(0.1)
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}/"
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> Any:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._socket.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError), connection:
            self.handle(connection)

    def handle(self, connection: socket.socket) -> None:
        raise NotImplementedError


class Recorder(_Listener):
    """Keeps every byte any client sends it, and never answers."""

    def __init__(self) -> None:
        super().__init__()
        self._received = bytearray()

    @property
    def received(self) -> bytes:
        with self._lock:
            return bytes(self._received)

    def handle(self, connection: socket.socket) -> None:
        connection.settimeout(0.2)
        while not self._stop.is_set():
            try:
                data = connection.recv(65536)
            except TimeoutError:
                continue
            if not data:
                return
            with self._lock:
                self._received += data


class Dripper(_Listener):
    """Reads a request, then answers one byte every :data:`DRIP` s: in its status line
    and headers (``headers``), or in a body it announced whole (``body``).  It gives up
    after a minute, so that a client that waits for it all still ends."""

    DRIP = 0.25

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def handle(self, connection: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:
            data = connection.recv(65536)
            if not data:
                return
            request += data
        if self.where == "headers":
            drip = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: " + b"a" * 400
        else:
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            )
            drip = b'{"guid": "' + b"a" * 400
        for byte in drip[: int(60 / self.DRIP)]:
            if self._stop.wait(self.DRIP):
                return
            connection.sendall(bytes([byte]))


# --------------------------------------------------------------------------------------
# translator in a subprocess: a hang is killed, memory is bounded


@dataclass
class Done:
    code: int
    out: str
    err: str
    seconds: float

    def show(self) -> str:
        return f"exit {self.code} in {self.seconds:.1f} s\n{self.out[-2000:]}\n{self.err[-3000:]}"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def translator(
    *args: str, prelude: str = "", stdin: str = "", timeout: float = 60, cwd: Path = ROOT
) -> Done:
    """``translator ARGS`` in a subprocess, after the Python code ``prelude`` (fast
    retries, a patched ``os.replace``...); killed after ``timeout`` s, which fails the
    test as a hang."""
    script = f"{prelude}\nimport sys\nfrom translator.cli import main\nsys.exit(main(sys.argv[1:]))"
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory,  # noqa: PLW1509
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"translator {' '.join(args)} did not end in {timeout} s (a hang)")
    return Done(
        proc.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        time.monotonic() - started,
    )


FAST = f"import translator.sync.client as _c\n_c.RETRY_DELAYS = {FAST_RETRIES!r}"


def one_error_line(err: str) -> str:
    """The single line a refused command prints: no traceback, nothing else."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("translator: ") and "Traceback" not in err, err
    return lines[0]


# --------------------------------------------------------------------------------------
# A library pulled from the stand-in, with a reviewed change to push


def _pulled(seeded: Seeded, tmp_path: Path) -> Path:
    deck = tmp_path / "library" / "cards" / "deck30"
    code, out = run("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    assert code == 0, out
    return deck


def _review(deck: Path, *slugs: str) -> None:
    code, out = run("review", *slugs, "--lang", "fr", "--library", str(deck.parent), "--by", "Ana")
    assert code == 0, out


def _ready(seeded: Seeded, tmp_path: Path) -> Path:
    """The deck pulled, one translation changed and reviewed: a push would send it."""
    deck = _pulled(seeded, tmp_path)
    herd = deck / f"{HERD}.fr.md"
    herd.write_text(herd.read_text("utf-8").replace(HERD_BEFORE, HERD_AFTER), "utf-8")
    _review(deck, HERD)
    seeded.server.clear_log()
    return deck


def _token(seeded: Seeded) -> str:
    """A login of Ana's, as a CI job's $TRANSLATOR_TOKEN; the stand-in's log cleared
    after it, so that the log holds what the command under test sent."""
    token = seeded.token("ana@example.org")
    seeded.server.clear_log()
    return token


def _records(deck: Path) -> list[Path]:
    return sorted((deck / RECORD_DIR).glob("*.json"))


def _set_server(deck: Path, server: str) -> None:
    """What the pull request does: every record names ``server`` (the hash does not
    cover it, and would be computed again anyway)."""
    for path in _records(deck):
        data = json.loads(path.read_text("utf-8"))
        data["server"] = server
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", "utf-8")


# --------------------------------------------------------------------------------------
# 1. A secret goes only where the user configured it


@pytest.mark.parametrize("edited", ["records", "config", "both", "records-no-variable"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_no_byte_of_the_token_reaches_a_server_a_pull_request_names(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    edited: str,
) -> None:
    """A CI push with $TRANSLATOR_TOKEN, after a pull request changed the records'
    ``server``, the library's ``translator.toml``, or both, to a host of its own."""
    deck = _ready(seeded, tmp_path)
    token = _token(seeded)
    monkeypatch.setenv("TRANSLATOR_TOKEN", token)
    with Recorder() as recorder:
        if edited in ("records", "both", "records-no-variable"):
            _set_server(deck, recorder.url)
        if edited in ("config", "both"):
            (tmp_path / "library" / "translator.toml").write_text(
                f'[aminduna]\nserver = "{recorder.url}"\n', "utf-8"
            )
        if edited != "records":  # the CI names no server: the library's file would
            monkeypatch.delenv("TRANSLATOR_SERVER")
        monkeypatch.chdir(tmp_path / "library")
        capsys.readouterr()
        code, out = run("push", str(deck), "--lang", "fr", "--timeout", "2", "--no-progress")
        time.sleep(0.3)  # anything on its way reaches the recorder
        assert recorder.received == b"" and recorder.connections == 0
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and token not in out + line
    assert seeded.server.requests == []  # nothing was sent anywhere
    if edited == "both":  # the records agree with the file: the token rule says no
        assert f"$TRANSLATOR_TOKEN is not sent to {recorder.url[7:-1]}" in line
        assert f"TRANSLATOR_SERVER={recorder.url}" in line and "translator.toml" in line
    else:  # a record names another server than the one chosen: named, with both
        assert str(deck / RECORD_DIR) in line and recorder.url in line
        chosen = {"records": seeded.url, "config": recorder.url}.get(edited)
        assert (chosen or "https://aminduna.arcmage.org/") in line
        if edited == "config":
            assert seeded.url in line  # what the unedited records name


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_stored_login_goes_to_its_own_server_only(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No $TRANSLATOR_TOKEN, a login to the stand-in stored: records and configuration
    both name another host, which has no stored login, so it is sent none."""
    deck = _ready(seeded, tmp_path)
    token = _token(seeded)
    auth.save_login(auth.Login(seeded.url, "ana@example.org", token, None))
    monkeypatch.delenv("TRANSLATOR_SERVER")
    with Recorder() as recorder:
        _set_server(deck, recorder.url)
        (tmp_path / "library" / "translator.toml").write_text(
            f'[aminduna]\nserver = "{recorder.url}"\n', "utf-8"
        )
        monkeypatch.chdir(tmp_path / "library")
        capsys.readouterr()
        code, _ = run("push", str(deck), "--lang", "fr", "--timeout", "2", "--no-progress")
        time.sleep(0.3)
        assert recorder.received == b""
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and f"not logged in to {recorder.url[7:-1]}" in line
    assert seeded.server.requests == []


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_user_may_confirm_a_configured_server(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The way out the refusal names: $TRANSLATOR_SERVER set to the server the
    configuration names (here the stand-in), and the push goes."""
    deck = _ready(seeded, tmp_path)
    monkeypatch.setenv("TRANSLATOR_TOKEN", _token(seeded))
    (tmp_path / "library" / "translator.toml").write_text(
        f'[aminduna]\nserver = "{seeded.url}"\n', "utf-8"
    )
    monkeypatch.chdir(tmp_path / "library")
    monkeypatch.delenv("TRANSLATOR_SERVER")
    code, _ = run("push", str(deck), "--lang", "fr", "--no-progress")
    assert code == 2 and requests(seeded.server) == []
    monkeypatch.setenv("TRANSLATOR_SERVER", seeded.url)
    code, out = run("push", str(deck), "--lang", "fr", "--no-progress")
    assert code == 0 and f"patched {HERD}.fr" in out, out


# --------------------------------------------------------------------------------------
# 2. Writes through links


@pytest.mark.parametrize("where", ["outside", "another-deck"])
def test_a_pull_through_a_linked_records_folder_writes_nothing(
    seeded: Seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    """``cards/DECK/.aminduna`` a link to a folder out of the library (or of the deck):
    refused before a request is made or a file written."""
    library = tmp_path / "library"
    deck = library / "cards" / "deck30"
    deck.mkdir(parents=True)
    target = tmp_path / "outside" if where == "outside" else library / "cards" / "other" / "x"
    target.mkdir(parents=True)
    (deck / RECORD_DIR).symlink_to(target, target_is_directory=True)
    capsys.readouterr()
    code, out = run("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and out == ""
    assert f"{deck / RECORD_DIR}: is a link" in line
    assert list(target.iterdir()) == []
    assert sorted(p.name for p in deck.iterdir()) == [RECORD_DIR]
    assert seeded.server.requests == []


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_push_through_a_linked_records_folder_writes_nothing(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = _ready(seeded, tmp_path)
    outside = tmp_path / "outside"
    (deck / RECORD_DIR).rename(outside)
    (deck / RECORD_DIR).symlink_to(outside, target_is_directory=True)
    before = files(outside)
    monkeypatch.setenv("TRANSLATOR_TOKEN", _token(seeded))
    seeded.server.clear_log()
    capsys.readouterr()
    code, _ = run("push", str(deck), "--lang", "fr", "--no-progress")
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and f"{deck / RECORD_DIR}: is a link" in line
    assert files(outside) == before
    assert seeded.server.requests == []


# --------------------------------------------------------------------------------------
# 3. Reads of records


def _wrong(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """A record of the wrong types inside, its hash computed again (anyone can)."""
    card = data["card"]
    if kind == "status-number":
        card["status"] = 7
    elif kind == "guid-list":
        card["guid"] = ["f1ba89a5-d213-464c-b885-043a470b3eb3"]
    elif kind == "text-object":
        card["markdownText"] = {"text": "x"}
    elif kind == "pending-text":
        data["pending"] = "artwork"
    elif kind == "server-number":
        data["server"] = 8765
    elif kind == "server-unnormal":
        data["server"] = data["server"].upper()
    data["hash"] = server_hash(card)
    return data


def _break(record: Path, kind: str) -> None:
    data = json.loads(record.read_text("utf-8"))
    record.unlink()
    if kind == "fifo":
        os.mkfifo(record)
    elif kind == "dev-zero":
        record.symlink_to("/dev/zero")
    elif kind == "folder":
        record.mkdir()
    elif kind == "link-outside":  # a valid record, but read through a link
        outside = record.parent.parent.parent.parent.parent / "elsewhere.json"
        outside.write_text(json.dumps(data), "utf-8")
        record.symlink_to(outside)
    elif kind == "deep":
        record.write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    elif kind == "huge":
        record.write_text(json.dumps({**data, "padding": "x" * (5 << 20)}), "utf-8")
    else:
        record.write_text(json.dumps(_wrong(data, kind)), "utf-8")


READ_ATTACKS = [
    "fifo",
    "dev-zero",
    "folder",
    "link-outside",
    "deep",
    "huge",
    "status-number",
    "guid-list",
    "text-object",
    "pending-text",
    "server-number",
    "server-unnormal",
]


@pytest.mark.parametrize("kind", READ_ATTACKS)
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_record_that_cannot_be_read_stops_the_push_by_name(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    """Never a hang, a MemoryError, a traceback, or "no record" (which would make a
    push create the card a second time): exit 2, one line naming the record."""
    deck = _ready(seeded, tmp_path)
    record = deck / RECORD_DIR / f"{HERD}.fr.json"
    _break(record, kind)
    monkeypatch.setenv("TRANSLATOR_TOKEN", _token(seeded))
    seeded.server.clear_log()
    done = translator("push", str(deck), "--lang", "fr", "--no-progress", timeout=60)
    assert done.code == 2, done.show()
    line = one_error_line(done.err)
    assert str(record) in line, line
    assert done.seconds < 30
    assert seeded.server.requests == []


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "deep", "status-number"])
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_record_that_cannot_be_read_stops_the_pull_by_name(
    seeded: Seeded,
    tmp_path: Path,
    kind: str,
) -> None:
    deck = _pulled(seeded, tmp_path)
    before = files(deck)
    record = deck / RECORD_DIR / f"{HERD}.fr.json"
    _break(record, kind)
    done = translator("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    assert done.code == 2, done.show()
    assert str(record) in one_error_line(done.err)
    after = files(deck)
    assert {k: v for k, v in after.items() if k != str(record.relative_to(deck))} == {
        k: v for k, v in before.items() if k != str(record.relative_to(deck))
    }


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_credentials_file_that_is_a_fifo_is_refused(
    seeded: Seeded,
    tmp_path: Path,
) -> None:
    deck = _ready(seeded, tmp_path)
    path = auth.credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path, 0o600)
    done = translator("push", str(deck), "--lang", "fr", "--no-progress", timeout=60)
    assert done.code == 2, done.show()
    assert f"{path} is not a regular file" in one_error_line(done.err)


# --------------------------------------------------------------------------------------
# 4. Time bounds


@pytest.mark.slow
@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_dripping_server_is_cut_off_by_the_time_out_of_the_whole_answer(
    tmp_path: Path, where: str
) -> None:
    """One byte a second kept ``pull --timeout 3`` for 164 s.  Now each try ends after
    its time-out, whatever comes meanwhile (here four bytes a second within a 1 s
    time-out): four tries, three fast pauses between them."""
    timeout, tries = 1.0, 1 + len(FAST_RETRIES)
    startup = 5.0  # a Python process importing translator, with room to spare
    bound = tries * timeout + sum(FAST_RETRIES) + startup
    guid = "f1ba89a5-d213-464c-b885-043a470b3eb3"
    with Dripper(where) as dripper:
        done = translator(
            "pull",
            guid,
            "--into",
            str(tmp_path / "cards" / "x"),
            "--server",
            dripper.url,
            "--timeout",
            str(timeout),
            "--no-progress",
            prelude=FAST,
            timeout=60,
        )
        assert dripper.connections == tries
    assert done.code == 2, done.show()
    line = one_error_line(done.err)
    assert f"the answer took longer than {timeout:g} s in all, {tries} tries" in line
    assert tries * timeout <= done.seconds < bound, done.show()
    assert not (tmp_path / "cards").exists()


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_command_deadline_cuts_a_pull_of_slow_answers(
    seeded: Seeded,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each card answers after half a second, well within --timeout: without a bound
    on the whole command, the pull would take as long as the server likes."""
    seeded.server.inject("GET", r"/api/Cards/[^/]+", "timeout", times=1000, seconds=0.5)
    deck = tmp_path / "cards" / "deck30"
    capsys.readouterr()
    started = time.monotonic()
    code, out = run(
        "pull", seeded.deck_address(), "--into", str(deck), "--timeout", "10", "--deadline", "2"
    )
    seconds = time.monotonic() - started
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and out == ""
    assert "took its whole time limit (2 s in all)" in line and "--deadline" in line
    assert seconds < 2 + 1.5, seconds
    assert not deck.exists()


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_a_push_cut_by_its_deadline_keeps_the_records_of_what_it_sent(
    seeded: Seeded,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The change to Addax Herdmother is sent; the search before creating Raid the
    Granaries never answers in time: the push stops there, with the record of the card
    it sent written, and the next push sends only what is left."""
    deck = _ready(seeded, tmp_path)
    (deck / "raid-the-granaries.fr.md").write_text(RAID_FR, "utf-8")
    _review(deck, "raid-the-granaries", HERD)
    monkeypatch.setattr("translator.sync.push.lint_errors", lambda *_: [])  # time: the sends'
    monkeypatch.setenv("TRANSLATOR_TOKEN", _token(seeded))
    seeded.server.inject("POST", r"/api/CardSearch", "timeout", times=1, seconds=6)
    code, out = run("push", str(deck), "--lang", "fr", "--deadline", "2", "--no-progress")
    err = capsys.readouterr().err
    assert code == 2, out + err
    assert f"patched {HERD}.fr" in out and "took its whole time limit (2 s in all)" in err
    record = json.loads((deck / RECORD_DIR / f"{HERD}.fr.json").read_text("utf-8"))
    assert HERD_AFTER in record["card"]["markdownText"]
    assert not (deck / RECORD_DIR / "raid-the-granaries.fr.json").exists()
    code, out = run("push", str(deck), "--lang", "fr", "--no-progress")
    assert code == 0 and "created raid-the-granaries.fr" in out and HERD not in out, out


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_login_has_a_deadline(tmp_path: Path) -> None:
    with Dripper("headers") as dripper:
        done = translator(
            *("login", "--server", dripper.url, "--email", "ana@example.org"),
            *("--password-stdin", "--timeout", "2", "--deadline", "3"),
            stdin="correct horse\n",
            prelude=FAST,
            timeout=30,
        )
    assert done.code == 2, done.show()
    assert "took its whole time limit (3 s in all)" in one_error_line(done.err)
    assert done.seconds < 3 + 5
    assert not auth.credentials_file().exists()


# --------------------------------------------------------------------------------------
# 5. A pull killed in the middle of putting its files in place


#: os.replace of the pull's commit, SIGKILL after the N-th rename out of its staging
#: folder (the journal's is the first): what a power cut or an OOM killer would do.
KILL_AFTER = """
import os, signal
_replace, _count = os.replace, [0]
def _killing(source, target, *args, **kwargs):
    if ".import." in os.fspath(source):
        _count[0] += 1
        if _count[0] > {n}:
            os.kill(os.getpid(), signal.SIGKILL)
    return _replace(source, target, *args, **kwargs)
os.replace = _killing
"""


@pytest.mark.slow
def test_a_pull_killed_in_its_renames_is_completed_by_the_next(
    seeded: Seeded,
    tmp_path: Path,
) -> None:
    reference = tmp_path / "reference" / "cards" / "deck30"
    code, out = run("pull", seeded.deck_address(), "--into", str(reference), "--lang", "fr")
    assert code == 0, out
    whole = files(reference.parent.parent)
    written = [name for name in whole if name.startswith("cards/")]  # 51 cards, 50 records...
    library = tmp_path / "library"
    deck = library / "cards" / "deck30"
    n = len(written) // 2
    done = translator(
        *("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr", "--no-progress"),
        prelude=KILL_AFTER.format(n=n),
    )
    assert done.code == -signal.SIGKILL, done.show()
    staged = list(deck.parent.glob(".import.*.tmp"))  # the commit's root: above the deck
    assert len(staged) == 1 and (staged[0] / "journal.json").is_file()
    half = files(library)
    assert 0 < len(half) - len(list(staged[0].iterdir())) < len(whole)  # half put in place
    code, out = run("pull", seeded.deck_address(), "--into", str(deck), "--lang", "fr")
    assert code == 0, out
    assert files(library) == whole  # every card, record and deck.yaml, as a whole pull
    assert list(library.rglob("*.tmp")) == []


# --------------------------------------------------------------------------------------
# 6. No lock file left behind


def test_login_and_logout_leave_no_lock_file(tmp_path: Path) -> None:
    folder = auth.config_directory()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "credentials.json.lock").write_bytes(b"")  # left by an earlier version
    auth.save_login(auth.Login("https://a.example/", "ann@example.org", "a.b.c", None))
    assert sorted(p.name for p in folder.iterdir()) == ["credentials.json"]
    assert auth.forget_login("https://a.example/") is True
    assert list(folder.iterdir()) == []


def test_concurrent_logins_keep_every_entry(tmp_path: Path) -> None:
    """Two logins at once (to two servers) each read, change and write the file under
    the folder's lock: neither loses the other's entry."""
    servers = [[f"https://s{t}-{i}.example/" for i in range(15)] for t in range(2)]
    errors: list[BaseException] = []

    def log_in(mine: list[str]) -> None:
        try:
            for server in mine:
                auth.save_login(auth.Login(server, "ann@example.org", "a.b.c", None))
        except BaseException as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=log_in, args=(mine,)) for mine in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    for server in servers[0] + servers[1]:
        assert auth.stored_login(server) is not None, server
    assert sorted(p.name for p in auth.config_directory().iterdir()) == ["credentials.json"]


@pytest.fixture(autouse=True)
def _config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The credentials of each test in its own folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    yield
