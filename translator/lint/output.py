"""Writing lint reports moved to :mod:`translator.cli.output`, the one module of what
the command line prints; this module re-exports it for code that imported it here."""

from __future__ import annotations

from ..cli.output import (
    FORMATS,
    as_json,
    as_sarif,
    github_line,
    statistics,
    summary,
    use_color,
    write,
    write_github,
    write_json,
    write_sarif,
    write_statistics,
    write_text,
)

__all__ = [
    "FORMATS",
    "as_json",
    "as_sarif",
    "github_line",
    "statistics",
    "summary",
    "use_color",
    "write",
    "write_github",
    "write_json",
    "write_sarif",
    "write_statistics",
    "write_text",
]
