"""What the translation memory suggests for one unit a translator is about to translate.

Poedit and Weblate show a memory's suggestion the way ``msgmerge`` shows a fuzzy
match: the suggested translation in the entry, marked fuzzy (so that nothing is taken
before a person has looked at it), the English it translated as the *previous* source
(``#| msgid``: the tools show how it differs from today's), and comments saying where it
comes from.  A unit gets a suggestion when its whole English has one: a one-line unit
(name, subtype, footer) its best match, a text every paragraph of which has a match
(exact or fuzzy).  What matches only in part (some paragraphs, some sentences) is said
in the comments, one line each, with the difference.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .memory import FUZZY_CUTOFF, Match, Memory, paragraphs, segments
from .states import marked_diff

#: The memory's pool for each one-line unit.
LINE_POOLS = {"name": "name", "name2": "name", "subtype": "subtype", "info": "info"}


@dataclass
class Suggestion:
    """The memory's offer for one unit."""

    #: The suggested translation of the whole unit ('' when only parts match).
    target: str = ""
    #: The English the suggestion translates (the previous source).
    previous: str = ""
    #: The lowest similarity among the matches the target is made of.
    score: float = 0.0
    #: One line per match: where it comes from, how similar, what differs.
    notes: list[str] = field(default_factory=list)


def note(match: Match, where: str = "") -> str:
    """A comment line for one match: ``memory 89% (first/grave-tithe, reviewed),
    paragraph 1, sentence 2: If it dies, draw [-two-]{+three+} cards. → Si elle…``."""
    place = f", {where}" if where else ""
    english = match.english if match.exact else marked_diff(match.words())
    return (
        f"memory {match.score:.0f}% ({match.unit.origin}){place}: "
        f"{_line(english)} → {_line(match.target)}"
    )


def _line(text: str) -> str:
    return " ".join(text.split())


def _best(
    memory: Memory, kind: str, english: str, names: tuple[str, str], exclude: str
) -> Match | None:
    name, target_name = names[0] or None, names[1] or None
    found = memory.exact(kind, english, name, target_name)
    if found is not None and found.unit.origin.where != exclude:
        return found
    fuzzy = memory.fuzzy(kind, english, name, target_name, limit=1, exclude=exclude)
    return fuzzy[0] if fuzzy else None


def suggest(
    memory: Memory,
    unit: str,
    english: str,
    names: tuple[str, str] = ("", ""),
    exclude: str = "",
    cutoff: float = FUZZY_CUTOFF,
) -> Suggestion | None:
    """The memory's suggestion for ``english``, the card's ``unit`` (``names``: the
    card's English name and its name in the translation; ``exclude``: the card's own
    ``deck/slug``), or None when the memory has nothing ``cutoff`` % alike."""
    if unit in LINE_POOLS:
        match = _best(memory, LINE_POOLS[unit], english, names, exclude)
        if match is None or match.score < cutoff:
            return None
        return Suggestion(match.target, match.unit.english, match.score, [note(match)])
    found = Suggestion()
    targets, previous, scores = [], [], []
    whole = True
    for number, paragraph in enumerate(paragraphs(english), 1):
        match = _best(memory, "paragraph", paragraph, names, exclude)
        where = f"paragraph {number}"
        if match is not None and match.score >= cutoff:
            targets.append(match.target)
            previous.append(match.unit.english)
            scores.append(match.score)
            found.notes.append(note(match, where))
            continue
        whole = False
        for index, segment in enumerate(segments(paragraph), 1):
            part = _best(memory, "sentence", segment, names, exclude)
            if part is not None and part.score >= cutoff:
                found.notes.append(note(part, f"{where}, sentence {index}"))
    if whole and targets:
        found.target, found.previous = "\n\n".join(targets), "\n\n".join(previous)
        found.score = min(scores)
    return found if found.notes else None
