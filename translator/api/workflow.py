"""``translator translate`` and ``translator status``: drafts made from the glossary
and the memory (:mod:`translator.workflow.runs`), and each translation's state
(:mod:`translator.workflow.states`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..paths import Paths, path_list

if TYPE_CHECKING:
    from ..cards import Card
    from ..cards.state import CardState
    from ..workflow.runs import Drafts
    from ..workflow.states import FieldChange

__all__ = ["Status", "StatusDiff", "status", "status_diff", "translate"]


def translate(
    paths: Paths | None = None,
    *,
    lang: str,
    memory: bool = True,
    dry_run: bool = False,
) -> Drafts:
    """A draft in ``lang`` for every English card of the library under ``paths``
    without one: what the glossary fills, the translation memory's exact matches
    (``memory``; read only when a draft needs it), the rest left in English:
    ``translator translate``.  A translation is never overwritten; ``dry_run`` writes
    nothing.

    >>> made = translate("cards/sample", lang="fr", dry_run=True)
    >>> made.drafts, made.translated
    ([], 24)
    """
    from ..workflow.runs import write_drafts  # noqa: PLC0415
    from ..workflow.targets import target_language  # noqa: PLC0415
    from .library import load_library  # noqa: PLC0415
    from .linting import lint_setup  # noqa: PLC0415
    from .memory import load_memory  # noqa: PLC0415

    lang = target_language(lang)
    chosen = path_list(paths)
    library = load_library(chosen)
    setup = lint_setup([lang], chosen)
    return write_drafts(
        library,
        lang,
        setup.resources,
        memory=(lambda: load_memory(library, lang)) if memory else None,
        dry_run=dry_run,
    )


@dataclass
class Status:
    """Each translation's state (``translator status``): per card and language, and
    counted per deck and language."""

    states: list[CardState]
    #: deck -> language -> state -> how many cards.
    table: dict[str, dict[str, dict[str, int]]]

    @property
    def totals(self) -> dict[str, dict[str, int]]:
        """language -> state -> how many cards, every deck together."""
        from ..cards.state import STATES  # noqa: PLC0415

        totals: dict[str, dict[str, int]] = {}
        for per_lang in self.table.values():
            for lang, counts in per_lang.items():
                total = totals.setdefault(lang, dict.fromkeys(STATES, 0))
                for state, count in counts.items():
                    total[state] += count
        return totals


def status(paths: Paths | None = None, *, languages: Sequence[str] | None = ()) -> Status:
    """The state of every translation of the library under ``paths``, in
    ``languages`` (default: the library's): missing, draft, translated, reviewed,
    stale: ``translator status``.

    >>> found = status("cards/sample", languages=["fr"])
    >>> found.totals["fr"]["reviewed"] + found.totals["fr"]["translated"] > 0
    True
    """
    from ..workflow import states  # noqa: PLC0415
    from ..workflow.targets import target_languages  # noqa: PLC0415
    from .library import load_library  # noqa: PLC0415

    library = load_library(path_list(paths))
    found = states.library_states(library, target_languages(library, languages))
    return Status(found, states.summary(found))


@dataclass
class StatusDiff:
    """What changed in a card's English since its translation (``status --diff``)."""

    card: Card
    lang: str
    state: CardState
    changes: list[FieldChange]


def status_diff(card: str, lang: str, *, library: Paths | None = None) -> StatusDiff:
    """What changed in the English of ``card`` since its ``lang`` translation was
    made, field by field, with the text before when git has it: ``translator status
    --diff CARD``.

    >>> diff = status_diff("veil-stalker", "fr", library="cards/sample")
    >>> diff.state.state in ("translated", "reviewed"), diff.changes
    (True, [])
    """
    from ..cards.select import find_card  # noqa: PLC0415
    from ..workflow import states  # noqa: PLC0415
    from ..workflow.targets import target_language  # noqa: PLC0415
    from .library import load_library  # noqa: PLC0415

    loaded = load_library(path_list(library))
    lang = target_language(lang)
    found = find_card(loaded, card)
    return StatusDiff(
        found, lang, states.card_state(found, lang), states.source_changes(found, lang)
    )
