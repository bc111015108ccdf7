"""``translator lint --format sarif|gitlab`` checked against the formats' own schemas
(tests/data/schemas/, see its README): the SARIF 2.1.0 schema, and the GitLab Code
Quality report as GitLab's documentation and parser define it.  Reports with findings
of every severity, with none, and from Aminduna JSON; GitLab's fingerprints stable
across runs and edits elsewhere in a file, unique in a report; paths as GitLab links
them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import ROOT
from tests.lintkit import edit, run
from translator.cli import reports
from translator.diagnostics import Severity
from translator.lint.engine import Report
from translator.lint.model import Finding

SCHEMAS = ROOT / "tests" / "data" / "schemas"
SAMPLE = ROOT / "cards" / "sample"
#: Findings of every severity (errors, warnings, infos): the independent corpus.
CORPUS = ROOT / "tests" / "data" / "independent-corpus" / "cards"

# RFC 3986: the characters a URI may hold, a percent sign only before two hex digits,
# one fragment at most; a URI (not a reference) starts with its scheme.
_URI_CHARACTERS = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?\[\]]|%[0-9A-Fa-f]{2})*(?:#.*)?")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")

#: jsonschema checks "uri" and "uri-reference" only with an extra package: these do.
FORMATS = jsonschema.FormatChecker()


@FORMATS.checks("uri-reference")
def _uri_reference(value: object) -> bool:
    if not isinstance(value, str):
        return True
    match = _URI_CHARACTERS.fullmatch(value)
    return match is not None and "#" not in value.partition("#")[2]


@FORMATS.checks("uri")
def _uri(value: object) -> bool:
    return not isinstance(value, str) or (
        _SCHEME.match(value) is not None and _uri_reference(value)
    )


def validator(name: str) -> jsonschema.protocols.Validator:
    """The schema ``name``'s validator (its own draft), with the URI formats checked."""
    schema = json.loads((SCHEMAS / name).read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=FORMATS)


SARIF = validator("sarif-schema-2.1.0.json")
GITLAB = validator("gitlab-code-quality.schema.json")


def assert_valid(check: jsonschema.protocols.Validator, document: Any) -> None:
    """Every error at once, with where it is (not only the first)."""
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in check.iter_errors(document)
    ]
    assert not errors, "\n".join(errors[:20])


def lint(*args: str) -> tuple[int, str]:
    return run("lint", "--no-config", *args)


def gitlab_report(*args: str) -> list[dict[str, Any]]:
    code, text = lint("--format", "gitlab", *args)
    assert code in (0, 1), text
    assert text.startswith("["), text[:80]  # an array, no byte order mark
    report: list[dict[str, Any]] = json.loads(text)
    assert_valid(GITLAB, report)
    fingerprints = [issue["fingerprint"] for issue in report]
    assert len(set(fingerprints)) == len(fingerprints), "GitLab keeps one issue per fingerprint"
    return report


def sarif_report(*args: str) -> dict[str, Any]:
    code, text = lint("--format", "sarif", *args)
    assert code in (0, 1), text
    log: dict[str, Any] = json.loads(text)
    assert_valid(SARIF, log)
    return log


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A card library's repository, as a GitLab job checks it out: the sample at
    ``cards/sample``, ``$CI_PROJECT_DIR`` its root."""
    shutil.copytree(SAMPLE, tmp_path / "cards" / "sample")
    monkeypatch.setenv("CI_PROJECT_DIR", str(tmp_path))
    return tmp_path


def export_json(library: Path, out: Path) -> tuple[str, str]:
    """The library as Aminduna JSON, English and French: the translation to lint and
    its ``--source``."""
    paths = []
    for lang in ("en", "fr"):
        path = out / f"deck.{lang}.json"
        assert run("export", "arcmage", str(library), "--lang", lang, "-o", str(path))[0] == 0
        paths.append(str(path))
    return paths[1], paths[0]


# --------------------------------------------------------------------------------------
# SARIF 2.1.0


def test_sarif_with_findings_of_every_severity() -> None:
    log = sarif_report(str(CORPUS))
    [run_] = log["runs"]
    assert {result["level"] for result in run_["results"]} == {"error", "warning", "note"}
    rules = run_["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run_["results"])


def test_sarif_with_no_findings() -> None:
    log = sarif_report(str(SAMPLE))
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"]  # the rules run, documented


def test_sarif_from_aminduna_json(project: Path) -> None:
    edit(project / "cards" / "sample" / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    translation, source = export_json(project / "cards" / "sample", project)
    log = sarif_report(translation, "--source", source)
    [result] = log["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert result["ruleId"] == "TR103"
    assert location["artifactLocation"]["uri"].endswith("/deck.fr.json")


def test_sarif_uris_are_uris_whatever_the_folder_is_called(tmp_path: Path) -> None:
    """A library in ``cartes à jour/`` (a space, an accent): the artifact's URI is
    percent-encoded, as RFC 3986 and the schema's ``uri-reference`` want it."""
    library = tmp_path / "cartes à jour #2"
    shutil.copytree(SAMPLE, library)
    edit(library / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    log = sarif_report(str(library))
    [result] = log["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert "cartes%20%C3%A0%20jour%20%232/courier.fr.md" in uri


# --------------------------------------------------------------------------------------
# GitLab Code Quality


def test_gitlab_with_findings_of_every_severity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_PROJECT_DIR", str(ROOT))
    report = gitlab_report(str(CORPUS))
    assert {issue["severity"] for issue in report} == {"major", "minor", "info"}
    findings = json.loads(lint("--format", "json", str(CORPUS))[1])["findings"]
    severities = {"error": "major", "warning": "minor", "info": "info"}
    folder = "tests/data/independent-corpus/cards"
    expected = [
        (f"{folder}/{Path(f['path']).name}", f["line"], f["code"], severities[f["severity"]])
        for f in findings
    ]
    issues = [
        (i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"], i["severity"])
        for i in report
    ]
    assert sorted(issues) == sorted(expected)
    assert all(i["description"].startswith(i["check_name"] + " ") for i in report)


def test_gitlab_with_no_findings(project: Path) -> None:
    assert gitlab_report(str(project / "cards")) == []


def test_gitlab_from_aminduna_json(project: Path) -> None:
    edit(project / "cards" / "sample" / "courier.fr.md", "pioche une carte", "pioche trois cartes")
    translation, source = export_json(project / "cards" / "sample", project)
    [issue] = gitlab_report(translation, "--source", source)
    assert issue["check_name"] == "TR103" and issue["severity"] == "major"
    assert issue["location"]["path"] == "deck.fr.json"
    line = (
        Path(translation).read_text("utf-8").splitlines()[issue["location"]["lines"]["begin"] - 1]
    )
    assert '"markdownText"' in line


def test_gitlab_paths_are_from_the_repository_root(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However the library is named on the command line (relative, ``./``, absolute),
    the path is the file's from the root, and the fingerprint is the same."""
    card = project / "cards" / "sample" / "courier.fr.md"
    edit(card, "pioche une carte", "pioche trois cartes")
    monkeypatch.chdir(project)
    reports = [gitlab_report(path) for path in ("cards", "./cards/", str(project / "cards"))]
    assert reports[0] == reports[1] == reports[2]
    assert reports[0][0]["location"]["path"] == "cards/sample/courier.fr.md"
    # From a subfolder of the repository: still from its root.
    monkeypatch.chdir(project / "cards")
    assert gitlab_report("sample") == reports[0]
    # Outside a GitLab job, the working directory is the root.
    monkeypatch.delenv("CI_PROJECT_DIR")
    assert gitlab_report("sample")[0]["location"]["path"] == "sample/courier.fr.md"


def test_gitlab_path_outside_the_root_stays_as_given(tmp_path: Path) -> None:
    root = str(tmp_path / "repository")
    assert reports.gitlab_path(str(tmp_path / "repository" / "cards" / "a.fr.md"), root) == (
        "cards/a.fr.md"
    )
    assert reports.gitlab_path(str(tmp_path / "other" / "a.fr.md"), root) == (
        (tmp_path / "other" / "a.fr.md").as_posix()
    )
    assert reports.gitlab_path("../other/./a.fr.md", root).endswith("other/a.fr.md")


def test_gitlab_fingerprints_survive_runs_and_edits_elsewhere(project: Path) -> None:
    card = project / "cards" / "sample" / "courier.fr.md"
    edit(card, "pioche une carte", "pioche trois cartes")
    library = str(project / "cards")
    [first] = gitlab_report(library)
    assert gitlab_report(library) == [first]  # the same on every run
    # Lines added above the finding: the same finding, moved.
    edit(card, "status: Draft\n", "status: Draft\n# relu le 3 mars\n# par Camille\n")
    [moved] = gitlab_report(library)
    assert moved["location"]["lines"]["begin"] == first["location"]["lines"]["begin"] + 2
    assert moved["fingerprint"] == first["fingerprint"]
    # Another finding is another fingerprint; the first keeps its own.
    edit(card, "Oiseau, soldat", "Oiseau Soldat")
    report = gitlab_report(library)
    assert len(report) == 2 and first["fingerprint"] in {i["fingerprint"] for i in report}


def finding(line: int, message: str = "number 1 of the English text missing") -> Finding:
    return Finding(
        "TR103", Severity.ERROR, message, "cards/d/c.fr.md", line, 1, "c", None, "fr", "text"
    )


def test_gitlab_identical_findings_in_a_file_are_told_apart() -> None:
    """The same finding twice in a file (the same rule and message): one fingerprint
    each, by order in the file, so that moving both keeps both."""
    two = reports.as_gitlab(Report([finding(12), finding(9)], 1, 1, 1), root=".")
    assert [i["location"]["lines"]["begin"] for i in two] == [9, 12]
    assert len({i["fingerprint"] for i in two}) == 2
    moved = reports.as_gitlab(Report([finding(15), finding(20)], 1, 1, 1), root=".")
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in two]
    other = reports.as_gitlab(Report([finding(9, "number 2 missing")], 1, 1, 1), root=".")
    assert other[0]["fingerprint"] not in {i["fingerprint"] for i in two}
    assert_valid(GITLAB, two)


def test_gitlab_description_is_one_line_of_visible_text() -> None:
    message = "a\nb \u202eevil\u202c \x1b[31m"
    [issue] = reports.as_gitlab(Report([finding(3, message)], 1, 1, 1), root=".")
    assert not {"\n", "\u202e", "\x1b"} & set(issue["description"]), issue["description"]
    assert issue["description"].startswith("TR103 a b ")
    assert_valid(GITLAB, [issue])


def test_gitlab_severities_cover_ours() -> None:
    """Every severity of ours has GitLab's name (and the docs say which)."""
    doc = (ROOT / "docs" / "lint.md").read_text("utf-8")
    for severity in Severity:
        name = reports._GITLAB_SEVERITIES[severity]
        assert name in ("info", "minor", "major", "critical", "blocker")
        assert f"{severity.value} → `{name}`" in doc, severity


def errors(check: jsonschema.protocols.Validator, document: Any) -> list[str]:
    return [error.message for error in check.iter_errors(document)]


def test_the_schemas_refuse_what_the_services_would_not_read() -> None:
    """The validation is no formality: each schema refuses a report broken as a
    careless writer would break it."""
    log = reports.as_sarif(Report([finding(3)], 1, 1, 1), [])
    assert errors(SARIF, log) == []
    result = log["runs"][0]["results"][0]
    result["level"] = "fatal"
    result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "cartes à jour/c.md"
    del result["message"]
    assert len(errors(SARIF, log)) == 3, errors(SARIF, log)
    [issue] = reports.as_gitlab(Report([finding(3)], 1, 1, 1), root=".")
    assert errors(GITLAB, [issue]) == []
    for key, value in [
        ("severity", "error"),  # ours, not GitLab's
        ("location", {"path": "/work/cards/d/c.fr.md", "lines": {"begin": 3}}),  # absolute
        ("location", {"path": "./cards/d/c.fr.md", "lines": {"begin": 3}}),
        ("location", {"path": "cards/d/c.fr.md"}),  # no line
        ("description", "two\nlines"),
        ("fingerprint", 7),
    ]:
        assert errors(GITLAB, [{**issue, key: value}]), (key, value)
    assert errors(GITLAB, [{k: v for k, v in issue.items() if k != "check_name"}])
    assert errors(GITLAB, issue)  # an issue, not the array of them
