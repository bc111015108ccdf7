"""What a build says of each card (:class:`CardResult`): its PDF, its scale, what is
wrong; what the build record, the summary and the editor's preview read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import manifest
from .fits import Fitted


@dataclass
class CardResult:
    """What happened to one card: its PDF, its text scale, and what is wrong."""

    slug: str
    lang: str
    path: str | None
    scale: float
    #: mm the text is still too tall at the floor (None: it fits).
    overflow: float | None = None
    missing_glyphs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Not rendered: its inputs are those of the PDF already there.
    reused: bool = False
    #: Why it was not printed, each naming the card file (what does not fit, a word
    #: its glossary lacks); with ``allow_overflow`` what does not fit is a warning.
    errors: list[str] = field(default_factory=list)
    #: The smallest text size it prints (pt).
    min_size: float | None = None
    #: Each element's box (mm from the page's top-left) and smallest size (for a card
    #: rendered this time: the build record keeps only its smallest size).
    elements: dict[str, dict] = field(default_factory=dict)
    #: The preflight of its PDF made by the worker that wrote it (``build_cards``'
    #: ``check``): the digest of the bytes checked (:func:`.manifest.stamped`), and
    #: what the check found.
    checked: tuple[manifest.Stamped, list[Any]] | None = None
    #: The digest of its PDF as the process that wrote it read it back (rendered this
    #: time): what the build record keeps as the file's own (``output``), so that a
    #: later build reuses the file only while it is still these bytes
    #: (:func:`.manifest.intact`).
    written: manifest.Stamped | None = None
    #: Why it was not printed although it could be: its state (no translation, or
    #: stale or a draft under ``--strict``: :mod:`.readiness`).
    withheld: str | None = None
    #: Printed from the English card, the translation missing (``--fallback en``).
    fallback: bool = False
    #: The card's state in its language (:mod:`translator.cards.state`), when the
    #: build asked it.
    state: str | None = None
    #: Its fitting, when it fits (rendered this time): kept for the next build of the
    #: same inputs (:mod:`.fits`).
    fitted: Fitted | None = None

    @property
    def failed(self) -> bool:
        """Not printed, for a reason the card must fix."""
        return self.path is None and (
            self.overflow is not None or bool(self.missing_glyphs) or bool(self.errors)
        )
