"""``translator glossary``: the glossaries read, and a term looked up (thin callers of
:mod:`translator.glossary.search`, where the result types live)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..paths import Paths

if TYPE_CHECKING:
    from ..cards import Problem
    from ..glossary import Glossary
    from ..glossary.search import GlossarySearch
    from ..problems import Problem as Finding

__all__ = [
    "GlossaryCheck",
    "GlossaryExport",
    "check_glossaries",
    "export_glossary",
    "glossary_search",
    "load_glossaries",
]


def load_glossaries(
    languages: Sequence[str], library: Paths | None = None
) -> tuple[dict[str, Glossary], list[Problem]]:
    """The glossaries of English and ``languages``, with the glossary files of
    ``library`` (default: ``cards`` when there is one), and their problems.

    >>> glossaries, problems = load_glossaries(["fr"])
    >>> sorted(glossaries), problems
    (['en', 'fr'], [])
    """
    from ..glossary import search  # noqa: PLC0415

    return search.load_glossaries(languages, library)


def glossary_search(term: str, lang: str, *, library: Paths | None = None) -> GlossarySearch:
    """Look ``term`` up in the ``lang`` glossary, in English or in ``lang``, in any
    inflected form; when nothing matches a whole term, every entry and ability
    containing it: ``translator glossary lookup``.

    >>> found = glossary_search("créatures", "fr")
    >>> [(r.kind, r.en) for r in found.results][:1]
    [('entry', 'creature')]
    """
    from ..glossary import search  # noqa: PLC0415

    return search.glossary_search(term, lang, library=library)


@dataclass
class GlossaryExport:
    """A glossary as TBX or CSV (``glossary export``), the file written, or the
    glossary files' problems (nothing exported then)."""

    text: str
    #: What to write where the caller named a file (the command line writes it).
    files: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def export_glossary(
    lang: str, kind: str = "tbx", *, library: Paths | None = None, output: str | None = None
) -> GlossaryExport:
    """The ``lang`` glossary (with the library's own entries) as TBX v2 (``kind``
    ``tbx``: Weblate, translate-toolkit) or CSV, written to ``output`` (None or ``-``:
    returned only): ``translator glossary export``.

    >>> export = export_glossary("fr")
    >>> export.problems, export.text.startswith("<?xml")
    ([], True)
    """
    from ..glossary import to_csv, to_tbx  # noqa: PLC0415

    loaded, problems = load_glossaries([lang], library)
    if problems:
        return GlossaryExport("", problems=problems)
    text = to_tbx(loaded[lang], loaded["en"]) if kind == "tbx" else to_csv(loaded[lang])
    result = GlossaryExport(text)
    if output not in (None, "-"):
        result.files[output] = text
    return result


@dataclass
class GlossaryCheck:
    """The glossary files checked (``glossary check``): problems reading them (exit
    2), inconsistencies between their entries (exit 1)."""

    languages: list[str]
    glossaries: dict[str, Glossary]
    problems: list[Problem]
    findings: list[Finding]

    @property
    def summary(self) -> dict[str, dict[str, Any]]:
        """Per language: how many entries, abilities and files."""
        return {
            lang: {
                "entries": len(self.glossaries[lang].entries),
                "abilities": len(self.glossaries[lang].abilities),
                "files": len(self.glossaries[lang].files),
            }
            for lang in self.languages
        }


def check_glossaries(
    languages: Sequence[str] = (), *, library: Paths | None = None
) -> GlossaryCheck:
    """Check the glossary files of ``languages`` (default: every language) and the
    library's own: their problems, and each glossary's consistency with the English
    one: ``translator glossary check``.

    >>> checked = check_glossaries(["fr"])
    >>> checked.problems, checked.summary["fr"]["entries"] > 0
    ([], True)
    """
    from ..glossary import LANGUAGES, check_glossary  # noqa: PLC0415

    chosen = list(languages) or list(LANGUAGES)
    loaded, problems = load_glossaries(chosen, library)
    findings = [p for lang in chosen for p in check_glossary(loaded[lang], loaded.get("en"))]
    return GlossaryCheck(chosen, loaded, problems, findings)
