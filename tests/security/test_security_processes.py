"""Processes and interruptions: a build's worker processes die with it (``kill -9``)
and write nothing after; Ctrl-C stops a build with one line and exit status 130, during
a build or while it starts; a failed write names the file asked for and the cause,
never a temporary file.  Real processes and signals, on Linux (``/proc``)."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest

from tests.conftest import ROOT
from tests.diskkit import full_disk_open
from tests.lintkit import SAMPLE, copy_sample
from translator import atomic
from translator.cli import main
from translator.typeset import manifest

#: The console script, as pip writes it (``translator._entry:main``).
ENTRY = [
    sys.executable,
    "-c",
    "import sys; sys.argv[0] = 'translator'; from translator._entry import main; main()",
]
#: What :data:`RUNNING_ENTRY` says on standard error as the command starts to run.
RUNNING = "test: the command runs"
#: The console script, saying :data:`RUNNING` when the entry point calls the command
#: (the command line imported): the moment a test waits for, rather than a guess.
RUNNING_ENTRY = [
    sys.executable,
    "-c",
    "import sys; sys.argv[0] = 'translator'; import translator.cli as cli; "
    f"command = cli.main; cli.main = lambda: print({RUNNING!r}, file=sys.stderr, flush=True) "
    "or command(); from translator._entry import main; main()",
]

# --------------------------------------------------------------------------------------
# Helpers

Process = tuple[int, int]  # pid, start time (a pid can be reused; the pair cannot)


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command name (state first), None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def children(pid: int) -> set[Process]:
    """The processes whose parent is ``pid`` (every thread's children: /proc/*/stat)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.add((int(entry.name), int(fields[19])))
    return found


def running(process: Process) -> bool:
    """Still there and not a zombie (a container's init may never reap an orphan)."""
    fields = _stat(process[0])
    return fields is not None and int(fields[19]) == process[1] and fields[0] not in "ZX"


def wait_gone(processes: set[Process], timeout: float) -> float:
    """Seconds until none of ``processes`` runs (fails after ``timeout``)."""
    start = time.monotonic()
    while any(running(p) for p in processes):
        assert time.monotonic() - start < timeout, (
            f"still running after {timeout} s: {[p for p in processes if running(p)]}"
        )
        time.sleep(0.005)
    return time.monotonic() - start


def snapshot(directory: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``directory``: its size and modification time."""
    return {
        str(p.relative_to(directory)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in directory.rglob("*")
        if p.is_file()
    }


def leftovers(out: Path) -> list[str]:
    """Hidden files that are not the build record: temporary files."""
    return sorted(
        str(p.relative_to(out))
        for p in out.rglob(".*")
        if p.is_file() and p.name != manifest.MANIFEST
    )


def complete(out: Path) -> None:
    for pdf in out.glob("*.pdf"):
        with pikepdf.open(pdf) as document:  # a half-written PDF does not open
            assert len(document.pages) == 1


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen | Process]]:
    """Processes a test starts (and workers it saw): killed if the test fails."""
    processes: list[subprocess.Popen | Process] = []
    yield processes
    for process in processes:
        if isinstance(process, subprocess.Popen):
            if process.poll() is None:
                processes.extend(children(process.pid))
                process.kill()
                process.wait()
        elif running(process):
            with contextlib.suppress(ProcessLookupError):
                os.kill(process[0], signal.SIGKILL)


def start_build(
    library: Path, out: Path, started: list[subprocess.Popen | Process]
) -> subprocess.Popen:
    """``translator build`` of the whole library (72 cards) on 2 workers, as a terminal
    starts it (its own process group); returns once the first PDF is written."""
    options = ["--lang", "all", "--force", "--jobs", "2", "--no-preflight", "--out"]
    process = subprocess.Popen(
        [*ENTRY, "build", str(library), *options, str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    started.append(process)
    deadline = time.monotonic() + 120
    while not list(out.glob("*.pdf")):
        assert process.poll() is None, process.communicate()[1].decode()
        assert time.monotonic() < deadline, "no PDF after 120 s"
        time.sleep(0.01)
    return process


# --------------------------------------------------------------------------------------
# kill -9


@pytest.mark.slow
def test_workers_die_with_a_killed_build_and_write_nothing_after(
    tmp_path: Path, started: list[subprocess.Popen | Process]
) -> None:
    """``kill -9`` of a build while its workers write PDFs: they are gone at once (the
    kernel kills them), and no file in --out appears or changes afterwards."""
    library = copy_sample(tmp_path)
    out = tmp_path / "out"
    process = start_build(library, out, started)
    workers = children(process.pid)
    started.extend(workers)
    assert len(workers) == 2, workers
    process.kill()
    process.wait()
    assert wait_gone(workers, timeout=5) < 2.0
    before = snapshot(out)
    time.sleep(3)
    assert snapshot(out) == before
    complete(out)
    # A worker killed mid-write leaves its temporary file: the next build sweeps it.
    atomic.sweep(out)
    atomic.sweep(out / ".cache")
    assert leftovers(out) == []


def test_a_pool_forked_by_another_thread_survives_it_and_dies_with_the_build(
    tmp_path: Path, started: list[subprocess.Popen | Process]
) -> None:
    """The parent-death signal is sent when the *thread* that forked a worker ends:
    workers forked by a thread that ends keep working (they do without it), and still
    die with the build (their thread watching it sees it gone)."""
    script = """if True:
        import os, sys, threading
        from translator.typeset import build
        from translator.typeset import workers
        def fork():
            workers._pool(2).submit(os.getpid).result()
        thread = threading.Thread(target=fork)
        thread.start()
        thread.join()
        for _ in range(20):  # BrokenProcessPool had the thread's end killed them
            workers._pool(2).submit(os.getpid).result()
        print("ready", flush=True)
        sys.stdin.read()
    """
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    started.append(process)
    assert process.stdout is not None
    assert process.stdout.readline() == b"ready\n", process.communicate()[1].decode()
    workers = children(process.pid)
    started.extend(workers)
    assert len(workers) == 2 and all(running(w) for w in workers)
    process.kill()
    process.wait()
    assert wait_gone(workers, timeout=5) < 3.0


def test_a_worker_whose_build_is_gone_renames_nothing(tmp_path: Path) -> None:
    """The last guard: a worker (tied to its build by ``work_for``) whose build is gone
    exits rather than rename a file into place, and leaves no temporary file."""
    dead = int(
        subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    target = tmp_path / "card.fr.pdf"
    script = f"""if True:
        from pathlib import Path
        from translator import atomic
        atomic.work_for({dead})
        with atomic.replacing(Path({str(target)!r}), within={str(tmp_path)!r}) as temporary:
            temporary.write_bytes(b"%PDF-1.4")
    """
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 1, done.stderr.decode()
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------
# Ctrl-C


@pytest.mark.slow
def test_ctrl_c_stops_a_build_with_one_line(
    tmp_path: Path, started: list[subprocess.Popen | Process]
) -> None:
    """SIGINT to the process group, as a terminal sends it (the workers get it too):
    exit status 130, "translator: interrupted" and nothing else (no worker's
    traceback), the workers stopped by the build, every file whole, no temporary file
    left (artwork cache included)."""
    library = copy_sample(tmp_path)
    out = tmp_path / "out"
    process = start_build(library, out, started)
    workers = children(process.pid)
    started.extend(workers)
    assert len(workers) == 2, workers
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    text = stderr.decode()
    assert process.returncode == 130, text
    assert "Traceback" not in text and "translator: interrupted" in text.splitlines()
    assert len(text.splitlines()) <= 2, text
    assert not any(running(w) for w in workers)  # stopped (and reaped) by the build
    assert leftovers(out) == []
    before = snapshot(out)
    assert 0 < len(list(out.glob("*.pdf"))) < 72  # interrupted mid-way
    complete(out)
    assert set(manifest.read(out)) <= {p.name for p in out.glob("*.pdf")}
    time.sleep(0.5)
    assert snapshot(out) == before


@pytest.mark.parametrize("when", [1, 5, 12, "translator.cli", "running"])
def test_ctrl_c_while_starting_is_one_line_and_130(tmp_path: Path, when: int | str) -> None:
    """SIGINT while the command line is being imported (after the n-th of its modules,
    once all are, once the command runs): exit status 130 (or 0, done already), one
    line, never a traceback.  Python's own start-up, before the entry point's first
    line (``site``), is not ours to guard: the signal is sent from the first module
    of translator's imported by the entry point on (``-X importtime`` tells which)."""
    entry = RUNNING_ENTRY if when == "running" else ENTRY
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", *entry[1:], "cards", "check", str(SAMPLE)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    assert process.stderr is not None
    seen, sent = 0, False
    lines = []
    for raw in process.stderr:
        line = raw.decode()
        lines.append(line)
        if when == "running":
            if line.rstrip("\n") == RUNNING:
                sent = True
                break
            continue
        module = line.rsplit("|", 1)[-1].strip() if line.startswith("import time:") else ""
        if module.startswith("translator.") and module != "translator._entry":
            seen += 1
            if seen == when or module == when:
                sent = True
                break
    assert sent, "".join(lines)
    process.send_signal(signal.SIGINT)
    rest = process.communicate(timeout=60)[1].decode()
    said = [
        line
        for line in [*lines, *rest.splitlines(keepends=True)]
        if not line.startswith("import time:") and line.rstrip("\n") != RUNNING
    ]
    assert "Traceback" not in "".join(said), "".join(said)
    if process.returncode == 0:  # done before the signal came
        assert said == []
    else:
        assert process.returncode == 130, "".join(said)
        assert "translator: interrupted\n" in said and len(said) <= 2, "".join(said)


def test_the_console_script_is_the_guarded_entry_point() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts["translator"] == "translator._entry:main"
    assert main(["cards", "check", str(SAMPLE)], io.StringIO()) == 0  # still a function


# --------------------------------------------------------------------------------------
# Write errors name the target and the cause


def _build_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """Build one card in-process into ``out`` (as typed, relative): code, stderr."""
    library = copy_sample(tmp_path)
    monkeypatch.chdir(tmp_path)
    options = ["--card", "courier", "--lang", "fr", "--out", "out", "--no-preflight", "--jobs", "1"]
    code = main(["build", str(library), *options], io.StringIO())
    return code, capsys.readouterr().err


def test_a_full_disk_names_the_card_pdf_and_the_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk fills while a card PDF is written: the kernel's own ENOSPC (the
    temporary file's descriptor is /dev/full's), which pikepdf reports naming its stream,
    "<_io.BufferedWriter name='....tmp'>"."""
    monkeypatch.setattr(Path, "open", full_disk_open(".courier.fr.pdf."))
    code, error = _build_one(tmp_path, monkeypatch, capsys)
    assert code == 2
    assert error == (
        "translator: cannot write out/courier.fr.pdf: No space left on device "
        "(free some space or choose another --out)\n"
    )
    out = tmp_path / "out"
    assert not (out / "courier.fr.pdf").exists() and leftovers(out) == []


def test_a_read_only_out_names_the_file_not_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only --out (root writes through a chmod 0o555 directory, so the refusal is
    simulated where the system would make it: creating the temporary file)."""
    (tmp_path / "out").mkdir()
    real_open = os.open

    def read_only(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and Path(os.fsdecode(path)).parent.name == "out":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    code, error = _build_one(tmp_path, monkeypatch, capsys)
    assert code == 2
    assert error == (
        "translator: cannot write out/.translator-build.json: Read-only file "
        "system (choose another --out: a directory you can write to)\n"
    )


def test_a_refused_rename_names_the_card_pdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_replace = os.replace

    def refuse(source, target, *args, **kwargs):
        if str(target).endswith(".pdf"):
            raise PermissionError(
                errno.EACCES, os.strerror(errno.EACCES), str(source), None, str(target)
            )
        real_replace(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "replace", refuse)
    code, error = _build_one(tmp_path, monkeypatch, capsys)
    assert code == 2
    assert error == (
        "translator: cannot write out/courier.fr.pdf: Permission denied "
        "(choose another --out: a directory you can write to)\n"
    )
    assert leftovers(tmp_path / "out") == []


def test_replacing_names_the_target_only_for_its_own_errors(tmp_path: Path) -> None:
    target = tmp_path / "deck.fr.pdf"
    with pytest.raises(OSError) as caught, atomic.replacing(target, within=tmp_path) as temporary:
        raise OSError(
            errno.ENOSPC, "No space left on device", f"<_io.BufferedWriter name={str(temporary)!r}>"
        )
    assert (caught.value.errno, caught.value.strerror, caught.value.filename) == (
        errno.ENOSPC,
        "No space left on device",
        str(target),
    )
    with pytest.raises(OSError) as caught, atomic.replacing(target, within=tmp_path):
        raise OSError(errno.EIO, "Input/output error")  # no file named: the write's
    assert caught.value.filename == str(target)
    other = str(tmp_path / "art" / "courier.jpg")
    with pytest.raises(FileNotFoundError) as missing, atomic.replacing(target, within=tmp_path):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", other)
    assert missing.value.filename == other  # an input read in the block keeps its name
    assert list(tmp_path.iterdir()) == []
