"""Review sheets: one static page per deck and language, for a proofreader.

Everything a reviewer looks at before a deck goes to print, on one page that opens
from disk: per card, the English and the translated card as printed (the real
renders of the typesetting, at screen resolution), their texts side by side with
what must agree marked and what differs outlined where, and only where, the card's
lint findings say so (:mod:`.highlight`), the linter's findings with their fixes,
the card's state and review, and the command line that signs it off.  On top, the
deck's counts by state and by rule, the cards whose text had to shrink or does not
fit, and the preflight of the deck PDF.

The renders come from :func:`translator.typeset.batch.produce`, which keeps its own
record: a second sheet of the same deck renders only the cards that changed.
"""

from __future__ import annotations

import datetime
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .. import __version__
from ..atomic import replacing
from ..cards.model import DEFAULT_FOOTERS, LANGUAGE_NAMES, SOURCE_LANGUAGE, Card, Library
from ..lint.context import Subject
from ..lint.engine import Options, Report, Resources, lint, subjects_of
from ..lint.model import Finding, plain_text
from ..markup.parser import parse
from ..shipped import templates_root
from ..typeset.symbols import symbol_svg
from ..workflow.states import STATES, CardState, card_state
from .highlight import text_html, text_marks


@dataclass
class Field:
    """One line of the texts table: a field in English and in the translation."""

    label: str
    english: Markup
    target: Markup | None


@dataclass
class Row:
    """One card of the sheet."""

    slug: str
    english_name: str
    name: str
    state: CardState
    fields: list[Field]
    findings: list[Finding]
    english_image: str | None = None
    image: str | None = None
    pdf: str | None = None
    #: The text's scale on the printed card (1.0: as designed).
    scale: float | None = None
    #: mm the text is too tall even at the smallest scale (None: it fits).
    overflow: float | None = None
    #: Why the card was not printed besides its text's height (a name too wide for its
    #: box, a word its glossary lacks), without the file name.
    print_errors: list[str] = field(default_factory=list)
    reviewer: str | None = None

    @property
    def codes(self) -> list[str]:
        return sorted({f.code for f in self.findings})

    @property
    def command(self) -> str:
        return f"translator review {self.slug} --lang {self.state.lang}"

    @property
    def search(self) -> str:
        """What the search box looks in: names, slug, the texts (lower case)."""
        texts = " ".join(
            str(f.english.striptags())
            + " "
            + ("" if f.target is None else str(f.target.striptags()))
            for f in self.fields
        )
        return " ".join([self.slug, self.english_name, self.name, texts]).casefold()


@dataclass
class Sheet:
    deck: str
    deck_name: str
    lang: str
    rows: list[Row]
    deck_pdf: str | None = None
    #: The deck PDF's preflight problems (``None``: not checked).
    preflight: list[str] | None = None
    generated: str = ""
    seconds: float = 0.0
    renders: bool = True
    #: Why the deck PDF was not written (a card it holds failed), if it was not.
    deck_missing: str | None = None

    @property
    def states(self) -> dict[str, int]:
        counts = dict.fromkeys(STATES, 0)
        for row in self.rows:
            counts[row.state.state] += 1
        return counts

    @property
    def rules(self) -> list[tuple[str, int, str]]:
        """(code, findings, severity) by code."""
        counts = Counter(f.code for row in self.rows for f in row.findings)
        severity = {f.code: f.severity.value for row in self.rows for f in row.findings}
        return [(code, counts[code], severity[code]) for code in sorted(counts)]

    @property
    def overflowing(self) -> list[Row]:
        return [row for row in self.rows if row.overflow is not None]

    @property
    def unprintable(self) -> list[Row]:
        return [row for row in self.rows if row.print_errors]

    @property
    def shrunk(self) -> list[Row]:
        return [
            row
            for row in self.rows
            if row.scale is not None and row.scale < 1.0 and row.overflow is None
        ]

    @property
    def with_findings(self) -> int:
        return sum(1 for row in self.rows if row.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "lang": self.lang,
            "cards": len(self.rows),
            "states": self.states,
            "rules": {c: n for c, n, _ in self.rules},
            "with_findings": self.with_findings,
            "overflowing": [r.slug for r in self.overflowing],
            "unprintable": {r.slug: r.print_errors for r in self.unprintable},
            "shrunk": [r.slug for r in self.shrunk],
            "deck_pdf": self.deck_pdf,
            "preflight": self.preflight,
            "deck_missing": self.deck_missing,
        }


@dataclass
class Renders:
    """What the typesetting made for the sheet: images and PDFs by (slug, lang)."""

    images: dict[tuple[str, str], Path] = field(default_factory=dict)
    pdfs: dict[tuple[str, str], Path] = field(default_factory=dict)
    scales: dict[tuple[str, str], tuple[float, float | None]] = field(default_factory=dict)
    #: Why a card was not printed besides its text's height, by (slug, lang).
    errors: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    decks: dict[tuple[str, str], Path] = field(default_factory=dict)
    #: Preflight problems by file.
    problems: dict[str, list[str]] = field(default_factory=dict)
    #: Deck PDFs not written, and why (a card they hold failed), by (deck, lang).
    missing: dict[tuple[str, str], str] = field(default_factory=dict)
    seconds: float = 0.0


# --------------------------------------------------------------------------------------
# Texts


@lru_cache(maxsize=256)
def _symbol(code: str, classes: str) -> str:
    """A symbol's drawing for the screen: its print colours (``device-cmyk``, which
    browsers do not read, and would paint black) turned into RGB."""
    try:
        return _CMYK.sub(_rgb, symbol_svg(code, classes))
    except ValueError:
        return f'<span class="{classes}">:{escape(code)}:</span>'


_CMYK = re.compile(r"device-cmyk\(\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\)")


def _rgb(match: re.Match[str]) -> str:
    """The naive conversion (no profile): good enough to show a symbol on a screen."""
    c, m, y, k = (min(max(float(v), 0.0), 1.0) for v in match.groups())
    r, g, b = (round(255 * (1 - v) * (1 - k)) for v in (c, m, y))
    return f"rgb({r},{g},{b})"


def _text_fields(subject: Subject, findings: list[Finding]) -> tuple[Markup, Markup]:
    """The English and translated card texts, marked for comparison; what differs is
    what the card's lint ``findings`` say differs (:func:`.highlight.text_marks`)."""
    assert subject.source is not None
    english_marks, target_marks = text_marks(subject, findings)
    return (
        text_html(subject.source.plain, english_marks, _symbol),
        text_html(subject.plain, target_marks, _symbol),
    )


def _printed(body: str, lang: str) -> Markup:
    """A card text as printed, unmarked; as written when the converter fails on it."""
    result = parse(body)
    if result.crashes:
        return Markup(f"<pre>{escape(body)}</pre>")
    return text_html(plain_text(result.document, lang), {}, _symbol)


def _plain_field(value: object) -> Markup:
    return escape("" if value in (None, "") else str(value))


def _fields(card: Card, lang: str, subject: Subject | None, findings: list[Finding]) -> list[Field]:
    """The texts table of a card; ``findings`` are its lint findings (the texts mark
    what they say differs)."""
    assert card.source is not None
    version = card.translations.get(lang)
    found = []
    for key, label in (("name", "name"), ("name2", "second name line"), ("subtype", "subtype")):
        english = card.source.fields.get(key)
        here = None if version is None else version.fields.get(key)
        if english in (None, "") and here in (None, ""):
            continue
        found.append(
            Field(label, _plain_field(english), None if version is None else _plain_field(here))
        )
    if subject is not None and not subject.result.crashes:
        english_text, target_text = _text_fields(subject, findings)
        found.append(Field("text", english_text, target_text))
    else:  # no translation (nothing to compare), or a text the converter fails on
        found.append(
            Field(
                "text",
                _printed(card.source.body, SOURCE_LANGUAGE),
                None if version is None else _printed(version.body, lang),
            )
        )
    english_footer = card.get("info", SOURCE_LANGUAGE)
    footer = card.get("info", lang)
    if english_footer != DEFAULT_FOOTERS[SOURCE_LANGUAGE] or footer != DEFAULT_FOOTERS.get(lang):
        found.append(
            Field(
                "footer",
                _plain_field(english_footer),
                None if version is None else _plain_field(footer),
            )
        )
    return found


# --------------------------------------------------------------------------------------
# The sheet


def lint_report(library: Library, resources: Resources, options: Options, lang: str) -> Report:
    """The library linted in English and ``lang``, with the configured rules: what the
    sheets of ``lang`` show (one run for every deck's sheet)."""
    return lint(
        library,
        resources,
        Options(
            options.select,
            options.ignore,
            [SOURCE_LANGUAGE, lang],
            allow_english=options.allow_english,
            glossary_paths=options.glossary_paths,
            settings=options.settings,
        ),
    )


def make_sheet(
    library: Library,
    deck: str,
    lang: str,
    resources: Resources,
    options: Options,
    renders: Renders | None,
    out: Path,
    report: Report | None = None,
) -> Sheet:
    """The sheet of ``deck`` in ``lang``; image and PDF links are relative to ``out``.

    ``report`` is a lint report of the library in English and ``lang`` (linted here
    when not given).
    """
    if report is None:
        report = lint_report(library, resources, options, lang)
    by_card: dict[tuple[str, str], list[Finding]] = {}
    for finding in report.findings:
        by_card.setdefault((finding.card, finding.lang), []).append(finding)
    subject_options = Options(languages=[lang])
    subjects = {
        s.card.slug: s
        for s in subjects_of(library, resources, subject_options)
        if s.card.deck == deck
    }
    order = list(library.decks[deck].quantities)
    cards = sorted(
        library.deck_cards(deck),
        key=lambda c: (order.index(c.slug) if c.slug in order else len(order), c.slug),
    )

    def relative(path: Path | None) -> str | None:
        return None if path is None else Path(os.path.relpath(path, out)).as_posix()

    rows = []
    for card in cards:
        if card.source is None:
            continue
        subject = subjects.get(card.slug)
        version = card.translations.get(lang)
        findings = sorted(
            by_card.get((card.slug, SOURCE_LANGUAGE), []) + by_card.get((card.slug, lang), []),
            key=Finding.sort_key,
        )
        scale, overflow = (None, None)
        if renders is not None:
            scale, overflow = renders.scales.get((card.slug, lang), (None, None))
        row = Row(
            card.slug,
            card.name(SOURCE_LANGUAGE),
            card.name(lang) if version is not None else "",
            card_state(card, lang),
            _fields(card, lang, subject, findings),
            findings,
            scale=scale,
            overflow=overflow,
            reviewer=None
            if version is None or not version.fields.get("reviewer")
            else str(version.fields["reviewer"]),
        )
        if renders is not None:
            row.print_errors = renders.errors.get((card.slug, lang), [])
            row.english_image = relative(renders.images.get((card.slug, SOURCE_LANGUAGE)))
            if version is not None:
                row.image = relative(renders.images.get((card.slug, lang)))
                row.pdf = relative(renders.pdfs.get((card.slug, lang)))
        if subject is not None:
            subject.forget()
        rows.append(row)
    deck_pdf = None if renders is None else renders.decks.get((deck, lang))
    return Sheet(
        deck,
        library.decks[deck].name,
        lang,
        rows,
        relative(deck_pdf),
        None if renders is None or deck_pdf is None else renders.problems.get(str(deck_pdf), []),
        datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        renders.seconds if renders is not None else 0.0,
        renders is not None,
        None if renders is None else renders.missing.get((deck, lang)),
    )


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_root() / "review"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def sheet_file(deck: str, lang: str) -> str:
    return f"{deck}.{lang}.html"


def write_sheet(sheet: Sheet, out: Path) -> Path:
    """Write the sheet's page into ``out``, all at once."""
    template = _environment().get_template("sheet.html.j2")
    html = template.render(
        sheet=sheet, languages=LANGUAGE_NAMES, version=__version__, states=STATES
    )
    return _write(out / sheet_file(sheet.deck, sheet.lang), html)


def write_index(sheets: list[Sheet], out: Path) -> Path:
    """An index of the sheets in ``out``."""
    template = _environment().get_template("index.html.j2")
    html = template.render(
        sheets=sheets,
        languages=LANGUAGE_NAMES,
        version=__version__,
        sheet_file=sheet_file,
        states=STATES,
    )
    return _write(out / "index.html", html)


def _write(path: Path, text: str) -> Path:
    with replacing(path, 0o644, within=path.parent) as temporary:
        temporary.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------------------
# Renders


def render_cards(
    library: Library,
    lang: str,
    build_dir: Path,
    build_options: Any,
    dpi: float,
    progress: Callable[[int], None] | None = None,
    stage: Callable[[str], None] | None = None,
) -> Renders:
    """Card PDFs and screen previews in English and ``lang``, the deck PDFs of
    ``lang``, and their preflight, made (or kept: the build's own record) in
    ``build_dir``."""
    from ..typeset import batch  # noqa: PLC0415 - WeasyPrint loads slowly

    found = Renders()
    for languages, deck in (([SOURCE_LANGUAGE], False), ([lang], True)):
        request = batch.Request(
            languages, build_dir, build_options, deck=deck, previews=["png"], dpi=dpi
        )
        report = batch.produce(library, request, progress, stage)
        found.seconds += report.seconds
        for result in report.cards:
            found.scales[(result.slug, result.lang)] = (result.scale, result.overflow)
            errors = [
                error.split(": ", 1)[-1]
                for error in result.errors
                if "too tall for its box" not in error
            ]
            if errors:
                found.errors[(result.slug, result.lang)] = errors
            if result.path:
                found.pdfs[(result.slug, result.lang)] = Path(result.path)
        for image in report.images:
            slug, image_lang = Path(image).name.rsplit(".", 2)[:2]
            found.images[(slug, image_lang)] = Path(image)
        for file in report.files:
            name = Path(file).name
            if name.endswith(".deck.pdf"):
                deck_name, deck_lang = name[: -len(".deck.pdf")].rsplit(".", 1)
                found.decks[(deck_name, deck_lang)] = Path(file)
        for problem in report.problems:
            found.problems.setdefault(str(problem.path), []).append(str(problem))
        for missing in report.missing:
            name = Path(missing.path).name
            if name.endswith(".deck.pdf"):
                deck_name, deck_lang = name[: -len(".deck.pdf")].rsplit(".", 1)
                found.missing[(deck_name, deck_lang)] = missing.reason
    return found
