"""Consistency of the glossaries themselves (``translator glossary check``).

A glossary the linter trusts must not contradict itself: one concept per English
term, one concept per preferred target term, no term both deprecated and
recommended, no reference to a term or entry that does not exist.
"""

from __future__ import annotations

from collections import defaultdict

from ..problems import Problem
from .model import Glossary


def check_glossary(glossary: Glossary, english: Glossary | None = None) -> list[Problem]:
    """Contradictions and dangling references in one language's glossary."""
    found: list[Problem] = []
    # The same English word may name a concept and a card type ('city', 'City'):
    # entries are duplicates only within a section.
    by_english: dict[tuple[str, str], list] = defaultdict(list)
    by_preferred: dict[str, list] = defaultdict(list)
    recommended: dict[str, tuple] = {}
    for entry in glossary.entries.values():
        by_english[(entry.section, entry.en.casefold())].append(entry)
        seen_terms: set[str] = set()
        for term in entry.terms:
            if term.text in seen_terms:
                found.append(
                    Problem(
                        term.path, term.line, f"'{term.text}' is listed twice in entry '{entry.id}'"
                    )
                )
            seen_terms.add(term.text)
            if term.status == "preferred":
                by_preferred[term.text.casefold()].append(entry)
            if term.status != "deprecated":
                recommended.setdefault(term.text.casefold(), (entry, term))
            if term.replaced_by and entry.term(term.replaced_by) is None:
                found.append(
                    Problem(
                        term.path,
                        term.line,
                        f"'{term.text}' is replaced by '{term.replaced_by}', "
                        f"which is not a term of entry '{entry.id}'",
                        "add it to the entry's terms",
                    )
                )
            if term.status == "deprecated" and not term.replaced_by:
                found.append(
                    Problem(
                        term.path,
                        term.line,
                        f"deprecated '{term.text}' says nothing replaces it",
                        "add replaced_by: ...",
                    )
                )
        if glossary.lang != "en" and entry.terms and entry.preferred is None:
            found.append(
                Problem(entry.path, entry.line, f"entry '{entry.id}' has no preferred term")
            )
        for reference in entry.see:
            if reference not in glossary.entries:
                found.append(
                    Problem(
                        entry.path,
                        entry.line,
                        f"entry '{entry.id}' refers to unknown entry '{reference}'",
                    )
                )
    for entries in by_english.values():
        if len(entries) > 1:
            first = entries[0]
            for other in entries[1:]:
                found.append(
                    Problem(
                        other.path,
                        other.line,
                        f"'{other.en}' is in entries '{first.id}' and '{other.id}'",
                        "merge them: one entry per English term",
                    )
                )
    linked = {(entry.id, other) for entry in glossary.entries.values() for other in entry.see}
    linked |= {(b, a) for a, b in linked}
    for text, entries in by_preferred.items():
        # Entries linked by `see` share a target on purpose (the lexicon says so:
        # 'tactics' and 'devotion' are both 'dévotion' in French).
        unlinked = [
            e for e in entries if any(o is not e and (e.id, o.id) not in linked for o in entries)
        ]
        if len({e.en.casefold() for e in unlinked}) > 1:
            entry = unlinked[-1]
            found.append(
                Problem(
                    entry.path,
                    entry.line,
                    f"two English terms have the same target '{text}': "
                    + ", ".join(f"{e.en} ({e.id})" for e in unlinked),
                    "a target term names one concept (or link the entries "
                    "with see: if the lexicon means it)",
                )
            )
    for entry in glossary.entries.values():
        for term in entry.terms:
            if term.status != "deprecated":
                continue
            other = recommended.get(term.text.casefold())
            if other is not None:
                other_entry, other_term = other
                found.append(
                    Problem(
                        term.path,
                        term.line,
                        f"'{term.text}' is deprecated here but {other_term.status} "
                        f"in entry '{other_entry.id}' ({other_term.path}:"
                        f"{other_term.line})",
                    )
                )
    for ability in glossary.abilities.values():
        if english is not None and glossary.lang != "en" and ability.id not in english.abilities:
            found.append(
                Problem(
                    ability.path,
                    ability.line,
                    f"ability '{ability.id}' is not in the English abilities list",
                    "use the English ability's id",
                )
            )
        for term in ability.deprecated:
            if term.replaced_by and term.replaced_by != ability.name:
                found.append(
                    Problem(
                        term.path,
                        term.line,
                        f"'{term.text}' is replaced by '{term.replaced_by}', "
                        f"but the ability is named '{ability.name}'",
                    )
                )
    found.sort(key=lambda p: (p.path, p.line))
    return found
