"""A card's XMP packet is pikepdf's own, filled in without pikepdf's lxml round trip:
the same bytes for every title, and pikepdf's way for a title it would escape (or
refuse) otherwise."""

from __future__ import annotations

import pikepdf
import pytest

from translator.pdf import pdfx

TITLES = [
    "Fouet de flammes (fr)",
    'A & <b> "q" \'s > (fr)',
    "Ĉevalo sur la ŝipo (eo)",
    "Trèfle 🂡 (en)",
    "translator-xmp-stamp-slot (fr)",  # a slot's text in a title stays text
    "tab\there (fr)",
]


def _labelled(title: str) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdfx._labelled(pdf, title, pdfx.build_time())
    return pdf


def _by_pikepdf(title: str) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    when = pdfx.build_time()
    document, instance = pdfx._ids(pdf, title, when)
    values = {"title": title, "stamp": pdfx.xmp_date(when)}
    pdfx._set_xmp(pdf, {**values, "document": document, "instance": instance})
    return pdf


@pytest.mark.parametrize("title", TITLES)
def test_the_packet_is_what_pikepdf_writes(title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same ids and dates twice
    ours, theirs = _labelled(title), _by_pikepdf(title)
    made, expected = ours.Root.Metadata, theirs.Root.Metadata
    assert made.read_bytes() == expected.read_bytes()
    assert (made.Type, made.Subtype) == (expected.Type, expected.Subtype)
    with _labelled(title).open_metadata() as meta:
        assert meta["dc:title"] == title


def test_a_plain_title_does_not_go_through_lxml(monkeypatch: pytest.MonkeyPatch) -> None:
    pdfx._xmp_packet()  # made once, by pikepdf
    calls: list[dict[str, str]] = []
    monkeypatch.setattr(pdfx, "_set_xmp", lambda pdf, values: calls.append(values))
    _labelled("Fouet de flammes (fr)")
    assert calls == []
    _labelled("bell \x07 (fr)")  # lxml refuses it: pikepdf's way, and its error
    assert [values["title"] for values in calls] == ["bell \x07 (fr)"]
