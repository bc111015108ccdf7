"""Preflight: prove that a PDF is print-ready before a print shop sees it.

A print shop's RIP takes what it is given: an RGB colour is converted by whatever
profile the RIP has, a font that is not embedded is substituted, an over-inked black
smears and dries badly, a 150 ppi picture prints soft, a wrong TrimBox cuts the card in
the wrong place.  None of it shows on screen, so every PDF we hand over is checked
here, page by page, naming the page, the card and the object at fault:

``colour``
    100 % CMYK: no RGB or grey operator or colour space anywhere it can paint (page
    content, forms, tiling and shading patterns, shadings, images, inline images,
    soft masks, transparency groups, Type3 glyphs, printed annotations).
``font``
    every font embedded and subset (Type3 fonts carry their glyphs: accepted).
``ink``
    total area coverage (C+M+Y+K) at most the limit: bounded from what the page
    paints where it paints it (:mod:`.bound`: the colours, the images' fullest pixels,
    overprint on what lies under it), and measured on Ghostscript's CMYK render where
    the bound cannot prove it, what the press lays down, overprint and images included.
``resolution``
    every image at least ``min_ppi`` at the size it is drawn (the CTM at ``Do``).
``boxes``
    TrimBox and BleedBox as the card size says (or merely nested, for print-and-play
    sheets, known by their page labels, whose placed cards must have the card size).
``intent``
    a CMYK output intent, so the RIP knows which CMYK the numbers mean.
``unreadable``
    not a PDF pikepdf can open, or a page that cannot be read.
``knockout`` (a warning)
    white text under 8 pt knocked out of a ground of more than one ink above 10 %
    (or of an image): the plates never register exactly, and such text gets
    coloured fringes (:func:`.pdfx.knockouts`; card pages only, read as painted).
``reversed`` (a warning)
    light text on a darker ground (30 L* lighter, through the output profile), under
    7 pt, or 6 pt bold: the ink spreads into its strokes, and it is hard to read
    (:class:`.pdfx.TextCheck`, in the same reading as ``knockout``; one line per
    size and weight on a page, quoting the text).  Small white text on a dark ground
    of several inks gets both: two faults, two cures.

pikepdf checks the structure, reading each page's ink bound on the same walk (one
parse of each page, shared with the text check); then Ghostscript renders, split over
up to :data:`GS_PROCESSES` processes, only the pages the bound left undecided (as
proxies where they can decide, their artwork replaced by a flat colour of its fullest
C+M+Y: cheap to render).  The build's cards need no render: a card PDF takes 5.7 ms
of CPU, all of it Python, in a process that measured its images and fonts before (it
was 16 ms, half of it Ghostscript's), and the build checks each in the worker that
wrote it.  A build keeps each file's
findings with the digest of its bytes and settings (:mod:`.record`), so a file
written again the same is not checked again (``bench/preflight.py``).

One module per responsibility: :mod:`.content` (the content-stream interpreter:
colour, font and resolution, and the ink bound's reading), :mod:`.colour` (colour
spaces, the output intent), :mod:`.fonts`, :mod:`.boxes`, :mod:`.bound` (the ink bound
and the proxies), :mod:`.extent` (where a paint lands), :mod:`.ink` (Ghostscript's
render, measured), :mod:`.names` (what a
page is called), :mod:`.objects` (reading PDF objects), :mod:`.record` (the files
already proved), and :mod:`.report` (:class:`Problem`, the checks put together, the
printed report).
"""

from __future__ import annotations

from .ink import DEFAULT_DPI, GS_PROCESSES, ink_available
from .names import SHEET_LABEL
from .record import ProofRecord, code_version, proof_key
from .report import (
    CODES,
    MIN_PPI,
    FileReport,
    InkTally,
    Problem,
    check_files,
    input_fault,
    preflight,
    preflight_files,
)

__all__ = [
    "CODES",
    "DEFAULT_DPI",
    "GS_PROCESSES",
    "MIN_PPI",
    "SHEET_LABEL",
    "FileReport",
    "InkTally",
    "Problem",
    "ProofRecord",
    "check_files",
    "code_version",
    "ink_available",
    "input_fault",
    "preflight",
    "preflight_files",
    "proof_key",
]
