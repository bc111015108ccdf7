"""Where each translation stands: missing, draft, translated, reviewed or stale.

The state is read from the files, never stored apart from them, so that it is true
after any edit, merge or import:

- *missing*: no file for the language;
- *stale*: the English card changed since the translation's ``source`` fingerprint
  was taken (whatever else is true: the translation may say something the card no
  longer says);
- *draft*: ``wip: true`` (what ``translator translate`` writes, and what Aminduna
  calls "(fr wip)");
- *reviewed*: ``reviewed: <date>`` (what ``translator review`` writes);
- *translated*: anything else.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..cards.edit import REMOVE
from ..cards.model import (
    SOURCE_LANGUAGE,
    TRANSLATED_FIELDS,
    Card,
    Library,
    changed_fields,
    source_fingerprint,
)
from . import history
from .fields import FINGERPRINT_GROUP, source_units

STATES = ("missing", "draft", "translated", "reviewed", "stale")


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
    reviewed: str | None = None
    #: False when the translation has no fingerprint: its staleness is unknown.
    fingerprint: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "guid": self.guid,
            "lang": self.lang,
            "state": self.state,
            "changed": self.changed,
            "deck": self.deck,
            "path": self.path,
            "wip": self.wip,
            "reviewed": self.reviewed,
            "fingerprint": self.fingerprint,
        }


def card_state(card: Card, lang: str) -> CardState:
    """The state of ``card`` in ``lang`` (the card has its English source)."""
    assert card.source is not None
    version = card.translations.get(lang)
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
        found.state = "reviewed"
    return found


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


# --------------------------------------------------------------------------------------
# Review


def review_changes(
    card: Card, lang: str, today: datetime.date | None = None, reviewer: str | None = None
) -> dict[str, Any]:
    """The front matter changes that mark ``card``'s ``lang`` translation reviewed
    against the current English card: the date, who (or no name: an earlier
    reviewer's is not this review's), the fresh fingerprint, no ``wip``."""
    assert card.source is not None
    return {
        "reviewed": (today or datetime.date.today()).isoformat(),
        "reviewer": reviewer or REMOVE,
        "source": source_fingerprint(card.source),
        "wip": REMOVE,
        "memory": REMOVE,  # what the draft took from the memory is now reviewed
    }


# --------------------------------------------------------------------------------------
# What changed in English


@dataclass
class FieldChange:
    """One translatable unit of the English card, then and now."""

    unit: str
    old: str | None
    new: str
    #: The revision the old text was found in (None when unknown).
    revision: str | None = None

    def words(self) -> list[tuple[str, str]]:
        """A word-level diff: ("=", text), ("-", removed) and ("+", added) pieces."""
        if self.old is None:
            return [("+", self.new)]
        return word_diff(self.old, self.new)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "old": self.old,
            "new": self.new,
            "revision": self.revision,
            "diff": [list(p) for p in self.words()],
        }


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``old`` -> ``new`` word by word (spaces and punctuation are tokens of their own,
    so that a changed comma does not mark the whole word)."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    pieces: list[tuple[str, str]] = []

    def add(kind: str, text: str) -> None:
        if not text:
            return
        if pieces and pieces[-1][0] == kind:
            pieces[-1] = (kind, pieces[-1][1] + text)
        else:
            pieces.append((kind, text))

    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            add("=", "".join(a[i1:i2]))
        else:
            add("-", "".join(a[i1:i2]))
            add("+", "".join(b[j1:j2]))
    return pieces


def marked_diff(pieces: list[tuple[str, str]]) -> str:
    """A word diff as git's ``--word-diff=plain`` writes it: ``[-old-]{+new+}``."""
    return "".join(
        text if kind == "=" else f"[-{text}-]" if kind == "-" else f"{{+{text}+}}"
        for kind, text in pieces
    )


def source_changes(card: Card, lang: str) -> list[FieldChange]:
    """The English units changed since ``card``'s ``lang`` translation was made, with
    their old text when git has it (a unit whose old text is the new one is left out:
    its fingerprint group changed in its other unit, rule text or flavour)."""
    assert card.source is not None
    version = card.translations.get(lang)
    fingerprint = None if version is None else version.fields.get("source")
    if not isinstance(fingerprint, str) or not fingerprint:
        return []
    changed = changed_fields(fingerprint, card.source)
    if changed == []:
        return []
    if changed is None:  # the old single-hash format: changed, but which fields is unknown
        changed, old = list(TRANSLATED_FIELDS), history.OldSource()
    else:
        old = history.old_source(card.source, fingerprint, changed)
    now = source_units(card.source)
    found = []
    for unit in ("name", "name2", "subtype", "text", "flavour", "info"):
        group = FINGERPRINT_GROUP[unit]
        if group not in changed:
            continue
        before_file = old.versions.get(group)
        before = None if before_file is None else source_units(before_file).get(unit, "")
        after = now.get(unit, "")
        if before is not None and before == after:
            continue  # the text changed in its other unit (rule text or flavour)
        found.append(FieldChange(unit, before, after, old.revisions.get(group)))
    return found
