"""Writing output files all at once.

Every file a build writes (card PDFs, decks, sheets, previews, converted artwork, the
build record) goes through :func:`replacing`: it is written to a hidden temporary
file in the same directory and renamed over its target once complete.  Readers
(another worker, a printer's upload form) see the old file or the new one, and an
interrupted build (Ctrl-C, a killed process) leaves no half-written file behind.
"""

from __future__ import annotations

import os
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
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                    suffix=SUFFIX)
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
    """Remove temporary files a killed build could not remove itself (a process
    killed outright runs no cleanup), and nothing else."""
    if directory.is_dir():
        for path in directory.glob(f".*{SUFFIX}"):
            path.unlink(missing_ok=True)
