"""Lint: does each translated card say what its English card says, in the community's words?

    from translator import cards, lint

    library, problems = cards.load_library(["cards/sample"])
    options = lint.Options(languages=["fr"])
    resources = lint.load_resources(["fr"], options, problems)
    report = lint.lint(library, resources, options)
    for finding in report.findings:
        print(finding.path, finding.line, finding.code, finding.message)

Rules are registered in :data:`translator.diagnostics.REGISTRY` (families MK, TR, GL,
LN); ``translator lint --explain CODE`` prints their documentation.  What
``translator lint`` does as a whole (the configuration, the paths, ``--fix``) is
:func:`translator.api.lint` and :func:`translator.api.fix`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .engine import Options, Report, lint, load_resources, selected_rules
    from .model import Edit, Finding

attach(
    globals(),
    {
        "Options": ".engine",
        "Report": ".engine",
        "lint": ".engine",
        "load_resources": ".engine",
        "selected_rules": ".engine",
        "Edit": ".model",
        "Finding": ".model",
    },
)

__all__ = ["Edit", "Finding", "Options", "Report", "lint", "load_resources", "selected_rules"]
