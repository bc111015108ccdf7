"""The card-text reader (translator.markup): the converter, its markup checks, its
outputs, the conformance with Aminduna's own converter, the sample's text."""

from __future__ import annotations

import json

import pytest

from tests.conftest import shared_dir


@pytest.fixture(scope="session")
def conformance_cases() -> list[dict]:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared/conformance is not next to this checkout (set TRANSLATOR_SHARED)")
    return json.loads((shared / "conformance" / "arcmage-markdown.json").read_text("utf-8"))
