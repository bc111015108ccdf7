"""One card laid out as ``translator build`` lays it out, and pictured: an editor's
live preview (:func:`translator.api.preview_card`) and ``translator build --watch``.

The card goes through the build's own steps (:func:`.render.card_page`, the frame and
artwork conversion, :func:`.fitting.lay_out` and its fitting, :func:`.fitting.judge`,
:func:`.build.write_cards`), so that what the preview says fits is what the build
prints.  Unlike the build, a card the build would refuse still gets its picture (from
the same final layout, written to a PDF that is not kept): its faults are outlined in
red on it, so that a translator sees which box overflows and by how much.

Kept warm, a preview costs one render and one picture: the renderer (fonts,
templates, stylesheets) and the glossaries are the build's process-wide caches
(:func:`.fitting.cached_renderer`, :func:`.fitting.cached_glossary`), and :func:`refresh` drops them
when a theme, font or glossary file they were made from changes, so that a long-lived
process (an editor's language server, a watching build) never shows stale output.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .. import languages
from ..atomic import replacing
from ..cards.files import CARD_FILE_RE, DECK_FILE, parse_card_text
from ..cards.library import deck_directories, load_library
from ..cards.model import SOURCE_LANGUAGE, Card, Library
from ..glossary.loader import library_files, shipped_files
from ..limits import MAX_CARD_FILE_BYTES
from ..pdf.profiles import find_profile
from ..problems import Problem
from ..textio import InputError, decode, read_file
from . import build, fitting, manifest, symbols, theme
from .elements import LINE_ELEMENTS, PageMeasure
from .elements import too_wide as element_too_wide
from .fitting import fit_words, percent
from .options import BuildOptions
from .preview import render_png
from .render import CardPage, card_page
from .results import CardResult

#: The colour faults are outlined in (RGB), and the outline's width at 150 dpi (px).
FAULT_COLOUR = (220, 30, 30)
FAULT_WIDTH = 3

#: One render at a time: WeasyPrint's font configuration and the renderer's fetcher are
#: not made for threads (a language server previews from a worker thread).
_RENDERING = threading.Lock()
#: What the cached renderers and glossaries were made from: digest by theme or
#: (language, roots).
_SEEN: dict[object, str] = {}


@dataclass
class Pictured:
    """A card laid out and pictured: the build's verdict and where the picture is."""

    result: CardResult
    png: Path
    #: The card PDF kept (``keep_pdf``, and only for a card the build would print).
    pdf: Path | None
    #: One-line elements shrunk to fit, and their scale (the name at 90 %...).
    shrunk: dict[str, float] = field(default_factory=dict)
    #: The elements outlined as faults on the picture (``text``, ``name``...).
    marked: list[str] = field(default_factory=list)

    @property
    def printable(self) -> bool:
        """What the build would do: print the card (True) or refuse it."""
        result = self.result
        return not (result.errors or result.missing_glyphs)


@dataclass
class Version:
    """The card a card file (or an editor's text of it) is a version of, as the build
    would print it: its card with that version in, its language, and the library's
    deck folders (what the renderer may read, where glossary files count)."""

    card: Card
    lang: str
    roots: list[Path]


def card_version(path: str, text: str | None, library: Sequence[str] = ()) -> Version:
    """The card of the card file ``path`` with ``text`` as its content (None: the
    file's), in ``library`` (default: the file's deck).  A file that is not a card
    file, outside a deck, with a problem (YAML that does not parse, a value Aminduna
    refuses), or whose deck or English card has one, raises an :class:`InputError`
    naming the file and line: the build would refuse the card."""
    file = Path(path)
    match = CARD_FILE_RE.match(file.name)
    if match is None:
        raise InputError(
            path, "not a card file: card files are named <slug>.<language>.md (storm-hawk.fr.md)"
        )
    folder = file.parent
    if not (folder / DECK_FILE).is_file():
        raise InputError(
            path,
            f"outside a library: no {DECK_FILE} next to this file "
            "(a card file lives in a deck folder, cards/<deck>/)",
        )
    if text is None:
        text = decode(read_file(file, MAX_CARD_FILE_BYTES, "card file"), path)
    elif len(text.encode("utf-8", "surrogatepass")) > MAX_CARD_FILE_BYTES:
        raise InputError(path, f"larger than a card file may be ({MAX_CARD_FILE_BYTES >> 10} KB)")
    loaded, problems = _library(tuple(library) or (str(folder),))
    deck = next(
        (d for d in loaded.decks.values() if Path(d.directory).resolve() == folder.resolve()),
        None,
    )
    if deck is None:
        raise InputError(path, f"not a card of the library {', '.join(library)}: give its library")
    own: list[Problem] = []
    version = parse_card_text(path, deck.slug, text, own)
    slug, lang = match["slug"], match["lang"]
    known = loaded.cards.get((deck.slug, slug))
    card = (
        Card(slug, deck.slug, None)
        if known is None
        else Card(slug, deck.slug, known.source, dict(known.translations))
    )
    if version is not None:  # the text's version, not the file's
        if version.is_source:
            card.source = version
        else:
            card.translations[lang] = version
    # Besides its own: the problems of its deck file and, for a translation, of the
    # English card it prints from (another card's are not this card's).
    related = {folder / DECK_FILE}
    if lang != SOURCE_LANGUAGE:
        related.add(folder / f"{slug}.{SOURCE_LANGUAGE}.md")
    resolved = {p.resolve() for p in related}
    own += [p for p in problems if Path(p.path).resolve() in resolved]
    if own:
        raise _refused(own)
    if card.source is None:
        raise InputError(
            path,
            f"no {slug}.{SOURCE_LANGUAGE}.md beside it: a translation prints its English "
            "card's cost, stats and artwork",
            1,
        )
    return Version(card, lang, [Path(d.directory).resolve() for d in loaded.decks.values()])


#: The last library read, by its paths and the state of its files (see :func:`_library`).
_LIBRARY: dict[tuple[str, ...], tuple[tuple, tuple[Library, list[Problem]]]] = {}


def _library(paths: tuple[str, ...]) -> tuple[Library, list[Problem]]:
    """The library under ``paths`` and its problems, read again only when one of its
    deck or card files changed (name, size or time): reading the sample's 72 files
    costs a tenth of a preview.  The result is shared: never change it."""
    problems: list[Problem] = []
    state = []
    for folder in deck_directories(paths, problems):
        for file in sorted([folder / DECK_FILE, *folder.glob("*.md")]):
            with suppress(OSError):
                info = file.stat()
                state.append((str(file), info.st_size, info.st_mtime_ns))
    key = (tuple(state), tuple(problems))
    kept = _LIBRARY.get(paths)
    if kept is not None and kept[0] == key:
        return kept[1]
    loaded = load_library(paths)
    _LIBRARY.clear()  # one library at a time: an editor works in one
    _LIBRARY[paths] = (key, loaded)
    return loaded


def _refused(problems: Sequence[Problem]) -> InputError:
    """The first of ``problems`` as an error naming its file and line (and how many
    more there are)."""
    first = problems[0]
    message = first.message + (f" ({first.hint})" if first.hint else "")
    if len(problems) > 1:
        more = len(problems) - 1
        message += f"; and {more} more problem{'' if more == 1 else 's'}"
    return InputError(first.path, message, first.line, first.column)


def refresh(theme_dir: str | None, roots: Sequence[Path], langs: Iterable[str]) -> bool:
    """Drop the build's cached renderers, fonts, symbols and glossaries when a theme,
    font or glossary file they were made from changed since the last look: a
    long-lived process must print what the files say now.  True when something was
    dropped (a caller holding worker processes restarts them: they cache the same)."""
    dropped = False
    loaded = theme.load_theme(theme_dir)
    theme_key = ("theme", theme_dir)
    digest = manifest.tree_digest([*loaded.directories, *loaded.font_files])
    if _SEEN.get(theme_key, digest) != digest:
        fitting.cached_renderer.cache_clear()
        fitting.font_codepoints.cache_clear()
        symbols.forget_drawings()
        theme.font_metrics.cache_clear()
        dropped = True
    _SEEN[theme_key] = digest
    for lang in langs:
        key = ("glossary", lang, tuple(roots))
        files = [
            *shipped_files(lang),
            *library_files(lang, [str(r) for r in roots]),
            *languages.get(lang).data_files(),
        ]
        digest = manifest.tree_digest(files)
        if _SEEN.get(key, digest) != digest:
            fitting.cached_glossary.cache_clear()
            dropped = True
        _SEEN[key] = digest
    return dropped


def picture(
    card: Card,
    lang: str,
    roots: Sequence[Path],
    options: BuildOptions,
    png: Path,
    dpi: float,
    *,
    proof: bool = True,
    keep_pdf: bool = False,
) -> Pictured:
    """Lay ``card`` out in ``lang`` as the build does (``roots``: the library's deck
    folders, which the renderer may read and whose glossary files count) and write its
    picture to ``png`` (atomically), cut at the trim, at ``dpi``: a soft proof through
    the PDF's output profile (``proof``, as the build's previews), else PDFium's
    render.  ``keep_pdf``: the card's PDF is kept beside the picture when the build
    would print it."""
    cache = build.cache_folder(options, png.parent.resolve())  # no .cache linked out
    with _RENDERING:
        refresh(options.theme_dir, roots, [lang])
        page, result, measured, too_tall, document = _laid_out(card, lang, roots, cache, options)
        marked = _faults(measured, too_tall)
        keep = keep_pdf and not (result.errors or result.missing_glyphs)
        with tempfile.TemporaryDirectory(prefix=".preview-", dir=_folder(png)) as scratch:
            pdf_dir = png.parent if keep else Path(scratch)
            [written] = build.write_cards(
                document,
                [page],
                pdf_dir,
                find_profile(options.icc),
                options.size,
                options.ink_limit,
            )
            image = render_png(written, dpi, trim=options.size.bleed, proof=proof)
    _outline(image, measured, marked, dpi, options.size.bleed, too_tall)
    with replacing(png, 0o644, within=png.parent) as temporary:
        # Fast compression: a preview is made again at every change.
        image.save(temporary, "PNG", dpi=(dpi, dpi), compress_level=1)
    shrunk = {name: scale for name, scale in page.fit.items() if scale < 1.0}
    return Pictured(result, png, Path(written) if keep else None, shrunk, marked)


def _folder(png: Path) -> Path:
    png.parent.mkdir(parents=True, exist_ok=True)
    return png.parent


def _laid_out(
    card: Card, lang: str, roots: Sequence[Path], cache: Path, options: BuildOptions
) -> tuple[CardPage, CardResult, PageMeasure, float | None, bytes]:
    """The card's page, the build's verdict on it, its final layout's measures, how
    many mm its text is too tall at the floor (None: it fits), and its PDF (one page)
    made from that layout whatever the verdict."""
    profile = find_profile(options.icc)
    renderer = fitting.cached_renderer(options.theme_dir, options.size, (*roots, cache))
    page = card_page(card, lang, renderer.theme, fitting.cached_glossary(lang, tuple(roots)))
    fitting.print_frame(page, renderer.theme, profile, cache, options, {})
    build.place_artwork(page, card, profile, cache, options)
    result = CardResult(
        page.slug, lang, None, 1.0, warnings=page.warnings, errors=list(page.errors)
    )
    result.missing_glyphs = fitting.missing_glyphs(page, fitting.covered(renderer.theme))
    final, measured, too_tall = fitting.lay_out(renderer, [page], options)
    fitting.judge([result], [page], measured, too_tall, options)
    for refused in renderer.fetcher.refused:
        result.warnings.append(f"the renderer refused to read {refused}")
    renderer.fetcher.refused.clear()  # the next preview's own
    first, pages = final
    return page, result, measured[0], too_tall.get(0), first.copy(pages).write_pdf()


def _faults(measured: PageMeasure, too_tall: float | None) -> list[str]:
    """The elements that do not fit their boxes: the text too tall, a one-line element
    too wide."""
    faults = ["text"] if too_tall is not None and "text" in measured.elements else []
    faults += [spec.name for spec in LINE_ELEMENTS if element_too_wide(measured, spec)]
    return faults


def _outline(
    image: Image.Image,
    measured: PageMeasure,
    names: Sequence[str],
    dpi: float,
    bleed: float,
    too_tall: float | None,
) -> None:
    """Outline each fault's box on the picture (cut at the trim), the text's with how
    many mm it is too tall: the picture shows where the card overflows."""
    if not names:
        return
    draw = ImageDraw.Draw(image)
    width = max(1, round(FAULT_WIDTH * dpi / 150))

    def px(mm: float) -> float:
        return (mm - bleed) / 25.4 * dpi

    for name in names:
        x0, y0, x1, y1 = (px(v) for v in measured.elements[name].box)
        draw.rectangle((x0, y0, x1, y1), outline=FAULT_COLOUR, width=width)
        if name == "text" and too_tall is not None:
            label = f"+{too_tall:.1f} mm"
            font = _font(max(8, round(11 * dpi / 150)))
            left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
            x, y = x1 - (right - left) - 2 * width, y1 - (bottom - top) - 3 * width
            draw.rectangle(
                (x - width, y - width, x + right - left + width, y + bottom + width),
                fill=FAULT_COLOUR,
            )
            draw.text((x - left, y), label, fill=(255, 255, 255), font=font)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's own font at ``size`` px (no font file looked for)."""
    return ImageFont.load_default(size)


def summary(pictured: Pictured) -> str:
    """The card's fit in a few words: ``fits``, ``shrunk to 92 %``, ``fits; name at
    88 %``, ``refused: the text does not fit (3.2 mm too tall at 52 %)``."""
    result = pictured.result
    if result.missing_glyphs:
        return f"refused: the card font lacks {', '.join(result.missing_glyphs)}"
    if "text" in pictured.marked and result.overflow is not None:
        return (
            f"refused: the text does not fit ({result.overflow:.1f} mm too tall "
            f"at {percent(result.scale)})"
        )
    if pictured.marked:
        what = next(s.what for s in LINE_ELEMENTS if s.name == pictured.marked[0])
        return f"refused: the {what} does not fit"
    if result.errors:
        return f"refused: {_without_path(result.errors[0])}"
    line = fit_words(result.scale)
    shrunk = [
        f"{next(s.what for s in LINE_ELEMENTS if s.name == name)} at {percent(scale)}"
        for name, scale in sorted(pictured.shrunk.items())
    ]
    return "; ".join([line, *shrunk])


def _without_path(message: str) -> str:
    """A build message without the card file it starts with (the preview names it)."""
    head, _, rest = message.partition(": ")
    return rest if rest and head.endswith(".md") else message


@dataclass
class CardPreview:
    """A card file pictured as ``translator build`` prints it: what
    :func:`translator.api.preview_card` returns (the language server's preview, ``build
    --watch``'s picture of a refused card)."""

    card: str
    lang: str
    #: The card file, as given.
    path: str
    #: The picture written (cut at the trim): ``<out>/<slug>.<lang>.png``.
    png: str
    #: The card's PDF, when one was kept (``keep_pdf``, and the build would print it).
    pdf: str | None
    #: Its fit in a few words: ``fits``, ``shrunk to 92 %``, ``refused: the text does
    #: not fit (3.2 mm too tall at 52 %)``.
    summary: str
    #: Whether the build would print it (else ``errors`` say why).
    printable: bool
    #: The text's scale, and how many mm it is too tall at its floor (None: it fits).
    scale: float
    overflow: float | None
    warnings: list[str]
    errors: list[str]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
