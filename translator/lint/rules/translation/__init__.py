"""TR rules: a translation says what its English card says.

One module per family: numbers with their signs (TR1, :mod:`.numbers`), symbols and
drop caps (TR2, :mod:`.symbols`), the paragraph structure (TR3, :mod:`.structure`),
name lines, subtypes and abilities (TR4, :mod:`.fields`), English left over (TR5,
:mod:`.english`), staleness (TR6, :mod:`.staleness`) and the footer line (TR7,
:mod:`.footer`).  :mod:`.shared` and :mod:`translator.lint.drafts` hold what they
(and the glossary and emphasis rules) share; those names, and the abilities helpers,
are importable from here.
"""

from __future__ import annotations

from ...drafts import DRAFT_REPORTS, draft_english, draft_lines, loose
from . import english, fields, footer, numbers, staleness, structure, symbols
from .fields import ability_line, ability_paragraph, source_abilities, substitute
from .footer import expected_footer
from .shared import aligned

__all__ = [
    "DRAFT_REPORTS",
    "ability_line",
    "ability_paragraph",
    "aligned",
    "draft_english",
    "draft_lines",
    "english",
    "expected_footer",
    "fields",
    "footer",
    "loose",
    "numbers",
    "source_abilities",
    "staleness",
    "structure",
    "substitute",
    "symbols",
]
