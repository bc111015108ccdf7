"""Building card PDFs: fit the text, check the fonts, convert the art, write CMYK PDFs.

A batch of cards is rendered as one WeasyPrint document (a process renders a deck far
faster than card by card), the text of each card is shrunk in steps of 0.02 down to a
floor until it fits its frame, and the document is split into one PDF per card, each
with the CMYK profile as its output intent.  A card whose text does not fit at the
floor, or that prints a character the card font lacks, fails the build (unless
``allow_overflow``): nothing is printed silently wrong.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pikepdf

from .. import languages
from ..atomic import sweep, synced_directory
from ..cards.model import Card, Library
from ..errors import UserError
from ..glossary.loader import library_files, shipped_files
from ..heap import fewer_collections
from ..paths import OutsideError, check_inside, real
from ..pdf import pdfx
from ..pdf.pages import (
    drop_unused_colour_spaces,
    images_named_by_content,
    label_pages,
    no_interpolation,
    set_page_boxes,
    write_atomic,
)
from ..pdf.profiles import INK_LIMIT, Profile, ProfileError, find_profile
from ..pdf.sizes import CardSize
from . import fits, manifest
from .artwork import Artwork, prepare
from .fits import Fitted
from .fitting import (
    cached_glossary,
    cached_renderer,
    covered,
    fits_as_laid,
    judge,
    lay_out,
    missing_glyphs,
    print_frame,
)
from .manifest import safe_artwork
from .options import (
    BuildOptions,
)
from .render import (
    CardPage,
    art_box,
    card_page,
)
from .results import CardResult
from .theme import load_theme
from .workers import in_workers

#: A check of the PDFs a batch wrote: their problems, in the order of the paths.
Check = Callable[[Sequence[Path]], list[list[Any]]]


def write_cards(
    document_pdf: bytes,
    pages: Sequence[CardPage],
    out: Path,
    profile: Profile,
    size: CardSize,
    ink_limit: float = INK_LIMIT,
) -> list[str]:
    """Split a rendered deck into one PDF per card, each with its page boxes, only the
    resources it uses, and its PDF/X labels and output intent, its pure black
    overprinting where the ground leaves the total ink under ``ink_limit``
    (:func:`.pdfx.finish`)."""
    written = []
    with pikepdf.open(io.BytesIO(document_pdf)) as whole:
        # Each page gets its own resources (only what it uses), so that copying a page
        # does not copy every card's images and fonts.
        whole.remove_unreferenced_resources()
        no_interpolation(whole)
        for number, page in enumerate(pages):
            single = pikepdf.Pdf.new()
            single.pages.append(whole.pages[number])
            set_page_boxes(single.pages[0], size)
            drop_unused_colour_spaces(single.pages[0])
            images_named_by_content(single.pages[0])
            label_pages(single, [f"{page.slug}.{page.lang}"])
            pdfx.finish(
                single,
                profile,
                f"{page.values['name']} ({page.lang})",
                overprint=True,
                ink_limit=ink_limit,
            )
            path = out / f"{page.slug}.{page.lang}.pdf"
            write_atomic(path, single, sync_directory=False)
            written.append(str(path))
    if written:  # one sync of the folder for the batch's renames
        synced_directory(Path(written[-1]))
    return written


@dataclass
class Job:
    """A batch for one process: the cards, and everything needed to render them."""

    cards: list[tuple[Card, str]]
    options: BuildOptions
    roots: list[Path]
    out: Path
    #: Checks the PDFs written (their problems, in order), or None.
    check: Check | None = None
    #: Run by a worker process of the pool (:func:`in_workers`), not the build's own.
    in_worker: bool = False
    #: What an earlier build of the same inputs found fitting the cards, by slug
    #: (:mod:`.fits`).
    hints: dict[str, Fitted] = field(default_factory=dict)


def place_artwork(
    page: CardPage, card: Card, profile: Profile, cache: Path, options: BuildOptions
) -> None:
    """The card's artwork converted to CMYK for its page (a placeholder and a warning
    when it cannot be): what a build and a preview both print."""
    try:
        art = prepare(
            safe_artwork(card),  # never a file outside the library
            profile,
            cache,
            box_mm=art_box(options.size, str(card.get("type"))),
            card=page.label,
            ink_limit=options.ink_limit,
        )
    except ProfileError as error:
        page.warnings.append(str(error))
        return
    page.warnings.extend(art.warnings)
    if art.path is not None:
        page.values["artwork"] = art.path.as_uri()


def run_job(job: Job) -> list[CardResult]:
    """Render, fit and write a batch of cards (in a worker process, or this one), the
    garbage collector held to young objects meanwhile (:mod:`translator.heap`)."""
    with fewer_collections(worker=job.in_worker):
        return _batch(job)


def cache_folder(options: BuildOptions, out: Path) -> Path:
    """Where a build into ``out`` (a resolved path) keeps its converted artwork, the
    preflight's proofs and images' maxima: ``options.cache_dir``, else ``out/.cache``.
    A cache folder named inside the output folder (the default) must lie inside it
    once links are followed (:func:`translator.paths.check_inside`): an output folder
    is shared and downloaded, and a ``.cache`` there that is a link out of it would
    carry the build's writes (and reads) elsewhere; it is refused, with the link's
    name and what to do (a :class:`~translator.errors.UserError`, exit 2).  A cache
    folder given elsewhere is the user's choice, wherever it leads."""
    given = Path(options.cache_dir) if options.cache_dir is not None else out / ".cache"
    absolute = Path(os.path.abspath(given))
    if real(absolute.parent).is_relative_to(out):
        try:
            check_inside(absolute, out)
        except OutsideError as error:
            raise UserError(str(error)) from None
    return given.resolve()


def _batch(job: Job) -> list[CardResult]:
    profile = find_profile(job.options.icc)
    cache = cache_folder(job.options, job.out)
    renderer = cached_renderer(job.options.theme_dir, job.options.size, (*job.roots, cache))
    theme = renderer.theme
    codepoints = covered(theme)
    frames: dict[Path, Artwork] = {}
    pages: list[CardPage] = []
    kept = []
    for card, lang in job.cards:
        page = card_page(card, lang, theme, cached_glossary(lang, tuple(job.roots)))
        print_frame(page, theme, profile, cache, job.options, frames)
        place_artwork(page, card, profile, cache, job.options)
        hint = job.hints.get(card.slug)
        if hint is not None:
            hint.apply(page)
            kept.append(len(pages))
        pages.append(page)
    results = [
        CardResult(p.slug, p.lang, None, 1.0, warnings=p.warnings, errors=list(p.errors))
        for p in pages
    ]
    for result, page in zip(results, pages, strict=True):
        result.missing_glyphs = missing_glyphs(page, codepoints)
    final, measured, too_tall = lay_out(renderer, pages, job.options, kept)
    judge(results, pages, measured, too_tall, job.options)
    for result, page, measure in zip(results, pages, measured, strict=True):
        if fits_as_laid(measure):
            result.fitted = Fitted.of(page)
    printable = [i for i, r in enumerate(results) if not r.missing_glyphs and not r.errors]
    if printable:
        whole = final[0].copy([final[1][i] for i in printable]).write_pdf()
        paths = write_cards(
            whole,
            [pages[i] for i in printable],
            job.out,
            profile,
            job.options.size,
            job.options.ink_limit,
        )
        for i, path in zip(printable, paths, strict=True):
            results[i].path = path
            results[i].written = manifest.stamped(Path(path))
        if job.check is not None:
            _check_written(job.check, [results[i] for i in printable])
    for refused in renderer.fetcher.refused:
        for result in results:
            result.warnings.append(f"the renderer refused to read {refused}")
    return results


def _check_written(check: Check, results: Sequence[CardResult]) -> None:
    """Preflight the PDFs of ``results`` here, in the worker that wrote them, while its
    caches (fonts measured, images' maxima) are warm and the other worker still renders:
    no separate pass over the files after the build.  Each result keeps the digest of
    the bytes checked (those written: :attr:`CardResult.written`), so that the build
    trusts the findings only for those bytes."""
    paths = [Path(str(result.path)) for result in results]
    stamps = [
        result.written or manifest.stamped(path)
        for result, path in zip(results, paths, strict=True)
    ]
    for result, stamp, problems in zip(results, stamps, check(paths), strict=True):
        result.checked = (stamp, problems)


def chosen_cards(library: Library, slugs: Sequence[str] = ()) -> list[Card]:
    """The cards a build of ``slugs`` prints (all when empty), in library order: those
    with their English card."""
    return [
        card
        for _, card in sorted(library.cards.items())
        if card.source is not None and (not slugs or card.slug in slugs)
    ]


def build_cards(
    library: Library,
    lang: str,
    out: str | Path,
    options: BuildOptions,
    roots: Sequence[str | Path] = (),
    slugs: Sequence[str] = (),
    force: bool = False,
    progress: Callable[[int], None] | None = None,
    check: Check | None = None,
) -> list[CardResult]:
    """Build one PDF per card of ``library`` in ``lang`` into ``out``.

    Cards whose inputs did not change since the last build into ``out``, and whose PDF
    is still the one built (its bytes' digest is the record's: :func:`.manifest.intact`)
    are not rendered again, unless ``force``; ``progress`` is called with the number
    of cards done as batches finish.  ``check`` (picklable: it runs in the workers) is
    called on the PDFs each batch wrote: its findings come back as
    :attr:`CardResult.checked` (the preflight of :func:`.batch.produce`).  A ``.cache``
    of ``out`` that leads out of it is refused first (:func:`cache_folder`).
    """
    out = Path(out).resolve()
    sweep(out)
    # Refused here, before any work, if it leads out; what killed builds left in it
    # (a converted image or its seal half-written) removed.
    sweep(cache_folder(options, out))
    cards = chosen_cards(library, slugs)
    library_roots = [Path(d.directory).resolve() for d in library.decks.values()]
    library_roots += [Path(r).resolve() for r in roots]
    theme = load_theme(options.theme_dir)
    profile = find_profile(options.icc)
    # The language's own data (typography, hyphenation) prints too: a change to it
    # makes new PDFs, like a glossary change.
    glossary_files = [
        *shipped_files(lang),
        *library_files(lang, [str(r) for r in library_roots]),
        *languages.get(lang).data_files(),
    ]
    shared = manifest.shared_digest(
        [*theme.directories, pdfx.registry_path()],
        theme.font_files,
        glossary_files,
        profile.sha256,
        manifest.settings_key(options),
    )
    recorded = {} if force else manifest.read(out)
    digests = {card.slug: manifest.card_digest(card, lang, shared) for card in cards}
    results: dict[str, CardResult] = {}
    todo = []
    for card in cards:
        name = f"{card.slug}.{lang}.pdf"
        entry = recorded.get(name)
        if entry is not None and manifest.intact(out, name, entry, digests[card.slug]):
            results[card.slug] = _reused(card.slug, lang, out / name, entry)
        else:
            todo.append((card, lang))
    if progress is not None and results:
        progress(len(results))
    if todo:
        # Forget what is about to be replaced before replacing it: were the build
        # interrupted after a PDF is written, the record must not vouch for it.
        stale = {f"{card.slug}.{lang}.pdf" for card, _ in todo}
        recorded = {name: entry for name, entry in recorded.items() if name not in stale}
        manifest.write(out, recorded)
    keys = {card.slug: fits.key(digests[card.slug]) for card, _ in todo}
    hints = fits.read(keys.values())
    known = {slug: hints[key] for slug, key in keys.items() if key in hints}
    for result in _run(todo, options, library_roots, out, progress, check, known):
        results[result.slug] = result
    fits.keep(
        {
            keys[slug]: result.fitted
            for slug, result in results.items()
            # New, or found anew where the kept one no longer fitted.
            if result.fitted is not None and not result.reused and result.fitted != known.get(slug)
        }
    )
    outputs = dict(recorded)
    for slug, result in results.items():
        name = f"{slug}.{lang}.pdf"
        if result.reused:
            continue  # its entry stays as it is (with its preflight record)
        entry = _entry(result, digests[slug])
        if entry is not None:
            outputs[name] = entry
        else:
            outputs.pop(name, None)
    manifest.write(out, outputs)
    # A card not printed leaves no PDF behind: the one there holds its old text, and
    # a print shop given the folder would print it.  Its record entry is gone already.
    for slug, result in results.items():
        if not result.path:
            (out / f"{slug}.{lang}.pdf").unlink(missing_ok=True)
    return [results[card.slug] for card in cards]


def _reused(slug: str, lang: str, path: Path, entry: dict) -> CardResult:
    """A card whose PDF is still the one built (:func:`.manifest.intact`), as its
    build record's entry says it printed (the entry's shape was checked as the record
    was read: :func:`.manifest.read`)."""
    return CardResult(
        slug,
        lang,
        str(path),
        float(entry.get("scale", 1.0)),
        overflow=entry.get("overflow"),
        warnings=list(entry.get("warnings", [])),
        reused=True,
        min_size=entry.get("min_size"),
    )


def _entry(result: CardResult, inputs: str) -> dict | None:
    """The build record's entry of a card rendered this time: the digest of its
    ``inputs``, that of its PDF as written (:attr:`CardResult.written`) and how it
    printed; None when it has no PDF (not printed, or gone already)."""
    if not result.path or result.written is None or result.written.digest == manifest.MISSING:
        return None
    return {
        "digest": inputs,
        "output": result.written.digest,
        "scale": result.scale,
        "overflow": result.overflow,
        "warnings": result.warnings,
        "min_size": result.min_size,
    }


def _run(
    cards: list[tuple[Card, str]],
    options: BuildOptions,
    roots: list[Path],
    out: Path,
    progress: Callable[[int], None] | None,
    check: Check | None = None,
    hints: dict[str, Fitted] | None = None,
) -> list[CardResult]:
    """Render cards in batches: in this process for a few, else over the worker pool;
    ``hints``: what earlier builds found fitting them, by slug (:mod:`.fits`)."""
    if not cards:
        return []
    hints = hints or {}

    def job(part: list[tuple[Card, str]], in_worker: bool = False) -> Job:
        known = {card.slug: hints[card.slug] for card, _ in part if card.slug in hints}
        return Job(part, options, roots, out, check, in_worker, known)

    if options.jobs <= 1 or len(cards) < 8:
        found = run_job(job(cards))
        if progress is not None:
            progress(len(found))
        return found

    def stopped() -> None:
        # Workers ignore Ctrl-C (they would print their own tracebacks): killed, the
        # temporary files they were writing are removed.
        sweep(out)
        sweep(cache_folder(options, out))

    parts = in_workers(
        options.jobs,
        [
            partial(run_job, job(cards[start:end], in_worker=True))
            for start, end in batches(len(cards), options.jobs)
        ],
        done=None if progress is None else (lambda part: progress(len(part))),
        stopped=stopped,
    )
    found = [result for part in parts for result in part]
    for result in found:  # the workers read what they wrote: this process need not
        if result.written is not None:
            manifest.vouch(result.written)
    return found


#: The fewest cards in a batch: each batch has a fixed cost (a render, a PDF written
#: and split, a preflight begun).
BATCH_LEAST = 8


def batches(count: int, jobs: int) -> list[tuple[int, int]]:
    """The (start, end) of each batch of ``count`` cards for ``jobs`` workers, largest
    first: each a share of the cards left (half of an even share per worker), so that
    the last batches are small and no worker waits long for the others at the end (a
    card's cost varies threefold: one that shrinks is measured again), down to
    :data:`BATCH_LEAST` cards."""
    found = []
    start = 0
    while start < count:
        size = max(BATCH_LEAST, math.ceil((count - start) / (2 * max(1, jobs))))
        found.append((start, min(count, start + size)))
        start += size
    return found


#: What a call run by :func:`in_workers` returns.
