"""The lint rules, by family; importing this package registers them.

- ``MK``: markup (how Aminduna reads the card text), from :mod:`translator.markup.checks`;
- ``TR``: a translation against its English card (:mod:`.translation`);
- ``GL``: the glossary, and consistency across the library (:mod:`.glossary`);
- ``FR``: the French style guide (:mod:`.french`); ``EO``: the Esperanto house style
  (:mod:`.esperanto`); ``SP``: spelling (:mod:`.spelling`); ``PR``: what typesetting
  tells (:mod:`.printing`, opt-in);
- ``LN``: the linter's own findings (suppressions), in :mod:`translator.lint.engine`.
"""

from __future__ import annotations

from ...markup import checks as markup_checks
from . import esperanto, french, glossary, printing, spelling, translation

__all__ = ["esperanto", "french", "glossary", "markup_checks", "printing", "spelling",
           "translation"]
