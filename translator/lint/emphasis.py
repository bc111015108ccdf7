"""How an ability's definition is emphasised: its name in bold italics, the reminder
in simple italics, names inside it in simple bold.

The French guide prescribes it (FR305: « le nom de la capacité est en gras italique, et
le reste de la définition en italique simple »); the English cards write it so, and a
translation into a language whose guide says nothing keeps the English card's
emphasis (TR405).  One check serves both rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..glossary.matcher import normalize
from ..markup.tree import Text
from .context import Subject
from .model import PlainParagraph
from .rules.translation import ability_paragraph, aligned, source_abilities


def ability_definitions(subject: Subject) -> Iterator[tuple[int, int, str, list[str]]]:
    """(paragraph, offset, ability name, what differs) of each ability paragraph of the
    translation whose emphasis differs from the definition's, where the English card
    writes that ability as a definition."""
    assert subject.source is not None
    abilities = subject.language.glossary.abilities
    names: dict[int, set[str]] | None = None
    for index, ability_id, _ in source_abilities(subject):
        if not _english_definition(subject, index):
            continue  # the English does not write it as a definition
        if names is None:
            names = _names_in_text(subject)
        name = abilities[ability_id].name
        hint = aligned(subject, index)
        found = ability_paragraph(subject, [name], hint)
        if found is None:
            found = _unbolded_ability(subject, name, hint)
            if found is None:
                continue  # TR403 reports a missing ability name
        problems, at = _definition_problems(
            subject.plain.paragraphs[found], names.get(found, set())
        )
        if problems:
            yield found, at, name, problems


def glossary_kinds(subject: Subject) -> dict[str, str]:
    """Entry or ability id -> what it names in running text (subtypes and abilities;
    faction names are proper nouns, written as the Lexique writes them or in lower case,
    both seen in the guide: left to reviewers)."""

    def compute() -> dict[str, str]:
        kinds = {
            entry.id: "subtype"
            for entry in subject.language.glossary.entries.values()
            if entry.section == "subtype"
        }
        kinds.update({a.id: "ability" for a in subject.language.glossary.abilities.values()})
        return kinds

    return subject.language.memo("kinds in text", compute)


NAME_PUNCTUATION = " \u00a0\u202f.,;:!?()«»"


def _names_in_text(subject: Subject) -> dict[int, set[str]]:
    """Paragraph index -> the subtype and ability names in it (normalized)."""
    kinds = glossary_kinds(subject)
    found: dict[int, set[str]] = {}
    for index, match in subject.matches:
        if match.hit.id in kinds:
            found.setdefault(index, set()).add(normalize(match.text))
    return found


_REMINDER_START = re.compile(r"(?:\n| [-–—] ?)\s*[^\W\d_]")


def _definition_problems(paragraph: PlainParagraph, names: set[str]) -> tuple[list[str], int]:
    """What differs from the guide's Example 3 in an ability paragraph, and where: the
    name (the leading bold run, up to a line break) in bold italics, the rest in italics,
    not bold (but for ``names`` in simple bold)."""
    cut = paragraph.text.find("\n")
    runs = [
        (start, node)
        for start, node in paragraph.runs
        if isinstance(node, Text) and any(c.isalnum() for c in node.text)
    ]
    heading = []
    for start, node in runs:
        if not node.bold or (0 <= cut < start):
            break
        heading.append((start, node))
    problems: list[str] = []
    at = -1
    if not heading:
        first = runs[0][1] if runs else None
        problems.append(
            "the name is in italics"
            if first is not None and first.italic
            else "the name is not in bold italics"
        )
        at = 0
        heading = runs[:1]
    elif not all(node.italic for _, node in heading):
        problems.append("the name is in simple bold")
        at = 0
    heading_text = "".join(node.text for _, node in heading)
    if _REMINDER_START.search(heading_text) and all(node.bold for _, node in heading):
        problems.append(
            "the reminder is in bold italics"
            if heading[-1][1].italic
            else "the reminder is in bold"
        )
        at = 0 if at < 0 else at
    for start, node in runs[len(heading) :]:
        if node.bold and not node.italic and normalize(node.text.strip(NAME_PUNCTUATION)) in names:
            continue  # a name in the text: simple bold, as the guide says
        problem = (
            ("the reminder is in bold italics" if node.italic else "the reminder is in bold")
            if node.bold
            else None
            if node.italic
            else "the reminder is not in italics"
        )
        if problem is not None:
            if problem not in problems:
                problems.append(problem)
            at = start if at < 0 else at
    return problems, max(at, 0)


def _english_definition(subject: Subject, index: int) -> bool:
    """Does the English write ability paragraph ``index`` as a definition (the French
    guide's Example 3)?  Asked by FR305 and TR405 alike: computed once per card."""
    assert subject.source is not None
    source = subject.source
    return bool(
        source.memo(
            ("definition", index),
            lambda: not _definition_problems(source.plain.paragraphs[index], set())[0],
        )
    )


def _unbolded_ability(subject: Subject, name: str, hint: int | None) -> int | None:
    """The aligned paragraph, when it opens with the ability's name not in bold."""
    if hint is None:
        return None
    paragraph = subject.plain.paragraphs[hint]
    if paragraph.first_bold() is None and normalize(paragraph.text[: len(name)]) == normalize(name):
        return hint
    return None
