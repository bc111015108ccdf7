"""Writing lint reports: text for people, JSON for scripts, SARIF and GitHub for CI.

The JSON shape is a contract (``version`` 1): keys may be added, never removed.
SARIF 2.1.0 is what code-scanning services read; the ``github`` format prints
workflow commands, which GitHub Actions turns into annotations on the changed lines.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, TextIO

from .. import __version__
from ..diagnostics import REGISTRY, Rule, Severity
from ..untrusted import printable
from .engine import Report
from .model import Finding

FORMATS = ("text", "json", "sarif", "github")
_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_color(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def summary(report: Report) -> dict[str, int]:
    return {
        "cards": report.cards,
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "infos": report.count(Severity.INFO),
        "translations": report.translations,
        "files": report.files,
        "fixable": sum(1 for f in report.findings if f.edit is not None),
    }


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def write_text(report: Report, out: TextIO, color: bool | None = None, fixed: int = 0) -> None:
    """``path:line:col: CODE message`` (the colon after the column, as ruff and gcc
    write it, for editors' problem matchers), grouped by card, then a summary line."""
    color = use_color(out) if color is None else color
    current: tuple[str, str] | None = None
    for finding in sorted(report.findings, key=lambda f: (f.card, f.lang, f.sort_key())):
        if (finding.card, finding.lang) != current:
            if current is not None:
                out.write("\n")
            current = (finding.card, finding.lang)
            header = f"{finding.card} ({finding.lang})"
            out.write(f"{_BOLD}{header}{_RESET}\n" if color else f"{header}\n")
        code = finding.code
        if color:
            code = f"{_COLORS[finding.severity]}{code}{_RESET}"
        fixable = " [fix]" if finding.edit is not None else ""
        if color and fixable:
            fixable = f"{_DIM}{fixable}{_RESET}"
        out.write(
            f"{finding.path}:{finding.line}:{finding.column}: {code} "
            f"{printable(finding.message)}{fixable}\n"
        )
    counts = summary(report)
    total = counts["errors"] + counts["warnings"] + counts["infos"]
    scope = (
        f"{_plural(report.cards, 'card')} ({_plural(report.translations, 'translation')}, "
        f"{_plural(report.files, 'file')})"
    )
    if total:
        if report.findings:
            out.write("\n")
        line = (
            f"{_plural(total, 'finding')} in {scope}: "
            f"{_plural(counts['errors'], 'error')}, "
            f"{_plural(counts['warnings'], 'warning')}, {_plural(counts['infos'], 'info')}."
        )
    else:
        line = f"No findings in {scope}."
    if fixed:
        line += f" Fixed {fixed}."
    elif counts["fixable"]:
        line += f" {counts['fixable']} fixable with --fix."
    out.write(line + "\n")


def as_json(report: Report, fixed: int = 0) -> dict[str, Any]:
    return {
        "version": 1,
        "findings": [f.as_dict() for f in report.findings],
        "summary": {**summary(report), "fixed": fixed},
    }


def write_json(report: Report, out: TextIO, fixed: int = 0) -> None:
    json.dump(as_json(report, fixed), out, ensure_ascii=False, indent=2)
    out.write("\n")


_SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.rationale},
        "help": {"text": rule.explain(), "markdown": rule.explain()},
        "defaultConfiguration": {"level": _SARIF_LEVELS[rule.severity]},
    }


def as_sarif(report: Report, rules: Iterable[Rule]) -> dict[str, Any]:
    rules = list(rules)
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    for finding in report.findings:
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "level": _SARIF_LEVELS[finding.severity],
            "message": {"text": finding.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": finding.path.replace(os.sep, "/")},
                        "region": {
                            "startLine": max(finding.line, 1),
                            "startColumn": max(finding.column, 1),
                        },
                    }
                }
            ],
            "properties": {
                "card": finding.card,
                "guid": finding.guid,
                "lang": finding.lang,
                "field": finding.field,
            },
        }
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        results.append(result)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "translator",
                        "version": __version__,
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "results": results,
            }
        ],
    }


def write_sarif(report: Report, out: TextIO, rules: Iterable[Rule] | None = None) -> None:
    json.dump(
        as_sarif(report, rules if rules is not None else REGISTRY.rules()),
        out,
        ensure_ascii=False,
        indent=2,
    )
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def github_line(finding: Finding) -> str:
    """A GitHub Actions workflow command annotating the finding's line."""
    properties = (
        f"file={_escape_property(finding.path)},line={finding.line},"
        f"col={finding.column},title={_escape_property(finding.code)}"
    )
    return (
        f"::{_GITHUB_LEVELS[finding.severity]} {properties}::"
        f"{_escape_data(f'{finding.code} {finding.message}')}"
    )


def write_github(report: Report, out: TextIO) -> None:
    for finding in report.findings:
        out.write(github_line(finding) + "\n")


def write(
    report: Report, out: TextIO, format_: str, rules: Iterable[Rule] | None = None, fixed: int = 0
) -> None:
    """Write ``report`` in ``format_``; ``fixed`` fixes were applied before it."""
    if format_ == "json":
        write_json(report, out, fixed)
    elif format_ == "sarif":
        write_sarif(report, out, rules)
    elif format_ == "github":
        write_github(report, out)
    else:
        write_text(report, out, fixed=fixed)


def statistics(report: Report) -> list[dict[str, Any]]:
    """Findings counted per rule, the most frequent first (``--statistics``, as ruff)."""
    counts: dict[str, list[int]] = {}
    for finding in report.findings:
        entry = counts.setdefault(finding.code, [0, 0])
        entry[0] += 1
        entry[1] += finding.edit is not None
    rows = []
    for code, (count, fixable) in sorted(counts.items(), key=lambda i: (-i[1][0], i[0])):
        rule = REGISTRY.get(code)
        rows.append(
            {
                "code": code,
                "name": rule.name if rule else "",
                "count": count,
                "fixable": fixable,
                "severity": rule.severity.value if rule else "error",
            }
        )
    return rows


def write_statistics(report: Report, out: TextIO, format_: str) -> None:
    """The per-rule counts, as text (``  12  FR201  [*] no-break-space``) or JSON."""
    rows = statistics(report)
    if format_ == "json":
        json.dump(
            {"version": 1, "statistics": rows, "summary": summary(report)},
            out,
            ensure_ascii=False,
            indent=2,
        )
        out.write("\n")
        return
    width = max((len(str(r["count"])) for r in rows), default=1)
    for row in rows:
        mark = "[*]" if row["fixable"] else "   "
        out.write(f"{row['count']:>{width}}  {row['code']}  {mark} {row['name']}\n")
    total = sum(r["count"] for r in rows)
    out.write(
        f"Found {_plural(total, 'finding')}"
        + (
            f" ({sum(r['fixable'] for r in rows)} fixable with --fix).\n"
            if any(r["fixable"] for r in rows)
            else ".\n"
        )
    )
