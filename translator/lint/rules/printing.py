"""PR rules: what only typesetting the card can tell (opt-in: it renders every card).

PR101 lays every card version out as ``translator build`` does, in the default theme
at the Arcmage size, and reports the text that does not fit its box even at the
smallest scale: translations run longer than English, and the reference prints them
cut without a word.  Select it (``--select PR``) before a print run; it costs about
as much as building the deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity
from ..context import Subject
from ..model import Finding
from ..rule import LIBRARY, rule


@rule(
    "PR101",
    "text-overflow",
    Severity.ERROR,
    "The card text does not fit its box, even shrunk to the smallest scale.",
    "A card's text is laid out in a fixed box; translator shrinks it in steps of 0.02 "
    "down to 52 % (as the reference does) and refuses to print a card whose text is "
    "still too tall (`translator build`).  Translations run longer than English: this "
    "rule makes the same measurement in lint, per language, with how many millimetres "
    "are too many.  Opt-in (`--select PR`): it typesets every card.",
    "FR: a reminder text twice as long as the English one, on a creature",
    "FR: the same reminder, shortened to fit (or an abbreviation the glossary admits)",
    target=LIBRARY,
    opt_in=True,
)
def check_text_overflow(subjects: list[Subject]) -> Iterator[Finding]:
    from ...typeset.overflow import overflowing  # noqa: PLC0415 - WeasyPrint loads slowly

    for subject, amount, scale in overflowing([(s.card, s.lang, s) for s in subjects]):
        yield subject.report_paragraph(
            "PR101",
            None,
            f"the text is {amount:.1f} mm too tall for its box at {scale:.0%}: shorten it",
        )
