"""GL rules: the community's words, in every inflected form, the same on every card.

GL1: a term the English text uses is rendered with the glossary's term, and a phrase
of the English effect (how long, while what, for each what) with one of its
renderings; GL2: deprecated terms and ability names, with their replacement; GL3: the
same English term or sentence translated differently on different cards of a library.

An ability's reminder that is the abilities list's own (exactly, or with the card's
parameters) is the list's authority: GL1 does not ask it for other words, and GL2
does not report a deprecated word the list itself still uses (that is a matter of
the list, see ``python -m translator.lint.abilities``).

One module per part: :mod:`.terms` (GL1), :mod:`.deprecated` (GL2), :mod:`.consistency`
(GL3); :mod:`.shared` holds what they share (the abilities lists' reminders).
"""

from __future__ import annotations

from . import consistency, deprecated, shared, terms
from .shared import GLOSSARY_RULES, list_reminders

__all__ = ["GLOSSARY_RULES", "consistency", "deprecated", "list_reminders", "shared", "terms"]
