"""From cards to laid-out pages: the card's printed fields, its HTML, and WeasyPrint.

A card is rendered from the markup tree (what Aminduna prints), never from re-parsed
HTML: every text run is escaped here, every other value by Jinja's autoescape.  The
renderer may read only what a card needs (the library's files, the theme, its fonts,
the converted artwork): any other URL, a ``file:`` outside those places or the
network, is refused and reported.
"""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from html import escape
from pathlib import Path
from typing import Any, Literal

from ..cards.model import HAS_ATTACK, HAS_DEFENSE, SOURCE_LANGUAGE, Card
from ..glossary.model import Glossary
from ..limits import MAX_IMAGE_BYTES
from ..markup import parse
from ..markup.html import paragraph_html
from ..markup.ruletext import symbol_text
from ..markup.tree import Document, DropCap, Symbol, Text
from ..pdf.sizes import CardSize, card_size
from ..textio import InputError, read_file
from . import weasy
from .elements import PX_MM, SPECS, measure_page
from .hyphenation import hyphenated_html
from .labels import card_labels
from .symbols import inline_drawing, symbol_svg
from .theme import Theme, ThemeError, cmyk, faction_slug
from .weasy import FontConfiguration, URLFetcher, URLFetcherResponse, weasyprint

#: The card text's size at scale 1, in points (the reference's 9 pt).
BODY_PT = 9.0
#: Card types laid out with the artwork on top; the others have it at the bottom.
ART_ON_TOP = frozenset({"Creature", "City"})
CSS_PX_MM = PX_MM
#: What :meth:`Renderer.render` lays out: the whole cards (False), their text boxes
#: alone (True, to measure the text), or their footers alone (:data:`FOOTERS`).
Measure = bool | Literal["footer"]
#: The layout of the footers alone: which need the theme's narrow face, known before
#: the cards are laid out (:func:`translator.typeset.fitting.lay_out`).
FOOTERS: Literal["footer"] = "footer"
#: The height of the page text is measured on: room for any card text.
MEASURE_PAGE_MM = 10000
#: How tall a column mark's drawing is made (em): more than any paragraph, whose
#: bottom cuts it (card.css: ``.sym-column``).
COLUMN_EM = 30.0


@dataclass
class CardPage:
    """What one printed card shows, ready for the template."""

    card: Card
    lang: str
    slug: str
    family: str
    values: dict[str, Any]
    #: Every character printed with the text font (for the coverage check).
    printed: str
    scale: float = 1.0
    #: The scale of each one-line element shrunk to fit its box (name, type, ...).
    fit: dict[str, float] = field(default_factory=dict)
    #: Elements set in the theme's narrow face to fit (the footer), if it has one.
    narrow: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    #: Why the card cannot be printed whatever its size (a word with no translation).
    errors: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.slug} ({self.lang})"

    @property
    def where(self) -> str:
        """The card file messages name: the translation's, else the English card's."""
        version = self.card.version(self.lang) or self.card.source
        return version.path if version is not None else self.label


def art_box(size: CardSize, card_type: str) -> tuple[float, float]:
    """The artwork's box in mm (width, height), as card.css lays it out."""
    width = size.width - 7.2
    return (width, 33.5) if card_type in ART_ON_TOP else (width, size.height - 61.6)


def _symbol(theme: Theme, ink: str | None = None):  # noqa: ANN202 - a SymbolRenderer
    def render(node: Symbol) -> str:
        label = escape(symbol_text(node.code).rstrip(","), quote=True)
        drawing = symbol_svg(
            node.code,
            theme_dir=theme.directories[0],
            tall=COLUMN_EM if node.kind == "column" else None,
            ink=ink,
        )
        return (
            f'<span class="sym sym-{node.kind} sym-{node.code}" role="img" '
            f'aria-label="{label}">{drawing}</span>'
        )

    return render


def text_html(
    document: Document, theme: Theme, lang: str | None = None, ink: str | None = None
) -> str:
    """The card text as HTML, every run escaped (translator.markup.html); in ``lang``,
    with its break points (translator.typeset.hyphenation; the card's tree is kept
    as it is, for the font check).  ``ink``: the text's colour, for the theme's own
    symbols (see :func:`~translator.typeset.symbols.symbol_svg`)."""
    render = _symbol(theme, ink)
    if lang:
        return hyphenated_html(document, lang, render)
    return "\n".join(paragraph_html(p, render) for p in document.paragraphs)


def printed_characters(document: Document) -> str:
    """The characters the text font prints (symbols are drawings, not characters)."""
    parts = []
    for paragraph in document.paragraphs:
        for node in paragraph.children:
            if isinstance(node, Text):
                parts.append(node.text)
            elif isinstance(node, DropCap):
                parts.append(node.letter)
    return "".join(parts)


def card_page(card: Card, lang: str, theme: Theme, glossary: Glossary | None) -> CardPage:
    """The printed fields of ``card`` in ``lang`` (translations inherit stats and art)."""
    card_type = str(card.get("type") or "")
    faction = str(card.get("faction") or "None")
    text = str(card.get("text", lang) or "")
    document = parse(text.replace("\r\n", "\n").strip("\n")).document
    labels = card_labels(card, lang, glossary if lang != SOURCE_LANGUAGE else None)
    type_line, faction_name = labels.type_line, labels.faction
    values: dict[str, Any] = {
        "slug": card.slug,
        "lang": lang,
        "family": "creature" if card_type in ART_ON_TOP else "spell",
        "type_slug": card_type.lower() or "none",
        "name": str(card.get("name", lang) or ""),
        "name2": card.get("name2", lang),
        "cost": card.get("cost"),
        "loyalty": int(card.get("loyalty") or 0),
        "attack": card.get("attack") if card_type in HAS_ATTACK else None,
        "defense": card.get("defense") if card_type in HAS_DEFENSE else None,
        "type_line": type_line,
        "faction_name": faction_name,
        "info": labels.footer,
        "faction_slug": faction_slug(faction),
        "text": weasyprint_markup(
            text_html(document, theme, lang, theme.text_ink(faction, card_type))
        ),
        "artwork": None,
        "placeholder": "artwork missing",
        "background": None,
        "loyalty_mark": _loyalty_mark(theme, faction, card_type),
    }
    background = theme.background(faction, card_type)
    if background is not None:
        values["background"] = background.as_uri()
    printed = "".join(
        str(v)
        for v in (
            values["name"],
            values["name2"] or "",
            type_line,
            faction_name,
            values["info"],
            values["cost"] or "",
            values["attack"] or "",
            values["defense"] or "",
        )
    )
    page = CardPage(
        card, lang, card.slug, values["family"], values, printed + printed_characters(document)
    )
    # Whether the card should be printed at all (no translation, stale, a draft) is
    # its state's business, decided before it is rendered: readiness.py.
    page.errors.extend(f"{page.where}: {error}" for error in labels.errors)
    return page


def _loyalty_mark(theme: Theme, faction: str, card_type: str) -> Any:
    """The theme's drawing of a loyalty mark for the faction (``loyalty/<faction>.svg``,
    when its layout says ``drawing: svg``) as inline SVG, or None (the template draws
    its own)."""
    if (theme.layout_of(faction, card_type).get("loyalty") or {}).get("drawing") != "svg":
        return None
    slug = faction_slug(faction)
    path = theme.directories[0] / "loyalty" / f"{slug}.svg"
    return weasyprint_markup(inline_drawing(path, f"loyalty-{slug}")) if path.is_file() else None


def weasyprint_markup(html: str) -> Any:
    """Mark HTML made (and escaped) by the renderer as safe for Jinja."""
    from markupsafe import Markup  # noqa: PLC0415 - Jinja's own dependency

    return Markup(html)


class Fetcher(URLFetcher):
    """WeasyPrint's URL fetcher, allowed to read files under ``roots`` only (and
    ``data:`` URLs); no network, no other file."""

    def __init__(self, roots: Iterable[Path]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = [Path(r).resolve() for r in roots]
        self.refused: list[str] = []

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme == "data":
            return super().fetch(url, headers)
        if parsed.scheme == "file":
            path = Path(urllib.request.url2pathname(parsed.path)).resolve()
            if any(path.is_relative_to(root) for root in self.roots):
                try:  # a regular file within the limit: a FIFO would hang the render
                    data = read_file(path, MAX_IMAGE_BYTES, "file a card shows")
                except InputError:
                    pass
                else:
                    return URLFetcherResponse(path.as_uri(), data, {"Content-Type": _mime(path)})
        self.refused.append(url)
        raise ValueError(f"translator reads no {url}: only the library, the theme and its fonts")


def _mime(path: Path) -> str:
    return {
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".jpg": "image/jpeg",
        ".jpeg": "image/jpeg",
        ".png": "image/png",
        ".ttf": "font/ttf",
        ".otf": "font/otf",
        ".woff": "font/woff",
        ".woff2": "font/woff2",
    }.get(path.suffix.lower(), "application/octet-stream")


@dataclass
class Renderer:
    """One theme, size and fetcher: renders pages of cards (kept alive for a batch)."""

    theme: Theme
    size: CardSize
    roots: list[Path]
    fonts: FontConfiguration = field(default_factory=FontConfiguration)

    def __post_init__(self) -> None:
        if self.theme.size is not None and card_size(self.theme.size) != self.size:
            raise ThemeError(
                f"{self.theme.directories[0] / 'theme.yaml'}: the theme "
                f"{self.theme.name!r} is drawn for {self.theme.size} cards "
                f"({describe_size(card_size(self.theme.size))}), not "
                f"{describe_size(self.size)}: build with --size {self.theme.size}"
            )
        self.fetcher = Fetcher([*self.roots, *self.theme.roots])
        # Theme templates run sandboxed; any error in one is a ThemeError naming the
        # template file and line (Theme.template, Theme.render).
        self.template = self.theme.template("deck.html.j2")
        bleed = self.size.bleed
        fonts = self.theme.font_urls()
        page = self.theme.render("page.css.j2", size=self.size, fonts=fonts)
        cards = self.theme.render(
            "card.css.j2",
            size=self.size,
            at=lambda mm: f"{mm + bleed:.3f}mm",
            factions={faction_slug(name): self.theme.colours(name) for name in self.theme.factions},
            layout=self.theme.layout,
            metrics=self.theme.metrics(),
            ink=cmyk,
        )
        # Parsed once: a stylesheet inside the document would be parsed at every render
        # (a sixth of the time of a batch).
        self.stylesheet = weasyprint.CSS(
            string=page + cards,
            base_url=self._base_url,
            url_fetcher=self.fetcher,
            font_config=self.fonts,
        )
        # The theme's stylesheet makes no list item, footnote or note: a document that
        # makes none either is rendered with a UA stylesheet that does not style their
        # pseudo-elements (_card_ua_stylesheets).
        self.boxless_pseudo_unused = not _styles_boxless_pseudo(self.stylesheet)
        # Measuring: a page far taller than the card, since WeasyPrint drops the lines
        # below a page's bottom, and a text overflowing the card must be measured whole.
        self.measuring = weasyprint.CSS(
            string=f"@page {{ size: {self.size.page_width}mm {MEASURE_PAGE_MM}mm }}"
        )
        # Nor does it style a page's margin boxes: that UA stylesheet leaves out their
        # rules too (PAGE_AREAS).
        self.page_areas_unused = not _styles_page_areas(self.stylesheet)

    @property
    def _base_url(self) -> str:
        return self.theme.directories[0].as_uri() + "/"

    def html(self, pages: Sequence[CardPage], measure: Measure = False) -> str:
        return self.template.render(
            cards=[
                {
                    **page.values,
                    "font_size": f"{BODY_PT * page.scale:.3f}",
                    "fit": {spec.name: _em(page.fit.get(spec.name, 1.0)) for spec in SPECS},
                    "narrow": sorted(page.narrow),
                }
                for page in pages
            ],
            size=self.size,
            measure=measure,
        )

    def render(self, pages: Sequence[CardPage], measure: Measure = False) -> weasyprint.Document:
        """The pages of ``pages``; with ``measure``, only their text boxes (a quarter of
        the layout work), enough for :func:`overflows`; with ``measure`` :data:`FOOTERS`,
        only their footers (on the card's page: placed as on the whole card)."""
        html = weasyprint.HTML(
            string=self.html(pages, measure), base_url=self._base_url, url_fetcher=self.fetcher
        )
        if self.boxless_pseudo_unused and not _may_use_boxless_pseudo(html):
            weasy.use_ua_stylesheets(
                html, partial(_card_ua_stylesheets, page_areas=not self.page_areas_unused)
            )
        sheets = [self.stylesheet, self.measuring] if measure is True else [self.stylesheet]
        return html.render(font_config=self.fonts, stylesheets=sheets)


#: The pseudo-elements WeasyPrint's UA stylesheet styles on every element (``::marker
#: { ... }``), each a computed style per element, which make a box only on a list item
#: (``display: list-item``), a footnote (``float: footnote``) or a note (``position:
#: note()``).
BOXLESS_PSEUDO = (
    "marker",
    "footnote-call",
    "footnote-marker",
    "note-call",
    "note-marker",
    "note-callback",
)
_BOXLESS_RULE = re.compile(rf"(?m)^::(?:{'|'.join(BOXLESS_PSEUDO)}) {{[^}}]*}}\n")
#: A page's areas the UA stylesheet styles in its ``@page`` rule (``@top-left {
#: text-align: left; vertical-align: middle }``...): its 16 margin boxes, which print
#: only with a content given by an author's stylesheet, and its footnote and note
#: areas, which print only a footnote or a note.  Each is a computed style on every
#: page, and each margin box a box laid out.
PAGE_AREAS = (
    *(f"{side}-{place}" for side in ("top", "bottom") for place in ("left", "center", "right")),
    *(f"{side}-{place}" for side in ("left", "right") for place in ("top", "middle", "bottom")),
    *(f"{side}-{corner}-corner" for side in ("top", "bottom") for corner in ("left", "right")),
    "footnote",
    "note-area",
)
_PAGE_AREA_RULE = re.compile(rf"(?m)^ +@(?:{'|'.join(PAGE_AREAS)}) +{{[^}}]*}}\n")
#: Elements that would make one (the UA stylesheet's ``li``) or bring a stylesheet
#: of their own, which :func:`_styles_boxless_pseudo` has not read.
_UNREAD_TAGS = frozenset({"li", "style", "link"})
#: A style attribute that might ask for one (or hide it behind an escape).
_BOXLESS_STYLE = re.compile(r"list-item|note|\\", re.IGNORECASE)


@cache
def _card_ua_sheet(page_areas: bool = True) -> weasyprint.CSS | None:
    """WeasyPrint's HTML UA stylesheet but for its rules of :data:`BOXLESS_PSEUDO`:
    every other rule in its order, so that every element's computed style is the same
    (tests/typeset/test_typeset_render_ua.py).  Without ``page_areas``, without its rules of
    :data:`PAGE_AREAS` either.  None when this WeasyPrint does not give its text
    (its own is used)."""
    text = weasy.ua_stylesheet_text()
    if text is None:
        return None
    text, removed = _BOXLESS_RULE.subn("", text)
    if removed != len(BOXLESS_PSEUDO):
        raise RuntimeError(f"WeasyPrint's UA stylesheet has {removed} rules of {BOXLESS_PSEUDO}")
    if not page_areas:
        text, removed = _PAGE_AREA_RULE.subn("", text)
        if removed != len(PAGE_AREAS):
            raise RuntimeError(f"WeasyPrint's UA stylesheet has {removed} rules of {PAGE_AREAS}")
    return weasy.ua_stylesheet(text)


def _card_ua_stylesheets(forms: bool = False, page_areas: bool = True) -> list[weasyprint.CSS]:
    """The UA stylesheets of a document of cards that makes no list item, footnote or
    note: :func:`_card_ua_sheet`, so that WeasyPrint does not style the pseudo-elements
    of :data:`BOXLESS_PSEUDO` on every element (a fifth of its styling time), styles of
    no box.  Without ``page_areas`` (a theme that styles no margin box either), without
    the rules of :data:`PAGE_AREAS`: WeasyPrint lays out each page's 16 empty margin
    boxes, its footnote area and its note area with the page's anonymous style, one
    computed style instead of 18 (1.7 ms of CPU a card).  With ``forms``, or when
    WeasyPrint's text is not to be had, WeasyPrint's own."""
    sheet = None if forms else _card_ua_sheet(page_areas)
    return weasy.default_ua_stylesheets(forms) if sheet is None else [sheet]


def _styles_boxless_pseudo(sheet: weasyprint.CSS) -> bool:
    """Whether a declaration of ``sheet`` may make a list item, a footnote or a note,
    whose pseudo-elements are styled by the UA stylesheet (True when WeasyPrint does
    not say what it parsed)."""
    found = weasy.declarations(sheet)
    return found is None or any(_boxless_declaration(name, value) for name, value in found)


def _styles_page_areas(sheet: weasyprint.CSS) -> bool:
    """Whether ``sheet`` has a rule for one of a page's :data:`PAGE_AREAS` (True when
    WeasyPrint does not say what it parsed)."""
    found = weasy.page_area_rules(sheet)
    return found is None or bool(found)


def _boxless_declaration(name: str, value: Any) -> bool:
    """Whether a parsed declaration may make a list item, a footnote or a note (a
    value not resolved yet, ``var()``, may)."""
    if name not in ("display", "float", "position"):
        return False
    if not isinstance(value, (str, tuple)):
        return True
    return (
        (name == "display" and "list-item" in value)
        or (name == "float" and value == "footnote")
        or (name == "position" and isinstance(value, tuple) and value[:1] == ("note()",))
    )


def _may_use_boxless_pseudo(html: weasyprint.HTML) -> bool:
    """Whether the parsed document may make a list item, a footnote or a note by
    itself: an ``li``, a stylesheet of its own, or a style attribute asking for one."""
    for element in weasy.html_elements(html):
        tag = element.tag
        if isinstance(tag, str) and tag.rpartition("}")[2] in _UNREAD_TAGS:
            return True
        style = element.get("style")
        if style and _BOXLESS_STYLE.search(style):
            return True
    return False


def describe_size(size: CardSize) -> str:
    """A card size in words: '64 x 90 mm + 2 mm bleed'."""
    return f"{size.width:g} x {size.height:g} mm + {size.bleed:g} mm bleed"


def _em(scale: float) -> str:
    """An element's scale as the template writes it (``font-size: 0.860em``), empty at
    full size (nothing written)."""
    return "" if scale == 1.0 else f"{scale:.3f}"


def overflows(document: weasyprint.Document) -> list[tuple[float, float]]:
    """For each page: the height of its text and of the text's frame, in mm
    (:func:`translator.typeset.elements.text_heights`, measured on WeasyPrint's layout
    through :mod:`translator.typeset.weasy`)."""
    return [measure_page(page).text for page in document.pages]


#: The class of the box that holds a card's rule text, and of its content (whose style
#: attribute sets the text's scale).
TEXT_FRAME = next(spec.box for spec in SPECS if spec.name == "text")
TEXT_CONTENT = next(spec.text for spec in SPECS if spec.name == "text")


def _text_frame(page_box: Any) -> tuple[Any, int, Any, tuple[str, ...]] | None:
    """The one text frame of a laid-out page: (its parent, its index there, the box,
    the classes of its ancestors), or None unless there is exactly one."""
    found = []

    def walk(box: Any, owners: tuple[str, ...]) -> None:
        for index, child in enumerate(weasy.children(box)):
            real = weasy.laid_out(child)
            classes = weasy.classes(real)
            if TEXT_FRAME in classes:
                found.append((box, index, real, owners))
            else:
                walk(real, (*owners, *classes) if classes else owners)

    walk(page_box, ())
    return found[0] if len(found) == 1 else None


def _same_markup(one: Any, other: Any, inside: bool = False) -> bool:
    """Whether two HTML elements are the same markup, children included, but for the
    style attribute of the text's content (the scale it is set at); ``inside``: their
    tails too (the text after an element is its parent's)."""

    def attributes(element: Any) -> dict[str, str]:
        found = dict(element.attrib)
        if TEXT_CONTENT in (found.get("class") or "").split():
            found.pop("style", None)
        return found

    return (
        one.tag == other.tag
        and attributes(one) == attributes(other)
        and one.text == other.text
        and (not inside or one.tail == other.tail)
        and len(one) == len(other)
        and all(_same_markup(a, b, inside=True) for a, b in zip(one, other, strict=True))
    )


def with_measured_text(page: weasyprint.Page, measured: weasyprint.Page) -> weasyprint.Page | None:
    """``page``, a card laid out whole, with its text frame replaced by the one laid out
    on ``measured`` (the same card measured at another text scale: only its text box,
    :meth:`Renderer.render` with ``measure``): the card at that scale without laying
    its other elements out again.  None (lay the card out whole) unless the two frames
    are the same box in the same place: the same markup (but for the scale), the same
    ancestors' classes, position, size and sides, and the same computed style, from
    which its content's follow (a theme whose measuring document makes the frame
    otherwise is laid out whole; its ``measure`` mode must not style the text box by
    the elements it leaves out, templates/README.md).  ``page``'s boxes are changed: it
    is the page being replaced."""
    full, alone = _text_frame(weasy.page_box(page)), _text_frame(weasy.page_box(measured))
    if full is None or alone is None:
        return None
    parent, index, box, owners = full
    _, _, new, new_owners = alone
    if owners != new_owners or not _same_markup(weasy.element(box), weasy.element(new)):
        return None
    if weasy.geometry(box) != weasy.geometry(new) or not weasy.same_style(box, new):
        return None
    return weasy.swap_child(page, parent, index, new)
