"""The numbers of a card text, with their sign and role.

Card numbers are not interchangeable tokens: ``+1/+1`` and ``-1/-1`` hold the same
digits, and ``+x/+0`` is not ``+0/+x``.  A text is read into *stat modifiers*
(``+1/+1``, ``-x/+0``, ``2/2``: signs, order and variables normalised), *numbers*
(``3``, ``+2``, the variable ``X``) and *number words* (``two``, ``deux``, ``du``).
Translation rules compare these, so that "Pioche deux cartes" matches "Draw two
cards" and "trois" does not.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..glossary.matcher import words

_SIGN = r"[+\-\u2212\u2013]"
_TERM = rf"{_SIGN}?\s?(?:\d+|[xXyY])(?:{_SIGN}\d+)?"
STAT_RE = re.compile(rf"(?<![\w/+\-\u2212\u2013])({_TERM})\s?/\s?({_TERM})(?![\w/])")
NUMBER_RE = re.compile(rf"(?<![\w.,/#])({_SIGN}?)(\d+)(?![\w/])")
VARIABLE_RE = re.compile(r"(?<![\w\-])([xX])(?![\w\-])")
_DIGIT = re.compile(r"\d")
_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", " ": "", "X": "x", "Y": "y"})


@dataclass(frozen=True, slots=True)
class Number:
    """A number in a text: its normalised value and where it is (plain-text offsets)."""

    value: str
    start: int
    end: int
    #: ``stat``, ``number`` (digits or the variable x) or ``word``.
    role: str


def normalize_stat(left: str, right: str) -> str:
    return f"{left.translate(_SIGNS)}/{right.translate(_SIGNS)}"


def _value(digits: str) -> str:
    """A number's digits without leading zeros, in ASCII.  A number longer than any a
    card prints (Python converts at most 4,300 digits) is compared as written."""
    return str(int(digits)) if len(digits) <= 100 else digits.lstrip("0") or "0"


@dataclass(frozen=True, slots=True)
class Phrases:
    """Multi-word number words and idioms of a language (its linter data).

    A number word is a number of the game only where the game counts: *once per turn*
    is 1, but *once* alone is a conjunction (« dès que »), and the *one* of *no one*
    or *one of them* is part of an idiom (« personne », « l’un d’eux »).  ``numbers``
    maps a first word to (the words after it, value); ``idioms`` maps a first word to
    the words after it, and the number words inside an idiom are not numbers.
    """

    numbers: dict[str, tuple[tuple[tuple[str, ...], str], ...]]
    idioms: dict[str, tuple[tuple[str, ...], ...]]
    #: The first words of both: the only words besides number words worth a look.
    firsts: frozenset[str] = frozenset()

    @classmethod
    def read(cls, numbers: dict[str, str], idioms: list[str]) -> Phrases:
        by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for phrase, value in numbers.items():
            first, *rest = phrase.split()
            if rest:
                by_first.setdefault(first, []).append((tuple(rest), value))
        idiom_table: dict[str, list[tuple[str, ...]]] = {}
        for idiom in idioms:
            first, *rest = [w for w, _, _ in words(idiom)]
            idiom_table.setdefault(first, []).append(tuple(rest))
        return cls(
            {k: tuple(v) for k, v in by_first.items()},
            {k: tuple(v) for k, v in idiom_table.items()},
            frozenset(by_first) | frozenset(idiom_table),
        )


NO_PHRASES = Phrases({}, {})


def _follows(tokens: list[tuple[str, int, int]], index: int, rest: tuple[str, ...]) -> bool:
    after = tokens[index + 1 : index + 1 + len(rest)]
    return len(after) == len(rest) and all(t[0] == w for t, w in zip(after, rest, strict=True))


def read_numbers(
    text: str,
    number_words: dict[str, str],
    tokens: list[tuple[str, int, int]] | None = None,
    phrases: Phrases = NO_PHRASES,
) -> list[Number]:
    """Stat modifiers, numbers and number words of ``text``, in order.

    ``tokens`` are ``words(text)``, when the caller has them already; ``phrases`` are
    the language's multi-word number words and idioms (see :class:`Phrases`).
    """
    found, rest = _stat_modifiers(text) if "/" in text else ([], text)
    if _DIGIT.search(rest):
        for match in NUMBER_RE.finditer(rest):
            sign = match.group(1).translate(_SIGNS)
            found.append(
                Number(sign + _value(match.group(2)), match.start(), match.end(), "number")
            )
    if "x" in rest or "X" in rest:
        for match in VARIABLE_RE.finditer(rest):
            found.append(Number("x", match.start(), match.end(), "number"))
    if number_words:
        stats = [(n.start, n.end) for n in found if n.role == "stat"]
        listed = tokens if tokens is not None else words(rest)
        found += _number_words(listed, number_words, phrases, stats)
    found.sort(key=lambda n: n.start)
    return found


def _stat_modifiers(text: str) -> tuple[list[Number], str]:
    """The stat modifiers (``+1/-1``) of ``text``, and the text with them blanked out
    (same length, so offsets hold): their digits are not numbers of their own."""
    found: list[Number] = []
    masked = list(text)
    for match in STAT_RE.finditer(text):
        found.append(
            Number(
                normalize_stat(match.group(1), match.group(2)),
                match.start(),
                match.end(),
                "stat",
            )
        )
        masked[match.start() : match.end()] = " " * (match.end() - match.start())
    return found, "".join(masked)


def _number_words(
    listed: list[tuple[str, int, int]],
    number_words: dict[str, str],
    phrases: Phrases,
    stats: list[tuple[int, int]],
) -> list[Number]:
    """The number words of a text's words (``listed``), one- or many-worded, outside
    its stat modifiers (``stats``).  The words of an idiom ("at once") and of a
    phrase already read are skipped, so that no word counts twice."""
    found: list[Number] = []
    skip_until = -1
    firsts = phrases.firsts
    for index, (word, start, end) in enumerate(listed):
        if word not in number_words and word not in firsts:
            continue  # most words: no number, no idiom
        for idiom in phrases.idioms.get(word, ()):
            if _follows(listed, index, idiom):
                skip_until = max(skip_until, index + len(idiom))
        if index <= skip_until:
            continue
        value = number_words.get(word)
        if value is None:
            phrase = next(
                (
                    (after, v)
                    for after, v in phrases.numbers.get(word, ())
                    if _follows(listed, index, after)
                ),
                None,
            )
            if phrase is not None:
                # Its words are read: "only once each turn" is one number, not the
                # "only once" and the "once each" it holds.
                value = phrase[1]
                skip_until = max(skip_until, index + len(phrase[0]))
        if value is not None and not any(a <= start < b for a, b in stats):
            found.append(Number(value, start, end, "word"))
    return found


@dataclass(frozen=True, slots=True)
class Comparison:
    """How the numbers of a translation differ from its source's."""

    missing_stats: list[str]
    extra_stats: list[Number]
    stat_order: tuple[list[str], list[str]] | None
    missing_numbers: list[str]
    extra_numbers: list[Number]


_SAME = Comparison([], [], None, [], [])


def compare(source: list[Number], target: list[Number]) -> Comparison:
    """Compare two texts' numbers.

    Stat modifiers must match exactly, in the same order.  Every source number (digits
    or word) must be in the translation as digits or a word; digits the source lacks
    are extra, but number words are not (``un``, ``une`` are also articles).
    """
    if [(n.role == "stat", n.value) for n in source] == [
        (n.role == "stat", n.value) for n in target
    ]:
        return _SAME  # the common case: every number in place
    source_stats = [n.value for n in source if n.role == "stat"]
    target_stats = [n for n in target if n.role == "stat"]
    wanted = Counter(source_stats)
    have = Counter(n.value for n in target_stats)
    missing_stats = list((wanted - have).elements())
    extra_values = have - wanted
    extra_stats = []
    for number in target_stats:
        if extra_values[number.value] > 0:
            extra_values[number.value] -= 1
            extra_stats.append(number)
    order = None
    if not missing_stats and not extra_stats and source_stats != [n.value for n in target_stats]:
        order = (source_stats, [n.value for n in target_stats])
    source_numbers = Counter(n.value for n in source if n.role != "stat")
    target_all = Counter(n.value for n in target if n.role != "stat")
    missing_numbers = list((source_numbers - target_all).elements())
    extra_digits = Counter(n.value for n in target if n.role == "number") - source_numbers
    extra_numbers = []
    for number in target:
        if number.role == "number" and extra_digits[number.value] > 0:
            extra_digits[number.value] -= 1
            extra_numbers.append(number)
    return Comparison(missing_stats, extra_stats, order, missing_numbers, extra_numbers)
