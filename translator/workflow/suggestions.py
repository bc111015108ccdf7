"""What the translation memory offers a card a translator is about to translate.

Two readers of it:

- ``translator suggest CARD`` (:func:`card_texts`, through :func:`.stored.suggest`):
  each text of the card in the order a translator reads it (the name lines, the
  subtype, each paragraph and, for a paragraph the memory does not hold whole, each of
  its sentences as the memory cuts them: its lines, an ability's name and reminder,
  their sentences; the footer of its own), with its exact match or its most similar
  ones;
- the PO export (:func:`suggest_units`), which shows a suggestion the way ``msgmerge``
  shows a fuzzy match and Poedit and Weblate read it: the suggested translation in the
  entry, marked fuzzy (nothing is taken before a person has looked at it), the English
  it translated as the *previous* source (``#| msgid``: the tools show how it differs
  from today's), and comments saying where it comes from.  A unit gets a suggestion
  when its whole English has one: a one-line unit (name, subtype, footer) its best
  match, a text every paragraph of which has a match.  What matches only in part is
  said in the comments, one line each, with the difference.

A card's own translation is never a suggestion for itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards.model import DEFAULT_FOOTERS, Card, Library
from .memory import FUZZY_CUTOFF, Match, Memory, Unit, name_run, paragraphs, segments
from .states import marked_diff

#: The memory's pool for each one-line unit.
LINE_POOLS = {"name": "name", "name2": "name", "subtype": "subtype", "info": "info"}
#: What a one-line unit is called.
LABELS = {"name": "name", "name2": "second name line", "subtype": "subtype", "info": "footer"}


@dataclass
class Text:
    """One text of a card, as a translator meets it, and what the memory has for it."""

    #: The card's unit: name, name2, subtype, text (a paragraph or sentence), info.
    unit: str
    #: The memory's kind it is looked up as.
    kind: str
    english: str
    #: For the text: the paragraph (from 1), and the sentence in it (0: the paragraph).
    paragraph: int = 0
    sentence: int = 0
    exact: Match | None = None
    fuzzy: list[Match] = field(default_factory=list)

    @property
    def label(self) -> str:
        if self.unit != "text":
            return LABELS[self.unit]
        if self.sentence:
            return f"paragraph {self.paragraph}, sentence {self.sentence}"
        return f"paragraph {self.paragraph}"

    @property
    def found(self) -> bool:
        return self.exact is not None or bool(self.fuzzy)

    @property
    def best(self) -> Match | None:
        return self.exact or (self.fuzzy[0] if self.fuzzy else None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "kind": self.kind,
            "paragraph": self.paragraph or None,
            "sentence": self.sentence or None,
            "english": self.english,
            "exact": self.exact.to_dict() if self.exact is not None else None,
            "fuzzy": [m.to_dict() for m in self.fuzzy],
        }


@dataclass
class _Look:
    """Looks one card's texts up (its own units left out)."""

    memory: Memory
    card: Card
    cutoff: float = FUZZY_CUTOFF
    limit: int = 3
    names: tuple[str | None, str | None] = (None, None)

    def __call__(self, text: Text) -> Text:
        named = self.names if text.kind not in ("name", "subtype") else (None, None)
        text.exact, text.fuzzy = self.memory.lookup(
            text.kind,
            text.english,
            *named,
            cutoff=self.cutoff,
            limit=self.limit,
            exclude=f"{self.card.deck}/{self.card.slug}",
        )
        return text


def card_texts(
    card: Card, lang: str, memory: Memory, cutoff: float = FUZZY_CUTOFF, limit: int = 3
) -> list[Text]:
    """The texts of ``card`` (which has its English source) in reading order, each with
    its exact match or its fuzzy ones (``cutoff`` percent or more, ``limit`` each)."""
    source = card.source
    assert source is not None
    look = _Look(memory, card, cutoff, limit)
    found = []
    for unit in ("name", "name2", "subtype"):
        value = source.fields.get(unit)
        if value not in (None, ""):
            found.append(look(Text(unit, LINE_POOLS[unit], str(value))))
    look.names = (str(source.fields.get("name") or "") or None, _target_name(card, lang, found))
    for number, paragraph in enumerate(paragraphs(source.body), start=1):
        text = look(Text("text", "paragraph", paragraph, number))
        found.append(text)
        parts = segments(paragraph)
        if text.exact is None and len(parts) > 1:
            found.extend(
                look(Text("text", "sentence", part, number, index))
                for index, part in enumerate(parts, start=1)
                if not name_run(part)  # an ability's name: the glossary's
            )
    info = source.fields.get("info")
    if info not in (None, "", *DEFAULT_FOOTERS.values()):
        found.append(look(Text("info", "info", str(info))))
    return found


def _target_name(card: Card, lang: str, found: list[Text]) -> str | None:
    """The card's name in ``lang``, put where a memory unit printed its card's own:
    the translation's (unless a draft's, still English), else the memory's."""
    version = card.translations.get(lang)
    english = card.source.fields.get("name") if card.source else None
    own = version.fields.get("name") if version is not None else None
    if own and not (version is not None and version.fields.get("wip") and own == english):
        return str(own)
    for text in found:
        if text.unit == "name" and text.exact is not None:
            return text.exact.target
    return None


# --------------------------------------------------------------------------------------
# What a set of new units brings to the cards to translate


@dataclass
class Gain:
    """What new memory units bring to one card to translate (a draft, or none yet)."""

    card: str
    state: str
    exact: int
    fuzzy: int

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "state": self.state, "exact": self.exact, "fuzzy": self.fuzzy}


def gains(library: Library, lang: str, memory: Memory, added: set[Unit]) -> list[Gain]:
    """For each card of ``library`` to translate into ``lang`` (a draft, or no
    translation), how many of its texts the ``added`` units match exactly, or are the
    best suggestions for."""
    found = []
    for (deck, slug), card in sorted(library.cards.items()):
        version = card.translations.get(lang)
        if card.source is None or (version is not None and not version.fields.get("wip")):
            continue
        texts = card_texts(card, lang, memory)
        exact = sum(1 for t in texts if t.exact is not None and t.exact.unit in added)
        fuzzy = sum(1 for t in texts if t.exact is None and any(m.unit in added for m in t.fuzzy))
        if exact or fuzzy:
            state = "missing" if version is None else "draft"
            found.append(Gain(f"{deck}/{slug}", state, exact, fuzzy))
    return found


# --------------------------------------------------------------------------------------
# The PO export's suggestions


@dataclass
class Suggestion:
    """The memory's offer for one unit of a PO or XLIFF entry."""

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


def suggest_units(memory: Memory, card: Card, lang: str) -> dict[str, Suggestion]:
    """The memory's suggestion for each of ``card``'s English units that it has
    something alike for (the units of :func:`.fields.units`: the name lines, the
    subtype, the footer, the rule text, the flavour)."""
    from .fields import units  # noqa: PLC0415

    assert card.source is not None
    own = units(card.source)
    # The body's paragraphs are the rule text's, then the flavour's.
    in_text = len(paragraphs(own.get("text", "")))
    grouped: dict[str, list[Text]] = {}
    for text in card_texts(card, lang, memory, limit=1):
        unit = (
            text.unit if text.unit != "text" else "text" if text.paragraph <= in_text else "flavour"
        )
        grouped.setdefault(unit, []).append(text)
    found = {}
    for unit, texts in grouped.items():
        suggestion = _suggestion(texts)
        if suggestion is not None:
            found[unit] = suggestion
    return found


def _suggestion(texts: list[Text]) -> Suggestion | None:
    """One unit's suggestion from its texts' matches: the whole unit when every
    paragraph (or the one line) has a match, the comments in any case."""
    found = Suggestion(notes=[note(best, _place(t)) for t in texts if (best := t.best)])
    whole = [t for t in texts if not t.sentence]
    if whole and all(t.best is not None for t in whole):
        matches = [t.best for t in whole if t.best is not None]
        found.target = "\n\n".join(m.target for m in matches)
        found.previous = "\n\n".join(m.unit.english for m in matches)
        found.score = min(m.score for m in matches)
    return found if found.notes else None


def _place(text: Text) -> str:
    return "" if text.unit in LINE_POOLS else text.label
