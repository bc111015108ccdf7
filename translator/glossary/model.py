"""The glossary model: concepts, their terms in each language, and abilities.

An :class:`Entry` is one concept of the community's lexicon (keyed by its English
term, slugified), with the target terms that name it, each preferred, admitted or
deprecated (with what replaces it, since when, and the wiki evidence).  An
:class:`Ability` is one entry of the abilities lists.  A :class:`Glossary` holds one
language's entries and abilities, after a library's own files have added to or
overridden the shipped ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import languages
from ..cards.model import DEFAULT_FOOTERS, SOURCE_LANGUAGE

#: The languages a glossary can hold: those with a module in translator.languages.
LANGUAGES = languages.codes()
STATUSES = ("preferred", "admitted", "deprecated")
SECTIONS = ("concept", "faction", "type", "subtype", "other", "footer", "phrase")
#: A phrase entry's section: kept apart from the lexicon's entries (see :attr:`Glossary.phrases`).
PHRASE = "phrase"
PARTS_OF_SPEECH = ("noun", "adjective", "verb", "phrase")
ADJECTIVE_FORMS = ("m", "f", "mp", "fp")


@dataclass
class Term:
    """A word or phrase naming a concept in one language."""

    text: str
    status: str = "preferred"
    gender: str | None = None
    #: Forms the inflection rules cannot make (irregular plurals, conjugations).
    forms: tuple[str, ...] = ()
    replaced_by: str | None = None
    date: str | None = None
    evidence: str | None = None
    path: str = ""
    line: int = 0

    @property
    def deprecated(self) -> bool:
        return self.status == "deprecated"


@dataclass
class Entry:
    """One concept: its English term and its terms in the glossary's language."""

    id: str
    en: str
    section: str = "concept"
    pos: str = "noun"
    terms: list[Term] = field(default_factory=list)
    #: A faction's adjective forms (French: m, f, mp, fp).
    adjective: dict[str, str] = field(default_factory=dict)
    note: str | None = None
    decision: str | None = None
    see: tuple[str, ...] = ()
    definition: str | None = None
    path: str = ""
    line: int = 0

    @property
    def preferred(self) -> Term | None:
        return next((t for t in self.terms if t.status == "preferred"), None)

    def term(self, text: str) -> Term | None:
        return next((t for t in self.terms if t.text == text), None)


@dataclass
class Ability:
    """An ability of the abilities lists, in one language."""

    id: str
    en: str
    name: str
    params: tuple[str, ...] = ()
    template: str = ""
    reminder: str = ""
    example: str | None = None
    status: str = "preferred"
    deprecated: list[Term] = field(default_factory=list)
    note: str | None = None
    path: str = ""
    line: int = 0


@dataclass(frozen=True)
class SubtypeRule:
    """How a language writes a compound subtype ('Human Wizard').

    ``order`` is ``reverse`` when the English head noun (last) comes first
    (French: 'Sorcier, humain'), ``same`` otherwise; ``capitalize`` is ``first`` or
    ``all`` words.
    """

    order: str = "same"
    separator: str = " "
    capitalize: str = "first"
    #: Words that may stand between the parts of a compound subtype in running text,
    #: besides the token's stats (« un jeton 1/1 orc », « un jeton de gobelin »).
    between: tuple[str, ...] = ()


@dataclass
class Glossary:
    """A language's glossary: entries and abilities by id, and the files read."""

    lang: str
    entries: dict[str, Entry] = field(default_factory=dict)
    abilities: dict[str, Ability] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    subtypes: SubtypeRule = field(default_factory=SubtypeRule)
    #: Phrases of the English effect (duration, condition, scope: 'until the end of the
    #: turn', 'for each') and their admitted renderings, all equally good.  They are
    #: no lexicon terms: kept apart so that the term rules, the spelling and the draft
    #: translator do not take them for concepts.
    phrases: dict[str, Entry] = field(default_factory=dict)

    def entries_by_section(self, section: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.section == section]

    def preferred(self, section: str, english: str) -> str | None:
        """The preferred term of the entry of ``section`` for ``english`` (a card type,
        a faction: any case), None when there is none."""
        for entry in self.entries_by_section(section):
            if entry.en.casefold() == english.casefold() and entry.preferred is not None:
                return entry.preferred.text
        return None

    def footer(self, english: str) -> tuple[str, list[str]]:
        """This language's rendering of an English footer line, and its deprecated
        spellings; for the default footer, the language's default when the glossary
        has none ('' for another line the glossary does not have)."""
        for entry in self.entries_by_section("footer"):
            if entry.en == english and entry.preferred is not None:
                return entry.preferred.text, [t.text for t in entry.terms if t.deprecated]
        if english == DEFAULT_FOOTERS[SOURCE_LANGUAGE]:
            return DEFAULT_FOOTERS.get(self.lang, english), []
        return "", []

    def subtype(self, english: str) -> tuple[str | None, list[str]]:
        """A compound English subtype in this language, and the words not found.

        The English words are matched against the subtype entries (longest first, so
        that a two-word subtype wins), translated by their preferred terms, then
        ordered, joined and capitalised as :attr:`subtypes` says.
        """
        by_english = {e.en.casefold(): e for e in self.entries_by_section("subtype")}
        words = english.split()
        parts: list[str] = []
        missing: list[str] = []
        i = 0
        while i < len(words):
            for n in range(len(words) - i, 0, -1):
                entry = by_english.get(" ".join(words[i : i + n]).casefold())
                if entry is not None and entry.preferred is not None:
                    parts.append(entry.preferred.text)
                    i += n
                    break
            else:
                missing.append(words[i])
                i += 1
        if missing or not parts:
            return None, missing
        if self.subtypes.order == "reverse":
            parts.reverse()
        if self.subtypes.capitalize == "all":
            parts = [_capitalized(p) for p in parts]
        else:
            parts = [_capitalized(parts[0]), *(p[:1].lower() + p[1:] for p in parts[1:])]
        return self.subtypes.separator.join(parts), []


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]
