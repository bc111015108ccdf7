"""EO1 rules: spelling.

The x-system (``cx`` for ĉ, EO101) and the h-system (``ch`` for ĉ, ``au`` for aŭ,
EO102) of keyboards without the supersigned letters, and letters that are not in the
Esperanto alphabet (EO103).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ....diagnostics import Applicability, Severity
from ....glossary.matcher import normalize
from ....languages.eo import LANGUAGE as ESPERANTO
from ...context import Reporter, Subject
from ...model import Finding
from .shared import (
    ESPERANTO_RULES,
    known,
    looks_esperanto,
    place_finding,
    places,
    sentence_start,
    with_case,
)

#: The family of this module's rules (EO1).
FAMILY = ESPERANTO_RULES.part("EO1")


_X_PAIR = re.compile(r"([cghjsuCGHJSU])[xX]")


def x_system(word: str) -> str | None:
    """``word`` with its x-system pairs as supersigned letters (case kept), when the
    result could be Esperanto; None otherwise (no pair, or an English word: Lux)."""
    if not _X_PAIR.search(word):
        return None
    converted = _X_PAIR.sub(
        lambda m: with_case(ESPERANTO.supersigns[m.group(1).lower()], m.group(1)), word
    )
    return converted if looks_esperanto(normalize(converted)) else None


@FAMILY.rule(
    code="EO101",
    name="x-system",
    severity=Severity.WARNING,
    summary="A word in the x-system (cx, gx, hx, jx, sx, ux): write ĉ, ĝ, ĥ, ĵ, ŝ, ŭ.",
    rationale="The x-system is a keyboard stopgap, never printed: the wiki's Esperanto pages, the "
    "Leksikono and every Esperanto card write the supersigned letters (« ĉiuj », "
    "« ŝanĝi », « aŭ »).  A pair is reported when the word it makes could be "
    "Esperanto (only letters of the alphabet, ŭ after a or e, an Esperanto ending), so "
    "that names and English words (Lux, Pollux) are not; glossary words, the English "
    "word list and the configured allowed words never are.",
    bad="en: All your creatures get +1/+0 until the end of the turn.\n"
    "eo: Cxiuj viaj estajxoj akiras +1/+0 gxis la fino de la vico.",
    good="en: All your creatures get +1/+0 until the end of the turn.\n"
    "eo: Ĉiuj viaj estaĵoj akiras +1/+0 ĝis la fino de la vico.",
    fix="Writes the supersigned letters, keeping the case (Cx, CX -> Ĉ).",
    applicability=Applicability.SAFE,
)
def check_x_system(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        for word, start, end in place.tokens:
            if "x" not in word or known(subject, word):
                continue
            written = place.text[start:end]
            fixed = x_system(written)
            if fixed is not None:
                yield place_finding(
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
            chars[i] = with_case(ESPERANTO.supersigns[lower[i]], word[i])
            chars[i + 1] = ""
            i += 2
        else:
            i += 1
    converted = "".join(chars)
    position = ESPERANTO.u_words.get(normalize(converted))
    if position is not None:
        converted = (
            converted[:position] + with_case("ŭ", converted[position]) + converted[position + 1 :]
        )
    if converted == word or not looks_esperanto(normalize(converted)):
        return None
    return HSpelling(converted, certain)


@FAMILY.rule(
    code="EO102",
    name="h-system",
    severity=Severity.WARNING,
    summary="A word in the h-system (ch, gh, hh, jh, sh; au for aŭ): write ĉ, ĝ, ĥ, ĵ, ŝ, ŭ.",
    rationale="Esperanto spells no word with ch, gh, jh or sh: they are the h-system's stand-ins "
    "for ĉ, ĝ, ĵ, ŝ (hh for ĥ, u for ŭ), which the Fundamento allows printers without "
    "the letters; the wiki writes « ĉiuj », « ŝanĝi », never « chiuj », « shanghi », "
    "and slipped once (« eliĝa au aliĝa movo », Arcmage Reguloj).  Only a compound "
    "joins such letters, across its roots (dis|haki, long|hara, ses|hora): the word is "
    "then reported without a fix.  The h-system's u for ŭ is reported in the words "
    "where au is never two vowels (aŭ, ankaŭ, antaŭ, kontraŭ, laŭ, ...), not in "
    "others (praulo is pra|ulo).  Words that could not be Esperanto (each, English, "
    "ship) and words of the glossaries and the English word list are not reported; nor "
    "is a capitalised word inside a sentence (a name: Sasha).",
    bad="en: Change the target of a spell or ability.\neo: Shanghu la celon de sorcho au kapablo.",
    good="en: Change the target of a spell or ability.\neo: Ŝanĝu la celon de sorĉo aŭ kapablo.",
    fix="Writes the supersigned letters, keeping the case, when no compound may hide behind the "
    "pair.",
    applicability=Applicability.SAFE,
)
def check_h_system(subject: Subject, report: Reporter) -> Iterator[Finding]:
    for place in places(subject):
        for word, start, end in place.tokens:
            if ("h" not in word and "u" not in word) or known(subject, word):
                continue
            written = place.text[start:end]
            spelling = h_system(written)
            if spelling is None:
                continue
            if (
                written[:1].isupper()
                and place.key != "subtype"
                and not sentence_start(place.text, start)
            ):
                continue  # a name
            if spelling.certain:
                yield place_finding(
                    subject,
                    report,
                    place,
                    start,
                    f"'{written}' is in the h-system: write '{spelling.fixed}'",
                    (start, end, spelling.fixed),
                )
            else:
                yield place_finding(
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


@FAMILY.rule(
    code="EO103",
    name="alphabet",
    severity=Severity.WARNING,
    summary="A word with letters outside the Esperanto alphabet (q, w, x, y, é, ü, ...).",
    rationale="Esperanto writes its own words with 28 letters, five of them supersigned (ĉ ĝ ĥ ĵ ŝ "
    "ŭ); q, w, x, y and accented letters mark a foreign word left in the text, a "
    "mistyped supersign (č, ǔ with a caron) or a lost x-system pair (EO101 reports "
    "those).  Capitalised words (names), card names, glossary words, the English word "
    "list (TR504 reports those) and the configured allowed words are not reported; "
    "one-letter parameters (x, K-) neither.",
    bad="en: Draw one card or discard one card.\neo: Eltiru unu karton aǔ forĵetu unu karton.",
    good="en: Draw one card or discard one card.\neo: Eltiru unu karton aŭ forĵetu unu karton.",
)
def check_alphabet(subject: Subject, report: Reporter) -> Iterator[Finding]:
    allowed = subject.resources.allowed(subject.lang)
    for place in places(subject):
        for word, start, end in place.tokens:
            if word.isascii() and not any(c in word for c in "qwxy"):
                continue
            written = place.text[start:end]
            if written[:1].isupper() or word in allowed or known(subject, word):
                continue
            letters = foreign_letters(word)
            if not letters or ("x" in letters and x_system(written) is not None):
                continue
            lookalikes = ESPERANTO.lookalikes  # letters typed for supersigned ones: č
            hints = [f"{c} (for {lookalikes[c]}?)" if c in lookalikes else c for c in letters]
            yield place_finding(
                subject,
                report,
                place,
                start,
                f"'{written}': {', '.join(hints)} not in the Esperanto alphabet",
            )
