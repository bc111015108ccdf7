"""A full disk, for the tests of what a build says when it meets one."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def full_disk_open(prefix: str) -> Callable[..., Any]:
    """``Path.open`` whose files opened for writing under a name starting with
    ``prefix`` (a temporary file of the build's, ``.courier.fr.pdf.``) write to
    /dev/full: the kernel's own ENOSPC, on the descriptor the writer holds."""
    real_open = Path.open

    def full_open(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        stream = real_open(self, mode, *args, **kwargs)
        if "w" in mode and self.name.startswith(prefix):
            full = os.open("/dev/full", os.O_WRONLY)
            os.dup2(full, stream.fileno())
            os.close(full)
        return stream

    return full_open
