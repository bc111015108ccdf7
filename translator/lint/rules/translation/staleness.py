"""TR6 rules: the translation says when its English card changed (the source fingerprint)."""

from __future__ import annotations

from collections.abc import Iterator

from ....cards.model import changed_fields
from ....diagnostics import Severity
from ...context import Reporter, Subject
from ...model import Finding
from .shared import TRANSLATION_RULES

#: The family of this module's rules (TR6).
FAMILY = TRANSLATION_RULES.part("TR6")


@FAMILY.rule(
    code="TR601",
    name="stale",
    severity=Severity.WARNING,
    summary="The English card changed since this translation was made or reviewed.",
    rationale="A translation's `source` key holds a fingerprint of the English fields it was made "
    "from (one group per field).  When the English name, subtype, text or footer "
    "changes, the fingerprint no longer matches: the translation may say something the "
    "card no longer says.  The finding names the fields that changed; after review, "
    "write the new fingerprint it gives.",
    bad="en: Draw two cards.\n"
    "fr: Pioche une carte.\n"
    "# made from the English card when it said 'Draw one card.'\n"
    'fr.source: "3425-7423-7423-91e3-7423"',
    good="en: Draw two cards.\nfr: Pioche deux cartes.",
)
def check_stale(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    fingerprint = subject.file.fields.get("source")
    if not isinstance(fingerprint, str) or not fingerprint:
        return
    changed = changed_fields(fingerprint, subject.source.file, subject.source.fingerprint)
    if changed == []:
        return
    what = (
        f"its {', '.join(changed)} changed"
        if changed
        else "which fields cannot be told (old fingerprint format)"
    )
    yield report.at(
        subject,
        "source",
        0,
        f"the English card changed since this translation ({what}): review "
        f'it, then set source: "{subject.source.fingerprint}"',
    )


@FAMILY.rule(
    code="TR602",
    name="no-fingerprint",
    severity=Severity.INFO,
    summary="The translation has no source fingerprint: nobody will know when it goes stale.",
    rationale="Without a `source` fingerprint, a change of the English card cannot be detected.  "
    "Add the fingerprint this finding gives once the translation is checked against the "
    "current English card.",
    bad="en: Draw one card.\nfr: Pioche une carte.\nfr.source:",
    good="en: Draw one card.\nfr: Pioche une carte.",
)
def check_no_fingerprint(subject: Subject, report: Reporter) -> Iterator[Finding]:
    if subject.is_translation and not subject.file.fields.get("source"):
        assert subject.source is not None
        yield report.at(
            subject,
            "source",
            0,
            f'no source fingerprint: after review, add source: "{subject.source.fingerprint}"',
        )
