"""What the GL rules share: their family, the glossary's name, and the abilities lists'
own reminders (where the list, not the glossary, is the authority).
"""

from __future__ import annotations

from .... import languages
from ....diagnostics import Family
from ....glossary.matcher import Match, normalize, words
from ....glossary.model import Entry
from ...context import Subject
from ...rule import TRANSLATION
from ..translation import (
    ability_line,
    aligned,
    loose,
    substitute,
)

#: The GL rules that read one translation (GL1, GL2), in every language; GL3's read
#: the whole library (:mod:`.consistency`).
GLOSSARY_RULES = Family(prefix="GL", target=TRANSLATION)


#: The setting that makes the abilities lists the authority for their own reminders
#: (true by default; the harness that lints the lists themselves turns it off).
LIST_REMINDERS = "list-reminders"


def glossary_name(subject: Subject) -> str:
    """What the language's community calls its glossary (the French *Lexique*)."""
    return languages.get(subject.lang).glossary_name


def usable(entry: Entry | None) -> bool:
    return (
        entry is not None
        and entry.section != "footer"
        and any(not t.deprecated for t in entry.terms)
    )


# --------------------------------------------------------------------------------------
# The abilities lists' own reminders.


def list_reminders(subject: Subject) -> dict[int, tuple[int, str]]:
    """Translated paragraph -> (where its reminder starts, ability id), for each ability
    paragraph whose reminder is the abilities list's, with the card's parameters.

    The list is the authority for its own reminders: a card that copies one must not be
    asked for other words (« Je peux aller dans la cité d'un adversaire » is Infiltré's,
    whatever the Lexique says of *move*).  Off when the setting ``list-reminders`` is
    false: linting the lists themselves, nothing is their own authority.
    """
    found = subject.cache.get("list-reminders")
    if found is not None:
        return found
    found = subject.cache["list-reminders"] = {}
    if not subject.resources.settings.get(LIST_REMINDERS, True):
        return found
    abilities = subject.language.glossary.abilities
    names = subject.language.memo(
        "ability-names", lambda: {normalize(a.name): a.id for a in abilities.values() if a.reminder}
    )
    for paragraph in subject.plain.paragraphs:
        line = paragraph.first_bold()
        ability = ability_line(line, names) if line else None
        if ability is None:
            continue
        target = abilities[ability[0]]
        here = paragraph.after_first_break()
        if here and loose(here) == loose(substitute(target.reminder, target.params, ability[1])):
            found[paragraph.index] = (paragraph.reminder_start() or 0, target.id)
    return found


def english_reminders(subject: Subject) -> dict[int, int]:
    """English paragraph -> where its reminder starts, when the aligned translated
    paragraph's reminder is the list's (see :func:`list_reminders`)."""
    assert subject.source is not None
    reminders = list_reminders(subject)
    if not reminders:
        return {}
    found = {}
    for paragraph in subject.source.plain.paragraphs:
        cut = paragraph.reminder_start()
        if cut is not None and aligned(subject, paragraph.index) in reminders:
            found[paragraph.index] = cut
    return found


def in_list_reminder(subject: Subject, index: int, match: Match) -> bool:
    """Is a deprecated term the list's own word, in a reminder that is the list's?

    Only the list's words are its authority: a parameter the card fills in with a
    deprecated word (*Grandes maisons* for Dévouement's faction) is still reported."""
    where = list_reminders(subject).get(index)
    if where is None or match.start < where[0]:
        return False
    reminder = subject.language.glossary.abilities[where[1]].reminder
    own = tuple(w for w, _, _ in words(reminder))
    term = tuple(w for w, _, _ in words(match.text))
    return any(own[i : i + len(term)] == term for i in range(len(own) - len(term) + 1))
