"""``translator review`` and ``translator review-sheet``: translations signed off
(:mod:`translator.review.signoff`), and review sheets planned here (the settings
checked, the library read) and made by :class:`translator.review.plan.ReviewPlan`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..paths import Paths, path_list
from .library import load_library, target_languages
from .linting import lint_setup
from .printing import Advance, Stage, job_count, size_of

if TYPE_CHECKING:
    from ..lint.config import Config
    from ..pdf.sizes import CardSize
    from ..review.plan import ReviewPlan, ReviewSheets

__all__ = ["plan_review_sheets", "review_sheets"]


def plan_review_sheets(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = (),
    out: str | os.PathLike[str] = "out/review",
    build_dir: str | os.PathLike[str] | None = None,
    dpi: float = 96,
    renders: bool = True,
    size: str | CardSize = "arcmage",
    theme: str | None = None,
    icc: str | None = None,
    jobs: int | None = None,
    config: Config | None = None,
) -> ReviewPlan:
    """Check what :func:`review_sheets` is asked and read the library, without
    making anything yet: the command line shows a progress bar of
    :attr:`ReviewPlan.total` while it runs.

    >>> plan = plan_review_sheets("cards/sample", languages=["fr"], jobs=1)
    >>> plan.languages, plan.total, str(plan.build_dir)
    (['fr'], 48, 'out/review/build')
    """
    from ..review.plan import ReviewPlan  # noqa: PLC0415
    from ..typeset.options import BuildOptions  # noqa: PLC0415 - WeasyPrint loads slowly

    chosen = path_list(paths)
    library = load_library(chosen)
    langs = target_languages(library, languages)
    if not 24 <= dpi <= 300:
        raise UsageError("--dpi is between 24 and 300 (96: a screen; 150: zoom in)")
    card_size = size_of(size)
    target = Path(out)
    setup = lint_setup(langs, chosen, config=config)
    return ReviewPlan(
        library,
        langs,
        target,
        Path(build_dir) if build_dir else target / "build",
        setup,
        BuildOptions(card_size, theme, icc, jobs=job_count(jobs)),
        dpi,
        renders,
    )


def review_sheets(
    paths: Paths | None = None,
    *,
    progress: Advance | None = None,
    stage: Stage | None = None,
    **settings: Any,
) -> ReviewSheets:
    """A static HTML page per deck and language for proofreaders, and an index, in
    ``out`` (default ``out/review``): ``translator review-sheet``.  ``settings`` are
    those of :func:`plan_review_sheets` (``languages``, ``out``, ``dpi``,
    ``renders=False`` for texts and findings only, ...).

    >>> made = review_sheets("cards/sample", languages=["fr"], renders=False)
    >>> [str(made.path(sheet)) for sheet in made.sheets], str(made.index)
    (['out/review/sample.fr.html'], 'out/review/index.html')
    """
    return plan_review_sheets(paths, **settings).run(progress, stage)
