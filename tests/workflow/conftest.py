"""The translation workflow (translator.workflow): states, status, drafts, the translation
memory, TMX, PO and XLIFF exchange."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.workflow.memorykit import make_library


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The translation memory's two-deck library (tests/workflow/memorykit.py), the
    working directory; a module with a library of its own defines its own fixture."""
    monkeypatch.chdir(tmp_path)
    return make_library(tmp_path)
