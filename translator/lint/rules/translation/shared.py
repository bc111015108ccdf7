"""What the TR rules (and the glossary and emphasis rules) share: paragraph alignment.

Loose comparison, the words a language allows and what a draft still holds in English
are in :mod:`translator.lint.drafts` (the engine needs them too).
"""

from __future__ import annotations

from ....diagnostics import Family
from ...context import Subject
from ...rule import TRANSLATION

#: The TR rules: each reads one translation, in every language.
TRANSLATION_RULES = Family(prefix="TR", target=TRANSLATION)


def aligned(subject: Subject, index: int) -> int | None:
    """The translation's paragraph matching source paragraph ``index``, if the two texts
    have the same number of paragraphs (otherwise TR301 says so)."""
    assert subject.source is not None
    if len(subject.source.plain.paragraphs) == len(subject.plain.paragraphs):
        return index
    return None
