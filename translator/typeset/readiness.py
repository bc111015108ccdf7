"""Whether a card version may be printed, read from its state (:mod:`translator.cards.state`).

A print file is paid for: a card in the wrong language or with text its English no
longer says is a misprint.  So the build asks each card's state, the one ``status``
shows, before rendering it:

- *missing*: not printed (its deck and sheet files are then not written, as for a
  card that cannot be printed), unless the user asks for the English card in its
  place (``--fallback en`` or ``fallback = "en"`` in ``[build]``): then it is printed
  from the English card and the summary says how many were;
- a translation lacking a second name or card text its English card has would print
  the English one: not printed either, unless ``--fallback en``;
- *stale* (its English changed since it was translated), *draft* (``wip: true``) and
  a translation with a paragraph left as the English wrote it: printed with a warning
  that names the card, the language and the English fields changed (or the
  paragraphs); ``--strict`` (or ``strict = true``) refuses them instead;
- *translated*, *reviewed*: printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards.model import SOURCE_LANGUAGE, Card
from ..cards.state import CardState, card_state, english_said


@dataclass(frozen=True)
class Readiness:
    """What the build does with one card in one language."""

    state: CardState
    #: Render it.
    printed: bool
    #: Printed in the fallback language, in whole or in part (no translation, or one
    #: lacking the second name or text of its English card).
    fallback: bool = False
    #: A warning line (printed, but a person should look: stale, draft).
    warning: str | None = None
    #: Why it is not printed although it could be (missing, lacking a part, or
    #: refused by --strict), as a line and in a few words (for the deck files not
    #: written).
    withheld: str | None = None
    reason: str = ""


def readiness(card: Card, lang: str, *, fallback: str | None, strict: bool) -> Readiness:
    """How ``card`` prints in ``lang`` given its state (see the module's text)."""
    state = card_state(card, lang)
    if lang == SOURCE_LANGUAGE:
        return Readiness(state, True)
    where = f"{card.slug} ({lang})"
    inherited = state.state == "missing" or bool(state.inherited)
    if inherited and fallback != SOURCE_LANGUAGE:
        return _lacking(state, where)
    if state.state == "missing":
        return Readiness(state, True, fallback=True)
    reasons = [
        f"stale: {state.why} (translator status --diff {card.slug} --lang {lang})"
        if state.state == "stale"
        else "a draft (wip: true): parts of it may still be in English"
        if state.state == "draft"
        else "",
        english_said(state.left),
    ]
    what = "; ".join(reason for reason in reasons if reason)
    if what and strict:
        withheld = f"{where}: {what}: not printed (--strict)"
        return Readiness(state, False, withheld=withheld, reason=f"{state.state}, --strict")
    return Readiness(
        state,
        True,
        fallback=inherited,
        warning=f"{where}: {what}: printed as it is (--strict refuses it)" if what else None,
    )


def _lacking(state: CardState, where: str) -> Readiness:
    """Not printed without ``--fallback en``: no translation, or one that lacks a
    second name or card text its English card has."""
    if state.state == "missing":
        reason = f"no {state.lang} translation"
        withheld = (
            f"{where}: {reason}: not printed (a deck or sheet holding it is not written; "
            "'translator translate' drafts one; --fallback en prints the English card in "
            "its place)"
        )
    else:
        reason = english_said(state.inherited)
        withheld = (
            f"{where}: {reason}: not printed (a deck or sheet holding it is not written; "
            "--fallback en prints the English in its place)"
        )
    return Readiness(state, False, withheld=withheld, reason=reason)
