"""Where a command may read and write: inside the folder it works on, links followed.

A library, an output folder, a theme or a cache folder is shared or downloaded, and a
link in it may lead anywhere: ``cards/DECK/.aminduna`` to a folder outside the
library, ``out/preview/help.fr.png`` to ``/proc/self/environ``, ``Fonts/README`` of a
template set to the user's credentials.  Two questions guard every file translator
touches, and they are asked here only:

- :func:`inside` (and :func:`check_inside`, which says no with the file's name): does
  this path, once every link is followed, lie inside that folder?  Asked of every file
  a command writes (:func:`translator.atomic.replacing` takes the folder) and of every
  file an import or a card names.
- :func:`open_beneath`: open a file below a folder without following any link on the
  way (a linked sub-folder included), and only if it is a regular file.  Used for
  what is served (the watch server's previews) and what is copied out of an untrusted
  folder (a template set): a link there is refused, not followed.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path, PurePosixPath

from .errors import UserError

__all__ = [
    "DEFAULT_LIBRARY",
    "LinkRefused",
    "OutsideError",
    "Paths",
    "check_inside",
    "inside",
    "open_beneath",
    "path_list",
    "real",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class OutsideError(UserError, OSError):
    """A file that would be written (or read) outside the folder it belongs in: a
    user error (exit 2) naming the file, where it leads and the folder.  Also an
    :class:`OSError`, as any failure to write is, so that a caller that reports the
    files it cannot write reports this one too."""

    def __init__(self, target: str | os.PathLike[str], root: str | os.PathLike[str]) -> None:
        self.target = os.fspath(target)
        self.root = os.fspath(root)
        self.leads_to = os.path.realpath(target)
        message = (
            f"{self.target}: leads out of {self.root} (to {self.leads_to}) through a link: "
            "nothing is written or read there (remove the link)"
        )
        UserError.__init__(self, message)
        self.filename = self.target
        self.strerror = "leads out of its folder through a link"
        self.errno = errno.EXDEV

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        """Made again from its target and folder: raised in a build's worker process,
        it reaches the build as itself (pickled), not as a broken pool."""
        return (type(self), (self.target, self.root))

    def __str__(self) -> str:
        return str(self.args[0])


class LinkRefused(UserError, OSError):
    """A file opened below a folder that is, or lies under, a link, or is not a
    regular file: refused, not followed."""

    def __init__(self, path: str, why: str) -> None:
        UserError.__init__(self, f"{path}: {why}")
        self.filename = path
        self.strerror = why
        self.errno = errno.ELOOP

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        """Made again from its file and reason (pickled out of a worker process)."""
        return (type(self), (str(self.filename), str(self.strerror)))

    def __str__(self) -> str:
        return str(self.args[0])


def real(path: str | os.PathLike[str]) -> Path:
    """``path`` with every link followed (the part that exists; the rest as given)."""
    return Path(os.path.realpath(path))


def inside(target: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Does ``target`` lie inside ``root`` (or is it ``root``), once the links of both
    are followed?  A path that does not exist yet is judged by the folders that do:
    a link among them counts."""
    return real(target).is_relative_to(real(root))


def check_inside(target: str | os.PathLike[str], root: str | os.PathLike[str]) -> None:
    """Raise :class:`OutsideError` unless ``target`` lies inside ``root`` (links
    followed): the one check of every file a command writes."""
    if not inside(target, root):
        raise OutsideError(target, root)


def open_beneath(
    root: str | os.PathLike[str],
    relative: str | os.PathLike[str],
    *,
    what: str = "file",
) -> int:
    """A read-only descriptor of the regular file ``root/relative``, opened without
    following a link anywhere below ``root`` (``root`` itself is the user's choice,
    and may be one): each folder on the way is opened with ``O_NOFOLLOW`` relative to
    the one before, so that no link, and no swap of a folder for a link meanwhile,
    leads elsewhere.  A FIFO or a device is refused before a byte is read.

    Raises :class:`LinkRefused` for a link or what is not a regular file,
    :class:`FileNotFoundError` for a missing file (as ``open`` does), and other
    :class:`OSError` as they come."""
    parts = PurePosixPath(os.fspath(relative).replace(os.sep, "/")).parts
    shown = str(Path(root) / relative)
    if not parts or any(part in ("..", "/") or part.startswith("/") for part in parts):
        raise LinkRefused(shown, f"is not a path below {root}")
    if not _NOFOLLOW or os.open not in os.supports_dir_fd:  # pragma: no cover - not POSIX
        return _open_checked(root, relative, shown)
    folder = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(
                    part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=folder
                )
            except OSError as error:
                raise _refusal(error, shown, f"{part}/", what) from None
            os.close(folder)
            folder = inner
        try:
            descriptor = os.open(
                parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=folder
            )
        except OSError as error:
            raise _refusal(error, shown, parts[-1], what) from None
    finally:
        os.close(folder)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise LinkRefused(shown, f"is not a regular file: a {what} is one")
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _refusal(error: OSError, shown: str, part: str, what: str) -> OSError:
    """What a failed ``open`` without following links means: ELOOP (a link where
    ``O_NOFOLLOW`` was asked) or ENOTDIR (a link to a file where a folder was asked)
    is a link refused; anything else is the error itself, naming the file."""
    if error.errno in (errno.ELOOP, errno.EMLINK) or (
        error.errno == errno.ENOTDIR and part.endswith("/")
    ):
        return LinkRefused(
            shown,
            f"{part.rstrip('/')} is a link (or not a folder): a {what} is read "
            "only from the folder itself, never through a link",
        )
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(error.errno, error.strerror, shown)
    return OSError(error.errno, error.strerror, shown)


def _open_checked(
    root: str | os.PathLike[str], relative: str | os.PathLike[str], shown: str
) -> int:  # pragma: no cover - systems without O_NOFOLLOW and dir_fd
    """Where a folder cannot be walked without links: the file's real path must lie
    inside the folder's, and the file itself must not be a link."""
    path = Path(root) / relative
    if path.is_symlink() or not inside(path, root):
        raise LinkRefused(shown, "is a link, or lies under one: refused")
    descriptor = os.open(path, os.O_RDONLY | _CLOEXEC)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise LinkRefused(shown, "is not a regular file")
    return descriptor


def clear_odd(path: Path) -> None:
    """Remove what stands at ``path`` if it is neither a regular file nor a folder (a
    link, wherever it leads, a FIFO, a socket, a device): a record or cache file of
    the build's own folders is then made anew in its place, where the check of every
    write (:func:`translator.paths.check_inside`) would refuse a link leading out, and
    nothing is read or written through it.  A folder is left as it is (the write then
    fails, naming it)."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        with suppress(OSError):  # the write that follows says why
            path.unlink()


#: Where the library is when no path is given, as on the command line.
DEFAULT_LIBRARY = "cards"

#: A path or several: ``"cards/sample"`` is one path, not eleven.
Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def path_list(paths: Paths | None) -> list[str]:
    """``paths`` as a list of strings, the library when empty: a lone string is one
    path (iterating it would give its letters)."""
    if paths is None:
        return [DEFAULT_LIBRARY]
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths] or [DEFAULT_LIBRARY]
