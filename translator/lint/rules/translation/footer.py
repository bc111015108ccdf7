"""TR7 rules: the footer line is the language's."""

from __future__ import annotations

from collections.abc import Iterator

from ....cards.model import DEFAULT_FOOTERS, SOURCE_LANGUAGE, is_default_footer
from ....diagnostics import Applicability, Severity
from ....untrusted import invisible_difference, spacing_key
from ...context import Reporter, Subject
from ...model import Edit, Finding
from .shared import TRANSLATION_RULES

#: The family of this module's rules (TR7).
FAMILY = TRANSLATION_RULES.part("TR7")


def expected_footer(subject: Subject) -> tuple[str, list[str]]:
    """The language's footer line, and its deprecated spellings (from the glossary)."""
    found = subject.language.cache.get("footer")
    if found is None:
        found = subject.language.cache["footer"] = _footer(subject)
    return found


def _footer(subject: Subject) -> tuple[str, list[str]]:
    return subject.language.glossary.footer(DEFAULT_FOOTERS[SOURCE_LANGUAGE])


@FAMILY.rule(
    code="TR701",
    name="footer",
    severity=Severity.WARNING,
    summary="The footer line is not the language's.",
    rationale="Every card prints a footer line under its text; each language has its own, set by "
    "the community (French: 'arcmage.org - un jeu de carte libre - rejoignez-nous\u00a0!', "
    "with the no-break space the French typography wants before « ! »; Esperanto: "
    "'arcmage.org - aligu nin!').  A translation leaves `info` out to get it, or writes "
    "it.  The footers are compared with the language's typography applied: the kind of "
    "space (plain, no-break, narrow) is the typography rules' matter (FR201), not a "
    "different footer; when two footers differ only in characters that look alike, "
    "the message names them (U+0020 SPACE where it should be U+00A0 NO-BREAK SPACE).",
    bad="en: Draw one card.\neo: Eltiru unu karton.\neo.info: arcmage.org - aligi nin!",
    good="en: Draw one card.\neo: Eltiru unu karton.\neo.info: arcmage.org - aligu nin!",
    fix="Replaces the footer by the language's.",
    applicability=Applicability.SAFE,
)
def check_footer(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = subject.source_value("info")
    here = subject.value("info")
    expected, deprecated = expected_footer(subject)
    if english and not is_default_footer(english, SOURCE_LANGUAGE):
        if not here:
            yield report.at(
                subject,
                "info",
                0,
                f"the English card has its own footer "
                f"line '{english}': translate it (add 'info: ...')",
            )
        return
    if not here or spacing_key(here) == spacing_key(expected):
        return
    why = "a deprecated spelling of" if here in deprecated else "not"
    hint = invisible_difference(here, expected)
    yield report.at(
        subject,
        "info",
        0,
        f"footer '{here}' is {why} the {subject.lang} "
        f"footer '{expected}'" + (f" ({hint})" if hint else ""),
        Edit("info", 0, len(here), expected),
    )
