"""The lint rules, by family; importing this package registers them.

- ``MK``: markup (how Aminduna reads the card text), from :mod:`translator.markup.checks`;
- ``TR``: a translation against its English card (:mod:`.translation`);
- ``GL``: the glossary, and consistency across the library (:mod:`.glossary`);
- ``LN``: the linter's own findings (suppressions), in :mod:`translator.lint.engine`.
"""

from __future__ import annotations

from ...markup import checks as markup_checks
from . import glossary, translation

__all__ = ["glossary", "markup_checks", "translation"]
