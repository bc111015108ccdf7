"""The parser against observed behaviour of Aminduna's converter.

Two sources: the shared conformance file (46 cases, read in place from ../shared)
and this repository's own recordings (tests/data/reference-cases.json).
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import reference_cases, shared_dir
from translator import markup
from translator.markup.layout_xml import from_xml


def _conformance() -> list[dict]:
    shared = shared_dir()
    if shared is None:
        return []
    return json.loads((shared / "conformance" / "arcmage-markdown.json").read_text("utf-8"))


CONFORMANCE = _conformance()


def layout(xml: str) -> tuple:
    """Structure of a layout XML: element names, order and text (whitespace between
    elements ignored), with adjacent same-style runs merged as the layout prints them."""
    return from_xml(xml)[0].layout()


@pytest.mark.skipif(not CONFORMANCE, reason="../shared/conformance not found next to the checkout")
@pytest.mark.parametrize("case", CONFORMANCE, ids=[c["name"] for c in CONFORMANCE])
def test_conformance_xml(case: dict) -> None:
    result = markup.parse(case["markdown"])
    assert not result.crashes
    xml = markup.to_xml(result.document)
    assert layout(xml) == layout(case["xml"])
    # Beyond structure, the very string (the reference's compact serialisation).
    assert xml == case["xml"]


@pytest.mark.skipif(not CONFORMANCE, reason="../shared/conformance not found next to the checkout")
@pytest.mark.parametrize("case", CONFORMANCE, ids=[c["name"] for c in CONFORMANCE])
def test_conformance_reverse(case: dict) -> None:
    assert markup.to_markdown(case["xml"]) == case["back_to_markdown"]
    reparsed = markup.parse(case["back_to_markdown"]).document
    assert reparsed.layout() == layout(case["reparsed_xml"])


def test_conformance_file_was_found() -> None:
    """The shared file is expected next to the checkout; say so loudly if it moved."""
    if shared_dir() is None:
        pytest.skip("../shared not present: conformance cases not run")
    assert len(CONFORMANCE) >= 46


RECORDED = reference_cases()


@pytest.mark.parametrize("case", RECORDED, ids=[c["name"] for c in RECORDED])
def test_recorded_reference_behaviour(case: dict) -> None:
    result = markup.parse(case["markdown"])
    if case["error"]:
        assert result.crashes, f"the reference throws here: {case['error']}"
        return
    assert not result.crashes
    assert result.document.layout() == layout(case["xml"])
    assert markup.to_markdown(case["xml"]) == case["back_to_markdown"]


def test_recordings_cover_every_kind_of_trap() -> None:
    names = {c["name"] for c in RECORDED}
    for needed in (
        "time pair",
        "fence unclosed",
        "setext after two lines",
        "url uppercase",
        "crash list in quote",
        "entities",
        "pa at end",
    ):
        assert needed in names
