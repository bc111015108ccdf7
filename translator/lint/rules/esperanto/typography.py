"""EO2 rules: typography.

No space before punctuation (EO201), « » for quotation marks (EO202), the same
spacing inside both guillemets of a pair (EO203).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....diagnostics import Applicability, Severity
from ....markup.tree import Text
from ...context import Reporter, Subject
from ...model import SYMBOL_MARK, Finding
from .shared import ESPERANTO_RULES, SPACES, Place, place_finding, places, printed_space

#: The family of this module's rules (EO2).
FAMILY = ESPERANTO_RULES.part("EO2")


_BEFORE_PUNCTUATION = re.compile(r"[ \t\u00a0\u202f]+(?=[.,;:!?])")


@FAMILY.rule(
    code="EO201",
    name="space-before-punctuation",
    severity=Severity.WARNING,
    summary="A space before . , ; : ! ?",
    rationale="Esperanto puts no space before punctuation, unlike French: « arcmage.org - aligu "
    "nin! » (the footer line of the Leksikono), « La frakcioj estas: Geo, Ombra "
    "Legio... » (Arcmage Reguloj).  The wiki's Esperanto pages write over 800 "
    "punctuation marks without a space before them, and two with one (« Kosto : "
    "Efiko », « Ruĝa Flago . »).  A space before an ellipsis (...) is not reported, "
    "nor the colon after a symbol code (« :m: : Cela ludanto... »), which keeps the "
    "cost notation of the English card (a symbol, a space, the colon).",
    bad="en: Target player draws one card.\neo: Cela ludanto eltiras unu karton .",
    good="en: Target player draws one card.\neo: Cela ludanto eltiras unu karton.",
    fix="Removes the space.",
    applicability=Applicability.SAFE,
)
def check_space_before_punctuation(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        text = place.text
        for match in _BEFORE_PUNCTUATION.finditer(text):
            start, end = match.span()
            mark = text[end]
            following = text[end + 1 : end + 2]
            if start == 0 or text[start - 1] in '\n«("“„':
                continue
            if mark == ":" and text[start - 1] == SYMBOL_MARK:
                continue  # « :m: : Cela... »: the cost notation of the English card
            if mark == "." and following == ".":
                continue  # an ellipsis
            if (mark in ".," and following.isdigit()) or (
                mark == ":" and following != "" and (following.isalnum() or following in "-)(")
            ):
                continue  # a decimal, a raw symbol code, a smiley
            if not all(printed_space(subject, place, i) for i in range(start, end)):
                continue
            name = (
                "a space"
                if match.group() == " "
                else ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(match.group()))
            )
            yield place_finding(
                subject,
                report,
                place,
                start,
                f"{name} before '{mark}': Esperanto puts no space before punctuation",
                (start, end, ""),
            )


#: Straight, English and German quotation marks around a quote in one paragraph.
_OTHER_QUOTES = re.compile(
    r"\"([^\"\n]+)\"|“([^”“\n]+)”|„([^“”„\n]+)[“”]|”([^”\n]+)”|‘([^‘’\n]+)’"
    # a straight single quote opens after a space, and closes before one: l' urbo,
    # dom' are elisions
    r"|(?:^|(?<=[\s(]))'([^'\n]+?)'(?=$|[\s.,;:!?)])"
)
#: Quotation marks that may open a flavour paragraph where « should (TR302 leaves
#: them to this rule).
_OPENING_QUOTES = "\"“”„'‘"
QUOTE_STYLES = ("either", "tight", "spaced")


def _quote_setting(subject: Subject) -> str:
    value = str(subject.resources.settings.get("esperanto-quotes") or "tight")
    return value if value in QUOTE_STYLES else "tight"


def _guillemet_pairs(text: str) -> list[tuple[int, int]]:
    """(position of «, position of ») of each pair in a text, not nested."""
    pairs: list[tuple[int, int]] = []
    opening: int | None = None
    for i, char in enumerate(text):
        if char == "«":
            opening = i
        elif char == "»" and opening is not None:
            pairs.append((opening, i))
            opening = None
    return pairs


def _pair_style(text: str, opening: int, closing: int) -> tuple[bool, bool]:
    """(a space after «, a space before ») of a pair."""
    return text[opening + 1] in SPACES, text[closing - 1] in SPACES


def card_quote_style(subject: Subject) -> str | None:
    """``tight`` or ``spaced``: the ``esperanto-quotes`` setting, else what most
    guillemet pairs of the card write (both sides alike; the wiki's tight «...» on a
    tie), else None (the card has no such pair)."""
    setting = _quote_setting(subject)
    if setting != "either":
        return setting
    if "EO quotes" not in subject.cache:
        _read_quote_style(subject)
    return subject.cache["EO quotes"]


def card_quote_space(subject: Subject) -> str:
    """The space the card writes inside its guillemets (the sample cards: U+00A0),
    a plain space if none."""
    if "EO quote space" not in subject.cache:
        _read_quote_style(subject)
    return subject.cache["EO quote space"]


def _read_quote_style(subject: Subject) -> None:
    tight = spaced = 0
    space = None
    for place in places(subject):
        for opening, closing in _guillemet_pairs(place.text):
            style = _pair_style(place.text, opening, closing)
            tight += style == (False, False)
            spaced += style == (True, True)
            if style == (True, True) and space is None:
                space = place.text[opening + 1]
    subject.cache["EO quotes"] = (
        None if tight == spaced == 0 else "spaced" if spaced > tight else "tight"
    )
    subject.cache["EO quote space"] = space or " "


@FAMILY.rule(
    code="EO202",
    name="esperanto-quotes",
    severity=Severity.WARNING,
    summary='Quotation marks in Esperanto are « », not " ", “ ” or „ “.',
    rationale="The wiki's Esperanto pages quote with guillemets: « La termino «la ludanto» kutime "
    "rilatas al la aktiva ludanto », « la efikon «ne povas flugi» » (Arcmage Reguloj, "
    "15 pairs in its newest revision), and every edit summary (« ŝanĝu «resurson» al "
    "«rimedo» »).  Aminduna recognises flavour text by its opening «, and the sample "
    "cards quote with « » only.  (Arcmage Reguloj also has 13 pairs of straight quotes, "
    'such as "kolektanto-numero": leftovers of the English text.)',
    bad='en: *"Steel does not hesitate."*\neo: *"Ŝtalo ne hezitas."*',
    good='en: *"Steel does not hesitate."*\neo: *«Ŝtalo ne hezitas.»*',
    fix="Replaces a pair of quotes in one paragraph by « », spaced inside as the card's "
    "other guillemets are (without spaces, as the wiki writes them, by default).",
    applicability=Applicability.SAFE,
)
def check_quotes(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        text = place.text
        found = False
        for match in _OTHER_QUOTES.finditer(text):
            found = True
            inner = next(g for g in match.groups() if g is not None).strip(SPACES)
            space = card_quote_space(subject) if card_quote_style(subject) == "spaced" else ""
            replacement = f"«{space}{inner}{space}»"
            yield place_finding(
                subject,
                report,
                place,
                match.start(),
                f"quotation marks {match.group()[0]}{match.group()[-1]}: write {replacement}",
                (match.start(), match.end(), replacement),
            )
        if not found and _unpaired_flavour(subject, place):
            opening = len(text) - len(text.lstrip(SPACES))
            yield place_finding(
                subject,
                report,
                place,
                opening,
                f"the last paragraph opens with {text[opening]}: flavour text "
                "opens with « (Aminduna reads it as rule text otherwise)",
            )


def _unpaired_flavour(subject: Subject, place: Place) -> bool:
    """Is ``place`` the last paragraph, in italics, opening with a quotation mark that
    is not « (an unclosed one: the pairs are reported with a fix)?"""
    paragraphs = subject.plain.paragraphs
    if place.index is None or place.index != len(paragraphs) - 1 or subject.plain.flavor:
        return False
    first = paragraphs[place.index].paragraph.children[0]
    return (
        isinstance(first, Text)
        and first.italic
        and first.text.lstrip(SPACES)[:1] in tuple(_OPENING_QUOTES)
    )


@FAMILY.rule(
    code="EO203",
    name="guillemet-spacing",
    severity=Severity.WARNING,
    summary="The two guillemets of a pair are not spaced alike (« » with a space on one side "
    "only), or not as the card's other pairs.",
    rationale="The wiki's Esperanto pages write no space inside guillemets (« «la ludanto» », "
    "« «X + 2» », « «Amin Duna» »: 15 pairs in Arcmage Reguloj, none spaced): that is "
    'the default (`esperanto-quotes = "tight"`).  `"spaced"` asks for a space '
    'on both sides (the French habit); `"either"` accepts both as long as a pair, '
    "and a card, keep to one (any space counts: plain, no-break or narrow).  A space "
    "on one side only is always a slip.",
    bad='en: *"It burns brightest near the dead."*\neo: *« Ĝi brulas plej hele apud la '
    "mortintoj.»*",
    good='en: *"It burns brightest near the dead."*\neo: *«Ĝi brulas plej hele apud la '
    "mortintoj.»*",
    fix="Adds or removes the space inside the guillemet that differs from the card's style "
    "(the style of its other pairs; without spaces when they do not tell).",
    applicability=Applicability.SAFE,
)
def check_guillemet_spacing(subject: Subject, report: Reporter) -> Iterator[Finding]:
    setting = _quote_setting(subject)
    style = card_quote_style(subject)
    for place in places(subject):
        text = place.text
        for opening, closing in _guillemet_pairs(text):
            if not text[opening + 1 : closing].strip(SPACES):
                continue
            after, before = _pair_style(text, opening, closing)
            wanted, why = _wanted_spacing(style, setting, after, before)
            if after == before == wanted:
                continue
            how = "with a space inside" if wanted else "without a space inside"
            sides = ((opening + 1, after, "«"), (closing, before, "»"))
            for position, spaced, mark in sides:
                if spaced == wanted:
                    continue
                fix = _spacing_fix(subject, place, (opening, closing), position, mark, spaced)
                if fix is None:
                    continue
                yield place_finding(
                    subject,
                    report,
                    place,
                    fix[0],
                    f"'{mark}': this pair of guillemets {why}: write it {how}",
                    fix,
                )


def _wanted_spacing(style: str | None, setting: str, after: bool, before: bool) -> tuple[bool, str]:
    """Whether a pair spaced so (a space ``after`` «, ``before`` ») should have spaces
    inside, and why, by the card's ``style`` (None: its pairs are spaced on one side
    only, so the opening guillemet decides) and the ``esperanto-quotes`` setting."""
    if style is None:  # the card's only pairs are spaced on one side
        return after, "is spaced on one side only"
    why = (
        "is spaced on one side only"
        if after != before
        else "is not spaced as the card's other pairs"
        if setting == "either"
        else f'is not spaced as esperanto-quotes = "{setting}" says'
    )
    return style == "spaced", why


def _spacing_fix(
    subject: Subject,
    place: Place,
    pair: tuple[int, int],
    position: int,
    mark: str,
    spaced: bool,
) -> tuple[int, int, str] | None:
    """The edit that gives guillemet ``mark`` of ``pair`` the other spacing: a space
    added at ``position`` (the other guillemet's, else the card's), or the spaces
    there removed; None when one of those is not a space written in the file."""
    opening, closing = pair
    text = place.text
    if not spaced:  # the other guillemet's space, else the card's
        other = text[closing - 1] if mark == "«" else text[opening + 1]
        space = other if other in SPACES else card_quote_space(subject)
        return (position, position, space)
    start = end = position
    if mark == "«":
        while end < closing and text[end] in SPACES:
            end += 1
    else:
        while start > opening + 1 and text[start - 1] in SPACES:
            start -= 1
    if not all(printed_space(subject, place, i) for i in range(start, end)):
        return None
    return (start, end, "")
