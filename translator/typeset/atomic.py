"""Writing output files all at once.

Every file a build writes (card PDFs, decks, sheets, previews, converted artwork, the
build record) goes through :func:`replacing`: it is written to a hidden temporary
file in the same directory and renamed over its target once complete.  Readers
(another worker, a printer's upload form) see the old file or the new one, and an
interrupted build (Ctrl-C, a killed process) leaves no half-written file behind.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Temporary files end so: :func:`sweep` removes only these.
SUFFIX = ".tmp"
_UMASK = os.umask(0)
os.umask(_UMASK)


@contextmanager
def replacing(target: Path, mode: int = 0o666) -> Iterator[Path]:
    """A temporary path to write ``target``'s new content to; renamed over ``target``
    when the block ends normally, removed when it raises (KeyboardInterrupt too)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # The writer's process id in the name: :func:`sweep` leaves a live process's alone.
    handle, name = tempfile.mkstemp(dir=target.parent,
                                    prefix=f".{target.name}.{os.getpid()}.", suffix=SUFFIX)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, mode & ~_UMASK)  # mkstemp makes it private
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def sweep(directory: Path) -> None:
    """Remove the temporary files of builds that were killed (a process killed outright
    runs no cleanup): those whose writer is gone.  Another build writing into the same
    directory at the same time keeps its own."""
    if not directory.is_dir():
        return
    for path in directory.glob(f".*{SUFFIX}"):
        match = _WRITER.match(path.name)
        if match is not None and not _alive(int(match.group(1))):
            path.unlink(missing_ok=True)


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
