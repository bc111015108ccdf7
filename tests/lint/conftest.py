"""The linter (translator.lint): its rules by family, fixes, reports, the registry and
the rules' examples, the corpora that measure it, spelling and the prose seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import shared_dir


@pytest.fixture(scope="module")
def seeds() -> list[Path]:
    """The seed documents (../shared/seeds), for the measurements on their prose."""
    from tests.toolkit import tool

    prose = tool("prose_review")

    shared = shared_dir()
    paths = [shared / "seeds" / name for name in prose.SEEDS] if shared else []
    if not paths or not all(path.is_file() for path in paths):
        pytest.skip("../shared/seeds is not next to this checkout (set TRANSLATOR_SHARED)")
    return paths
