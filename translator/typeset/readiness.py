"""Whether a card version may be printed, read from its state (:mod:`translator.cards.state`).

A print file is paid for: a card in the wrong language or with text its English no
longer says is a misprint.  So the build asks each card's state, the one ``status``
shows, before rendering it:

- *missing*: not printed (its deck and sheet files are then not written, as for a
  card that cannot be printed), unless the user asks for the English card in its
  place (``--fallback en`` or ``fallback = "en"`` in ``[build]``): then it is printed
  from the English card and the summary says how many were;
- *stale* (its English changed since it was translated) and *draft* (``wip: true``):
  printed with a warning that names the card, the language and the English fields
  changed; ``--strict`` (or ``strict = true``) refuses them instead;
- *translated*, *reviewed*: printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards.model import SOURCE_LANGUAGE, Card
from ..cards.state import CardState, card_state

#: What ``--fallback`` may name: the language printed in place of a missing translation.
FALLBACKS = (SOURCE_LANGUAGE,)


@dataclass(frozen=True)
class Readiness:
    """What the build does with one card in one language."""

    state: CardState
    #: Render it.
    printed: bool
    #: Printed in the fallback language (no translation).
    fallback: bool = False
    #: A warning line (printed, but a person should look: stale, draft).
    warning: str | None = None
    #: Why it is not printed although it could be (missing, or refused by --strict).
    withheld: str | None = None


def readiness(card: Card, lang: str, *, fallback: str | None, strict: bool) -> Readiness:
    """How ``card`` prints in ``lang`` given its state (see the module's text)."""
    state = card_state(card, lang)
    where = f"{card.slug} ({lang})"
    if lang == SOURCE_LANGUAGE or state.state in ("translated", "reviewed"):
        return Readiness(state, True)
    if state.state == "missing":
        if fallback == SOURCE_LANGUAGE:
            return Readiness(state, True, fallback=True)
        return Readiness(
            state,
            False,
            withheld=f"{where}: no {lang} translation: not printed (a deck or sheet holding "
            "it is not written; 'translator translate' drafts one; --fallback en prints "
            "the English card in its place)",
        )
    what = (
        f"stale: {state.why} (translator status --diff {card.slug} --lang {lang})"
        if state.state == "stale"
        else "a draft (wip: true): parts of it may still be in English"
    )
    if strict:
        return Readiness(state, False, withheld=f"{where}: {what}: not printed (--strict)")
    return Readiness(
        state, True, warning=f"{where}: {what}: printed as it is (--strict refuses it)"
    )
