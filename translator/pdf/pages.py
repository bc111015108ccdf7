"""Finishing the pages of a print file with pikepdf: page boxes, page labels, images
named by their content, what WeasyPrint writes that a print file does without, and
the atomic, synced write.

Below the typesetter: card PDFs (:mod:`translator.typeset.build`) and decks and
sheets (:mod:`translator.typeset.assemble`) are finished the same way.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import pikepdf

from ..atomic import write_file
from . import pdfx
from .sizes import MM_PT, CardSize


def write_atomic(path: Path, pdf: pikepdf.Pdf, sync_directory: bool = True) -> None:
    """Save ``pdf`` as ``path`` all at once and synced (:func:`.atomic.write_file`: an
    error names ``path``, never the temporary file; without ``sync_directory``, durable
    once :func:`.atomic.synced_directory` is called)."""

    def save(stream: BinaryIO) -> None:
        # A stream, not the path: given an existing path, pikepdf makes its own
        # temporary file beside it, which an interrupted build would leave behind.
        # 1.4: output intents and the transparency keys WeasyPrint writes (it says 1.3);
        # at most 1.6, as PDF/X-4 wants (WeasyPrint's own documents, the back, say 1.7
        # and use nothing of it).  A reproducible build (SOURCE_DATE_EPOCH) gets a
        # trailer /ID made from the content, not from the time and file name: the same
        # file written again is the same bytes, and its preflight is kept
        # (preflight.record).  Not always: without it the dates differ anyway.  qpdf
        # makes that /ID in a second pass over what it wrote, and a write failing
        # there (a full disk) aborts the process: it writes to memory, and the bytes
        # go to the file here, where a failure raises an error that names it.
        newer = pdf.pdf_version > pdfx.MAX_PDF_VERSION
        deterministic = pdfx.reproducible()
        target: BinaryIO = io.BytesIO() if deterministic else stream
        pdf.save(
            target,
            min_version="1.4",
            force_version=pdfx.MAX_PDF_VERSION if newer else "",  # "": pikepdf's default
            deterministic_id=deterministic,
        )
        if isinstance(target, io.BytesIO):
            stream.write(target.getbuffer())

    write_file(path, save, sync_directory=sync_directory, within=path.parent)


def set_page_boxes(page: pikepdf.Page, size: CardSize) -> None:
    """TrimBox: the card as cut; BleedBox: the whole page (trim and bleed)."""
    bleed = size.bleed * MM_PT
    width, height = size.page_width * MM_PT, size.page_height * MM_PT
    page.obj.MediaBox = pikepdf.Array([0, 0, width, height])
    page.obj.BleedBox = pikepdf.Array([0, 0, width, height])
    page.obj.TrimBox = pikepdf.Array([bleed, bleed, width - bleed, height - bleed])
    page.obj.CropBox = pikepdf.Array([0, 0, width, height])
    if "/ArtBox" in page.obj:
        del page.obj.ArtBox


def label_pages(pdf: pikepdf.Pdf, labels: Sequence[str]) -> None:
    """Name each page (PDF page labels, a prefix without numbers): viewers show
    "flame-lash.fr" instead of "17", and the preflight names the card at fault."""
    numbers = pikepdf.Array()
    for index, label in enumerate(labels):
        numbers.append(index)
        numbers.append(pikepdf.Dictionary(P=pikepdf.String(label)))
    pdf.Root.PageLabels = pikepdf.Dictionary(Nums=numbers)


def no_interpolation(pdf: pikepdf.Pdf) -> None:
    """Drop WeasyPrint's /Interpolate from images: PDF/X forbids it (a RIP smooths
    as it must), and a print shop's preflight may refuse the file for it."""
    for obj in pdf.objects:
        if (
            isinstance(obj, pikepdf.Stream)
            and obj.get("/Subtype") == "/Image"
            and "/Interpolate" in obj
        ):
            del obj.Interpolate


def drop_unused_colour_spaces(page: pikepdf.Page) -> None:
    """Remove the colour spaces a page lists but never uses (WeasyPrint lists its Lab
    spaces on every page): a print shop's preflight may refuse a Lab space it finds in
    the resources without looking whether anything is painted in it."""
    resources = page.obj.get("/Resources")
    spaces = None if resources is None else resources.get("/ColorSpace")
    if not isinstance(spaces, pikepdf.Dictionary) or not spaces.keys():
        return
    content = page.obj.get("/Contents")
    streams = list(content) if isinstance(content, pikepdf.Array) else [content]
    streams += [
        x for x in page.obj.Resources.get("/XObject", {}).values() if x.get("/Subtype") == "/Form"
    ]
    used = b"\n".join(s.read_bytes() for s in streams if s is not None)
    for name in list(spaces.keys()):
        if name.encode() not in used:  # "/lab-d50" as written in a content stream
            del spaces[name]


def images_named_by_content(page: pikepdf.Page) -> None:
    """Name the page's images after their bytes, not after the cached file WeasyPrint
    read (the MD5 of its path, which holds the output folder): the same card built
    into another folder is then the same file.  Only ``/name Do`` in the page's own
    content is renamed; a page drawing forms that share its resources is left as it
    is."""
    resources = page.obj.get("/Resources")
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    contents = page.obj.get("/Contents")
    if not isinstance(xobjects, pikepdf.Dictionary) or not isinstance(contents, pikepdf.Stream):
        return
    renames: dict[str, str] = {}
    for name, xobject in xobjects.items():
        if not isinstance(xobject, pikepdf.Stream):
            return
        if xobject.get("/Subtype") == "/Form" and "/Resources" not in xobject:
            return  # it draws the page's images by their names
        if xobject.get("/Subtype") == "/Image":
            new = "/Im" + hashlib.sha256(xobject.read_raw_bytes()).hexdigest()[:32]
            if new not in xobjects and new not in renames.values():
                renames[name] = new
    if not renames:
        return
    data = contents.read_bytes()
    for old, new in renames.items():
        data = re.sub(re.escape(old.encode()) + rb"(?=\s+Do\b)", new.encode(), data)
        xobjects[new] = xobjects[old]
        del xobjects[old]
    contents.write(data)
