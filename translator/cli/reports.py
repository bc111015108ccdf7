"""The reports of ``markup check`` and ``lint``: text for people, JSON for scripts,
SARIF, GitHub and GitLab for CI.

The JSON shapes are a contract (``version`` 1): keys may be added, never removed.
SARIF 2.1.0 is what code-scanning services read; the ``github`` format prints
workflow commands, which GitHub Actions turns into annotations on the changed lines;
``gitlab`` is the Code Quality report GitLab shows in merge requests.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from .. import __version__
from ..diagnostics import REGISTRY, Diagnostic, Rule, Severity
from ..textio import SourceFile
from ..untrusted import printable
from .output import BOLD, CYAN, DIM, RED, YELLOW, dump_json, paint, plural, use_color

if TYPE_CHECKING:  # the linter and its rules load only for the commands that lint
    from ..lint.engine import Report
    from ..lint.model import Finding

#: A finding's code, coloured by its severity.
SEVERITY_COLORS = {Severity.ERROR: RED, Severity.WARNING: YELLOW, Severity.INFO: CYAN}


# --------------------------------------------------------------------------------------
# translator markup check

#: Each checked file with what was found in it.
MarkupReport = list[tuple[SourceFile, list[Diagnostic]]]


def markup_summary(report: MarkupReport) -> dict[str, int]:
    """The files checked and the findings by severity (the JSON ``summary``)."""
    counts = dict.fromkeys(Severity, 0)
    for _, diagnostics in report:
        for diagnostic in diagnostics:
            counts[diagnostic.severity] += 1
    return {
        "files": len(report),
        "errors": counts[Severity.ERROR],
        "warnings": counts[Severity.WARNING],
        "infos": counts[Severity.INFO],
    }


def write_markup_json(report: MarkupReport, out: TextIO, fixed: int) -> None:
    """``{"version": 1, "findings": [...], "summary": {...}}``, ``fixed`` fixes applied."""
    findings = [
        {"path": source.path, **diagnostic.as_dict()}
        for source, diagnostics in report
        for diagnostic in diagnostics
    ]
    summary_ = markup_summary(report)
    summary_["fixed"] = fixed
    dump_json({"version": 1, "findings": findings, "summary": summary_}, out)


def write_markup_text(report: MarkupReport, out: TextIO, fixed: int) -> None:
    """``path:line:col: CODE message``, then one summary line (what ``--fix`` fixed or
    could fix)."""
    color = use_color(out)
    for source, diagnostics in report:
        for diagnostic in diagnostics:
            code = paint(diagnostic.code, SEVERITY_COLORS[diagnostic.severity], color)
            mark = " [fix]" if diagnostic.fix is not None else ""
            out.write(
                f"{source.path}:{diagnostic.line}:{diagnostic.column}: {code} "
                f"{diagnostic.message}{mark}\n"
            )
    counts = markup_summary(report)
    total = counts["errors"] + counts["warnings"] + counts["infos"]
    fixable = sum(1 for _, ds in report for d in ds if d.fix is not None)
    files = plural(counts["files"], "file")
    if total:
        line = (
            f"{plural(total, 'finding')} in {files}: {plural(counts['errors'], 'error')}, "
            f"{plural(counts['warnings'], 'warning')}, {plural(counts['infos'], 'info')}."
        )
    else:
        line = f"No findings in {files}."
    if fixed:
        line += f" Fixed {fixed}."
    elif fixable:
        line += f" {fixable} fixable with --fix."
    out.write(line + "\n")


# --------------------------------------------------------------------------------------
# translator lint


def summary(report: Report) -> dict[str, int]:
    """What was linted and found (the JSON ``summary``)."""
    return {
        "cards": report.cards,
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "infos": report.count(Severity.INFO),
        "translations": report.translations,
        "files": report.files,
        "fixable": sum(1 for f in report.findings if f.edit is not None),
    }


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
            out.write(paint(f"{finding.card} ({finding.lang})", BOLD, color) + "\n")
        code = paint(finding.code, SEVERITY_COLORS[finding.severity], color)
        fixable = paint(" [fix]", DIM, color) if finding.edit is not None else ""
        out.write(
            f"{finding.path}:{finding.line}:{finding.column}: {code} "
            f"{printable(finding.message)}{fixable}\n"
        )
    counts = summary(report)
    total = counts["errors"] + counts["warnings"] + counts["infos"]
    scope = (
        f"{plural(report.cards, 'card')} ({plural(report.translations, 'translation')}, "
        f"{plural(report.files, 'file')})"
    )
    if total:
        if report.findings:
            out.write("\n")
        line = (
            f"{plural(total, 'finding')} in {scope}: "
            f"{plural(counts['errors'], 'error')}, "
            f"{plural(counts['warnings'], 'warning')}, {plural(counts['infos'], 'info')}."
        )
    else:
        line = f"No findings in {scope}."
    if fixed:
        line += f" Fixed {fixed}."
    elif counts["fixable"]:
        line += f" {counts['fixable']} fixable with --fix."
    out.write(line + "\n")


def as_json(report: Report, fixed: int = 0) -> dict[str, Any]:
    """The lint report for scripts: ``{"version": 1, "findings": [...], "summary": ...}``."""
    return {
        "version": 1,
        "findings": [f.as_dict() for f in report.findings],
        "summary": {**summary(report), "fixed": fixed},
    }


def write_json(report: Report, out: TextIO, fixed: int = 0) -> None:
    """:func:`as_json`, written."""
    dump_json(as_json(report, fixed), out)


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


def _sarif_result(finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": _SARIF_LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    # A URI reference: a space, ``#`` or an accent percent-encoded.
                    "artifactLocation": {"uri": quote(finding.path.replace(os.sep, "/"))},
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
    return result


def as_sarif(report: Report, rules: Iterable[Rule]) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log, with the documentation of ``rules``."""
    rules = list(rules)
    index = {rule.code: i for i, rule in enumerate(rules)}
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
                "results": [_sarif_result(finding, index) for finding in report.findings],
            }
        ],
    }


def write_sarif(report: Report, out: TextIO, rules: Iterable[Rule] | None = None) -> None:
    """:func:`as_sarif`, written (every registered rule unless ``rules`` is given)."""
    dump_json(as_sarif(report, rules if rules is not None else REGISTRY.rules()), out)


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
    """One workflow command per finding."""
    for finding in report.findings:
        out.write(github_line(finding) + "\n")


#: GitLab Code Quality's severities (info, minor, major, critical, blocker) for ours, as
#: ESLint's GitLab formatter maps them: critical and blocker are left unused, since what
#: fails a pipeline is the exit code (``--fail-on``), not the widget's ranking.
_GITLAB_SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def gitlab_path(path: str, root: str | None = None) -> str:
    """``path`` as GitLab links it to the file: relative to the repository's root
    (``root``, else ``$CI_PROJECT_DIR`` in a GitLab job, else the working directory),
    with ``/``, without ``./``.  A path outside the root stays as given, normalized:
    GitLab cannot link it, but the report still says where the finding is."""
    base = os.path.abspath(root or os.environ.get("CI_PROJECT_DIR") or os.getcwd())
    relative = os.path.relpath(os.path.abspath(path), base)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        relative = os.path.normpath(path)
    return relative.replace(os.sep, "/")


def _gitlab_fingerprint(key: tuple[str, ...], occurrence: int) -> str:
    """What GitLab tells one finding from another by, between the pipelines of a merge
    request and its target branch: the file, rule, card, language, field and message,
    and which of the identical findings in that file it is; not the line, so that an
    edit elsewhere in the file leaves it the same finding."""
    import hashlib  # noqa: PLC0415 - OpenSSL's bindings load for this format only

    data = "\0".join([*key, str(occurrence)]).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def as_gitlab(report: Report, root: str | None = None) -> list[dict[str, Any]]:
    """The report as a GitLab Code Quality report (``artifacts:reports:codequality``):
    one issue per finding, in file order, paths from ``root`` (:func:`gitlab_path`).
    Fingerprints are unique in the report: GitLab keeps one issue per fingerprint."""
    occurrences: dict[tuple[str, ...], int] = {}
    issues = []
    for finding in sorted(report.findings, key=lambda f: f.sort_key()):
        path = gitlab_path(finding.path, root)
        key = (path, finding.code, finding.card, finding.lang, finding.field, finding.message)
        occurrences[key] = occurrences.get(key, 0) + 1
        # One line of text (Code Climate's description), invisible characters shown.
        message = " ".join(printable(finding.message).splitlines())
        issues.append(
            {
                "type": "issue",
                "description": f"{finding.code} {message}",
                "check_name": finding.code,
                "fingerprint": _gitlab_fingerprint(key, occurrences[key]),
                "severity": _GITLAB_SEVERITIES[finding.severity],
                "location": {"path": path, "lines": {"begin": max(finding.line, 1)}},
            }
        )
    return issues


def write_gitlab(report: Report, out: TextIO) -> None:
    """:func:`as_gitlab`, written: ``[]`` when nothing was found (GitLab then shows the
    target branch's findings as resolved)."""
    dump_json(as_gitlab(report), out)


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
    elif format_ == "gitlab":
        write_gitlab(report, out)
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
        dump_json({"version": 1, "statistics": rows, "summary": summary(report)}, out)
        return
    width = max((len(str(r["count"])) for r in rows), default=1)
    for row in rows:
        mark = "[*]" if row["fixable"] else "   "
        out.write(f"{row['count']:>{width}}  {row['code']}  {mark} {row['name']}\n")
    total = sum(r["count"] for r in rows)
    out.write(
        f"Found {plural(total, 'finding')}"
        + (
            f" ({sum(r['fixable'] for r in rows)} fixable with --fix).\n"
            if any(r["fixable"] for r in rows)
            else ".\n"
        )
    )
