"""Chromium for the tests that drive a real browser (the review sheet, the watch
server's pages): Debian's package, driven by Playwright; the ``browser`` fixture is in
tests/conftest.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

#: Chromium flags for a closed network: no background connections, no first-run work.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    for candidate in (
        os.environ.get("CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None
