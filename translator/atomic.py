"""Writing output files all at once.

Every file a build writes (card PDFs, decks, sheets, previews, converted artwork, the
build record) goes through :func:`replacing`: it is written to a hidden temporary
file in the same directory and renamed over its target once complete.  Readers
(another worker, a printer's upload form) see the old file or the new one, and an
interrupted build (Ctrl-C, a killed process) leaves no half-written file behind.

A failure to write names the target, never the temporary file: :func:`replacing`
raises an :class:`OSError` whose ``filename`` is the target and whose ``strerror`` is
the cause ("No space left on device").

:func:`write_file` is the one writer of a whole file's bytes (a card file, a card
PDF, a deck): :func:`replacing`, with the file and the rename synced to the disk, so
that a power cut cannot leave a new name on an empty file.

A build's worker process calls :func:`work_for` with the build's process id: from
then on it renames nothing once that process is gone (it exits instead), so that a
build killed outright (``kill -9``) has no worker finishing its files for it.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from .paths import check_inside, inside

#: Temporary files end so: :func:`sweep` removes only these.
SUFFIX = ".tmp"
_UMASK = os.umask(0)
os.umask(_UMASK)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

#: The process this one writes for (a worker's build), and whether it is its parent.
_OWNER: tuple[int, bool] | None = None
#: Whether /proc tells how the owner is (Linux).
_PROC = False


@contextmanager
def replacing(target: Path, mode: int = 0o666, *, within: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path to write ``target``'s new content to; renamed over ``target``
    when the block ends normally, removed when it raises (KeyboardInterrupt too).

    ``within`` is the folder the file belongs in (the deck of a record, the output
    folder of a preview, the cache folder of a cache file): ``target`` must lie in it
    once links are followed (:func:`translator.paths.check_inside`), or nothing is
    written and :class:`~translator.paths.OutsideError` names it.  Every writer says
    where its files belong, so a link in a library or an output folder never carries
    a write elsewhere.

    An :class:`OSError` in making, writing or renaming the temporary file is raised
    as one naming ``target`` (an error naming another file, one the block read, is
    left as it is)."""
    temporary: Path | None = None
    if not owner_alive():  # a worker whose build is gone writes nothing
        os._exit(1)
    check_inside(target, within)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # The name is known before the file exists, so that an interrupt at any point
        # after it is made removes it.  The writer's process id is in the name:
        # :func:`sweep` leaves a live process's alone.
        while True:
            temporary = target.parent / (
                f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}{SUFFIX}"
            )
            try:
                os.close(os.open(temporary, _CREATE, 0o600))
            except FileExistsError:
                continue  # another's (one chance in 2**32)
            break
        yield temporary
        os.chmod(temporary, mode & ~_UMASK)
        if not owner_alive():  # a worker whose build is gone writes nothing
            _remove(temporary)
            os._exit(1)
        os.replace(temporary, target)
    except OSError as error:
        _remove(temporary)
        if not _about(error, target, temporary):
            raise
        raise naming(error, target) from error
    except BaseException:
        _remove(temporary)
        raise


def _remove(temporary: Path | None) -> None:
    if temporary is not None:
        with suppress(OSError):  # never made (a read-only directory says so, too)
            temporary.unlink(missing_ok=True)


def write_file(
    target: Path,
    content: bytes | Callable[[BinaryIO], object],
    mode: int = 0o666,
    sync_directory: bool = True,
    *,
    within: str | os.PathLike[str],
) -> None:
    """Write ``target`` all at once (:func:`replacing`) and durably: ``content`` is the
    bytes, or a callback writing them to the open binary stream (a PDF's ``save``).

    The data reaches the disk before the rename, and the rename before this returns
    (the file and its directory are synced): after a crash or a power cut ``target``
    is the old file or the whole new one, never a new name on an empty file.  An
    error names ``target``, as :func:`replacing` does.  Without ``sync_directory``
    the rename is durable once the caller calls :func:`synced_directory` (one sync of
    the directory for many files written into it); ``within``: the folder ``target``
    must lie in (:func:`replacing`)."""
    with replacing(target, mode, within=within) as temporary, temporary.open("wb") as stream:
        if isinstance(content, bytes):
            stream.write(content)
        else:
            content(stream)
        stream.flush()
        os.fsync(stream.fileno())
    if sync_directory:
        synced_directory(target)


def synced_directory(target: Path) -> None:
    """Make the renames into ``target``'s directory durable (an error names ``target``)."""
    try:
        _sync_directory(target.parent)
    except OSError as error:
        raise naming(error, target) from error


def _sync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable (its entry synced); skipped where the
    system cannot sync a directory (Windows, some network file systems)."""
    if os.name == "nt":
        return
    try:
        descriptor = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except PermissionError:
        return  # a directory one may write in but not read (-wx): nothing to sync by
    try:
        os.fsync(descriptor)
    except OSError as error:
        if error.errno not in _CANNOT_SYNC:
            raise
    finally:
        os.close(descriptor)


#: What ``fsync`` says on a directory it cannot sync: nothing to make durable there.
_CANNOT_SYNC = frozenset({errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EBADF})


def naming(error: OSError, target: Path | str) -> OSError:
    """``error`` as a failure to write ``target``: the same class and errno, the cause
    as ``strerror`` ("No space left on device"), ``target`` as ``filename``."""
    cause = (
        error.strerror
        or (os.strerror(error.errno) if error.errno else None)
        or str(error)
        or type(error).__name__
    )
    return OSError(error.errno, cause, str(target))


def _about(error: OSError, target: Path, temporary: Path | None) -> bool:
    """Whether ``error`` is about writing ``target``: it names no file, or the
    temporary file or target (or a stream on it, as a failed flush does), or the
    directory."""
    named = [n for n in (error.filename, error.filename2) if n is not None]
    if not named:
        return True
    ours = {str(target), str(target.parent)} | ({str(temporary)} if temporary else set())
    for name in named:
        text = os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else str(name)
        # pikepdf names the stream it failed to write: "<_io.BufferedWriter name='...'>"
        if text in ours or (temporary is not None and str(temporary) in text):
            return True
    return False


def work_for(owner: int) -> None:
    """Make this process write for ``owner`` (a build's worker, ``owner`` the build):
    :func:`replacing` renames nothing once ``owner`` is gone."""
    global _OWNER, _PROC  # noqa: PLW0603 - one setting per process
    _OWNER = (owner, os.getppid() == owner)
    _PROC = sys.platform.startswith("linux") and Path(f"/proc/{owner}/status").is_file()


def owner_alive() -> bool:
    """Whether the process this one writes for (:func:`work_for`) is still running;
    True when it writes for itself."""
    if _OWNER is None:
        return True
    owner, parent = _OWNER
    if parent:  # an orphan is given another parent: exact, no pid reuse
        if os.getppid() != owner:
            return False
    else:
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
    return not (_PROC and _dying(owner))


def _dying(pid: int) -> bool:
    """Whether ``pid`` is dead or being killed, on Linux: the kernel takes a while to tear
    a killed process down (a quarter of a second for one of 800 MB), and gives its
    children another parent only then.  Meanwhile its memory is gone (no ``VmRSS``)
    and SIGKILL is pending."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except FileNotFoundError:
        return True
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields.get("State", "").strip()[:1] in {"Z", "X"} or "VmRSS" not in fields:
        return True
    kill = 1 << (signal.SIGKILL - 1)
    try:
        return any(int(fields.get(key, "0"), 16) & kill for key in ("SigPnd", "ShdPnd"))
    except ValueError:
        return False


def sweep(directory: Path) -> None:
    """Remove the temporary files of builds that were killed (a process killed outright
    runs no cleanup): those whose writer is gone.  Another build writing into the same
    directory at the same time keeps its own.  A commit's staging folder
    (:func:`commit_files`) whose writer is gone is completed when its journal says
    every file was staged, else removed: the files it was putting in place are all
    there, or none of them."""
    if not directory.is_dir():
        return
    for path in directory.glob(f".*{SUFFIX}"):
        if abandoned(path):
            if path.is_dir() and not path.is_symlink():  # a commit's staging folder
                _complete(path, directory)
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def abandoned(path: Path) -> bool:
    """Whether ``path`` is a temporary file or folder (``.NAME.PID.XXXX.tmp``) whose
    writer is gone: what :func:`sweep` removes.  For a caller that must look at one
    before the sweep does (an import puts back a theme it had moved aside)."""
    match = _WRITER.match(path.name)
    return match is not None and not _alive(int(match.group(1)))


#: The file of a staging folder that lists where its files go: written, whole and
#: synced, only once every file is staged (its presence means "roll forward").
JOURNAL = "journal.json"
#: Bytes of a journal read back: a staging folder made by someone else is not trusted.
_MAX_JOURNAL_BYTES = 64 << 20


def commit_files(root: Path, files: dict[Path, bytes], what: str = "commit") -> None:
    """Write every one of ``files`` (target -> bytes), or none of them, as one change:
    each is staged in one folder under ``root`` (``.WHAT.PID.XXXX.tmp``: ``what`` says
    whose it is, ``import``), the
    staged files synced, then a journal of where they go written (and synced), then
    each renamed into place.  Every target must lie, links followed, inside ``root``
    (:func:`translator.paths.check_inside`): checked before anything is written.

    Killed at any point, the next command that writes under ``root``
    (:func:`sweep`) finishes the job: without a journal nothing was put in place and
    the folder is removed; with one, the files not yet renamed are renamed.  An
    :class:`OSError` names the target (or ``root``), never a staged file."""
    if not files:
        return
    for target in files:
        check_inside(target, root)
    root.mkdir(parents=True, exist_ok=True)
    sweep(root)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=f".{what}.{os.getpid()}.", suffix=SUFFIX))
    entries: list[tuple[str, str]] = []
    try:
        for number, (target, content) in enumerate(files.items()):
            name = f"{number}.staged"
            descriptor = os.open(staging / name, _CREATE, 0o600)
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(content)
            os.chmod(staging / name, 0o666 & ~_UMASK)
            entries.append((name, os.path.relpath(os.path.abspath(target), os.path.abspath(root))))
        os.sync()  # once for the batch, instead of an fsync per file
        journal = json.dumps({"version": 1, "files": entries}).encode("utf-8")
        write_file(staging / JOURNAL, journal, 0o600, within=staging)
        _complete(staging, root)
    except OSError as error:
        named = error.filename and not str(error.filename).startswith(str(staging))
        raise OSError(
            error.errno, error.strerror or str(error), str(error.filename if named else root)
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _complete(staging: Path, root: Path) -> None:
    """Rename into place the files a staging folder's journal lists that are still
    staged (each target inside ``root``, links followed); nothing without a journal
    (the commit never got that far: it is rolled back by removing the folder)."""
    entries = _journal(staging / JOURNAL)
    if not entries:
        return
    moves = []
    for name, relative in entries:
        source, target = staging / name, root / relative
        if not (source.is_file() and not source.is_symlink()):
            continue  # renamed already
        if Path(name).name != name or not inside(target, root):
            return  # not a journal this module wrote: roll back, write nothing
        moves.append((source, target))
    for _, target in moves:
        target.parent.mkdir(parents=True, exist_ok=True)
    for source, target in moves:
        os.replace(source, target)
    if moves:
        _sync_directory(root)


def _journal(path: Path) -> list[tuple[str, str]]:
    """The (staged name, target relative to the root) pairs of a journal; none when
    there is none or it is not one (a FIFO, a link, a damaged file: rolled back)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError:
        return []
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_JOURNAL_BYTES:
            return []
        with os.fdopen(os.dup(descriptor), "rb") as stream:
            data = json.loads(stream.read(_MAX_JOURNAL_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return []
    finally:
        os.close(descriptor)
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return []
    pairs = [
        (entry[0], entry[1])
        for entry in files
        if isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(part, str) and part for part in entry)
    ]
    return pairs if len(pairs) == len(files) else []


_WRITER = re.compile(r"^\..+\.(\d+)\.[^.]+" + re.escape(SUFFIX) + "$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this process writes nothing until sweep returns
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True
