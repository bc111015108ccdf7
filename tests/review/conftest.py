"""The review sheets (translator.review): the sheet, what it agrees with, the sheet in a
real browser.  The sheet they read is made once for the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import shared_build


@pytest.fixture(scope="session")
def review_sheet() -> tuple[Path, Path, str]:
    """The French review sheet of a broken copy of the sample (tests/review/reviewkit.py),
    made once for the run (its renders take the longest)."""
    from tests.review.reviewkit import make_review_sheet

    return shared_build("review", make_review_sheet)[1]
