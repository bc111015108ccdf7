"""The community's vocabulary: French Lexique, Esperanto Leksikono, abilities lists.

from translator import glossary

fr, problems = glossary.load_glossary("fr", library=["cards/"])
matcher = glossary.Matcher(fr)
for match in matcher.find("Mets un marqueur sur la créature ciblée."):
    print(match.text, match.hit.id, match.hit.status)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .checks import check_glossary
    from .exchange import to_csv, to_tbx
    from .inflection import forms
    from .loader import load_all, load_glossary
    from .matcher import Hit, Match, Matcher, words
    from .model import LANGUAGES, Ability, Entry, Glossary, Term

attach(
    globals(),
    {
        "check_glossary": ".checks",
        "to_csv": ".exchange",
        "to_tbx": ".exchange",
        "forms": ".inflection",
        "load_all": ".loader",
        "load_glossary": ".loader",
        "Hit": ".matcher",
        "Match": ".matcher",
        "Matcher": ".matcher",
        "words": ".matcher",
        "LANGUAGES": ".model",
        "Ability": ".model",
        "Entry": ".model",
        "Glossary": ".model",
        "Term": ".model",
    },
)

__all__ = [
    "LANGUAGES",
    "Ability",
    "Entry",
    "Glossary",
    "Hit",
    "Match",
    "Matcher",
    "Term",
    "check_glossary",
    "forms",
    "load_all",
    "load_glossary",
    "to_csv",
    "to_tbx",
    "words",
]
