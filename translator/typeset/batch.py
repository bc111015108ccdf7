"""A production build: card PDFs in several languages, then deck files, print-and-play
sheets and previews made from them, and the preflight of every file written.

:func:`translator.api.build` (and through it ``translator build``) is a client of
:func:`produce`: the command line shows the progress and prints the summary.  Like
the card PDFs (:mod:`.build`), every derived file is remembered in the build record
with the digest of what it was made from and that of its own bytes as written, and
made again when either changes (:func:`.manifest.intact`: a deck, a sheet or a
preview swapped for another file is made again, never vouched for); the preflight
of a file is remembered with the file's own digest.  So a rebuild after changing one
card renders that card, then reassembles and rechecks only the files that contain
it.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..atomic import replacing
from ..cards.model import Library
from ..heap import fewer_collections
from ..paths import check_inside
from ..pdf import preflight
from ..pdf.preflight.record import valid_findings
from ..pdf.profiles import Profile, find_profile
from . import assemble, manifest
from .build import build_cards, cache_folder, chosen_cards
from .fitting import cached_renderer
from .options import BuildOptions
from .preview import render_png, rendering, soft_proofs
from .readiness import readiness
from .results import CardResult
from .theme import load_theme
from .workers import in_workers

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["Missing", "Report", "Request", "languages", "produce", "total_cards"]

#: Previews proofed in one Ghostscript run.
PROOFS_PER_RUN = 24
#: Preview formats and what Pillow calls them.
PREVIEW_FORMATS = {"png": "PNG", "webp": "WEBP"}


@dataclass
class Request:
    """What to produce besides the card PDFs."""

    languages: list[str]
    out: Path
    options: BuildOptions
    slugs: list[str] = field(default_factory=list)
    force: bool = False
    deck: bool = False
    backs: str = "duplex"
    sheets: str | None = None
    gutter: float = 0.0
    #: The sheet's outer margin (mm) the printer cannot print: cards and marks stay off it.
    margin: float = assemble.DEFAULT_MARGIN
    sheet_backs: bool = False
    previews: list[str] = field(default_factory=list)  # "png", "webp"
    dpi: float = 300.0
    check: bool = True
    #: The language printed in place of a missing translation (None: not printed).
    fallback: str | None = None
    #: Refuse stale translations and drafts instead of printing them with a warning.
    strict: bool = False


@dataclass(frozen=True)
class Missing:
    """A deck or sheet file not written because cards it holds could not be printed,
    or were not (``withheld``: ``slug: why``, no translation or refused by
    ``--strict``); the file there before, with their old text, is removed."""

    path: str
    cards: tuple[str, ...]
    withheld: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        parts = [
            f"{len(cards)} card{'' if len(cards) == 1 else 's'} {what} ({joint.join(cards)})"
            for cards, what, joint in (
                (self.cards, "failed", ", "),
                (self.withheld, "not printed", "; "),
            )
            if cards
        ]
        return "; ".join(parts)

    def __str__(self) -> str:
        """``sample.fr.deck.pdf not written: 2 cards failed (harbor-lord, saltmere)``."""
        return f"{Path(self.path).name} not written: {self.reason}"

    def to_dict(self) -> dict:
        return {
            "file": self.path,
            "reason": self.reason,
            "cards": list(self.cards),
            "withheld": list(self.withheld),
        }


@dataclass
class Report:
    """What a build did: the cards, every file it made or kept, the deck and sheet
    files it could not make, what the preflight found."""

    cards: list[CardResult] = field(default_factory=list)
    #: The languages built, in the order asked.
    languages: list[str] = field(default_factory=list)
    #: Print files (card PDFs, decks, sheets), in the order made.
    files: list[str] = field(default_factory=list)
    #: Preview images.
    images: list[str] = field(default_factory=list)
    #: Deck and sheet files not written (a card they hold failed).
    missing: list[Missing] = field(default_factory=list)
    #: Files made this time (the others were up to date).
    made: int = 0
    pages: int = 0
    problems: list[preflight.Problem] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def warnings(self) -> list[str]:
        """The cards' warnings (what fit, their state: a stale card, a draft)."""
        return [w for r in self.cards for w in r.warnings]

    @property
    def errors(self) -> list[preflight.Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def preflight_warnings(self) -> list[preflight.Problem]:
        return [p for p in self.problems if p.severity != "error"]

    @property
    def warning_count(self) -> int:
        """Every warning the build has: the cards' and the preflight's (the lines
        ``translator build`` prints as warnings, and the number its summary gives)."""
        return len(self.warnings) + len(self.preflight_warnings)

    @property
    def failed(self) -> list[CardResult]:
        """The cards that could not be printed (each says why in its errors)."""
        return [r for r in self.cards if r.failed]

    @property
    def withheld(self) -> list[CardResult]:
        """The cards not printed for their state: no translation, or stale or a draft
        under ``strict`` (:mod:`.readiness`)."""
        return [r for r in self.cards if r.withheld]

    @property
    def fallbacks(self) -> list[CardResult]:
        """The cards printed from the English card, their translation missing."""
        return [r for r in self.cards if r.fallback]

    @property
    def ok(self) -> bool:
        """Every card printed, every deck and sheet file written, no file fails the
        preflight (warnings aside: :meth:`passes` says what the command exits 0 for)."""
        return not (self.failed or self.withheld or self.errors or self.missing)

    def passes(self, fail_on: str = "warning") -> bool:
        """What ``translator build`` exits 0 for: :attr:`ok`, and no warning unless
        ``fail_on`` is ``"error"``."""
        return self.ok and (fail_on == "error" or self.warning_count == 0)


def total_cards(library: Library, request: Request) -> int:
    """How many card PDFs ``request`` asks for (the progress bar's length)."""
    return len(chosen_cards(library, request.slugs)) * len(request.languages)


class _Record:
    """The build record, held here while derived files are made: entries are dropped
    (and the record written) before their files are replaced, and recorded once the
    files are complete; :func:`build_cards` writes it too, so it is read again after."""

    def __init__(self, out: Path, force: bool) -> None:
        self.out = out
        self.force = force
        self.outputs = manifest.read(out)

    def reload(self) -> None:
        self.outputs = manifest.read(self.out)

    def fresh(self, name: str, digest: str) -> bool:
        """Whether ``name`` is still the file built from inputs of ``digest``
        (:func:`.manifest.intact`, as for the card PDFs)."""
        return not self.force and manifest.intact(self.out, name, self.outputs.get(name), digest)

    def forget(self, names: Sequence[str]) -> None:
        # Every name popped (a generator in any() would stop at the first entry found).
        dropped = [self.outputs.pop(name, None) for name in names]
        if any(entry is not None for entry in dropped):
            self.save()

    def remember(self, entries: dict[str, dict]) -> None:
        if entries:
            self.outputs.update(entries)
            self.save()

    def save(self) -> None:
        manifest.write(self.out, self.outputs)


def _digest(kind: str, settings: object, inputs: Sequence[Path]) -> str:
    digest = hashlib.sha256(f"{manifest.FORMAT} {kind} {settings!r}".encode())
    for path in inputs:
        digest.update(path.name.encode("utf-8"))
        digest.update(manifest.file_digest(path).encode("ascii"))
    return digest.hexdigest()


#: A derived file to make: its name in the output directory, the digest of what it is
#: made from, and how to write it to a path.
Derived = tuple[str, str, Callable[[Path], object]]


def _derive(record: _Record, report: Report, files: Sequence[Derived]) -> list[Path]:
    """Make the files whose record does not say they are made from the same inputs
    and still are what was made (:meth:`_Record.fresh`): their entries are dropped
    first (one write for all), so an interrupted make is redone, and recorded when all
    are made, each with the digest of its bytes as written."""
    stale = [(name, digest, make) for name, digest, make in files if not record.fresh(name, digest)]
    record.forget([name for name, _, _ in stale])
    made: dict[str, dict] = {}
    try:
        for name, digest, make in stale:
            make(record.out / name)
            written = manifest.file_digest(record.out / name)
            if written != manifest.MISSING:
                made[name] = {"digest": digest, "output": written}
    finally:
        record.remember(made)  # what was made before an error or Ctrl-C counts
    report.made += len(made)
    return [record.out / name for name, _, _ in files]


def produce(
    library: Library,
    request: Request,
    progress: Callable[[int], None] | None = None,
    stage: Callable[[str], None] | None = None,
) -> Report:
    """Build everything ``request`` asks for; ``progress`` counts card PDFs done,
    ``stage`` is told what the build is doing ("cards (fr)", "preflight", ...)."""
    say = stage or (lambda text: None)
    start = time.perf_counter()
    report = Report(languages=list(request.languages))
    out = request.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    options = request.options
    profile = find_profile(options.icc)
    record = _Record(out, request.force)
    for lang in request.languages:
        say(f"cards ({lang})")
        ready = {
            card.slug: readiness(card, lang, fallback=request.fallback, strict=request.strict)
            for card in chosen_cards(library, request.slugs)
        }
        wanted = [slug for slug, found in ready.items() if found.printed]
        withheld = [slug for slug, found in ready.items() if not found.printed]
        built = (
            build_cards(
                library,
                lang,
                out,
                options,
                slugs=wanted,
                force=request.force,
                progress=progress,
                check=partial(_card_check, options=options, cache=_cache(options, out))
                if request.check
                else None,
            )
            if wanted
            else []
        )
        record.reload()
        # A card not printed for its state leaves no file of it behind: one there
        # from an earlier build holds text that is not (or no longer) to be printed.
        _withdraw(record, [f"{slug}.{lang}.pdf" for slug in withheld])
        if progress is not None and withheld:
            progress(len(withheld))
        by_slug = {r.slug: r for r in built}
        results = []
        for slug, found in ready.items():
            result = by_slug.get(slug) or CardResult(slug, lang, None, 1.0, withheld=found.withheld)
            if found.warning:  # said at every build, never kept in the build record
                result.warnings.append(found.warning)
            result.fallback, result.state = found.fallback, found.state.state
            results.append(result)
        report.cards.extend(results)
        report.made += sum(1 for r in results if r.path and not r.reused)
        printed = {r.slug: Path(r.path) for r in results if r.path}
        failed = [r.slug for r in results if not r.path and not r.withheld]
        report.files.extend(str(p) for p in printed.values())
        _withdraw(
            record,
            [
                f"{kind}/{slug}.{lang}.{kind}"
                for kind in PREVIEW_FORMATS
                for slug in (*failed, *withheld)
            ],
        )
        if request.deck or request.sheets:
            say(f"decks ({lang})")
            held = {slug: ready[slug].reason for slug in withheld}
            _decks(library, request, lang, printed, (failed, held), profile, record, report)
        if request.previews:
            say(f"previews ({lang})")
            proofs = _Proofs(request)
            sources = [
                (f"{kind}/{slug}.{lang}.{kind}", pdf)
                for kind in request.previews
                for slug, pdf in printed.items()
            ]
            previews = [_preview(pdf, name, request, proofs) for name, pdf in sources]
            proofs.pending = [
                pdf
                for (name, digest, _), (_, pdf) in zip(previews, sources, strict=True)
                if not record.fresh(name, digest)
            ]
            report.images.extend(str(p) for p in _derive(record, report, previews))
    if request.check:
        say("preflight")
        made = {
            Path(r.path): (r.checked[0].digest, r.checked[1])
            for r in report.cards
            if r.path and r.checked
        }
        report.problems = _preflight(record, _checks(report, request), request, made)
    # A card PDF is one page; only decks and sheets are opened to count theirs.
    card_pdfs = {r.path for r in report.cards if r.path}
    report.pages = sum(1 if path in card_pdfs else _pages(path) for path in report.files)
    report.seconds = time.perf_counter() - start
    return report


def _decks(
    library: Library,
    request: Request,
    lang: str,
    printed: dict[str, Path],
    lacking: tuple[Sequence[str], dict[str, str]],
    profile: Profile,
    record: _Record,
    report: Report,
) -> None:
    """The deck files and sheets of every deck with cards built in ``lang``.

    A deck holding a card that could not be printed, or was not for its state (the
    two of ``lacking``: failed, withheld), is not made, since it would lack that card
    (or hold it in another language), and what was there before (the card's old text)
    is removed: the report names the files missing and why (withheld: slug -> why).
    Once the card is fixed, a rebuild makes them again (their record entries are
    gone)."""
    options = request.options
    back = _back(request, profile, record, report)
    failed, withheld = lacking
    for name, deck in sorted(library.decks.items()):
        listed = [
            (slug, quantity)
            for slug, quantity in deck.quantities.items()
            if slug in printed and quantity > 0
        ]
        held = [
            [slug for slug, quantity in deck.quantities.items() if slug in chosen and quantity > 0]
            for chosen in (failed, withheld)
        ]
        if held[0] or held[1]:
            names = [
                *([f"{name}.{lang}.deck.pdf"] if request.deck else []),
                *([f"{name}.{lang}.sheets-{request.sheets}.pdf"] if request.sheets else []),
            ]
            _withdraw(record, names)
            why = tuple(f"{slug}: {withheld[slug]}" for slug in held[1])
            report.missing.extend(Missing(str(record.out / n), tuple(held[0]), why) for n in names)
            continue
        if not listed:
            continue
        inputs = [printed[slug] for slug, _ in listed] + [back]
        files: list[Derived] = []
        if request.deck:
            cards = [(f"{slug}.{lang}", quantity, printed[slug]) for slug, quantity in listed]
            files.append(
                (
                    f"{name}.{lang}.deck.pdf",
                    _digest("deck", (listed, request.backs), inputs),
                    partial(assemble.deck_pdf, cards, back, profile=profile, backs=request.backs),
                )
            )
        if request.sheets:
            copies = [
                (f"{slug}.{lang}", printed[slug])
                for slug, quantity in listed
                for _ in range(quantity)
            ]
            settings = (listed, request.sheets, request.gutter, request.sheet_backs, request.margin)
            files.append(
                (
                    f"{name}.{lang}.sheets-{request.sheets}.pdf",
                    _digest("sheets", settings, inputs),
                    partial(
                        assemble.sheets_pdf,
                        copies,
                        profile=profile,
                        size=options.size,
                        paper=request.sheets,
                        gutter=request.gutter,
                        backs=back if request.sheet_backs else None,
                        margin=request.margin,
                    ),
                )
            )
        report.files.extend(str(path) for path in _derive(record, report, files))


def _withdraw(record: _Record, names: Sequence[str]) -> None:
    """Remove files of the output directory that would show what is no longer true
    (a failed card's previews, a deck without it): their record entries are
    dropped first (an interrupted build never vouches for a file half gone), then the
    files, each only inside the output folder (a folder of previews that is a link out
    of it is refused: :func:`translator.paths.check_inside`)."""
    record.forget(names)
    for name in names:
        path = record.out / name
        check_inside(path.parent, record.out)
        path.unlink(missing_ok=True)


def _back(request: Request, profile: Profile, record: _Record, report: Report) -> Path:
    """The card back, rendered once per size (and again when the theme changes); the
    renderer (fonts, templates: a third of a second) is made only then."""
    options = request.options
    theme = load_theme(options.theme_dir)
    digest = manifest.shared_digest(
        theme.directories, theme.font_files, (), profile.sha256, manifest.settings_key(options)
    )

    def make(path: Path) -> None:
        renderer = cached_renderer(options.theme_dir, options.size, (_cache(options, record.out),))
        assemble.render_back(renderer, path, profile, ink_limit=options.ink_limit)

    [back] = _derive(record, report, [(f".back.{options.size.name}.pdf", digest, make)])
    return back


class _Proofs:
    """The previews' soft proofs, made :data:`PROOFS_PER_RUN` PDFs at a time in one
    Ghostscript run (its start costs about 0.2 s, more than proofing a card), in the
    order they are asked for; only one run's pictures are held in memory."""

    def __init__(self, request: Request) -> None:
        self.request = request
        #: The PDFs to proof, in the order their previews are made.
        self.pending: list[Path] = []
        self.images: dict[Path, Image.Image] = {}

    def image(self, pdf: Path) -> Image.Image:
        if pdf not in self.images:
            start = self.pending.index(pdf) if pdf in self.pending else len(self.pending)
            chunk = list(dict.fromkeys([pdf, *self.pending[start : start + PROOFS_PER_RUN]]))
            self.images = dict(
                zip(
                    chunk,
                    soft_proofs(chunk, self.request.dpi, trim=self.request.options.size.bleed),
                    strict=True,
                )
            )
        return self.images[pdf]


def _preview(pdf: Path, name: str, request: Request, proofs: _Proofs | None = None) -> Derived:
    """A picture of a card, cut at the trim, for reviewers and the wiki: written inside
    the output folder (its folder of previews, ``png/``, a link out of it is refused)."""
    kind = Path(name).suffix[1:]
    out = request.out.resolve()

    def make(path: Path) -> None:
        image = (
            proofs.image(pdf)
            if proofs is not None
            else render_png(pdf, request.dpi, trim=request.options.size.bleed)
        )
        with replacing(path, 0o644, within=out) as temporary:
            image.save(
                temporary,
                PREVIEW_FORMATS[kind],
                dpi=(request.dpi, request.dpi),
                **({"quality": 90} if kind == "webp" else {"optimize": False}),
            )

    # A soft proof (Ghostscript and the PDF's output profile, preview.py), or PDFium's
    # render where Ghostscript is missing: made again when that changes.
    return name, _digest("preview", (request.dpi, rendering()), [pdf]), make


def _checks(report: Report, request: Request) -> list[tuple[Path, bool, str]]:
    """What to preflight: (file, with the card size, how).  Card PDFs and the back are
    checked whole ("all").  A deck file's pages are theirs, copied unchanged (the same
    content streams, fonts and images), so the deck is checked for its boxes and output
    intent ("file").  A sheet draws the cards anew with its crop marks: everything but
    the ink ("content"), which is that of the cards and of the marks (black only); the
    preflight knows its pages for sheets (by their labels) and checks the cards placed
    on them against the card size."""
    checks = []
    back = None
    for file in report.files:
        path = Path(file)
        if path.name.endswith(".deck.pdf"):
            checks.append((path, True, "file"))
        elif ".sheets-" in path.name:
            checks.append((path, True, "content"))
        else:
            checks.append((path, True, "all"))
            continue
        back = path.parent / f".back.{request.options.size.name}.pdf"
    if back is not None and back.is_file():
        checks.append((back, True, "all"))
    return checks


def _preflight(
    record: _Record,
    checks: Sequence[tuple[Path, bool, str]],
    request: Request,
    made: dict[Path, tuple[str, list[preflight.Problem]]],
) -> list[preflight.Problem]:
    """Check print files, each once per content: a file whose bytes and settings match
    a check already made keeps that check's findings (its build record's, the record
    of proofs in the build's cache folder: a reproducible --force build,
    SOURCE_DATE_EPOCH set, writes the same bytes again when nothing changed,
    :mod:`.preflight.record`; or ``made``, the card PDFs' checks by the workers that
    wrote them, for the bytes of the digest each holds); the others are checked
    together (Ghostscript only for the pages the ink bound cannot decide)."""
    options = request.options
    outputs = record.outputs
    cache = _cache(options, record.out)
    proofs = preflight.ProofRecord(cache)
    found: dict[Path, list[preflight.Problem]] = {}
    keys: dict[Path, str] = {}
    pending: dict[tuple[bool, str], list[Path]] = {}
    changed = False

    def settle(path: Path, problems: list[preflight.Problem], new: bool) -> None:
        """``path``'s findings, kept in the build record (and among the proofs when
        ``new``: found by a check made now)."""
        nonlocal changed
        found[path] = problems
        shown = [p.to_dict() for p in problems]
        if new:
            proofs.remember(keys[path], shown)
        if path.name in outputs:
            outputs[path.name]["checked"] = {"key": keys[path], "problems": shown}
            changed = True

    for path, card_sized, how in checks:
        # The bytes' digest the build record made (kept while the file's size and
        # time stay the same), as the deck's and sheets' inputs.
        digest = manifest.file_digest(path)
        keys[path] = _proof_key(path, digest, options, card_sized, how)
        checked = outputs.get(path.name, {}).get("checked")
        if isinstance(checked, dict) and checked.get("key") == keys[path]:
            kept = _kept(checked.get("problems"))
            if kept is not None:
                found[path] = kept
                continue
        worker = made.get(path) if (card_sized, how) == CARD_CHECK else None
        if worker is not None and worker[0] == digest:
            settle(path, worker[1], new=True)
            continue
        kept = _kept(proofs.findings(keys[path]), path)
        if kept is not None:
            settle(path, kept, new=False)
        else:
            pending.setdefault((card_sized, how), []).append(path)
    for (card_sized, how), paths in pending.items():
        check = _check(options, cache, card_sized, how)
        for path, problems in zip(paths, _shared(check, paths, options.jobs), strict=True):
            settle(path, problems, new=True)
    if changed:
        record.save()
    proofs.save()
    return [problem for path, _, _ in checks for problem in found[path]]


#: How a card PDF is checked (:func:`_checks`): with the card size, everything.
CARD_CHECK = (True, "all")


def _cache(options: BuildOptions, out: Path) -> Path:
    """Where the preflight keeps its proofs and images' maxima: with the build's
    converted artwork (:func:`.build.cache_folder`: inside ``out`` unless the user
    chose another folder), never in the user's own folders."""
    return cache_folder(options, out)


def _proof_key(path: Path, digest: str, options: BuildOptions, card_sized: bool, how: str) -> str:
    """What a check of ``path`` (bytes of ``digest``) proves is kept under: the bytes,
    the settings and the checks' code (:func:`.preflight.proof_key`)."""
    size = options.size if card_sized else None
    settings = (  # the name too: a page without a label is named after its file
        f"{path.name} ink {options.ink_limit} dpi {preflight.DEFAULT_DPI} "
        f"ppi {preflight.MIN_PPI} size {size} {how}"
    )
    return preflight.proof_key(path, settings, digest)


def _check(
    options: BuildOptions, cache: Path, card_sized: bool, how: str
) -> Callable[[Sequence[Path]], list[list[preflight.Problem]]]:
    """The preflight of files checked ``how`` (:func:`_checks`), picklable: the build's
    workers run it."""
    return partial(
        preflight.preflight_files,
        size=options.size if card_sized else None,
        ink_limit=options.ink_limit,
        ink=how == "all",
        content=how != "file",
        records=cache,
    )


def _card_check(
    paths: Sequence[Path], options: BuildOptions, cache: Path
) -> list[list[preflight.Problem]]:
    """The preflight of the card PDFs a worker wrote (:func:`.build.build_cards`'
    ``check``): a file whose bytes, settings and checks have a proof in the cache's
    record keeps its findings (a reproducible --force build writes the same bytes
    again), the others are checked."""
    proofs = preflight.ProofRecord(cache)
    found: dict[Path, list[preflight.Problem]] = {}
    for path in paths:
        key = _proof_key(path, manifest.file_digest(path), options, *CARD_CHECK)
        kept = _kept(proofs.findings(key), path)
        if kept is not None:
            found[path] = kept
    unproved = [path for path in paths if path not in found]
    if unproved:
        found.update(zip(unproved, _check(options, cache, *CARD_CHECK)(unproved), strict=True))
    return [found[path] for path in paths]


#: Files checked in one process at the least: the build's workers share a preflight
#: of more (each has its own share, in the order of the files).
SHARED_PREFLIGHT = 16


def _shared(
    check: Callable[[Sequence[Path]], list[list[preflight.Problem]]],
    paths: Sequence[Path],
    jobs: int,
) -> list[list[preflight.Problem]]:
    """``check(paths)``, split over the build's ``jobs`` worker processes when there
    are enough files: the preflight is Python (the ink bound decides most pages
    without Ghostscript), which this process would run on one core while the cores
    that rendered the cards wait."""
    if jobs <= 1 or len(paths) < SHARED_PREFLIGHT:
        return check(paths)
    size = max(SHARED_PREFLIGHT // 2, math.ceil(len(paths) / jobs))
    parts = [list(paths[i : i + size]) for i in range(0, len(paths), size)]
    done = in_workers(jobs, [partial(_in_worker, check, part) for part in parts])
    return [problems for part in done for problems in part]


def _in_worker(
    check: Callable[[Sequence[Path]], list[list[preflight.Problem]]], paths: Sequence[Path]
) -> list[list[preflight.Problem]]:
    """``check(paths)`` in a worker process, its collector held as for a batch of cards
    (:mod:`translator.heap`)."""
    with fewer_collections(worker=True):
        return check(paths)


def _kept(problems: object, path: Path | None = None) -> list[preflight.Problem] | None:
    """Recorded findings as problems (of ``path``, when given: a proof is of the bytes,
    wherever they are), or None (none recorded, or an entry that does not read as
    problems: :func:`.preflight.record.valid_findings`, then checked again)."""
    if not isinstance(problems, list) or not valid_findings(problems):
        return None
    found = [preflight.Problem(**problem) for problem in problems]
    if path is not None:
        found = [replace(problem, path=str(path)) for problem in found]
    return found


def _pages(path: str) -> int:
    import pikepdf  # noqa: PLC0415

    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def languages(values: Sequence[str] | None, library: Library) -> list[str]:
    """``--lang`` values: codes, or ``all`` for English and every translated language."""
    chosen = list(values or ["en"])
    if "all" in chosen:
        found = {lang for card in library.cards.values() for lang in card.languages()}
        return ["en", *sorted(found - {"en"})]
    return list(dict.fromkeys(chosen))
