"""The languages cards are translated into, as a command is asked for them: a
translation command names one (``--lang fr``), or works on those the library has."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..cards.model import Library

__all__ = ["target_language", "target_languages"]


def target_language(lang: str) -> str:
    """``lang`` if cards are translated into it; English (the source) or an unknown
    code raises an error listing the languages."""
    from ..cards.model import SOURCE_LANGUAGE  # noqa: PLC0415
    from ..glossary.model import LANGUAGES  # noqa: PLC0415

    if lang == SOURCE_LANGUAGE or lang not in LANGUAGES:
        targets = ", ".join(x for x in LANGUAGES if x != SOURCE_LANGUAGE)
        raise UsageError(f"--lang {lang}: translations are into {targets}")
    return lang


def target_languages(library: Library, languages: Sequence[str] | None = ()) -> list[str]:
    """The translation languages asked for (each checked), else those the library
    has, else every language cards are translated into."""
    from ..cards.model import SOURCE_LANGUAGE  # noqa: PLC0415
    from ..glossary.model import LANGUAGES  # noqa: PLC0415

    if languages:
        return [target_language(lang) for lang in dict.fromkeys(languages)]
    found = sorted({lang for card in library.cards.values() for lang in card.translations})
    return found or [x for x in LANGUAGES if x != SOURCE_LANGUAGE]
