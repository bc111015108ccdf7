"""Shared test helpers: where the workplace's shared reference material lives."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def shared_dir() -> Path | None:
    """``../shared`` next to the checkout (or $TRANSLATOR_SHARED), if present."""
    candidates = [os.environ.get("TRANSLATOR_SHARED"), ROOT.parent / "shared", "/work/shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "conformance").is_dir():
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def conformance_cases() -> list[dict]:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared/conformance is not next to this checkout (set TRANSLATOR_SHARED)")
    return json.loads((shared / "conformance" / "arcmage-markdown.json").read_text("utf-8"))


def reference_cases() -> list[dict]:
    """Inputs run through a build of Aminduna's own converter (see data/README.md)."""
    return json.loads((DATA / "reference-cases.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def review_sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The French review sheet of a broken copy of the sample (tests/reviewkit.py)."""
    from .reviewkit import make_review_sheet

    return make_review_sheet(tmp_path_factory.mktemp("review"))


@pytest.fixture(scope="module")
def seeds() -> list[Path]:
    """The seed documents (../shared/seeds), for the measurements on their prose."""
    from translator.lint import prose

    shared = shared_dir()
    paths = [shared / "seeds" / name for name in prose.SEEDS] if shared else []
    if not paths or not all(path.is_file() for path in paths):
        pytest.skip("../shared/seeds is not next to this checkout (set TRANSLATOR_SHARED)")
    return paths
