"""TR405: a translation keeps the English card's emphasis of an ability's definition.

French has its guide's own rule (FR305, with the guide's words); for the other
languages the English card is the model: ``***Flying***`` then ``*reminder*``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity
from ..context import Reporter, Subject
from ..emphasis import ability_definitions
from ..model import Finding
from .translation.shared import TRANSLATION_RULES

#: The family of this module's rules (TR4).
FAMILY = TRANSLATION_RULES.part("TR4")


#: Languages whose style guide has its own rule for it (French: FR305).
OWN_RULE = frozenset({"fr"})


@FAMILY.rule(
    code="TR405",
    name="ability-emphasis",
    severity=Severity.INFO,
    summary="An ability's definition is not emphasised as on the English card: the name in "
    "bold italics, the reminder in italics.",
    rationale="The English cards write an ability as its name in bold italics and its reminder "
    "in simple italics (`***Flying***\\` then `*Only creatures with flying ...*`), so "
    "that players tell the keyword from the card's own effects; a translation whose "
    "style guide says nothing else keeps that.  Checked where the English card writes "
    "the ability so, in the languages without a rule of their own (French: FR305); "
    "the ways of missing it are named as FR305 names them.",
    bad="en: ***Peaceful***\\\n  *I cannot attack.*\neo: ***Paca***\\\n  Mi ne povas ataki.",
    good="en: ***Peaceful***\\\n  *I cannot attack.*\neo: ***Paca***\\\n  *Mi ne povas ataki.*",
)
def check_ability_emphasis(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation or subject.lang in OWN_RULE:
        return
    for found, at, name, problems in ability_definitions(subject):
        yield report.span(
            subject,
            found,
            at,
            f"'{name}': {'; '.join(problems)} (the English card: the "
            "name in bold italics, the reminder in italics)",
        )
