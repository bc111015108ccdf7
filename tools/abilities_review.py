"""The wiki's abilities lists, linted as if they were cards.

The French *Liste des capacités* and the Esperanto *Listo de kapabloj* translate the
English *Abilities list* entry by entry, and the community's lexicons (the French
Lexique, the Esperanto Leksikono) say which words those translations should use.  So
each ability can be read as a small card: its English entry is the source card, its
French and Esperanto entries are the translations, and what the linter finds on them
are inconsistencies of the wiki itself (or false alarms of the linter).

    .venv/bin/python tools/abilities_review.py > docs/lint-abilities.md

:func:`abilities_library` builds that in-memory library: one card per ability of the
English list (``glossaries/en/abilities.yaml``), whose text is the ability's template
in bold italics, a line break and its reminder in italics (``***Salvage x***\\`` then
``*You may pay x resources ...*``).  Two artefacts of reading lists as cards are removed
before linting:

- Parameter letters.  The lists name an ability's parameters in their own way: the
  Esperanto list writes ``Savebla N`` where English writes ``Salvage x`` (N for nombro,
  K for kapablo, S for estaĵospeco).  A real card would write a number or a word
  there, the same in every language, so each translation's parameter letters are
  renamed to the English ones by position (:func:`parameter_map`: ``Sturmanto K N``
  for ``Charge y x`` gives K -> y, N -> x), in its template and its reminder, whole
  words only (:func:`rename_parameters`): the virtual Esperanto card reads
  ``***Savebla x***`` and ``*Vi povas pagi x rimedojn ...*``, and the number rules
  (TR101, TR103, TR104) compare x with x.  Placeholders that are words
  (``<frakcio>``) keep the list's spelling, as a card writes them in its language.
- Missing English text.  An ability whose English entry has no reminder (Peaceful:
  the seeds hold no English text for it) is its template alone in every language, so
  that the line-break rule (TR303) does not compare a reminder with nothing.

:func:`lint_abilities` lints it and traces every finding back to the ability's
entry in ``glossaries/<lang>/abilities.yaml``.  :data:`JUDGMENTS` (read from
``glossaries/lint/abilities-review.yaml``) holds a reviewer's
verdict on each finding (a real inconsistency of the wiki, with the wiki's words, or a
false alarm, and why); :func:`report` writes it all as Markdown.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from translator import yamlfile
from translator.cards.model import (
    SOURCE_LANGUAGE,
    Card,
    CardFile,
    Deck,
    Library,
    source_fingerprint,
)
from translator.diagnostics import REGISTRY
from translator.glossary.loader import load_glossary
from translator.glossary.model import Ability, Glossary
from translator.lint.engine import Options, lint, load_resources
from translator.lint.model import Finding
from translator.problems import Problem
from translator.shipped import glossaries_root

#: The virtual deck holding one card per ability.
DECK = "wiki-abilities"
#: The translated lists linted by default.
LANGUAGES = ("fr", "eo")
#: What is not run: the markup rules (MK) would judge the Markdown this module writes
#: around the lists' words, not the wiki; the style and spelling rules (FR, EO, SP)
#: judge typography, which the wiki does not set out to follow (they are measured on
#: real prose in docs/lint-typography.md).
IGNORED_RULES = ("MK", "FR", "EO", "SP")
#: The command that writes the report.
COMMAND = ".venv/bin/python tools/abilities_review.py > docs/lint-abilities.md"
#: The wiki pages, and the seed documents they were extracted from.
PAGES = {"en": "Abilities list", "fr": "Liste des capacités", "eo": "Listo de kapabloj"}
SEEDS = {"fr": "000_701c6856a19b3056.txt", "eo": "001_8e7b5dc8221fcf00.txt"}
LANGUAGE_TITLES = {"fr": "French", "eo": "Esperanto"}

#: Where each virtual card file comes from: path -> (YAML file, line of the entry).
Origins = dict[str, tuple[str, int]]


# --------------------------------------------------------------------------------------
# The abilities as cards.


def display_path(path: str) -> str:
    """``glossaries/<lang>/abilities.yaml``, wherever the glossaries are installed."""
    file = Path(path)
    return f"glossaries/{file.parent.name}/{file.name}"


def rename_parameters(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each parameter letter of ``mapping`` replaced, whole words only.

    The replacements are simultaneous (``{"K": "y", "N": "x"}`` cannot turn a K into
    an x), and a parameter is a whole word when no letter or digit touches it:
    ``K-Batalkrianto N`` becomes ``x-Batalkrianto y``, and the N of a word like ``Nago``
    stays.
    """
    if not mapping:
        return text
    names = sorted(mapping, key=len, reverse=True)
    pattern = r"(?<!\w)(" + "|".join(re.escape(name) for name in names) + r")(?!\w)"
    return re.sub(pattern, lambda match: mapping[match.group(1)], text)


def parameter_map(ability: Ability, english: Ability) -> dict[str, str]:
    """A translation's parameter letters -> the English ones, by position.

    The Esperanto list writes ``Savebla N`` where English writes ``Salvage x``, and
    ``Sturmanto K N`` for ``Charge y x``: {N: x} and {K: y, N: x}.  Only letters are
    renamed: a placeholder such as ``<frakcio>`` (English ``<faction>``) stands for a
    word that a card writes in its own language.
    """
    return {
        mine: theirs
        for mine, theirs in zip(ability.params, english.params, strict=False)
        if mine != theirs and _is_letter(mine) and _is_letter(theirs)
    }


def _is_letter(parameter: str) -> bool:
    return len(parameter) == 1 and parameter.isalpha()


def card_text(ability: Ability, english: Ability | None = None, reminder: bool = True) -> str:
    """An ability as card text: its template in bold italics, then its reminder.

    With ``english`` (the English entry of a translated ability), the parameter letters
    are the English ones (:func:`parameter_map`).  Without ``reminder``, or when the
    ability has none, the text is the template alone.
    """
    mapping = parameter_map(ability, english) if english is not None else {}
    name = f"***{rename_parameters(ability.template or ability.name, mapping)}***"
    if not (reminder and ability.reminder):
        return name
    return f"{name}\\\n*{rename_parameters(ability.reminder, mapping)}*"


def card_file(ability: Ability, lang: str, fields: dict[str, str], text: str) -> CardFile:
    """A card file as if read from disk: a front matter of quoted values, then ``text``."""
    lines = ["---"]
    keys: dict[str, int] = {}
    for key, value in fields.items():
        keys[key] = len(lines) + 1
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    lines.append("---")
    return CardFile(
        f"{DECK}/{ability.id}.{lang}.md",
        DECK,
        ability.id,
        lang,
        dict(fields),
        keys,
        text,
        len(lines) + 1,
        "\n".join(lines) + "\n",
    )


def _require(problems: list[Problem], what: str) -> None:
    if problems:
        raise ValueError(
            f"{what} do not load: " + "; ".join(f"{p.path}:{p.line}: {p.message}" for p in problems)
        )


def _glossaries(languages: Iterable[str]) -> dict[str, Glossary]:
    found: dict[str, Glossary] = {}
    problems: list[Problem] = []
    for lang in (SOURCE_LANGUAGE, *languages):
        found[lang], errors = load_glossary(lang)
        problems.extend(errors)
    _require(problems, "the glossaries")
    return found


def _build(languages: Sequence[str]) -> tuple[Library, Origins, dict[str, Glossary]]:
    glossaries = _glossaries(languages)
    english = glossaries[SOURCE_LANGUAGE].abilities
    library = Library({DECK: Deck(PAGES[SOURCE_LANGUAGE], DECK, dict.fromkeys(english, 1))})
    origins: Origins = {}
    for ability_id, ability in english.items():
        # An English entry without a reminder (Peaceful: the seeds hold no English text)
        # makes cards of the template alone in every language.
        reminders = bool(ability.reminder)
        source = card_file(ability, SOURCE_LANGUAGE, {"name": ability.name}, card_text(ability))
        card = Card(ability_id, DECK, source)
        origins[source.path] = (display_path(ability.path), ability.line)
        fingerprint = source_fingerprint(source)
        for lang in languages:
            translated = glossaries[lang].abilities.get(ability_id)
            if translated is None:
                continue
            file = card_file(
                translated,
                lang,
                {"name": translated.name, "source": fingerprint},
                card_text(translated, ability, reminders),
            )
            card.translations[lang] = file
            origins[file.path] = (display_path(translated.path), translated.line)
        library.cards[(DECK, ability_id)] = card
    return library, origins, glossaries


def abilities_library(languages: Sequence[str] = LANGUAGES) -> tuple[Library, Origins]:
    """One card per ability of the English list, translated by the lists of ``languages``.

    The card's name is the ability's name, its text the template and reminder; each
    translation holds the source fingerprint of its English card, so the staleness
    rules stay quiet.  Returns the library and, for each virtual card file path, the
    (YAML file, line) of the ability's entry in ``glossaries/<lang>/abilities.yaml``.
    """
    library, origins, _ = _build(languages)
    return library, origins


# --------------------------------------------------------------------------------------
# Judgments: is a finding a real inconsistency of the wiki?


@dataclass(frozen=True)
class Judgment:
    """A reviewer's verdict on a finding.

    ``real``: the finding is a real inconsistency of the wiki, explained by ``why``,
    and ``quote`` is the wiki's own words as the seed document writes them (wiki markup
    included), which the test checks.  Otherwise a false alarm, and ``cause`` (a key of
    :data:`CAUSES`) says whose: this module's reading, the linter's, the glossaries'.
    """

    real: bool
    why: str
    quote: str | None = None
    cause: str | None = None


#: The reviewers' verdicts, as data (``glossaries/lint/abilities-review.yaml``).
REVIEW_FILE = "abilities-review.yaml"


def _review_path() -> Path:
    root = glossaries_root()
    if root is None or not (root / "lint" / REVIEW_FILE).is_file():
        raise FileNotFoundError(f"glossaries/lint/{REVIEW_FILE} is missing")
    return root / "lint" / REVIEW_FILE


def load_judgments(
    path: Path | None = None,
) -> tuple[dict[str, str], dict[tuple[str, ...], Judgment]]:
    """The causes of false alarms (key -> section title, in order) and the verdicts
    by (language, ability id, rule[, quoted term]); a malformed entry raises
    :class:`ValueError` naming the file and the entry."""
    path = path or _review_path()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    causes = {str(k): str(v) for k, v in (data.get("causes") or {}).items()}
    judgments: dict[tuple[str, ...], Judgment] = {}
    for number, item in enumerate(data.get("judgments") or [], start=1):
        where = f"{path}: judgment {number}"
        if not isinstance(item, dict) or not {"lang", "ability", "rule", "verdict", "why"} <= set(
            item
        ):
            raise ValueError(f"{where}: needs lang, ability, rule, verdict and why")
        key = (
            str(item["lang"]),
            str(item["ability"]),
            str(item["rule"]),
            *([str(item["term"])] if item.get("term") else []),
        )
        if key in judgments:
            raise ValueError(f"{where}: {key} is judged twice")
        if item["verdict"] == "real":
            if not item.get("quote"):
                raise ValueError(f"{where}: a real inconsistency quotes the wiki (quote)")
            judgments[key] = Judgment(True, str(item["why"]), str(item["quote"]))
        elif item["verdict"] == "false alarm":
            if item.get("cause") not in causes:
                raise ValueError(f"{where}: cause is one of {', '.join(causes)}")
            judgments[key] = Judgment(False, str(item["why"]), cause=str(item["cause"]))
        else:
            raise ValueError(f"{where}: verdict is 'real' or 'false alarm'")
    return causes, judgments


#: Why a finding is a false alarm, by kind (the False alarms section follows this
#: order), and the verdicts.
CAUSES, JUDGMENTS = load_judgments()


def judgment_key(finding: Finding) -> tuple[str, ...]:
    """The key of :data:`JUDGMENTS` that judges ``finding`` (it may have no judgment)."""
    base = (finding.lang, finding.card, finding.code)
    for key in JUDGMENTS:
        if len(key) == 4 and key[:3] == base and key[3] in finding.message:
            return key
    return base


# --------------------------------------------------------------------------------------
# Linting.


@dataclass(frozen=True)
class WikiFinding:
    """A finding on an ability, traced back to the abilities list it comes from."""

    finding: Finding
    #: The English name of the ability.
    ability: str
    #: ``glossaries/<lang>/abilities.yaml`` and the line of the ability's entry.
    yaml_path: str
    yaml_line: int
    #: The part of the entry the finding is on (``name``, ``template``, ``reminder``,
    #: or ``text``: template and reminder), and its line (the template's for ``text``).
    yaml_key: str
    yaml_key_line: int

    @property
    def key(self) -> tuple[str, ...]:
        return judgment_key(self.finding)

    @property
    def judgment(self) -> Judgment | None:
        return JUDGMENTS.get(self.key)


def _entry_key_lines(path: str) -> dict[str, dict[str, int]]:
    """Ability id -> line of each key of its entry, in an abilities YAML file."""
    problems: list[Problem] = []
    loaded = yamlfile.load(Path(path).read_text("utf-8"), path, 1, problems)
    found: dict[str, dict[str, int]] = {}
    if loaded is None:
        return found
    _, node = loaded
    entries = yamlfile.child(node, "abilities")
    if not isinstance(entries, yaml.SequenceNode):
        return found
    for entry in entries.value:
        if isinstance(entry, yaml.MappingNode):
            keys = {str(k.value): k.start_mark.line + 1 for k, _ in entry.value}
            identifier = next((str(v.value) for k, v in entry.value if k.value == "id"), "")
            found[identifier] = keys
    return found


def _field(file: CardFile, finding: Finding) -> str:
    """Which part of the ability a finding is on: ``name``, ``template``, ``reminder``,
    or ``text`` for a finding on the whole paragraph (template and reminder)."""
    if finding.key != "text":
        return "name"
    if finding.line <= file.body_line:
        return "text" if finding.column == 1 else "template"
    return "reminder"


def lint_abilities(languages: Sequence[str] = LANGUAGES) -> list[WikiFinding]:
    """Lint the abilities lists of ``languages`` against the English list and lexicons.

    Every rule runs but the markup ones.  The findings are sorted by language (in the
    order given), English ability name, rule and position.
    """
    library, origins, glossaries = _build(languages)
    # Nothing is its own authority here: the lists' reminders are what is checked.
    options = Options(
        ignore=list(IGNORED_RULES), languages=list(languages), settings={"list-reminders": False}
    )
    problems: list[Problem] = []
    resources = load_resources(languages, options, problems)
    _require(problems, "the linter's data files")
    key_lines: dict[str, dict[str, dict[str, int]]] = {}
    found = []
    for finding in lint(library, resources, options).findings:
        card = library.cards[(DECK, finding.card)]
        file = card.version(finding.lang)
        assert card.source is not None and file is not None
        yaml_path, yaml_line = origins[finding.path]
        real_path = glossaries[finding.lang].abilities[finding.card].path
        if real_path not in key_lines:
            key_lines[real_path] = _entry_key_lines(real_path)
        entry = key_lines[real_path].get(finding.card, {})
        field = _field(file, finding)
        line = entry.get("template" if field == "text" else field) or entry.get("name") or yaml_line
        found.append(
            WikiFinding(finding, str(card.source.fields["name"]), yaml_path, yaml_line, field, line)
        )
    order = {lang: i for i, lang in enumerate(languages)}
    found.sort(
        key=lambda f: (
            order.get(f.finding.lang, len(order)),
            f.ability.casefold(),
            f.finding.code,
            f.finding.line,
            f.finding.column,
        )
    )
    return found


# --------------------------------------------------------------------------------------
# The report.


def _cell(text: str) -> str:
    """Text for a Markdown table cell: no pipes, tags or emphasis by accident."""
    for char in "\\|*_`":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;").replace("\n", " ")


def _verdict(found: WikiFinding) -> str:
    judgment = found.judgment
    if judgment is None:
        return "to review"
    if not judgment.real:
        return f"no (false alarm): {_cell(judgment.why)}"
    quote = judgment.quote.replace("|", "\\|") if judgment.quote else None
    return f"yes: {_cell(judgment.why)}" + (f"; seed: `{quote}`" if quote else "")


def _where(found: WikiFinding) -> str:
    name = found.yaml_path.removeprefix("glossaries/")
    part = "template and reminder" if found.yaml_key == "text" else found.yaml_key
    return f"[{name}:{found.yaml_key_line}](../{found.yaml_path}#L{found.yaml_key_line}) ({part})"


def _label(found: WikiFinding) -> str:
    """``French Plunder (GL101 'city')``: the quoted term tells a card's GL findings apart."""
    finding = found.finding
    term = re.search(r"'([^']+)'", finding.message) if finding.code.startswith("GL") else None
    what = f"{finding.code} '{term.group(1)}'" if term else finding.code
    return f"{LANGUAGE_TITLES.get(finding.lang, finding.lang)} {found.ability} ({what})"


def _rule_name(code: str) -> str:
    rule = REGISTRY.get(code)
    return f"{code} {rule.name}" if rule is not None else code


def report(findings: Sequence[WikiFinding], languages: Sequence[str] = LANGUAGES) -> str:
    """The Markdown report of ``findings`` (docs/lint-abilities.md)."""
    out = [
        "# The abilities lists, linted",
        "",
        "What the linter finds when the wiki's abilities lists are read as cards: the "
        "French *Liste des capacités* and the Esperanto *Listo de kapabloj* checked "
        "against the English *Abilities list* and the community's lexicons (the French "
        "Lexique, the Esperanto Leksikono), as the lint rules check a translated card "
        "([rules.md](rules.md)).",
        "",
        f"Generated by `{COMMAND}` (`tools/abilities_review.py`); "
        "`tests/lint/test_lint_abilities.py` checks that it is up to date.  Do not edit it: "
        "change the judgments (`glossaries/lint/abilities-review.yaml`) or the data, and "
        "regenerate.",
        "",
        "## How",
        "",
        "- Each ability of the English list (`glossaries/en/abilities.yaml`) is an "
        "English card: its name is the ability's name, its text the template in bold "
        "italics, a line break and the reminder in italics (`***Salvage x***\\` then "
        "`*You may pay x resources ...*`).",
        "- Its French and Esperanto versions are made the same way from "
        "`glossaries/fr/abilities.yaml` (Liste des capacités, seed "
        f"`{SEEDS['fr']}`) and `glossaries/eo/abilities.yaml` (Listo de kapabloj, seed "
        f"`{SEEDS['eo']}`), which hold the lists verbatim.  Each translation holds its "
        "English card's source fingerprint, so that the staleness rules stay quiet.",
        "- A translation's parameter letters are renamed to the English ones by position, in "
        "its template and reminder (whole words only): the Esperanto list writes "
        "`Savebla N` where English writes `Salvage x`, so the Esperanto card reads "
        "`***Savebla x***` and `*Vi povas pagi x rimedojn ...*`, as a real card would "
        "write the same number in every language.",
        "- An ability whose English entry has no reminder (Peaceful: the seeds hold no "
        "English text for it) is its template alone in every language.",
        "- The rules that compare a translation with its English card and the lexicons "
        "run (TR, GL, LN); the markup rules (MK) would judge the Markdown written "
        "around the lists' words rather than the wiki, and the style and spelling rules "
        "(FR, EO, SP) judge typography the wiki pages do not set out to follow.",
        "- *Where* is the line of the ability's name, template or reminder in the YAML "
        "file (the part the finding is on).",
        "- *Wiki inconsistency?* is a reviewer's judgment "
        "(`glossaries/lint/abilities-review.yaml`): **yes**, a real inconsistency of the "
        "wiki, with the wiki's words as the seed "
        "document writes them (the test checks they are there); **no**, a false alarm (see "
        "[False alarms](#false-alarms)); *to review*, a finding nobody has judged yet.",
        "",
    ]
    for lang in languages:
        here = [f for f in findings if f.finding.lang == lang]
        out += [
            f"## {LANGUAGE_TITLES.get(lang, lang)}: {PAGES.get(lang, lang)}",
            "",
            f"{len(here)} finding{'s' if len(here) != 1 else ''}.",
            "",
        ]
        if here:
            out += [
                "| ability | rule | finding | where | wiki inconsistency? |",
                "|---|---|---|---|---|",
            ]
            out += [
                f"| {_cell(f.ability)} | {f.finding.code} | {_cell(f.finding.message)} | "
                f"{_where(f)} | {_verdict(f)} |"
                for f in here
            ]
            out.append("")
    out += _summary(findings, languages)
    out += _false_alarms(findings)
    return "\n".join(out).rstrip("\n") + "\n"


def _summary(findings: Sequence[WikiFinding], languages: Sequence[str]) -> list[str]:
    titles = [LANGUAGE_TITLES.get(lang, lang) for lang in languages]
    header = ["| | " + " | ".join(titles) + " | total |", "|---|" + "---:|" * (len(languages) + 1)]

    def row(label: str, chosen: list[WikiFinding]) -> str:
        counts = Counter(f.finding.lang for f in chosen)
        cells = " | ".join(str(counts[lang]) for lang in languages)
        return f"| {label} | {cells} | {len(chosen)} |"

    out = ["## Summary", "", "Findings per rule:", "", *header]
    for code in sorted({f.finding.code for f in findings}):
        out.append(row(_rule_name(code), [f for f in findings if f.finding.code == code]))
    out.append(row("**total**", list(findings)))
    real_ = [f for f in findings if f.judgment is not None and f.judgment.real]
    false = [f for f in findings if f.judgment is not None and not f.judgment.real]
    unjudged = [f for f in findings if f.judgment is None]
    entries = Counter(lang for lang, _ in {(f.finding.lang, f.finding.card) for f in real_})
    out += [
        "",
        "Judgments:",
        "",
        *header,
        row("real inconsistencies of the wiki", real_),
        row("false alarms", false),
        row("to review", unjudged),
        "",
    ]
    per_language = ", ".join(
        f"{entries[lang]} {LANGUAGE_TITLES.get(lang, lang)}" for lang in languages
    )
    out += [
        f"The real inconsistencies are in {sum(entries.values())} entries of the lists "
        f"({per_language}); several findings can tell the same one (an entry left in "
        "English gives one per rule that sees English).",
        "",
    ]
    return out


def _false_alarms(findings: Sequence[WikiFinding]) -> list[str]:
    out = ["## False alarms", ""]
    alarms = [f for f in findings if f.judgment is not None and not f.judgment.real]
    if not alarms:
        return [*out, "None: every finding is a real inconsistency of the wiki.", ""]
    out += ["Findings that are not inconsistencies of the wiki, by cause and reason.", ""]
    for cause, title in CAUSES.items():
        by_reason: dict[str, list[WikiFinding]] = {}
        for found in alarms:
            judgment = found.judgment
            if judgment is not None and judgment.cause == cause:
                by_reason.setdefault(judgment.why, []).append(found)
        if not by_reason:
            continue
        count = sum(len(group) for group in by_reason.values())
        out += [f"### {title} ({count})", ""]
        for why, group in by_reason.items():
            out.append(f"- {', '.join(_cell(_label(f)) for f in group)}: {_cell(why)}.")
        out.append("")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report (:data:`COMMAND`): it takes no options, and ``--help`` says so
    rather than printing the report."""
    argparse.ArgumentParser(
        prog="tools/abilities_review.py",
        description="The wiki's abilities lists linted as cards: a Markdown report "
        "(docs/lint-abilities.md), written to standard output.",
    ).parse_args(argv)
    text = report(lint_abilities())
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
