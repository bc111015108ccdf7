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
    #: Printed in the fallback language (no translation).
    fallback: bool = False
    #: A warning line (printed, but a person should look: stale, draft).
    warning: str | None = None
    #: Why it is not printed although it could be (missing, or refused by --strict).
    withheld: str | None = None

    @property
    def reason(self) -> str:
        """Why it was withheld, in a few words (for the deck files not written)."""
        state = self.state
        if state.state == "missing":
            return f"no {state.lang} translation"
        if self.withheld and self.withheld.endswith("(--strict)"):
            return f"{state.state}, --strict"
        return english_said([p for p in state.english if p in ("name2", "text")])


def readiness(card: Card, lang: str, *, fallback: str | None, strict: bool) -> Readiness:
    """How ``card`` prints in ``lang`` given its state (see the module's text)."""
    state = card_state(card, lang)
    if lang == SOURCE_LANGUAGE:
        return Readiness(state, True)
    where = f"{card.slug} ({lang})"
    english = fallback == SOURCE_LANGUAGE
    lacking = _lacking(state, where)
    if lacking is not None:  # the English would be printed, in whole or in part
        if not english:
            return Readiness(state, False, withheld=lacking)
        if state.state == "missing":
            return Readiness(state, True, fallback=True)
    inherited = state.state == "missing" or any(p in ("name2", "text") for p in state.english)
    reasons = [
        f"stale: {state.why} (translator status --diff {card.slug} --lang {lang})"
        if state.state == "stale"
        else "a draft (wip: true): parts of it may still be in English"
        if state.state == "draft"
        else "",
        english_said([part for part in state.english if part.startswith("paragraph ")]),
    ]
    what = "; ".join(reason for reason in reasons if reason)
    if what and strict:
        return Readiness(state, False, withheld=f"{where}: {what}: not printed (--strict)")
    return Readiness(
        state,
        True,
        fallback=inherited,
        warning=f"{where}: {what}: printed as it is (--strict refuses it)" if what else None,
    )


def _lacking(state: CardState, where: str) -> str | None:
    """Why the card is not printed without ``--fallback en``: it has no translation,
    or its translation lacks a second name or card text its English card has."""
    if state.state == "missing":
        return (
            f"{where}: no {state.lang} translation: not printed (a deck or sheet holding "
            "it is not written; 'translator translate' drafts one; --fallback en prints "
            "the English card in its place)"
        )
    inherited = [part for part in state.english if part in ("name2", "text")]
    if inherited:
        return (
            f"{where}: {english_said(inherited)}: not printed (a deck or sheet holding it "
            "is not written; --fallback en prints the English in its place)"
        )
    return None
