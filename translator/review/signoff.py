"""Signing translations off: a review vouches for a translation against the current
English card (``translator review``).  The cards are linted first; one with lint
errors, or stale, is held back; the others get the review's date, reviewer and
fingerprints, written atomically.

    from translator.review.signoff import sign_off
    done = sign_off(["veil-stalker"], lang="fr", library="cards/sample", dry_run=True)
    print([(r.card, r.was) for r in done.reviewed], done.held)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..paths import Paths

if TYPE_CHECKING:
    from ..lint import Report
    from ..lint.config import Config

__all__ = ["Held", "Reviewed", "SignOff", "sign_off"]


@dataclass(frozen=True)
class Reviewed:
    """A translation marked reviewed (or that would be, in a dry run)."""

    card: str
    lang: str
    path: str
    #: Its state before: translated, stale, draft, reviewed.
    was: str
    #: What changed in the English since it was translated (when it was stale).
    changed: list[str]
    written: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Held:
    """A card not reviewed: its translation has lint errors to fix first, or it is
    stale (its English changed since it was translated: ``changed`` names the English
    fields, which the translation must follow before a review can vouch for it)."""

    card: str
    lang: str
    errors: int
    changed: list[str] = field(default_factory=list)
    stale: bool = False

    @property
    def reason(self) -> str:
        """Why the card was not reviewed, as ``translator review`` says it."""
        if self.stale:
            what = f"its {', '.join(self.changed)} changed" if self.changed else "it changed"
            return (
                f"stale: the English card changed since it was translated ({what}): "
                f"'translator status --diff {self.card} --lang {self.lang}' shows how; "
                "bring the translation up to date, then review it (--force reviews anyway)"
            )
        errors = f"{self.errors} error{'' if self.errors == 1 else 's'}"
        return f"{errors} to fix first (--force reviews anyway)"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reason": self.reason}


@dataclass
class SignOff:
    """What :func:`sign_off` did: the cards reviewed, the cards held back, and the
    lint report they were judged on."""

    reviewed: list[Reviewed]
    held: list[Held]
    report: Report
    dry_run: bool


def sign_off(
    cards: Sequence[str],
    *,
    lang: str,
    by: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    library: Paths | None = None,
    config: Config | None = None,
) -> SignOff:
    """Mark the ``lang`` translations of ``cards`` (slugs, ``deck/slug``, guids or
    paths) reviewed against the current English: today's date, ``by`` as the
    reviewer, the fingerprints of the English card and of the translation as
    reviewed, no ``wip``: ``translator review``.

    The cards are linted first; a card with lint errors, or a stale one (its English
    changed since it was translated), is held back (``force`` reviews it anyway),
    without holding back the others.  The report is the lint of the cards as left:
    after the review when it wrote them (a finding the review answered, such as a
    missing fingerprint, is gone).  ``dry_run`` writes nothing.  ``library``: where
    the cards are (default: ``cards``).

    >>> done = sign_off(["veil-stalker"], lang="fr", library="cards/sample", dry_run=True)
    >>> [(r.card, r.was, r.written) for r in done.reviewed], done.held
    ([('veil-stalker', 'translated', False)], [])
    """
    from ..cards.edit import EditError, edit_card  # noqa: PLC0415
    from ..cards.select import card_library, find_card, read_library  # noqa: PLC0415
    from ..diagnostics import Severity  # noqa: PLC0415
    from ..lint import lint as run_lint  # noqa: PLC0415
    from ..lint.run import lint_setup  # noqa: PLC0415
    from ..textio import InputError, atomic_write, read_text  # noqa: PLC0415
    from ..typeset.overflow import overflowing  # noqa: PLC0415 - cheap: PR101's measure
    from ..workflow import states  # noqa: PLC0415
    from ..workflow.targets import target_language  # noqa: PLC0415

    lang = target_language(lang)
    paths = card_library(cards, library)
    found = read_library(paths)
    chosen = [find_card(found, reference) for reference in cards]
    missing = [c.slug for c in chosen if lang not in c.translations]
    if missing:
        raise UsageError(
            f"no {lang} translation of {', '.join(missing)}: 'translator translate' makes a draft"
        )
    setup = lint_setup([lang], paths, config=config, fit=overflowing)
    setup.options.files = {c.translations[lang].path for c in chosen}
    report = run_lint(found, setup.resources, setup.options)
    errors: dict[str, int] = {}
    for finding in report.findings:
        if finding.severity == Severity.ERROR:
            errors[finding.card] = errors.get(finding.card, 0) + 1
    before = {card.slug: states.card_state(card, lang) for card in chosen}
    held = (
        []
        if force
        else [
            Held(
                card.slug,
                lang,
                errors.get(card.slug, 0),
                before[card.slug].changed,
                before[card.slug].state == "stale",
            )
            for card in chosen
            if card.slug in errors or before[card.slug].state == "stale"
        ]
    )
    held_slugs = {h.card for h in held}
    done = []
    for card in chosen:
        if card.slug in held_slugs:
            continue
        version = card.translations[lang]
        state = before[card.slug]
        content = read_text(version.path)
        try:
            new = edit_card(version, content, states.review_changes(card, lang, reviewer=by))
        except EditError as error:
            raise InputError(version.path, str(error)) from None
        if not dry_run and new != content:
            atomic_write(version.path, new, within=Path(version.path).parent)
        done.append(
            Reviewed(
                card.slug,
                lang,
                version.path,
                state.state,
                state.changed,
                new != content and not dry_run,
            )
        )
    if any(item.written for item in done):  # the lint of the cards as they are now
        found = read_library(paths)
        report = run_lint(found, setup.resources, setup.options)
    return SignOff(done, held, report, dry_run)
