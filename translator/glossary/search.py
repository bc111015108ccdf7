"""The glossaries as a translator looks a word up in them: the glossaries of a library
loaded, and a search in English or in the target language, in any inflected form,
whose results (:class:`GlossaryEntry`, :class:`GlossaryAbility`) are what
``translator glossary lookup`` prints and the language server's hovers show.

    from translator.glossary.search import glossary_search
    for entry in glossary_search("créatures", "fr").results:
        print(entry.kind, entry.en, entry.where)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..paths import DEFAULT_LIBRARY, Paths, path_list

if TYPE_CHECKING:
    from ..cards import Problem
    from .model import Ability, Entry, Glossary

__all__ = [
    "GlossaryAbility",
    "GlossaryEntry",
    "GlossarySearch",
    "GlossaryTerm",
    "glossary_search",
    "load_glossaries",
]


def _glossary_library(library: Paths | None) -> list[str]:
    """Libraries whose glossary files add to the shipped ones: those given, else
    ``cards`` when there is one here."""
    if library:
        return path_list(library)
    return [DEFAULT_LIBRARY] if Path(DEFAULT_LIBRARY).is_dir() else []


def load_glossaries(
    languages: Sequence[str], library: Paths | None = None
) -> tuple[dict[str, Glossary], list[Problem]]:
    """The glossaries of English and ``languages``, with the glossary files of
    ``library`` (default: ``cards`` when there is one), and their problems.
    """
    from .loader import load_glossary  # noqa: PLC0415

    folders = _glossary_library(library)
    loaded: dict[str, Glossary] = {}
    problems: list[Problem] = []
    for lang in dict.fromkeys(["en", *languages]):
        loaded[lang], found = load_glossary(lang, folders)
        problems += found
    return loaded, problems


@dataclass(frozen=True)
class GlossaryTerm:
    """A target-language term of an entry, with every form the linter recognises."""

    term: str
    status: str
    gender: str | None
    forms: list[str]
    replaced_by: str | None
    date: str | None
    evidence: str | None


@dataclass(frozen=True)
class GlossaryEntry:
    """A glossary entry: an English term and its translations."""

    kind: ClassVar[str] = "entry"

    id: str
    en: str
    section: str
    pos: str
    terms: list[GlossaryTerm]
    adjective: dict[str, str] | None
    note: str | None
    decision: str | None
    see: list[str]
    #: ``file:line`` of the entry.
    where: str

    @classmethod
    def of(cls, entry: Entry, lang: str) -> GlossaryEntry:
        from .inflection import forms  # noqa: PLC0415

        return cls(
            entry.id,
            entry.en,
            entry.section,
            entry.pos,
            [
                GlossaryTerm(
                    t.text,
                    t.status,
                    t.gender,
                    sorted(forms(t.text, lang, entry.pos, t.forms)),
                    t.replaced_by,
                    t.date,
                    t.evidence,
                )
                for t in entry.terms
            ],
            entry.adjective or None,
            entry.note,
            entry.decision,
            list(entry.see),
            f"{entry.path}:{entry.line}",
        )

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator glossary lookup --format json``."""
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class GlossaryAbility:
    """An ability, with its English template and reminder next to it: a translator
    looking one up is comparing the two."""

    kind: ClassVar[str] = "ability"

    id: str
    en: str
    name: str
    en_template: str | None
    en_reminder: str | None
    template: str
    params: list[str]
    reminder: str
    example: str | None
    status: str
    #: Former names: ``term``, ``replaced_by``, ``date``, ``evidence``.
    deprecated: list[dict[str, str | None]]
    note: str | None
    where: str

    @classmethod
    def of(cls, ability: Ability, english: Ability | None) -> GlossaryAbility:
        return cls(
            ability.id,
            ability.en,
            ability.name,
            english.template if english else None,
            english.reminder if english else None,
            ability.template,
            list(ability.params),
            ability.reminder,
            ability.example,
            ability.status,
            [
                {
                    "term": t.text,
                    "replaced_by": t.replaced_by,
                    "date": t.date,
                    "evidence": t.evidence,
                }
                for t in ability.deprecated
            ],
            ability.note,
            f"{ability.path}:{ability.line}",
        )

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator glossary lookup --format json``."""
        return {"kind": self.kind, **asdict(self)}


@dataclass
class GlossarySearch:
    """What a glossary search found: entries and abilities, the best matches first,
    and the problems of the glossary files read."""

    query: str
    lang: str
    results: list[GlossaryEntry | GlossaryAbility]
    problems: list[Problem] = field(default_factory=list)


def glossary_search(term: str, lang: str, *, library: Paths | None = None) -> GlossarySearch:
    """Look ``term`` up in the ``lang`` glossary, in English or in ``lang``, in any
    inflected form; when nothing matches a whole term, every entry and ability
    containing it: ``translator glossary lookup``.
    """
    from .matcher import Hit, Matcher, words  # noqa: PLC0415

    loaded, problems = load_glossaries([lang], library)
    target = loaded[lang]
    hits = Matcher(target, side="english").lookup(term) + Matcher(target).lookup(term)
    if not hits:
        needle = " ".join(w for w, _, _ in words(term))
        hits = [
            Hit("term", e.id, e.en, "preferred")
            for e in target.entries.values()
            if needle
            and (needle in e.en.casefold() or any(needle in t.text.casefold() for t in e.terms))
        ]
        hits += [
            Hit("ability", a.id, a.name, a.status)
            for a in target.abilities.values()
            if needle and (needle in a.en.casefold() or needle in a.name.casefold())
        ]
    seen: set[tuple[str, str]] = set()
    results: list[GlossaryEntry | GlossaryAbility] = []
    for hit in hits:
        kind = "ability" if hit.kind == "ability" else "entry"
        if (kind, hit.id) in seen:
            continue
        seen.add((kind, hit.id))
        if kind == "ability":
            english = loaded["en"].abilities.get(hit.id)
            results.append(GlossaryAbility.of(target.abilities[hit.id], english))
        else:
            results.append(GlossaryEntry.of(target.entries[hit.id], lang))
    return GlossarySearch(term, lang, results, problems)
