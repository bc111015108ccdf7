"""The lint rules, by family; importing this package declares them.

The rule registry imports the family modules (:data:`translator.diagnostics.RULE_MODULES`),
once, the first time it is asked about the lint rules: nothing else needs to.  Each
family declares its rules through its :class:`~translator.diagnostics.Family` (its
target and languages, said once).

- ``MK``: markup (how Aminduna reads the card text), in :mod:`translator.markup.checks`;
- ``TR``: a translation against its English card (:mod:`.translation`, one module per
  family, and the emphasis of abilities in :mod:`.emphasis`);
- ``GL``: the glossary, and consistency across the library (:mod:`.glossary`, one
  module per part);
- ``FR``: the French style guide (:mod:`.french`, one module per part); ``EO``: the
  Esperanto house style (:mod:`.esperanto`, one module per part) and grammar
  (:mod:`.esperanto_grammar`); ``SP``: spelling (:mod:`.spelling`); ``PR``: what
  typesetting tells (:mod:`.printing`, opt-in);
- ``LN``: the linter's own findings (suppressions), in :mod:`translator.lint.engine`.
"""

from __future__ import annotations

from . import (
    emphasis,
    esperanto,
    esperanto_grammar,
    french,
    glossary,
    printing,
    spelling,
    translation,
)

__all__ = [
    "emphasis",
    "esperanto",
    "esperanto_grammar",
    "french",
    "glossary",
    "printing",
    "spelling",
    "translation",
]
