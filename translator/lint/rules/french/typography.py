"""FR2 rules: French typography.

No-break spaces before ; : ! ? » and after « (FR201), « » for quotation marks (FR202),
the configured apostrophe (FR203), the ellipsis character (FR204), two spaces between
words (FR205) and a space before a full stop, a comma or an ellipsis (FR206).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....diagnostics import Applicability, Severity
from ....languages.fr import LANGUAGE as FRENCH
from ...context import Reporter, Subject
from ...model import Edit, Finding, PlainParagraph
from .shared import FRENCH_RULES

#: The family of this module's rules (FR2).
FAMILY = FRENCH_RULES.part("FR2")


NBSP, NNBSP = "\u00a0", "\u202f"
_SPACES = {"either": (NBSP, NNBSP), "no-break": (NBSP,), "narrow": (NNBSP,)}
_ENTITY_END = re.compile(r"&#?\w+;$")


def _space_setting(subject: Subject) -> tuple[str, ...]:
    return _SPACES.get(str(subject.resources.settings.get("french-spaces")), _SPACES["either"])


@FAMILY.rule(
    code="FR201",
    name="no-break-space",
    severity=Severity.WARNING,
    summary="A French ; : ! ? » takes a no-break space before it, « one after it.",
    rationale="French typography puts a space before the high punctuation and inside « », and it "
    "must not break (a « ! » alone at the start of a line).  The guide's pre-print "
    "checklist asks for it: « Insécables (scripter ?) ».  The space is U+00A0 or the "
    "narrow U+202F: `french-spaces` in the configuration accepts either (the default) "
    "or requires one.",
    bad='en: *"Boom. Boom. Run!"*\nfr: *« Boum. Boum. Cours ! »*',
    good='en: *"Boom. Boom. Run!"*\nfr: *«\u00a0Boum. Boum. Cours\u00a0!\u00a0»*',
    fix='Replaces the space by a no-break space (U+202F with french-spaces = "narrow", else '
    "U+00A0), or inserts one.",
    applicability=Applicability.SAFE,
)
def check_no_break_space(subject: Subject, report: Reporter) -> Iterator[Finding]:
    allowed = _space_setting(subject)
    fix_char = allowed[0]
    # The characters a no-break space precedes (; : ! ? »): French typography.
    high_punctuation = FRENCH.typography.no_break_before
    for paragraph in subject.plain.paragraphs:
        text = paragraph.text
        for i, char in enumerate(text):
            if char in high_punctuation:
                if char == ";" and _ENTITY_END.search(text, 0, i + 1):
                    continue  # the end of an entity (&#8239;): MK404 says how to write it
                if _ENTITY_END.search(text, 0, i):
                    continue  # a space written as an entity (MK404)
                if (
                    i == 0
                    or text[i - 1] in "\n\ufffc!?"
                    or (
                        char == ":"
                        and i + 1 < len(text)
                        and text[i - 1].isdigit()
                        and text[i + 1].isdigit()
                    )
                ):
                    continue
                yield from _space(
                    subject, report, paragraph, i - 1, i, allowed, fix_char, f"before '{char}'"
                )
            elif char == "«":
                if i + 1 >= len(text) or text[i + 1] == "\n":
                    continue
                yield from _space(
                    subject, report, paragraph, i + 1, i + 1, allowed, fix_char, "after '«'"
                )
    yield from _footer_spaces(subject, report, allowed, fix_char)


def _footer_spaces(
    subject: Subject, report: Reporter, allowed: tuple[str, ...], fix_char: str
) -> Iterator[Finding]:
    """The footer a translation writes prints too: a plain space before its « ! » is
    the same defect as in the text (TR701 compares footers with the spaces set
    aside, so one of the two rules reports it, not both)."""
    footer = subject.value("info")
    if not footer:
        return
    high_punctuation = FRENCH.typography.no_break_before
    for i, char in enumerate(footer):
        if char in high_punctuation and i > 0 and footer[i - 1] == " " and " " not in allowed:
            yield report.at(
                subject,
                "info",
                i - 1,
                f"a space before '{char}' in the footer: write a no-break space",
                Edit("info", i - 1, i, fix_char),
            )


def _space(
    subject: Subject,
    report: Reporter,
    paragraph: PlainParagraph,
    at: int,
    insert_at: int,
    allowed: tuple[str, ...],
    fix_char: str,
    where: str,
) -> Iterator[Finding]:
    """A finding unless the character at ``at`` is an allowed no-break space."""
    text = paragraph.text
    char = text[at] if 0 <= at < len(text) else ""
    if char in allowed:
        return
    if char in (" ", NBSP, NNBSP):
        name = "a space" if char == " " else f"U+{ord(char):04X}"
        edit = subject.text_edit(paragraph.index, at, at + 1, fix_char)
        yield report.span(
            subject, paragraph.index, at, f"{name} {where}: write a no-break space", edit
        )
    else:
        edit = subject.text_edit(paragraph.index, insert_at, insert_at, fix_char)
        yield report.span(
            subject, paragraph.index, insert_at, f"no space {where}: write a no-break space", edit
        )


_STRAIGHT_QUOTES = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")


@FAMILY.rule(
    code="FR202",
    name="french-quotes",
    severity=Severity.WARNING,
    summary='Quotation marks in French are « », not " " or “ ”.',
    rationale="The checklist: « Guillements typographiques (scripter ?) ».  Flavour text is "
    "also how Aminduna recognises flavour: an italic paragraph opening with «.",
    bad='en: *"Steel does not hesitate."*\nfr: *"L’acier n’hésite pas."*',
    good='en: *"Steel does not hesitate."*\nfr: *«\u00a0L’acier n’hésite pas.\u00a0»*',
    fix="Replaces a pair of quotes in one paragraph by « » with no-break spaces inside.",
    applicability=Applicability.SAFE,
)
def check_french_quotes(subject: Subject, report: Reporter) -> Iterator[Finding]:
    space = _space_setting(subject)[0]
    for paragraph in subject.plain.paragraphs:
        for match in _STRAIGHT_QUOTES.finditer(paragraph.text):
            inner = match.group(1) or match.group(2)
            replacement = f"«{space}{inner.strip()}{space}»"
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), replacement)
            yield report.span(
                subject, paragraph.index, match.start(), "quotation marks: write « »", edit
            )


_STRAIGHT_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_CURLY_APOSTROPHE = re.compile(r"(?<=\w)’(?=\w)")


@FAMILY.rule(
    code="FR203",
    name="apostrophe",
    severity=Severity.INFO,
    summary="An apostrophe that is not the configured one (’ by default).",
    rationale="One apostrophe throughout a card and a deck: the typographic ’ by default "
    '(`apostrophe = "\'"` in the configuration for the straight one).',
    bad="en: In combat, I deal damage first.\nfr: Au combat, j'inflige les dégâts en premier.",
    good="en: In combat, I deal damage first.\nfr: Au combat, j’inflige les dégâts en premier.",
    fix="Replaces the apostrophe.",
    applicability=Applicability.SAFE,
)
def check_apostrophe(subject: Subject, report: Reporter) -> Iterator[Finding]:
    wanted = str(subject.resources.settings.get("apostrophe") or "’")
    wrong = _STRAIGHT_APOSTROPHE if wanted == "’" else _CURLY_APOSTROPHE
    for paragraph in subject.plain.paragraphs:
        for match in wrong.finditer(paragraph.text):
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), wanted)
            yield report.span(
                subject,
                paragraph.index,
                match.start(),
                f"apostrophe {match.group()}: write {wanted}",
                edit,
            )


#: What FR204, FR205 and FR206 look for: a pattern, what replaces a match (the fix),
#: and the message (``{next}``: the character after the match).
SpacingPattern = tuple[re.Pattern[str], str, str]
_ELLIPSIS: SpacingPattern = (
    re.compile(r"(?<!\.)\.\.\.(?!\.)"),
    "…",
    "three dots: write the ellipsis …",
)
_DOUBLE_SPACE: SpacingPattern = (re.compile(r"(?<=\S)  +(?=\S)"), " ", "two spaces: write one")
_SPACE_BEFORE_PERIOD: SpacingPattern = (
    re.compile(r"(?<=\w)[ \u00a0\u202f]+(?=(?:[.,]|…)(?:\s|$))"),
    "",
    "a space before '{next}': remove it",
)


def _pattern_rule(subject: Subject, report: Reporter, spacing: SpacingPattern) -> Iterator[Finding]:
    """The findings of one spacing pattern, each with its fix."""
    pattern, replacement, message = spacing
    for paragraph in subject.plain.paragraphs:
        for match in pattern.finditer(paragraph.text):
            following = paragraph.text[match.end() : match.end() + 1]
            edit = subject.text_edit(paragraph.index, match.start(), match.end(), replacement)
            yield report.span(
                subject, paragraph.index, match.start(), message.format(next=following), edit
            )


@FAMILY.rule(
    code="FR204",
    name="ellipsis",
    severity=Severity.INFO,
    summary="Three dots: the ellipsis is one character, …",
    rationale="The ellipsis … is one typographic character; three dots may break across lines "
    "and space out differently.",
    bad='en: *"And then..."*\nfr: *«\u00a0Et puis...\u00a0»*',
    good='en: *"And then..."*\nfr: *«\u00a0Et puis…\u00a0»*',
    fix="Replaces the three dots by ….",
    applicability=Applicability.SAFE,
)
def check_ellipsis(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _ELLIPSIS)


@FAMILY.rule(
    code="FR205",
    name="double-space",
    severity=Severity.WARNING,
    summary="Two spaces between words.",
    rationale="Aminduna prints every space: two spaces make a visible gap in the card text.",
    bad="en: Draw one card.\nfr: Pioche  une carte.",
    good="en: Draw one card.\nfr: Pioche une carte.",
    fix="Replaces them by one space.",
    applicability=Applicability.SAFE,
)
def check_double_space(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _DOUBLE_SPACE)


@FAMILY.rule(
    code="FR206",
    name="space-before-period",
    severity=Severity.WARNING,
    summary="A space before a full stop, a comma or an ellipsis.",
    rationale="French puts no space before . , and … (unlike ; : ! ?).  Grammalecte misses it "
    "(qa-tools.md: « carte . » passed).",
    bad="en: Draw one card.\nfr: Pioche une carte .",
    good="en: Draw one card.\nfr: Pioche une carte.",
    fix="Removes the space.",
    applicability=Applicability.SAFE,
)
def check_space_before_period(subject: Subject, report: Reporter) -> Iterator[Finding]:
    return _pattern_rule(subject, report, _SPACE_BEFORE_PERIOD)
