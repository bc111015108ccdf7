"""EO rules: the Esperanto house style (*Rekomendoj por traduki en esperanton*).

Spelling (EO1): the x-system (``cx`` for ĉ, EO101) and the h-system (``ch`` for ĉ,
``au`` for aŭ, EO102) of keyboards without the supersigned letters, and letters that
are not in the Esperanto alphabet (EO103).  Typography (EO2): no space before
punctuation (EO201), « » for quotation marks (EO202), the same spacing inside both
guillemets of a pair (EO203).  The Leksikono (EO3): a deprecated root inside a
compound word (EO301), which GL201 (whole words, in every form) cannot see.

The wiki's Esperanto pages (seed 001) hold no typography section; the house style is
what they write: guillemets without spaces inside (« «la ludanto» », « «ne povas
flugi» » in Arcmage Reguloj) and no space before punctuation (« aligu nin! »).  The
sample cards write their flavour text with no-break spaces inside, after the French
habit (« *«\u00a0Ĝi brulas ...\u00a0»* »): both spacings are accepted, a pair and a
card keeping to one, unless the ``esperanto-quotes`` setting asks for one.

Every rule reads the printed text (:attr:`Subject.plain`) and the name, second name,
subtype (and a card's own footer) fields; fixes of the text go through
:meth:`Subject.text_edit`, which gives up (no fix) where the printed characters are
not written as such in the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from ...cards.model import SOURCE_LANGUAGE, is_default_footer
from ...diagnostics import Applicability, Severity, rule
from ...glossary.matcher import normalize, words
from ...languages.eo import LANGUAGE as ESPERANTO
from ...markup.tree import Text
from ..context import Reporter, Subject
from ..model import SYMBOL_MARK, Edit, Finding
from ..rule import TRANSLATION

# The alphabet, the endings, the supersigned letters and the x- and h-system tables
# are the language's (ESPERANTO: glossaries/eo/language.yaml), read on first use.
#: Spaces a rule may see (plain, tab, no-break, narrow no-break).
_SPACES = " \t\u00a0\u202f"
#: Fields checked besides the text: the name lines and the subtype (the footer too,
#: when the English card has its own; otherwise TR701 compares it whole).
_FIELDS = ("name", "name2", "subtype")


# --------------------------------------------------------------------------------------
# Where the rules look: printed paragraphs and front matter fields.


@dataclass(frozen=True, slots=True)
class Place:
    """A text a rule reads: a printed paragraph (``index``) or a field's value."""

    key: str
    index: int | None
    text: str
    tokens: list[tuple[str, int, int]]


def places(subject: Subject) -> list[Place]:
    """The printed paragraphs, then the name, name2 and subtype values (and the info
    value when the English card has its own footer line); computed once per card
    version, for every EO rule."""
    cached: list[Place] | None = subject.cache.get(("tree", "EO places"))
    if cached is not None:
        return cached
    found = subject.cache["tree", "EO places"] = [
        Place("text", p.index, p.text, p.tokens) for p in subject.plain.paragraphs
    ]
    keys = list(_FIELDS)
    english_footer = subject.source_value("info")
    if english_footer and not is_default_footer(english_footer, SOURCE_LANGUAGE):
        keys.append("info")
    for key in keys:
        value = subject.value(key)
        if value:
            found.append(Place(key, None, value, words(value)))
    return found


def _report(
    subject: Subject,
    report: Reporter,
    place: Place,
    start: int,
    message: str,
    fix: tuple[int, int, str] | None = None,
) -> Finding:
    """A finding at character ``start`` of a place, with the fix replacing characters
    ``[fix[0], fix[1])`` by ``fix[2]`` where it can be written safely."""
    if place.index is None:
        edit = None if fix is None else Edit(place.key, *fix)
        return report.at(subject, place.key, start, message, edit)
    edit = None if fix is None else subject.text_edit(place.index, *fix)
    return report.span(subject, place.index, start, message, edit)


def _printed_space(subject: Subject, place: Place, index: int) -> bool:
    """Is character ``index`` a space written in the file (not a symbol, not markup)?"""
    if place.text[index] not in _SPACES:
        return False
    if place.index is None:
        return True
    paragraph = subject.plain.paragraphs[place.index]
    for start, node in paragraph.runs:
        text = getattr(node, "text", None)
        if text is not None and start <= index < start + len(text):
            return True
    return False


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(_SPACES + '*«»"“„(' + SYMBOL_MARK)
    return not before or before[-1] in ".!?:\n"


def _known(subject: Subject, word: str) -> bool:
    """A word of the glossaries (either side), the English word list or the configured
    allowed words: no spelling rule reports it."""
    resources = subject.resources
    return (
        word in subject.language.vocabulary
        or word in resources.allowed_words
        or word in resources.english_words
        or word in resources.english.vocabulary
    )


def _with_case(letter: str, model: str) -> str:
    return letter.upper() if model.isupper() else letter


def looks_esperanto(word: str) -> bool:
    """Could ``word`` (lower case, supersigns written) be an Esperanto word?  Every
    letter is in the alphabet, ŭ follows a or e (or opens the word: Ŭargo), and the
    word has an Esperanto ending: a vowel or ŭ (then -j, -n), a verb ending (-as, -is,
    -os, -us), or it is a particle such as ĉar, ĝis, eĉ, ĉiam."""
    letters = [c for c in word if c.isalpha()]
    if not letters or any(c not in ESPERANTO.alphabet for c in letters):
        return False
    for i, char in enumerate(word):
        if char == "ŭ" and i > 0 and word[i - 1] not in "ae-":
            return False
    last = word.rsplit("-", 1)[-1]
    if last in ESPERANTO.consonant_words or last.endswith(ESPERANTO.endings.finite):
        return True
    stem = last[:-1] if last.endswith("n") else last
    stem = stem[:-1] if stem.endswith("j") else stem
    return bool(stem) and (stem[-1] in ESPERANTO.vowels or stem[-1] == "ŭ")


# --------------------------------------------------------------------------------------
# EO1: spelling.

_X_PAIR = re.compile(r"([cghjsuCGHJSU])[xX]")


def x_system(word: str) -> str | None:
    """``word`` with its x-system pairs as supersigned letters (case kept), when the
    result could be Esperanto; None otherwise (no pair, or an English word: Lux)."""
    if not _X_PAIR.search(word):
        return None
    converted = _X_PAIR.sub(
        lambda m: _with_case(ESPERANTO.supersigns[m.group(1).lower()], m.group(1)), word
    )
    return converted if looks_esperanto(normalize(converted)) else None


@rule(
    "EO101",
    "x-system",
    Severity.WARNING,
    "A word in the x-system (cx, gx, hx, jx, sx, ux): write ĉ, ĝ, ĥ, ĵ, ŝ, ŭ.",
    "The x-system is a keyboard stopgap, never printed: the wiki's Esperanto pages, the "
    "Leksikono and every Esperanto card write the supersigned letters (« ĉiuj », "
    "« ŝanĝi », « aŭ »).  A pair is reported when the word it makes could be "
    "Esperanto (only letters of the alphabet, ŭ after a or e, an Esperanto ending), so "
    "that names and English words (Lux, Pollux) are not; glossary words, the English "
    "word list and the configured allowed words never are.",
    "en: All your creatures get +1/+0 until the end of the turn.\n"
    "eo: Cxiuj viaj estajxoj akiras +1/+0 gxis la fino de la vico.",
    "en: All your creatures get +1/+0 until the end of the turn.\n"
    "eo: Ĉiuj viaj estaĵoj akiras +1/+0 ĝis la fino de la vico.",
    "Writes the supersigned letters, keeping the case (Cx, CX -> Ĉ).",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
)
def check_x_system(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        for word, start, end in place.tokens:
            if "x" not in word or _known(subject, word):
                continue
            written = place.text[start:end]
            fixed = x_system(written)
            if fixed is not None:
                yield _report(
                    subject,
                    report,
                    place,
                    start,
                    f"'{written}' is in the x-system: write '{fixed}'",
                    (start, end, fixed),
                )


@dataclass(frozen=True, slots=True)
class HSpelling:
    """An h-system word: its Esperanto spelling, and whether the fix is certain."""

    fixed: str
    certain: bool


def h_system(word: str) -> HSpelling | None:
    """``word`` read in the h-system (ch gh hh jh sh; u for ŭ in a few words), when
    the result could be Esperanto; None otherwise."""
    lower = normalize(word)
    if len(lower) != len(word):
        return None
    chars = list(word)
    certain = True
    i = 0
    while i < len(lower) - 1:
        if lower[i] in "cghjs" and lower[i + 1] == "h":
            if (
                lower[i] != "h"
                and i > 0
                and lower[i - 1] != "-"
                and lower.startswith(ESPERANTO.h_roots, i + 1)
            ):
                certain = False  # dis|haki, long|hara: a compound, or ŝ, ĝ?
            chars[i] = _with_case(ESPERANTO.supersigns[lower[i]], word[i])
            chars[i + 1] = ""
            i += 2
        else:
            i += 1
    converted = "".join(chars)
    position = ESPERANTO.u_words.get(normalize(converted))
    if position is not None:
        converted = (
            converted[:position] + _with_case("ŭ", converted[position]) + converted[position + 1 :]
        )
    if converted == word or not looks_esperanto(normalize(converted)):
        return None
    return HSpelling(converted, certain)


@rule(
    "EO102",
    "h-system",
    Severity.WARNING,
    "A word in the h-system (ch, gh, hh, jh, sh; au for aŭ): write ĉ, ĝ, ĥ, ĵ, ŝ, ŭ.",
    "Esperanto spells no word with ch, gh, jh or sh: they are the h-system's stand-ins "
    "for ĉ, ĝ, ĵ, ŝ (hh for ĥ, u for ŭ), which the Fundamento allows printers without "
    "the letters; the wiki writes « ĉiuj », « ŝanĝi », never « chiuj », « shanghi », "
    "and slipped once (« eliĝa au aliĝa movo », Arcmage Reguloj).  Only a compound "
    "joins such letters, across its roots (dis|haki, long|hara, ses|hora): the word is "
    "then reported without a fix.  The h-system's u for ŭ is reported in the words "
    "where au is never two vowels (aŭ, ankaŭ, antaŭ, kontraŭ, laŭ, ...), not in "
    "others (praulo is pra|ulo).  Words that could not be Esperanto (each, English, "
    "ship) and words of the glossaries and the English word list are not reported; nor "
    "is a capitalised word inside a sentence (a name: Sasha).",
    "en: Change the target of a spell or ability.\neo: Shanghu la celon de sorcho au kapablo.",
    "en: Change the target of a spell or ability.\neo: Ŝanĝu la celon de sorĉo aŭ kapablo.",
    "Writes the supersigned letters, keeping the case, when no compound may hide behind the pair.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
)
def check_h_system(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        for word, start, end in place.tokens:
            if ("h" not in word and "u" not in word) or _known(subject, word):
                continue
            written = place.text[start:end]
            spelling = h_system(written)
            if spelling is None:
                continue
            if (
                written[:1].isupper()
                and place.key != "subtype"
                and not _sentence_start(place.text, start)
            ):
                continue  # a name
            if spelling.certain:
                yield _report(
                    subject,
                    report,
                    place,
                    start,
                    f"'{written}' is in the h-system: write '{spelling.fixed}'",
                    (start, end, spelling.fixed),
                )
            else:
                yield _report(
                    subject,
                    report,
                    place,
                    start,
                    f"'{written}' is in the h-system ('{spelling.fixed}'?), unless "
                    "it is a compound whose second root opens with h",
                )


def foreign_letters(word: str) -> list[str]:
    """The letters of ``word`` (normalized) outside the Esperanto alphabet, in parts
    of two letters or more (a one-letter part is a variable or parameter: K-, x)."""
    found: list[str] = []
    for part in word.split("-"):
        if len(part) < 2 or any(c.isdigit() for c in part):
            continue
        for char in part:
            if char.isalpha() and char not in ESPERANTO.alphabet and char not in found:
                found.append(char)
    return found


@rule(
    "EO103",
    "alphabet",
    Severity.WARNING,
    "A word with letters outside the Esperanto alphabet (q, w, x, y, é, ü, ...).",
    "Esperanto writes its own words with 28 letters, five of them supersigned (ĉ ĝ ĥ ĵ ŝ "
    "ŭ); q, w, x, y and accented letters mark a foreign word left in the text, a "
    "mistyped supersign (č, ǔ with a caron) or a lost x-system pair (EO101 reports "
    "those).  Capitalised words (names), card names, glossary words, the English word "
    "list (TR504 reports those) and the configured allowed words are not reported; "
    "one-letter parameters (x, K-) neither.",
    "en: Draw one card or discard one card.\neo: Eltiru unu karton aǔ forĵetu unu karton.",
    "en: Draw one card or discard one card.\neo: Eltiru unu karton aŭ forĵetu unu karton.",
    target=TRANSLATION,
    languages=("eo",),
)
def check_alphabet(subject: Subject, report: Reporter) -> Iterator[Finding]:
    allowed = subject.resources.allowed(subject.lang)
    for place in places(subject):
        for word, start, end in place.tokens:
            if word.isascii() and not any(c in word for c in "qwxy"):
                continue
            written = place.text[start:end]
            if written[:1].isupper() or word in allowed or _known(subject, word):
                continue
            letters = foreign_letters(word)
            if not letters or ("x" in letters and x_system(written) is not None):
                continue
            lookalikes = ESPERANTO.lookalikes  # letters typed for supersigned ones: č
            hints = [f"{c} (for {lookalikes[c]}?)" if c in lookalikes else c for c in letters]
            yield _report(
                subject,
                report,
                place,
                start,
                f"'{written}': {', '.join(hints)} not in the Esperanto alphabet",
            )


# --------------------------------------------------------------------------------------
# EO2: typography.

_BEFORE_PUNCTUATION = re.compile(r"[ \t\u00a0\u202f]+(?=[.,;:!?])")


@rule(
    "EO201",
    "space-before-punctuation",
    Severity.WARNING,
    "A space before . , ; : ! ?",
    "Esperanto puts no space before punctuation, unlike French: « arcmage.org - aligu "
    "nin! » (the footer line of the Leksikono), « La frakcioj estas: Geo, Ombra "
    "Legio... » (Arcmage Reguloj).  The wiki's Esperanto pages write over 800 "
    "punctuation marks without a space before them, and two with one (« Kosto : "
    "Efiko », « Ruĝa Flago . »).  A space before an ellipsis (...) is not reported, "
    "nor the colon after a symbol code (« :m: : Cela ludanto... »), which keeps the "
    "cost notation of the English card (a symbol, a space, the colon).",
    "en: Target player draws one card.\neo: Cela ludanto eltiras unu karton .",
    "en: Target player draws one card.\neo: Cela ludanto eltiras unu karton.",
    "Removes the space.",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
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
            if not all(_printed_space(subject, place, i) for i in range(start, end)):
                continue
            name = (
                "a space"
                if match.group() == " "
                else ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(match.group()))
            )
            yield _report(
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
    return text[opening + 1] in _SPACES, text[closing - 1] in _SPACES


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


@rule(
    "EO202",
    "esperanto-quotes",
    Severity.WARNING,
    'Quotation marks in Esperanto are « », not " ", “ ” or „ “.',
    "The wiki's Esperanto pages quote with guillemets: « La termino «la ludanto» kutime "
    "rilatas al la aktiva ludanto », « la efikon «ne povas flugi» » (Arcmage Reguloj, "
    "15 pairs in its newest revision), and every edit summary (« ŝanĝu «resurson» al "
    "«rimedo» »).  Aminduna recognises flavour text by its opening «, and the sample "
    "cards quote with « » only.  (Arcmage Reguloj also has 13 pairs of straight quotes, "
    'such as "kolektanto-numero": leftovers of the English text.)',
    'en: *"Steel does not hesitate."*\neo: *"Ŝtalo ne hezitas."*',
    'en: *"Steel does not hesitate."*\neo: *«Ŝtalo ne hezitas.»*',
    "Replaces a pair of quotes in one paragraph by « », spaced inside as the card's "
    "other guillemets are (without spaces, as the wiki writes them, by default).",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
)
def check_quotes(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        text = place.text
        found = False
        for match in _OTHER_QUOTES.finditer(text):
            found = True
            inner = next(g for g in match.groups() if g is not None).strip(_SPACES)
            space = card_quote_space(subject) if card_quote_style(subject) == "spaced" else ""
            replacement = f"«{space}{inner}{space}»"
            yield _report(
                subject,
                report,
                place,
                match.start(),
                f"quotation marks {match.group()[0]}{match.group()[-1]}: write {replacement}",
                (match.start(), match.end(), replacement),
            )
        if not found and _unpaired_flavour(subject, place):
            opening = len(text) - len(text.lstrip(_SPACES))
            yield _report(
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
        and first.text.lstrip(_SPACES)[:1] in tuple(_OPENING_QUOTES)
    )


@rule(
    "EO203",
    "guillemet-spacing",
    Severity.WARNING,
    "The two guillemets of a pair are not spaced alike (« » with a space on one side "
    "only), or not as the card's other pairs.",
    "The wiki's Esperanto pages write no space inside guillemets (« «la ludanto» », "
    "« «X + 2» », « «Amin Duna» »: 15 pairs in Arcmage Reguloj, none spaced): that is "
    'the default (`esperanto-quotes = "tight"`).  `"spaced"` asks for a space '
    'on both sides (the French habit); `"either"` accepts both as long as a pair, '
    "and a card, keep to one (any space counts: plain, no-break or narrow).  A space "
    "on one side only is always a slip.",
    'en: *"It burns brightest near the dead."*\neo: *« Ĝi brulas plej hele apud la mortintoj.»*',
    'en: *"It burns brightest near the dead."*\neo: *«Ĝi brulas plej hele apud la mortintoj.»*',
    "Adds or removes the space inside the guillemet that differs from the card's style "
    "(the style of its other pairs; without spaces when they do not tell).",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
)
def check_guillemet_spacing(subject: Subject, report: Reporter) -> Iterator[Finding]:
    setting = _quote_setting(subject)
    style = card_quote_style(subject)
    for place in places(subject):
        text = place.text
        for opening, closing in _guillemet_pairs(text):
            if not text[opening + 1 : closing].strip(_SPACES):
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
                yield _report(
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
        space = other if other in _SPACES else card_quote_space(subject)
        return (position, position, space)
    start = end = position
    if mark == "«":
        while end < closing and text[end] in _SPACES:
            end += 1
    else:
        while start > opening + 1 and text[start - 1] in _SPACES:
            start -= 1
    if not all(_printed_space(subject, place, i) for i in range(start, end)):
        return None
    return (start, end, "")


# --------------------------------------------------------------------------------------
# EO3: the Leksikono inside compound words.


@cache
def _endings() -> frozenset[str]:
    """What may close a word after its last root: an ending (o, ojn, as), or -j, -n
    after one (a correlative's: ĉiuj)."""
    endings = ESPERANTO.endings
    return endings.declined | frozenset(endings.verb) | frozenset(endings.cases[1:])


#: Shorter deprecated roots are ordinary roots too: turn- of turno (turn) is the root of
#: turni (rotate), in turnopunkto, turnoplato; ul- of ulo is the suffix -ul-.
_MIN_ROOT = 5


@dataclass(frozen=True, slots=True)
class DeprecatedRoot:
    """The root of a deprecated one-word term, and of its replacement when the one
    can stand for the other in a compound (same ending: a noun for a noun)."""

    root: str
    term: str
    entry: str
    replacement: str
    new_root: str | None
    endings: frozenset[str]


def deprecated_roots(subject: Subject) -> tuple[list[DeprecatedRoot], list[str]]:
    """The deprecated roots of the language's glossary (longest first), and the roots of
    its current one-word terms (which a deprecated root may be part of: ludan- in
    ludanto)."""
    cache = subject.language.cache
    found = cache.get("EO deprecated roots")
    if found is not None:
        return found
    roots: list[DeprecatedRoot] = []
    current: set[str] = set()
    for entry in subject.language.glossary.entries.values():
        if entry.section == "footer":
            continue
        for term in entry.terms:
            text = normalize(term.text)
            if " " in text or "-" in text or text[-1:] not in ESPERANTO.vowels:
                continue
            if not term.deprecated:
                if len(text) >= 4:
                    current.add(text[:-1])
                continue
            replacement = term.replaced_by or (entry.preferred.text if entry.preferred else "")
            new = normalize(replacement)
            root = text[:-1]
            if len(root) < _MIN_ROOT or not new:
                continue
            same = new[-1:] == text[-1] and " " not in new and "-" not in new
            declined = ESPERANTO.endings.declined
            verb = text.endswith(ESPERANTO.endings.infinitive)
            endings = declined | frozenset(ESPERANTO.endings.verb) if verb else declined
            roots.append(
                DeprecatedRoot(
                    root,
                    term.text,
                    entry.en,
                    replacement,
                    new[:-1] if same else None,
                    frozenset(endings),
                )
            )
    roots.sort(key=lambda r: -len(r.root))
    found = cache["EO deprecated roots"] = (roots, sorted(current, key=len, reverse=True))
    return found


def compound_root(
    word: str, roots: list[DeprecatedRoot], current: list[str]
) -> tuple[DeprecatedRoot, int] | None:
    """The deprecated root ``word`` (normalized) holds as a part of a compound, and its
    position: before another root (resurs|karto, lojalec|markon, with or without the
    joining o), or as the last root after another root or a prefix (kun|urbano).  A
    suffix opens with a vowel (urban|aro is a derivation, not reported); a root inside a
    current term's root (ludan- in ludanto) is not one."""
    for deprecated in roots:
        root = deprecated.root
        position = word.find(root)
        while position >= 0:
            before, after = word[:position], word[position + len(root) :]
            if _is_compound(before, after, deprecated) and not any(
                len(c) > len(root) and _covers(word, c, position, len(root)) for c in current
            ):
                return deprecated, position
            position = word.find(root, position + 1)
    return None


def _is_compound(before: str, after: str, deprecated: DeprecatedRoot) -> bool:
    if before and not before.endswith("-") and len(before) < 2:
        return False
    if after.startswith("-"):
        return True
    endings = _endings()
    if after in endings:  # the last root, after a prefix or another root
        return bool(before) and after in deprecated.endings
    rest = after[1:] if after[:1] == "o" else after
    return (
        bool(rest) and rest[0].isalpha() and rest[0] not in ESPERANTO.vowels and rest not in endings
    )


def _covers(word: str, root: str, position: int, length: int) -> bool:
    """Does an occurrence of ``root`` in ``word`` hold characters
    ``[position, position + length)``?"""
    start = word.find(root)
    while start >= 0:
        if start <= position and start + len(root) >= position + length:
            return True
        start = word.find(root, start + 1)
    return False


@rule(
    "EO301",
    "deprecated-root",
    Severity.WARNING,
    "A compound word built on a root the Leksikono deprecated (lojalec|markon, "
    "kun|urbano, resurs|karto).",
    "GL201 finds deprecated terms in every inflected form, but not inside compounds, "
    "which Esperanto builds freely: Listo de kapabloj (Hejmsopira) still writes "
    "« lojalecmarkon » where the Leksikono says « loyalty: fideleco », and the "
    "Leksikono's own « convert (en resursokarton) » kept the old resurso.  A root is "
    "reported before another root (with or without the joining o) or as the last root "
    "after a prefix or root; a suffix opens with a vowel, so derivations (urbanaro, "
    "militistarestro) are not, nor roots shorter than five letters, which are ordinary "
    "roots too (turn- of turno is the root of turni, to rotate: turnopunkto; ul- is the "
    "suffix -ul-).  A root inside a current term's root (ludan- in ludanto) is not "
    "reported, nor a word GL201 reports.",
    "en: Discard two resource cards.\neo: Forĵetu du resurskartojn.",
    "en: Discard two resource cards.\neo: Forĵetu du rimedkartojn.",
    "Replaces the deprecated root by the replacement's root when the two have the same "
    "ending (resurso -> rimedo: resursfonto -> rimedfonto); not when the replacement is "
    "another kind of word (ludiĝo -> enluda).",
    target=TRANSLATION,
    applicability=Applicability.SAFE,
    languages=("eo",),
)
def check_deprecated_root(subject: Subject, report: Reporter) -> Iterator[Finding]:
    roots, current = deprecated_roots(subject)
    if not roots:
        return
    deprecated_spans = {
        (index, match.start) for index, match in subject.matches if match.hit.status == "deprecated"
    }
    allowed = subject.resources.allowed(subject.lang)
    for place in places(subject):
        for word, start, end in place.tokens:
            if (
                len(word) < 6
                or (place.index, start) in deprecated_spans
                or word in subject.language.vocabulary
                or word in allowed
            ):
                continue
            if len(word) != end - start:
                continue  # folding changed the length: positions would not match
            found = compound_root(word, roots, current)
            if found is None:
                continue
            deprecated, position = found
            written = place.text[start:end]
            at = start + position
            old = place.text[at : at + len(deprecated.root)]
            message = (
                f"'{written}' is built on '{old}-' of the deprecated "
                f"'{deprecated.term}' ('{deprecated.entry}')"
            )
            if deprecated.new_root is None:
                yield _report(
                    subject,
                    report,
                    place,
                    at,
                    f"{message}: the Leksikono says '{deprecated.replacement}'",
                )
                continue
            new = deprecated.new_root
            if old[:1].isupper():
                new = new[:1].upper() + new[1:]
            fixed = written[:position] + new + written[position + len(old) :]
            yield _report(
                subject, report, place, at, f"{message}: write '{fixed}'", (at, at + len(old), new)
            )
