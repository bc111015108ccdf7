"""Where each translation stands, what a review writes, and what changed in English.

The states themselves (missing, draft, translated, reviewed, stale) are computed in
one place, :mod:`translator.cards.state`, which every stage reads (the build prints
by them too); they are re-exported here for the workflow's clients.
"""

from __future__ import annotations

import datetime
import difflib
import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "REVIEW_KEY",
    "STATES",
    "UNKNOWN",
    "CardState",
    "FieldChange",
    "card_state",
    "edited_since_review",
    "library_states",
    "marked_diff",
    "review_changes",
    "source_changes",
    "summary",
    "word_diff",
]

from ..cards.edit import REMOVE
from ..cards.model import TRANSLATED_FIELDS, Card, changed_fields, source_fingerprint
from ..cards.state import (
    REVIEW_KEY,
    STATES,
    UNKNOWN,
    CardState,
    card_state,
    edited_since_review,
    library_states,
    summary,
    version_fingerprint,
)
from . import history
from .fields import FINGERPRINT_GROUP, source_units

# --------------------------------------------------------------------------------------
# Review


def review_changes(
    card: Card, lang: str, today: datetime.date | None = None, reviewer: str | None = None
) -> dict[str, Any]:
    """The front matter changes that mark ``card``'s ``lang`` translation reviewed
    against the current English card: the date, who (or no name: an earlier
    reviewer's is not this review's), the fingerprints of the English card and of the
    translation as reviewed (a later edit of either undoes the review:
    :mod:`translator.cards.state`), no ``wip``."""
    assert card.source is not None
    version = card.translations[lang]
    english = source_fingerprint(card.source)
    return {
        "reviewed": (today or datetime.date.today()).isoformat(),
        "reviewer": reviewer or REMOVE,
        "source": english,
        REVIEW_KEY: version_fingerprint(version, english),
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
