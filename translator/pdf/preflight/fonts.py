"""The ``font`` check's judgement of one font: embedded (else the RIP substitutes
it) and subset (a whole font handed over, which some shops refuse).  Type3 fonts
carry their glyphs as content streams: accepted here, their colours walked by
:mod:`.content`."""

from __future__ import annotations

import re

import pikepdf

from .colour import Fault

_SUBSET = re.compile(r"^[A-Z]{6}\+")


def font_faults(key: str, font: object) -> list[Fault]:
    """A font not embedded (substituted by the RIP) or not subset (a whole font handed
    over, which some shops refuse and which tempts editing)."""
    if not isinstance(font, pikepdf.Dictionary) or font.get("/Subtype") == "/Type3":
        return []
    base = str(font.get("/BaseFont", "/(unnamed)"))[1:]
    described: pikepdf.Object = font
    descendants = font.get("/DescendantFonts")
    if (
        font.get("/Subtype") == "/Type0"
        and isinstance(descendants, pikepdf.Array)
        and len(descendants) > 0
    ):
        described = descendants[0]
    descriptor = described.get("/FontDescriptor")
    embedded = isinstance(descriptor, pikepdf.Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )
    if not embedded:
        return [("error", f"font {key} {base} is not embedded")]
    if not _SUBSET.match(base):
        return [("error", f"font {key} {base} is not subset (no ABCDEF+ prefix)")]
    return []
