"""Review sheets made for a library: the renders, the lint and a page per deck and
language, with their index (``translator review-sheet``).  :mod:`translator.api`
checks the settings and reads the library (``api.plan_review_sheets``); a
:class:`ReviewPlan` makes the sheets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..cards import Library
    from ..lint.run import LintSetup
    from ..typeset.options import BuildOptions
    from .sheet import Sheet

__all__ = ["Advance", "ReviewPlan", "ReviewSheets", "Stage"]

#: Told how many card renders are done since the last call (a progress bar's step).
Advance = Callable[[int], None]
#: Told what is being done ("cards (fr)", "sheets (fr)", ...).
Stage = Callable[[str], None]


@dataclass
class ReviewSheets:
    """The review sheets written: one per deck and language, and their index."""

    out: Path
    index: Path
    sheets: list[Sheet]

    def path(self, sheet: Sheet) -> Path:
        """Where ``sheet`` was written."""
        from .sheet import sheet_file  # noqa: PLC0415

        return self.out / sheet_file(sheet.deck, sheet.lang)


@dataclass
class ReviewPlan:
    """Review sheets ready to be made (the library read, the options checked):
    :attr:`total` says how many renders :meth:`run` will make, for a progress bar."""

    library: Library
    languages: list[str]
    out: Path
    build_dir: Path
    setup: LintSetup
    build_options: BuildOptions
    dpi: float
    renders: bool

    @property
    def total(self) -> int:
        """Card renders to make: every card in English and each language."""
        if not self.renders:
            return 0
        count = sum(1 for card in self.library.cards.values() if card.source is not None)
        return count * 2 * len(self.languages)

    def run(self, progress: Advance | None = None, stage: Stage | None = None) -> ReviewSheets:
        """Render the cards (or keep the renders up to date), lint, and write every
        sheet and the index into :attr:`out`."""
        from . import sheet as review  # noqa: PLC0415

        say = stage or (lambda text: None)
        self.out.mkdir(parents=True, exist_ok=True)
        made = []
        library, setup = self.library, self.setup
        for lang in self.languages:
            renders = None
            if self.renders:
                renders = review.render_cards(
                    library, lang, self.build_dir, self.build_options, self.dpi, progress, stage
                )
            say(f"sheets ({lang})")
            report = review.lint_report(library, setup.resources, setup.options, lang)
            for deck in sorted(library.decks):
                page = review.make_sheet(
                    library, deck, lang, setup.resources, setup.options, renders, self.out, report
                )
                review.write_sheet(page, self.out)
                made.append(page)
        return ReviewSheets(self.out, review.write_index(made, self.out), made)
