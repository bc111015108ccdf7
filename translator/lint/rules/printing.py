"""PR rules: what only typesetting the card can tell (opt-in: it renders every card).

PR101 lays every card version out as ``translator build`` does (through the measure its
caller gives, :data:`translator.lint.context.FitMeasure`: the typesetter comes after the
linter), in the default theme at the Arcmage size, and reports the text that does not
fit its box even at the smallest scale: translations run longer than English, and the
reference prints them cut without a word.  Select it (``--select PR``) before a print
run; it costs about as much as building the deck.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity, rule
from ...errors import UsageError
from ..context import Reporter, Subject
from ..model import Finding
from ..rule import LIBRARY


@rule(
    code="PR101",
    name="text-overflow",
    severity=Severity.ERROR,
    summary="The card text does not fit its box, even shrunk to the smallest scale.",
    rationale="A card's text is laid out in a fixed box; translator shrinks it in steps of 0.02 "
    "down to 52 % (as the reference does) and refuses to print a card whose text is "
    "still too tall (`translator build`).  Translations run longer than English: this "
    "rule makes the same measurement in lint, per language, with how many millimetres "
    "are too many.  Opt-in (`--select PR`): it typesets every card.",
    bad="en: ***Bodyguard 2***\\\n"
    "  *Each turn, I may divert up to 2 damage from target creature you control and put that "
    "damage on myself instead.*\n"
    "\n"
    "  ***Defiance***\\\n"
    "  *All damage I deal while defending a city is added to its defense strength.*\n"
    "\n"
    "  ***Overrun***\\\n"
    "  *The surplus of unblocked damage I deal is carried over to the attacked city.*\n"
    "fr: ***Garde du corps 2***\\\n"
    "  *Chaque tour, je peux choisir une créature ciblée que tu contrôles et endurer à sa place "
    "jusqu’à 2 des dégâts qui devraient lui être infligés, pour la protéger, et ces dégâts me "
    "sont alors infligés à moi, et non à elle.*\n"
    "\n"
    "  ***Bravade***\\\n"
    "  *Tous les dégâts que j’inflige en défendant une cité sont ajoutés aux points de défense de "
    "la cité.*\n"
    "\n"
    "  ***Débordement***\\\n"
    "  *Le surplus de dégâts non bloqués que j’inflige est reporté sur la cité attaquée.*",
    good="en: ***Bodyguard 2***\\\n"
    "  *Each turn, I may divert up to 2 damage from target creature you control and put that "
    "damage on myself instead.*\n"
    "\n"
    "  ***Defiance***\\\n"
    "  *All damage I deal while defending a city is added to its defense strength.*\n"
    "\n"
    "  ***Overrun***\\\n"
    "  *The surplus of unblocked damage I deal is carried over to the attacked city.*\n"
    "fr: ***Garde du corps 2***\\\n"
    "  *Je peux endurer jusqu’à 2 dégâts à la place de la créature ciblée que tu contrôles pour "
    "la protéger.*\n"
    "\n"
    "  ***Bravade***\\\n"
    "  *Tous les dégâts que j’inflige en défendant une cité sont ajoutés aux points de défense de "
    "la cité.*\n"
    "\n"
    "  ***Débordement***\\\n"
    "  *Le surplus de dégâts non bloqués que j’inflige est reporté sur la cité attaquée.*",
    target=LIBRARY,
    opt_in=True,
)
def check_text_overflow(subjects: list[Subject], report: Reporter) -> Iterator[Finding]:
    if not subjects:
        return
    measure = subjects[0].resources.fit
    if measure is None:
        raise UsageError(
            "PR101 measures text with the typesetter, which this run was not given "
            "(run it through translator.api.lint, or give lint.Options(fit=...))"
        )
    for subject, amount, scale in measure([(s.card, s.lang, s) for s in subjects]):
        yield report.paragraph(
            subject,
            None,
            f"the text is {amount:.1f} mm too tall for its box at {scale:.0%}: shorten it",
        )
