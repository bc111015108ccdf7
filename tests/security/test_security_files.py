"""The mechanisms every surface of issue 35 stands on, attacked directly:

- where a file lies (``translator.paths``): a write through a linked folder is refused
  before anything is made; a read below a folder never follows a link, a FIFO or a
  device, whichever component is the link;
- the one JSON file reader (``translator.jsonfile.read``): a FIFO, ``/dev/zero``, JSON
  nested 100,000 deep, ``NaN``: one error naming the file, never a hang or a traceback;
- the staged commit (``translator.atomic.commit_files``): killed with ``kill -9`` in
  the middle of its renames, the next command completes it; killed before its journal,
  the next command rolls it back; a journal someone else wrote leads nowhere outside;
- the deadline of an answer (``translator.web``): a server that drips a byte at a time,
  in its headers or its body, holds a request no longer than the deadline;
- typed plain data (``translator.plain``), what caches are read back with.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from translator import atomic, jsonfile, plain, web
from translator.glossary.loader import load_glossary
from translator.glossary.model import Glossary
from translator.paths import LinkRefused, OutsideError, check_inside, inside, open_beneath
from translator.problems import Problem
from translator.textio import InputError, read_file

SECRET = b"TOKEN=secret-of-the-user"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the one a command works on, holding a secret."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_bytes(SECRET)
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "file.txt").write_bytes(b"mine")
    return folder


# --------------------------------------------------------------------------------------
# Where a file lies


def test_inside_follows_links_of_folders_and_files(root: Path, outside: Path) -> None:
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "file-link").symlink_to(outside / "secret.txt")
    assert inside(root / "sub" / "file.txt", root)
    assert inside(root / "sub" / "not-yet" / "new.json", root)  # made later: its folders
    assert not inside(root / "linked" / "new.json", root)  # a folder that leads out
    assert not inside(root / "file-link", root)
    assert not inside(root / ".." / "outside" / "secret.txt", root)
    with pytest.raises(OutsideError) as refused:
        check_inside(root / "linked" / "x.json", root)
    assert str(root / "linked" / "x.json") in str(refused.value)
    assert str(outside) in str(refused.value)


def test_a_write_through_a_linked_folder_is_refused_before_anything(
    root: Path, outside: Path
) -> None:
    """The attack on pull records, previews, theme files, caches: their folder is a link
    to elsewhere.  ``replacing`` refuses it before making even its temporary file."""
    (root / ".aminduna").symlink_to(outside, target_is_directory=True)
    before = sorted(outside.iterdir())
    with pytest.raises(OutsideError), atomic.replacing(root / ".aminduna" / "a.json", within=root):
        pytest.fail("the block ran")
    with pytest.raises(OutsideError):
        atomic.write_file(root / ".aminduna" / "b.json", b"{}", within=root)
    assert sorted(outside.iterdir()) == before


@pytest.mark.parametrize("place", ["file", "folder", "deep folder"])
def test_open_beneath_never_follows_a_link(root: Path, outside: Path, place: str) -> None:
    (outside / "sub").mkdir()
    (outside / "sub" / "file.txt").write_bytes(SECRET)
    if place == "file":
        (root / "help.fr.png").symlink_to(outside / "secret.txt")
        relative = "help.fr.png"
    elif place == "folder":
        (root / "linked").symlink_to(outside, target_is_directory=True)
        relative = "linked/secret.txt"
    else:
        (root / "sub" / "deeper").symlink_to(outside / "sub", target_is_directory=True)
        relative = "sub/deeper/file.txt"
    with pytest.raises(LinkRefused):
        open_beneath(root, relative)
    with pytest.raises(InputError) as refused:
        read_file(root / relative, beneath=root)
    assert "link" in str(refused.value) and str(root / relative) in str(refused.value)


def test_open_beneath_reads_the_folders_own_files(root: Path) -> None:
    descriptor = open_beneath(root, "sub/file.txt")
    try:
        assert os.read(descriptor, 10) == b"mine"
    finally:
        os.close(descriptor)
    assert read_file(root / "sub" / "file.txt", beneath=root) == b"mine"
    with pytest.raises(FileNotFoundError):
        open_beneath(root, "sub/missing.txt")
    for climbing in ("../outside/secret.txt", "/etc/passwd", ""):
        with pytest.raises(LinkRefused):
            open_beneath(root, climbing)


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_what_is_no_regular_file_is_refused_without_reading(root: Path, kind: str) -> None:
    """A FIFO would block the reader for ever (a server's event loop with it)."""
    target = root / "card.fr.md"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target.symlink_to("/dev/zero")  # a link: refused as one below the folder
    else:
        target.mkdir()
    started = time.monotonic()
    with pytest.raises((LinkRefused, InputError)):
        read_file(target, beneath=root)
    with pytest.raises(InputError):
        read_file(target)  # the plain reader refuses them too (links followed)
    assert time.monotonic() - started < 2


# --------------------------------------------------------------------------------------
# The one JSON file reader


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 64"),
        (b'{"a": NaN}', "NaN is not a JSON number"),
        (b'{"a": 1' + b"0" * 5000 + b"}", "not valid JSON"),
        (b'{\n"a": \xff}', "not valid UTF-8"),
        (b'{\n  "a": [1,\n  }', "not valid JSON"),
        (b"[" * 70 + b"]" * 70, "nested 70 levels deep"),
    ],
)
def test_json_files_are_read_within_limits(tmp_path: Path, content: bytes, said: str) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as refused:
        jsonfile.read(path, what="record")
    assert str(refused.value).startswith(str(path)) and said in str(refused.value)


@pytest.mark.parametrize("kind", ["fifo", "zero", "large"])
def test_a_json_file_that_cannot_be_one_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "record.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b" " * 2048)
    started = time.monotonic()
    with pytest.raises(InputError) as refused:
        jsonfile.read(path, 1024, "pull record")
    assert time.monotonic() - started < 2
    assert str(path) in str(refused.value)


# --------------------------------------------------------------------------------------
# The staged commit: all files or none, whatever kills it


KILLER = """if True:
    import os, signal, sys
    from pathlib import Path
    from translator import atomic
    root, count, at = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    done = [0]
    real_replace, real_write = os.replace, atomic.write_file
    def replace(source, target):
        if at == "renames" and done[0] == count // 2:
            os.kill(os.getpid(), signal.SIGKILL)
        done[0] += 1
        real_replace(source, target)
    def write_file(target, *args, **kwargs):
        if at == "journal" and Path(target).name == atomic.JOURNAL:
            os.kill(os.getpid(), signal.SIGKILL)
        real_write(target, *args, **kwargs)
    os.replace = replace
    atomic.write_file = write_file
    files = {root / "deck" / f"card-{i}.fr.md": f"text {i}\\n".encode() for i in range(count)}
    files[root / "deck" / "deck.yaml"] = b"name: Deck\\n"
    atomic.commit_files(root, files, "import")
"""


def _killed_commit(root: Path, at: str, count: int = 40) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(root), str(count), at],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()


def _staging(root: Path) -> list[Path]:
    return sorted(root.glob(".import.*.tmp"))


def test_a_commit_killed_among_its_renames_is_completed_by_the_next_sweep(root: Path) -> None:
    _killed_commit(root, "renames")
    [staging] = _staging(root)
    assert (staging / atomic.JOURNAL).is_file()
    written = sorted((root / "deck").glob("*"))
    assert 0 < len(written) < 41  # half-way: some files there, not all
    atomic.sweep(root)
    assert _staging(root) == []
    assert len(list((root / "deck").glob("card-*.fr.md"))) == 40
    assert (root / "deck" / "deck.yaml").read_bytes() == b"name: Deck\n"
    assert (root / "deck" / "card-7.fr.md").read_bytes() == b"text 7\n"


def test_a_commit_killed_before_its_journal_is_rolled_back(root: Path) -> None:
    _killed_commit(root, "journal")
    assert len(_staging(root)) == 1
    assert not (root / "deck").exists()  # nothing was put in place
    atomic.sweep(root)
    assert _staging(root) == []
    assert not (root / "deck").exists()


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.mark.parametrize(
    "journal",
    [
        {"version": 1, "files": [["0.staged", "../outside/planted.txt"]]},
        {"version": 1, "files": [["0.staged", "/tmp/planted-by-a-journal.txt"]]},
        {"version": 1, "files": [["../../outside/secret.txt", "sub/stolen.txt"]]},
        {"version": 1, "files": [["0.staged", "linked/planted.txt"]]},
        "[" * 100_000,
        "fifo",
    ],
)
def test_a_journal_someone_else_wrote_leads_nowhere(
    root: Path, outside: Path, journal: object
) -> None:
    """A staging folder committed to the library by someone else, named as a dead
    process's: its journal may name targets outside (by ``..``, an absolute path, a
    linked folder) or staged files outside.  Nothing is written outside, nothing is read
    from outside; the folder is removed."""
    (root / "linked").symlink_to(outside, target_is_directory=True)
    staging = root / f".import.{_dead_pid()}.abcdefgh.tmp"
    staging.mkdir()
    (staging / "0.staged").write_bytes(b"planted")
    if journal == "fifo":
        os.mkfifo(staging / atomic.JOURNAL)
    else:
        text = journal if isinstance(journal, str) else json.dumps(journal)
        (staging / atomic.JOURNAL).write_text(text, encoding="utf-8")
    before = sorted(p.name for p in outside.iterdir())
    started = time.monotonic()
    atomic.sweep(root)
    assert time.monotonic() - started < 2
    assert sorted(p.name for p in outside.iterdir()) == before
    assert not Path("/tmp/planted-by-a-journal.txt").exists()
    assert not (root / "sub" / "stolen.txt").exists()
    assert not staging.exists()


def test_a_commit_writes_nothing_when_a_target_leads_out(root: Path, outside: Path) -> None:
    (root / "deck").mkdir()
    (root / "deck" / ".aminduna").symlink_to(outside, target_is_directory=True)
    files = {
        root / "deck" / "a.fr.md": b"card\n",
        root / "deck" / ".aminduna" / "a.fr.json": b"{}",
    }
    with pytest.raises(OutsideError):
        atomic.commit_files(root, files, "import")
    assert not (root / "deck" / "a.fr.md").exists()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert _staging(root) == []


# --------------------------------------------------------------------------------------
# The deadline of an answer


class Dripping:
    """A server on 127.0.0.1 that sends its answer one byte every ``pause`` seconds,
    its headers (``where="headers"``) or its body."""

    def __init__(self, where: str, pause: float = 0.05) -> None:
        self.where, self.pause = where, pause
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        headers = (
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        )
        with connection:
            connection.recv(65536)
            try:
                if self.where == "body":
                    connection.sendall(headers)
                    drip = b"[" * 100_000
                else:
                    drip = headers
                for byte in drip:
                    if self.stopped.is_set():
                        return
                    connection.sendall(bytes([byte]))
                    time.sleep(self.pause)
            except OSError:
                return

    def close(self) -> None:
        self.stopped.set()
        self.socket.close()


@pytest.fixture(params=["headers", "body"])
def dripping(request: pytest.FixtureRequest) -> Iterator[Dripping]:
    server = Dripping(request.param)
    yield server
    server.close()


def test_a_dripping_server_holds_a_request_no_longer_than_its_deadline(
    dripping: Dripping,
) -> None:
    """Each read gets a byte within 0.05 s: a time-out per read (here 5 s) never fires.
    The deadline of the whole answer does."""
    client = web.http_client(headers={}, read_timeout=5, connect_timeout=5)
    started = time.monotonic()
    with pytest.raises(httpx.ReadTimeout), web.deadline(1.0):
        try:
            with client.stream("GET", dripping.url) as answer:
                for _ in answer.iter_bytes():
                    pass
        finally:
            assert web.expired()
    assert 0.9 < time.monotonic() - started < 2.5
    client.close()


def test_deadlines_nest_and_end_with_their_block() -> None:
    assert web.time_left() is None and not web.expired()
    with web.deadline(10):
        outer = web.time_left()
        assert outer is not None and 9 < outer <= 10
        with web.deadline(60):  # a longer one inside keeps the earlier end
            inner = web.time_left()
            assert inner is not None and inner <= outer
        with web.deadline(0):
            assert web.expired()
    assert web.time_left() is None


def test_an_answer_in_time_is_unchanged() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer() -> None:
        connection, _ = server.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")

    threading.Thread(target=answer, daemon=True).start()
    client = web.http_client(headers={}, read_timeout=5, connect_timeout=5)
    with client, web.deadline(5):
        assert client.get(f"http://127.0.0.1:{port}/").text == "ok"
    server.close()


# --------------------------------------------------------------------------------------
# Typed plain data


def test_a_glossary_survives_plain_data() -> None:
    glossary, problems = load_glossary("fr")
    shape = tuple[Glossary, list[Problem]]
    data = json.loads(json.dumps(plain.encode((glossary, problems))))
    again, again_problems = plain.decode(data, shape)
    assert again == glossary and again_problems == problems


@pytest.mark.parametrize(
    ("data", "shape"),
    [
        ({"a": 1}, dict[str, str]),
        ([1, 2], tuple[int, str]),
        ({"lang": "fr", "entries": {"x": 1}}, Glossary),
        ({"lang": "fr", "unknown": 1}, Glossary),
        ({"entries": {}}, Glossary),
        (True, int),
        (1.5, int),
    ],
)
def test_plain_data_of_another_shape_is_refused(data: object, shape: object) -> None:
    with pytest.raises(plain.Mismatch):
        plain.decode(data, shape)


def test_plain_data_builds_values_not_code() -> None:
    """What plain data can make is values of the declared types: a class named in it is
    text, never looked up."""
    data = {"lang": "os.system", "entries": {}, "files": ["__import__('os')"]}
    value = plain.decode(data, Glossary)
    assert isinstance(value, Glossary) and value.lang == "os.system"


# --------------------------------------------------------------------------------------
# JSON of many small values


def test_json_of_many_empty_objects_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """20 MB of ``{},`` (within the file limit) are seven million cards: the import
    checked each, printed seven million problems, and took 3.6 GB and 104 s before it
    said "at most 60,000" (issue 35, found by an independent attack).  The objects are
    counted before the text is parsed: one line, at once."""
    source = tmp_path / "cards.json"
    source.write_bytes(b"[" + b"{}," * (7 << 20) + b"{}]")
    # The peak of this process's own memory (VmHWM: ru_maxrss would count the memory
    # of the pytest process it was forked from, which Linux keeps across exec).
    script = (
        "from translator.cli import main\n"
        f"code = main(['import', 'arcmage', {str(source)!r}, '--into', "
        f"{str(tmp_path / 'lib' / 'deck')!r}])\n"
        "status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
        "print(status, code)\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    seconds = time.monotonic() - started
    peak_kb, code = map(int, done.stdout.split())
    lines = done.stderr.splitlines()
    assert code == 2, done.stderr[-2000:]
    assert "JSON objects and lists" in lines[0] and str(source) in lines[0]
    assert len(lines) <= 2, lines[:5]
    assert seconds < 15, seconds
    assert peak_kb < 400_000, f"{peak_kb} KB"  # the text (20 MB, decoded) and the count


def test_a_document_of_too_many_cards_is_refused_before_its_cards_are_checked(
    tmp_path: Path,
) -> None:
    """Within the count of objects, but more cards than an import takes: one problem,
    not one per card."""
    from translator.cards.aminduna import read_documents
    from translator.limits import MAX_IMPORT_CARDS

    source = tmp_path / "cards.json"
    source.write_text(json.dumps([{"name": 1}] * (MAX_IMPORT_CARDS + 1)), encoding="utf-8")
    from translator.cards.aminduna import ImportError_

    with pytest.raises(ImportError_) as refused:
        read_documents([str(source)])
    problems = refused.value.problems
    assert len(problems) <= 2 and "60,001 cards" in problems[0].message


# --------------------------------------------------------------------------------------
# Files named on the command line, and those written beside them


@pytest.mark.parametrize(
    ("command", "linked"),
    [
        (["export", "arcmage", "SAMPLE", "--lang", "fr", "-o", "OUT/deck.fr.json"], "deck.fr.txt"),
        (["export", "arcmage", "SAMPLE", "--lang", "fr", "-o", "OUT/deck.fr.json"], "deck.fr.json"),
        (["export", "po", "SAMPLE", "--lang", "fr", "-o", "OUT/sample.fr.po"], "sample.fr.tbx"),
        (["export", "po", "SAMPLE", "--lang", "fr", "-o", "OUT/sample.fr.po"], "sample.fr.po"),
        (["glossary", "export", "--lang", "fr", "--format", "csv", "-o", "OUT/g.csv"], "g.csv"),
    ],
)
def test_a_file_named_on_the_command_line_is_not_written_through_a_link(
    tmp_path: Path, outside: Path, command: list[str], linked: str
) -> None:
    """``-o out/deck.fr.json`` writes ``out/deck.fr.txt`` beside it: a link committed
    there (to ``~/.bashrc``) had the deck list written over the file it leads to
    (issue 35, found by an independent attack).  A file the user names, and those
    written beside it, must lie in the folder named with it, links followed."""
    from tests.conftest import ROOT
    from translator.cli import main

    out = tmp_path / "out"
    out.mkdir()
    (out / linked).symlink_to(outside / "secret.txt")
    arguments = [
        str(ROOT / "cards" / "sample") if a == "SAMPLE" else a.replace("OUT", str(out))
        for a in command
    ]
    assert main(arguments) == 2
    assert (outside / "secret.txt").read_bytes() == SECRET
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
