"""Words as every stage compares them: NFC, case-folded.

Below the glossary and the languages, which both compare words (a term with a text's
word, a language's word lists with a card's), so that neither imports the other for it.
"""

from __future__ import annotations

import unicodedata


def normalize(word: str) -> str:
    """``word`` as compared: NFC, case-folded (``Œuvre`` and ``œuvre`` are one word)."""
    return unicodedata.normalize("NFC", word).casefold()
