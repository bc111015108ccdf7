"""Consistency of the glossaries themselves (``translator glossary check``).

A glossary the linter trusts must not contradict itself: one concept per English
term, one concept per preferred target term, no term both deprecated and
recommended, no reference to a term or entry that does not exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..problems import Problem
from .model import Ability, Entry, Glossary, Term


def check_glossary(glossary: Glossary, english: Glossary | None = None) -> list[Problem]:
    """Contradictions and dangling references in one language's glossary."""
    found = [p for entry in glossary.entries.values() for p in _entry_problems(glossary, entry)]
    found += _duplicate_english(glossary)
    found += _shared_targets(glossary)
    found += _deprecated_but_recommended(glossary)
    for ability in glossary.abilities.values():
        found += _ability_problems(glossary, ability, english)
    found.sort(key=lambda p: (p.path, p.line))
    return found


def _entry_problems(glossary: Glossary, entry: Entry) -> Iterator[Problem]:
    """What is wrong within one entry: a term listed twice, a replacement that is not
    one of its terms, no preferred term, a ``see`` to an entry that does not exist."""
    seen_terms: set[str] = set()
    for term in entry.terms:
        if term.text in seen_terms:
            yield Problem(
                term.path, term.line, f"'{term.text}' is listed twice in entry '{entry.id}'"
            )
        seen_terms.add(term.text)
        yield from _replacement_problems(entry, term)
    if glossary.lang != "en" and entry.terms and entry.preferred is None:
        yield Problem(entry.path, entry.line, f"entry '{entry.id}' has no preferred term")
    for reference in entry.see:
        if reference not in glossary.entries:
            yield Problem(
                entry.path,
                entry.line,
                f"entry '{entry.id}' refers to unknown entry '{reference}'",
            )


def _replacement_problems(entry: Entry, term: Term) -> Iterator[Problem]:
    """A term's ``replaced_by`` that is not in its entry, or a deprecated term with
    none: the linter's fix would have nothing to write."""
    if term.replaced_by and entry.term(term.replaced_by) is None:
        yield Problem(
            term.path,
            term.line,
            f"'{term.text}' is replaced by '{term.replaced_by}', "
            f"which is not a term of entry '{entry.id}'",
            "add it to the entry's terms",
        )
    if term.status == "deprecated" and not term.replaced_by:
        yield Problem(
            term.path,
            term.line,
            f"deprecated '{term.text}' says nothing replaces it",
            "add replaced_by: ...",
        )


def _duplicate_english(glossary: Glossary) -> Iterator[Problem]:
    """Two entries for one English term: the linter could not tell which one a card
    means.  The same English word may name a concept and a card type ('city',
    'City'): entries are duplicates only within a section."""
    by_english: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for entry in glossary.entries.values():
        by_english[(entry.section, entry.en.casefold())].append(entry)
    for entries in by_english.values():
        first = entries[0]
        for other in entries[1:]:
            yield Problem(
                other.path,
                other.line,
                f"'{other.en}' is in entries '{first.id}' and '{other.id}'",
                "merge them: one entry per English term",
            )


def _shared_targets(glossary: Glossary) -> Iterator[Problem]:
    """One preferred target term for two English terms, unless their entries are
    linked by ``see``: such entries share a target on purpose (the lexicon says so:
    'tactics' and 'devotion' are both 'dévotion' in French)."""
    by_preferred: dict[str, list[Entry]] = defaultdict(list)
    for entry in glossary.entries.values():
        for term in entry.terms:
            if term.status == "preferred":
                by_preferred[term.text.casefold()].append(entry)
    linked = {(entry.id, other) for entry in glossary.entries.values() for other in entry.see}
    linked |= {(b, a) for a, b in linked}
    for text, entries in by_preferred.items():
        unlinked = [
            e for e in entries if any(o is not e and (e.id, o.id) not in linked for o in entries)
        ]
        if len({e.en.casefold() for e in unlinked}) > 1:
            entry = unlinked[-1]
            yield Problem(
                entry.path,
                entry.line,
                f"two English terms have the same target '{text}': "
                + ", ".join(f"{e.en} ({e.id})" for e in unlinked),
                "a target term names one concept (or link the entries "
                "with see: if the lexicon means it)",
            )


def _deprecated_but_recommended(glossary: Glossary) -> Iterator[Problem]:
    """A term deprecated in one entry and recommended (the first entry that does) in
    another: the linter would both flag it and suggest it."""
    recommended: dict[str, tuple[Entry, Term]] = {}
    for entry in glossary.entries.values():
        for term in entry.terms:
            if term.status != "deprecated":
                recommended.setdefault(term.text.casefold(), (entry, term))
    for entry in glossary.entries.values():
        for term in entry.terms:
            if term.status != "deprecated":
                continue
            other = recommended.get(term.text.casefold())
            if other is not None:
                other_entry, other_term = other
                yield Problem(
                    term.path,
                    term.line,
                    f"'{term.text}' is deprecated here but {other_term.status} "
                    f"in entry '{other_entry.id}' ({other_term.path}:"
                    f"{other_term.line})",
                )


def _ability_problems(
    glossary: Glossary, ability: Ability, english: Glossary | None
) -> Iterator[Problem]:
    """An ability the English list does not have (its translation would never be
    matched), or a deprecated name replaced by something other than its name."""
    if english is not None and glossary.lang != "en" and ability.id not in english.abilities:
        yield Problem(
            ability.path,
            ability.line,
            f"ability '{ability.id}' is not in the English abilities list",
            "use the English ability's id",
        )
    for term in ability.deprecated:
        if term.replaced_by and term.replaced_by != ability.name:
            yield Problem(
                term.path,
                term.line,
                f"'{term.text}' is replaced by '{term.replaced_by}', "
                f"but the ability is named '{ability.name}'",
            )
