"""Where each translation stands: missing, draft, translated, reviewed or stale.

This is the one place a card version's state is computed.  Every command that acts
on it reads it from here (``status``, ``build`` and its deck and sheet files, the
review sheets, ``review``, ``push``, the PO export), so that a command can never
print, send or sign off what ``status`` calls something else.

The state is read from the files, never stored apart from them, so that it is true
after any edit, merge or import:

- *missing*: no file for the language;
- *stale*: the English card changed since the translation's ``source`` fingerprint
  was taken (whatever else is true: the translation may say something the card no
  longer says);
- *draft*: ``wip: true`` (what ``translator translate`` writes, and what Aminduna
  calls "(fr wip)");
- *reviewed*: ``reviewed: <date>`` with the two fingerprints the review took: the
  English card's (``source``) and the translation's own (``reviewed-fingerprint``),
  both still those of the files.  A translation edited after its review (in an
  editor, by a merge, an import) is *translated* again, with the fields edited: a
  review vouches for a text, not for a file name;
- *translated*: anything else.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .model import (
    GROUP,
    GROUP_DIGITS,
    SOURCE_LANGUAGE,
    TRANSLATED_FIELDS,
    Card,
    CardFile,
    Library,
    changed_fields,
    same_group,
    source_fingerprint,
)

STATES = ("missing", "draft", "translated", "reviewed", "stale")
#: The translation's front matter key holding its own fingerprint at review.
REVIEW_KEY = "reviewed-fingerprint"
#: What ``edited`` holds for a review that took no fingerprint of the translation (one
#: made before reviews took one): what it vouched for cannot be told.
UNKNOWN = "unknown"
#: What ``edited`` holds for a review taken of another English card, card or language
#: than the file's now (its ``source`` set since, by hand or by an import; the file
#: copied to another card or language).
ELSEWHERE = "review"
#: A review fingerprint: a group per translated field, then the group binding it.
REVIEW_FINGERPRINT_RE = re.compile(rf"^{GROUP}(?:-{GROUP}){{{len(TRANSLATED_FIELDS)}}}$")


def version_fingerprint(version: CardFile, source: str | None = None) -> str:
    """The fingerprint a review takes of a translation: its own text, in the format of
    the English card's (:func:`.model.source_fingerprint`: a group per translated
    field, so that a change tells which fields were edited), and a last group binding
    it to what the review saw it against: the card, the language and the English
    card's fingerprint (``source``).  A review copied to another card or language, or
    a ``source`` refreshed without a review (by hand, as TR601 says, or by an
    import that confirms the text), no longer holds.  ``source``: the English
    fingerprint the review writes (default: the file's)."""
    english = version.fields.get("source") if source is None else source
    binding = f"{version.slug}\n{version.lang}\n{english or ''}"
    bound = hashlib.sha256(binding.encode()).hexdigest()[:GROUP_DIGITS]
    return f"{source_fingerprint(version)}-{bound}"


@dataclass
class CardState:
    """One card in one language."""

    deck: str
    card: str
    lang: str
    state: str
    #: The translation's own Aminduna guid (None when it has none, or no file).
    guid: str | None = None
    path: str | None = None
    #: For a stale translation: the source fields changed since (empty when the
    #: fingerprint is of the old format, which cannot tell).
    changed: list[str] = field(default_factory=list)
    wip: bool = False
    #: The date of the translation's last review (a review that no longer holds,
    #: ``edited``, keeps its date here: when the review was).
    reviewed: str | None = None
    #: False when the translation has no fingerprint: its staleness is unknown.
    fingerprint: bool = False
    #: For a translation marked reviewed whose text is no longer the one reviewed:
    #: the fields edited since (``[UNKNOWN]`` for a review without a fingerprint).
    edited: list[str] = field(default_factory=list)
    #: What of the card would print in English (:func:`english_left`): ``name2`` or
    #: ``text`` the translation lacks (the English card's is inherited), ``paragraph
    #: N`` left as the English wrote it.
    english: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "guid": self.guid,
            "lang": self.lang,
            "state": self.state,
            "changed": self.changed,
            "edited": self.edited,
            "english": self.english,
            "deck": self.deck,
            "path": self.path,
            "wip": self.wip,
            "reviewed": self.reviewed,
            "fingerprint": self.fingerprint,
        }

    @property
    def inherited(self) -> list[str]:
        """What the translation lacks and would print from its English card
        (``name2``, ``text``): of :attr:`english`."""
        return [part for part in self.english if part in INHERITED]

    @property
    def left(self) -> list[str]:
        """The paragraphs left as the English wrote them: of :attr:`english`."""
        return [part for part in self.english if part not in INHERITED]

    @property
    def why(self) -> str:
        """What the state means for this card, in a few words ('' when nothing is to
        be done): what status, build and push say of it."""
        if self.state == "missing":
            return f"no {self.lang} translation"
        if self.state == "stale":
            return (
                f"the English {', '.join(self.changed)} changed since it was translated"
                if self.changed
                else "the English card changed since it was translated"
            )
        if self.state == "draft":
            return "a draft (wip: true)"
        english = f"{english_said(self.english)}; " if self.english else ""
        return english + _REVIEW_LOST.get(
            tuple(self.edited),
            f"its {', '.join(self.edited)} edited since its review on {self.reviewed}"
            if self.edited
            else "",
        ).format(date=self.reviewed).rstrip("; ")


#: Why a review no longer holds, when it is not that fields were edited.
_REVIEW_LOST: dict[tuple[str, ...], str] = {
    (UNKNOWN,): "its review took no fingerprint of the translation: review it again",
    (ELSEWHERE,): (
        "its review on {date} was of another English card, card or language (its source "
        "fingerprint was set since, or the file copied): review it again"
    ),
}


def card_state(card: Card, lang: str) -> CardState:
    """The state of ``card`` in ``lang`` (the card has its English source)."""
    assert card.source is not None
    version = card.version(lang)
    if version is None:
        return CardState(card.deck, card.slug, lang, "missing")
    fields = version.fields
    guid = fields.get("guid")
    reviewed = fields.get("reviewed")
    found = CardState(
        card.deck,
        card.slug,
        lang,
        "translated",
        None if guid in (None, "") else str(guid),
        version.path,
        wip=bool(fields.get("wip")),
        reviewed=None if reviewed is None else str(reviewed),
    )
    if lang == SOURCE_LANGUAGE:
        return found
    found.english = english_left(card.source, version)
    fingerprint = fields.get("source")
    if isinstance(fingerprint, str) and fingerprint:
        found.fingerprint = True
        changed = changed_fields(fingerprint, card.source)
        if changed != []:
            found.state = "stale"
            found.changed = changed or []
            return found
    if found.wip:
        found.state = "draft"
    elif found.reviewed:
        found.edited = edited_since_review(version)
        if not found.edited and found.fingerprint:
            found.state = "reviewed"
        elif not found.fingerprint:
            found.edited = [UNKNOWN]
    return found


#: What a translation inherits from its English card when it lacks it, and prints.
INHERITED = ("name2", "text")
#: A word, for telling a paragraph of English left as it was from one of symbols,
#: numbers and names that a translation writes as the English does.
_WORD = re.compile(r"[^\W\d_]{3,}")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")


def english_left(source: CardFile, version: CardFile) -> list[str]:
    """What of ``version`` would print in English: its second name or card text when
    it has none and the English card has one (a translation inherits what it does not
    hold), and each paragraph that is the English paragraph in its place, unchanged
    (of two words or more: a line of symbols, numbers or a name is written alike).
    A draft's paragraphs are not told apart: a draft holds English by definition."""
    found = []
    if _text(source.fields.get("name2")) and not _text(version.fields.get("name2")):
        found.append("name2")
    english, here = _paragraphs(source.body), _paragraphs(version.body)
    if english and not here:
        found.append("text")
    elif not version.fields.get("wip"):
        found += [
            f"paragraph {number}"
            for number, (then, now) in enumerate(zip(english, here, strict=False), start=1)
            if then == now and len(_WORD.findall(then)) >= 2
        ]
    return found


def english_said(english: list[str]) -> str:
    """:attr:`CardState.english` (or a part of it) in words."""
    missing = [
        f"no {'second name' if part == 'name2' else 'card text'}"
        for part in english
        if part in INHERITED
    ]
    left = [part.split()[1] for part in english if part not in INHERITED]
    said = [f"{' and '.join(missing)}: the English card's would be printed"] if missing else []
    if left:
        which = f"paragraph {left[0]} is" if len(left) == 1 else f"paragraphs {', '.join(left)} are"
        said.append(f"{which} the English text, unchanged")
    return "; ".join(said)


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _paragraphs(body: str) -> list[str]:
    """A body's paragraphs, their whitespace made one space (a reflowed line is the
    same paragraph)."""
    text = body.replace("\r\n", "\n").strip()
    return [" ".join(part.split()) for part in _BLANK_LINES.split(text) if part.strip()]


def edited_since_review(version: CardFile) -> list[str]:
    """The translated fields of ``version`` that are not what its review saw
    (``[UNKNOWN]`` when the review took no fingerprint of it)."""
    taken = version.fields.get(REVIEW_KEY)
    if not isinstance(taken, str) or not REVIEW_FINGERPRINT_RE.match(taken):
        return [UNKNOWN]
    now = version_fingerprint(version)
    *fields, binding = taken.split("-")
    if not same_group(binding, now.rsplit("-", 1)[1]):
        return [ELSEWHERE]
    return [
        key
        for key, old, new in zip(TRANSLATED_FIELDS, fields, now.split("-"), strict=False)
        if not same_group(old, new)
    ]


def library_states(
    library: Library, languages: Iterable[str], decks: Iterable[str] | None = None
) -> list[CardState]:
    """Every card of ``decks`` (all when None) in every language, in library order."""
    wanted = None if decks is None else set(decks)
    found: list[CardState] = []
    for (deck, _), card in sorted(library.cards.items()):
        if card.source is None or (wanted is not None and deck not in wanted):
            continue
        found.extend(card_state(card, lang) for lang in languages if lang != SOURCE_LANGUAGE)
    return found


def summary(states: Iterable[CardState]) -> dict[str, dict[str, dict[str, int]]]:
    """deck -> language -> state -> count (every state present, zeros included)."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for state in states:
        counts = table.setdefault(state.deck, {}).setdefault(state.lang, dict.fromkeys(STATES, 0))
        counts[state.state] += 1
    return table
