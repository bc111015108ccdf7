"""The French typography rules run over prose nobody here wrote, to measure them.

The seed ``002_edd54b05ca1c92c3.txt`` holds French game-help pages of Board Game Arena
(wiki text).  Each line of prose is read as the text of one French card and the
typography rules (FR2) run on it as they do on cards; reviewers' verdicts on what
they find are data (``glossaries/lint/typography-review.yaml``), so that the false
alarm rate is a measured figure::

    python -m translator.lint.prose /path/to/002_edd54b05ca1c92c3.txt \\
        > docs/lint-typography.md

The lines are not card text: they are taken as printed text as they are (wiki
headings, list marks and bold/italic quotes removed), not parsed as Arcmage markdown,
whose list and heading rules would drop half of them.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..cards.model import Card, CardFile
from ..diagnostics import REGISTRY
from ..glossary.loader import shipped_root
from ..markup.tree import Paragraph, Position, Text
from .context import CardSource, Subject
from .engine import Options, load_resources
from .model import Finding, PlainParagraph, PlainText

#: The rules measured: French typography.
PREFIX = "FR2"
REVIEW_FILE = "typography-review.yaml"
_HEADING = re.compile(r"^=+\s*(.*?)\s*=+$")
_LIST = re.compile(r"^[*#:;]+\s*")


@dataclass(frozen=True)
class ProseFinding:
    line: int
    text: str
    finding: Finding

    @property
    def excerpt(self) -> str:
        """The finding's place in the line, as a short excerpt."""
        column = self.finding.column - 1
        start = max(0, column - 20)
        return self.text[start:column + 20]


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, prose) of each non-empty line, wiki markup removed: headings and
    list marks, bold and italic quotes; of a table, the text of its cells (not the
    table's own markup and style attributes)."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("{|", "|}", "|-")):
            continue
        if line.startswith(("|", "!")):
            # | style="text-align:center;" | cell || cell: the text after the attributes
            cells = re.split(r"\|\||!!", line[1:])
            line = " ".join(cell.split("|")[-1].strip() for cell in cells).strip()
            if not line:
                continue
        prose = _LIST.sub("", _HEADING.sub(r"\1", line))
        prose = prose.replace("'''", "").replace("''", "")
        if prose:
            yield number, prose


def lint_prose(text: str) -> list[ProseFinding]:
    """The FR2 findings on every line of ``text``."""
    options = Options(select=[PREFIX])
    problems: list = []
    resources = load_resources(["fr"], options, problems)
    language = resources.language("fr")
    checks = [REGISTRY.check(rule.code) for rule in REGISTRY.select([PREFIX])]
    found: list[ProseFinding] = []
    for number, line in prose_lines(text):
        french = CardFile("prose.fr.md", "prose", "prose", "fr", {"name": "prose"}, {},
                          line, number)
        # The typography rules look at the French only; its English card is a stand-in.
        english = CardFile("prose.en.md", "prose", "prose", "en", {"name": "prose"}, {},
                           line, number)
        card = Card("prose", "prose", english, {"fr": french})
        subject = Subject(card, french, CardSource(card, english), language, resources)
        node = Text(line, pos=Position(number, 1, 0, len(line)))
        subject.__dict__["plain"] = PlainText(
            [PlainParagraph(0, line, Paragraph((node,)), [(0, node)])], 1)
        for check in checks:
            found.extend(ProseFinding(number, line, f) for f in check(subject))
    found.sort(key=lambda f: (f.line, f.finding.column, f.finding.code))
    return found


def load_review(path: Path | None = None) -> list[dict]:
    """The reviewers' verdicts: a list of {rule, match, verdict, why}; ``match`` is a
    regular expression tried on the finding's line, ``verdict`` real or false alarm."""
    root = shipped_root()
    path = path or (root / "lint" / REVIEW_FILE if root else Path(REVIEW_FILE))
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    verdicts = data.get("verdicts") or []
    for number, item in enumerate(verdicts, start=1):
        if not isinstance(item, dict) or not {"rule", "match", "verdict", "why"} <= set(item) \
                or item["verdict"] not in ("real", "false alarm"):
            raise ValueError(f"{path}: verdict {number}: needs rule, match, why and verdict "
                             "(real or false alarm)")
    return verdicts


def verdict(found: ProseFinding, review: list[dict]) -> dict | None:
    """The first verdict whose rule and pattern match the finding."""
    for item in review:
        if found.finding.code.startswith(item["rule"]) and \
                re.search(item["match"], found.text[max(0, found.finding.column - 30):
                                                    found.finding.column + 30]):
            return item
    return None


def report(text: str, source: str) -> str:
    """The Markdown report of the FR2 rules on ``text``."""
    found = lint_prose(text)
    review = load_review()
    judged = [(f, verdict(f, review)) for f in found]
    counts = Counter(f.finding.code for f in found)
    false = [(f, v) for f, v in judged if v is not None and v["verdict"] == "false alarm"]
    unjudged = [f for f, v in judged if v is None]
    lines = [
        "# French typography rules on prose nobody here wrote", "",
        f"The French typography rules (FR2) run over the French game-help prose of `{source}` "
        "(Board Game Arena pages, seed 002), each line read as the text of a card.  "
        "Generated by `python -m translator.lint.prose SEED > docs/lint-typography.md` "
        "(`translator/lint/prose.py`); the verdicts are "
        "`glossaries/lint/typography-review.yaml`.", "",
        f"{len(found)} findings on {len(list(prose_lines(text)))} lines of prose; "
        f"{len(false)} judged false alarms ({_percent(len(false), len(found))}); "
        f"{len(unjudged)} not judged.", "",
        "| rule | findings | false alarms |", "|---|---:|---:|"]
    for code in sorted(counts):
        rule = REGISTRY.get(code)
        name = rule.name if rule else ""
        alarms = sum(1 for f, _ in false if f.finding.code == code)
        lines.append(f"| {code} {name} | {counts[code]} | {alarms} |")
    lines += ["", "## False alarms", ""]
    if not false:
        lines.append("None.")
    for f, v in false:
        lines.append(f"- line {f.line}, {f.finding.code}: `{f.excerpt}`: {v['why']}")
    lines += ["", "## Verdicts", "",
              "Each pattern below judges every finding it matches (the first that matches "
              "wins).", "", "| rule | pattern | verdict | why |", "|---|---|---|---|"]
    for item in review:
        pattern = item["match"].replace("|", "\\|")
        lines.append(f"| {item['rule']} | `{pattern}` | {item['verdict']} | {item['why']} |")
    lines += ["", "## Every finding", "", "| line | rule | message | excerpt |",
              "|---:|---|---|---|"]
    for f in found:
        excerpt = f.excerpt.replace("|", "\\|")
        lines.append(f"| {f.line} | {f.finding.code} | {f.finding.message} | `{excerpt}` |")
    return "\n".join(lines) + "\n"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "0 %"


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python -m translator.lint.prose SEED_FILE > docs/lint-typography.md")
    path = Path(sys.argv[1])
    sys.stdout.write(report(path.read_text(encoding="utf-8"), path.name))


if __name__ == "__main__":
    main()
