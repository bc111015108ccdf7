"""Lint rules run over prose nobody here wrote, to measure their false alarms.

The seed documents (``../shared/seeds``) hold real French and Esperanto prose: the
Arcmage wiki's French pages (seed 000: style guide, abilities list, rules), its
Esperanto pages (seed 001, an Atom feed of the wiki text), Board Game Arena's French
help pages (002) and part of another card game's French rules glossary (004).  Each
line of a page's prose is read as the card text of one card in the page's language
and the selected rules run on it as they do on cards; reviewers' verdicts on what they
find are data, so that precision is a measured figure::

    .venv/bin/python tools/prose_review.py SEED... > docs/lint-typography.md
    .venv/bin/python tools/prose_review.py --lang eo --rules EO2 SEED_001
    .venv/bin/python tools/prose_review.py --rules SP101 \\
        --review glossaries/lint/spelling-review.yaml \\
        --title "Spelling on prose nobody here wrote" --output docs/lint-spelling.md \\
        SEED... > docs/lint-spelling.md

(``--output`` only names the file in the report's own command line; the report goes to
standard output.  From Python: :func:`seed_prose`, :func:`seeds_prose`,
:func:`lint_prose_lines`, :func:`report`.)

What is read (:func:`seed_prose`):

- *Pages and revisions.*  A seed holds several revisions of each page, newest first;
  only the newest revision of each page is read (:func:`pages`), so that a sentence
  kept through ten revisions is one finding, not ten.  The revision headers (page
  title, timestamp, author and edit summary) are the dump's, not prose.  The language
  of each page is ``glossaries/lint/prose-pages.yaml``; pages in another language (the
  English rules in a French seed) are skipped.
- *Prose only* (:func:`prose_text`).  Wiki headings, list marks and bold/italic quotes
  are removed, and so is what a reader never sees as text: HTML tags (the entities are
  read as the characters they print: ``&nbsp;`` is a no-break space), ``<nowiki>``
  tags, templates ``{{…}}``, file, image and category links (``[[File:…]]``,
  ``[[Fichier:…]]``, ``[[Category:…]]``), URLs (an external link keeps its label).  A
  wiki link keeps its visible text (``[[cible|texte]]`` is *texte*).  Emoticons
  (``:-)``, ``;)``) and a punctuation sign mentioned in parentheses (« les deux-points
  (:) ») are not punctuation of the sentence and are removed.  A removal never leaves
  two spaces where the text had one (``mot '''gras''' mot``), while a double space
  the text itself holds stays, for FR205 to report.  A table line keeps the text of
  its cells, not its attributes.

The lines are taken as printed text as they are, not parsed as Arcmage markdown, whose
list and heading rules would drop half of them.

The review file (``--review``; default ``glossaries/lint/typography-review.yaml``)
holds one verdict per finding, written after reading the finding in its context::

    sample: {seed: 2026, size: 40}      # optional: see below
    verdicts:
    - seed: 002_edd54b05ca1c92c3.txt    # the seed file
      line: 34                          # its line (seed files never change)
      rule: FR201                       # the finding's rule code
      at: "poser;"                      # characters of the line at the finding
      verdict: real                     # or: false alarm
      why: "no space before ; : French wants a no-break space (« poser ; »)"

A verdict judges the finding of its seed, line and rule whose column ``at`` covers or
touches (an occurrence of ``at`` in the prose line from at most one character after
the column to at most one before); each verdict must judge exactly one finding, so
that a stale verdict (the finding is gone) or an ambiguous one fails the test.  When a
rule has more findings than ``sample.size``, only a random sample of that size
(``random.Random(sample.seed)`` over the rule's findings in seed, line, column order)
needs verdicts: the report gives the precision of that sample with its size and
counts the others "not judged".  Without ``sample``, every finding needs a verdict.
"""

from __future__ import annotations

import argparse
import functools
import html
import random
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from translator.cards.model import Card, CardFile
from translator.diagnostics import REGISTRY
from translator.glossary.matcher import words
from translator.lint.context import CardSource, Subject
from translator.lint.engine import Options, load_resources
from translator.lint.model import Finding, PlainParagraph, PlainText
from translator.lint.rule import TRANSLATION
from translator.lint.spelling import dictionary
from translator.markup.tree import Paragraph, Position, Text
from translator.shipped import glossaries_root

#: The rules measured by default, by language: typography.
DEFAULT_RULES = {"fr": ["FR2"], "eo": ["EO2"]}
LANGUAGES = ("fr", "eo")
LANGUAGE_TITLES = {"fr": "French", "eo": "Esperanto"}
#: The rule families that may fire on a language (a zero row in the report for those
#: of the selection that found nothing).
_PREFIXES = {"fr": ("FR", "SP", "TR", "GL", "MK"), "eo": ("EO", "SP", "TR", "GL", "MK")}
REVIEW_FILE = "typography-review.yaml"
PAGES_FILE = "prose-pages.yaml"
#: The seeds of the typography report, and where the command line finds them.
SEEDS = (
    "000_701c6856a19b3056.txt",
    "001_8e7b5dc8221fcf00.txt",
    "002_edd54b05ca1c92c3.txt",
    "004_5caf7b532bdcbcc8.txt",
)
SEED_DIR = "../shared/seeds"

_HEADING = re.compile(r"^(=+)\s*(.*?)\s*\1$")
_LIST = re.compile(r"^[*#:;]+\s*")
_TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
#: One Atom entry of seed 001: link, title, timestamp, summary, the page's wiki text.
_ENTRY = re.compile(
    r"https?://[^\s<>]*?index\.php\?title=[^\s&<>]*&diff=\d+"
    r"(?P<title>[^\n<>]+?)(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"
    r"<p>.*?</p>\s*<hr />\s*<div>",
    re.S,
)
#: What a removal leaves: collapsed with its spaces by :func:`_close_gaps`.
_GAP = "\x00"
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_BREAK = re.compile(r"<br\s*/?>", re.I)
_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_LINK = re.compile(r"\[\[([^\[\]]*)\]\]")
_HIDDEN_LINK = re.compile(
    r"^:?\s*(file|fichier|image|category|catégorie|media|"
    r"dosiero|kategorio)\s*:",
    re.I,
)
#: A URL, with the brackets it holds when they pair up (…/ARC_Format:_Amin_Duna_(2_vs_1)).
_URL = r"(?:https?|ftp)://(?:\([^\s()\[\]<>|]*\)|[^\s()\[\]<>|])+"
_EXTERNAL = re.compile(r"(?:[ \t]*\[" + _URL + r"\]|\[" + _URL + r"\s+([^\]]*)\])")
#: What is removed from inside a sentence takes the space before it along, so that
#: what followed it joins the sentence (« voir https://…. » -> « voir. »); a URL takes
#: the space after it too when punctuation follows (« https://… . »: the space kept the
#: full stop out of the URL).
_BARE_URL = re.compile(r"[ \t]*" + _URL + r"(?<![.,;:!?])(?:[ \t]+(?=[.,;:!?]))?")
#: Emoticons, standing alone (a space, a bracket or the line's end on each side).
_EMOTICON = re.compile(r"[ \t]*(?<![^\s(])[:;]-?[()DPp](?=[\s)]|$)")
#: A punctuation sign mentioned in parentheses: « les deux-points (:) ».
_MENTIONED = re.compile(r"[ \t]*\(\s*[:;!?.,]\s*\)")
_QUOTES = re.compile(r"'{2,5}")
#: An Arcmage symbol code or drop cap written in the text (``:m:``, ``:m0-m9:``,
#: ``:C:apital``): card markup the style guide describes, not punctuation.
_SYMBOL = re.compile(r"(?<![\w:]):[A-Za-z0-9](?:[A-Za-z0-9 -]{0,20}[A-Za-z0-9])?:")
#: A line is an English sentence (the roadmap of the French style guide, the English
#: abilities quoted in the French list), not the language measured, when more than
#: ENGLISH_SHARE of its words, and at least ENGLISH_WORDS, are not in the language's
#: Hunspell dictionary, and one of them is a frequent English word
#: (glossaries/lint/en.yaml).
ENGLISH_WORDS = 3
ENGLISH_SHARE = 0.5


@dataclass(frozen=True)
class Page:
    """One revision of a wiki page: its title, timestamp and (line, raw text) lines."""

    title: str
    timestamp: str
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ProseFinding:
    line: int
    text: str
    finding: Finding
    seed: str = ""
    lang: str = "fr"

    @property
    def excerpt(self) -> str:
        """The finding's place in the line, as a short excerpt."""
        column = self.finding.column - 1
        start = max(0, column - 20)
        return self.text[start : column + 20]

    @property
    def key(self) -> tuple[str, int, int, str]:
        return (self.seed, self.line, self.finding.column, self.finding.code)


# --------------------------------------------------------------------------------------
# Reading the seeds.


def pages(text: str) -> list[Page]:
    """Every revision of every page of a seed, in the seed's order (newest first).

    Three layouts: the Atom feed of seed 001 (entries of HTML wiki text), the plain
    dumps of seeds 000 and 002 (a title, a timestamp and an author line above each
    revision's text), and a plain document (seed 004: one page, titled by its first
    line)."""
    if "<feed" in text[:2000] or "feedformat=atom" in text[:2000]:
        return _atom_pages(text)
    lines = text.splitlines()
    starts = [
        i - 2
        for i, line in enumerate(lines)
        if _TIMESTAMP.match(line.strip()) and i >= 2 and lines[i - 1].strip() == ""
    ]
    if not starts:
        title = lines[0].strip() if lines else ""
        return [Page(title, "", [(n, raw) for n, raw in enumerate(lines[1:], start=2)])]
    found = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        # title, blank, timestamp, blank, author: summary; the text follows.
        body = [(n + 1, lines[n]) for n in range(start + 5, end)]
        found.append(Page(lines[start].strip(), lines[start + 2].strip(), body))
    return found


def _atom_pages(text: str) -> list[Page]:
    found = []
    entries = list(_ENTRY.finditer(text))
    for index, entry in enumerate(entries):
        # The text runs to the entry's last </div> (it holds <div>s of its own), before
        # the author's name and the next entry.
        end = entries[index + 1].start() if index + 1 < len(entries) else len(text)
        end = max(entry.end(), text.rfind("</div>", entry.end(), end))
        first = text.count("\n", 0, entry.end()) + 1
        body = text[entry.end() : end].split("\n")
        found.append(
            Page(
                entry.group("title").strip(),
                entry.group("time"),
                list(enumerate(body, start=first)),
            )
        )
    return found


def newest(revisions: Iterable[Page]) -> list[Page]:
    """The newest revision of each page (the latest timestamp; the first on a tie)."""
    best: dict[str, Page] = {}
    for page in revisions:
        if page.title not in best or page.timestamp > best[page.title].timestamp:
            best[page.title] = page
    return list(best.values())


@functools.lru_cache(maxsize=4)
def _pages_data(path: Path | None) -> dict[str, Any]:
    """``glossaries/lint/prose-pages.yaml`` (or ``path``), read once."""
    root = glossaries_root()
    path = path or (root / "lint" / PAGES_FILE if root else Path(PAGES_FILE))
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def page_languages(path: Path | None = None) -> dict[str, str]:
    """Page title -> language (``pages`` of ``prose-pages.yaml``)."""
    data = _pages_data(path)
    return {str(title): str(lang) for title, lang in (data.get("pages") or {}).items()}


def page_names(path: Path | None = None) -> list[str]:
    """The proper nouns of the pages (``names`` of ``prose-pages.yaml``): the wiki's
    contributors, the community's tools.  They are given to the linter as a library
    gives its own names (``allow-english`` in translator.toml), no more."""
    return [str(name) for name in _pages_data(path).get("names") or []]


def seed_prose(path: Path, lang: str) -> list[tuple[int, str]]:
    """(line in the seed file, prose) of the newest revision of each page of ``path``
    written in ``lang``."""
    return [(line, prose) for _, line, prose in seeds_prose([path], lang)]


def seeds_prose(paths: Sequence[Path], lang: str) -> list[tuple[str, int, str]]:
    """(seed file name, line, prose) of the newest revision of each page written in
    ``lang``, over all the seeds ``paths``: a page found in two seeds (seed 001 holds an
    older revision of the French style guide of seed 000) is read once, in the seed
    holding its newest revision."""
    languages = page_languages()
    best: dict[str, tuple[Page, str]] = {}
    for path in paths:
        for page in newest(pages(path.read_text(encoding="utf-8"))):
            if languages.get(page.title) != lang:
                continue
            if page.title not in best or page.timestamp > best[page.title][0].timestamp:
                best[page.title] = (page, path.name)
    found = [
        (seed, line, prose) for page, seed in best.values() for line, prose in _prose_of(page.lines)
    ]
    found.sort()
    return found


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, prose) of each line of ``text`` that holds prose (see
    :func:`prose_text`)."""
    yield from _prose_of(enumerate(text.splitlines(), start=1))


def _prose_of(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    for number, raw in lines:
        prose = prose_text(raw)
        if prose:
            yield number, prose


def prose_text(raw: str) -> str:
    """The prose of one line of wiki text ('' when it holds none): what a reader sees
    as text, without what is not prose (see the module's documentation)."""
    line = _TAG.sub(_GAP, _BREAK.sub(" ", raw)).strip(" \t" + _GAP)
    if not line or line.startswith(("{|", "|}", "|-", "#REDIRECT", "#redirect")):
        return ""
    if line.startswith(("|", "!")):
        # | style="text-align:center;" | cell || cell: the text after the attributes
        cells = re.split(r"\|\||!!", line[1:])
        line = " ".join(cell.split("|")[-1].strip() for cell in cells).strip()
    heading = _HEADING.match(line)
    if heading:
        line = heading.group(2)
    line = _LIST.sub("", _SYMBOL.sub(_symbol, line).lstrip(_GAP + " "))
    if _LINK.fullmatch(line.strip()):
        return ""  # a line that is one link (* [[Lista_de_habilidades|Español]]): navigation
    line = _remove_markup(line)
    line = _MENTIONED.sub(_GAP, line)
    line = _EMOTICON.sub(_GAP, line)
    line = _QUOTES.sub(lambda m: "'" + _GAP if len(m.group()) == 4 else _GAP, line)
    return html.unescape(_close_gaps(line)).strip()


def _symbol(match: re.Match[str]) -> str:
    """A drop cap (``:C:apital``) prints its letter; a symbol code, no text."""
    code = match.group()[1:-1]
    following = match.string[match.end() : match.end() + 1]
    return code if len(code) == 1 and code.isupper() and following.isalpha() else _GAP


def _remove_markup(line: str) -> str:
    while True:
        changed = _TEMPLATE.sub(_GAP, line)
        changed = _LINK.sub(_link_text, changed)
        if changed == line:
            break
        line = changed
    line = _EXTERNAL.sub(lambda m: m.group(1) or _GAP, line)
    return _BARE_URL.sub(_GAP, line)


def _link_text(match: re.Match[str]) -> str:
    inside = match.group(1)
    if _HIDDEN_LINK.match(inside):
        return _GAP
    target, _, label = inside.partition("|")
    return label if label else target.lstrip(":")


def _close_gaps(line: str) -> str:
    """Remove the gaps, so that no removal makes two spaces of one: a run of gaps and
    spaces holding a single space on either side is one space; a double space the text
    had stays."""

    def close(match: re.Match[str]) -> str:
        run = match.group()
        if "  " in run:  # the text's own double space
            return re.sub(_GAP, "", run)
        return " " if " " in run else ""

    return re.sub(r"[ " + _GAP + r"]*" + _GAP + r"[ " + _GAP + r"]*", close, line)


# --------------------------------------------------------------------------------------
# Linting.


def lint_prose_lines(
    lines: Iterable[tuple[int, str]],
    lang: str,
    select: Sequence[str],
    seed: str = "",
    skipped: list[tuple[int, str]] | None = None,
) -> list[ProseFinding]:
    """The findings of the rules ``select`` (codes or prefixes) on each line, read as
    the card text of one card in ``lang``.  A line in English (:func:`english_sentence`)
    is not read, but added to ``skipped`` when given."""
    options = Options(select=list(select), allow_english=page_names())
    problems: list = []
    resources = load_resources([lang], options, problems)
    language = resources.language(lang)
    # The engine's language gate: a rule declared for other languages does not read this one.
    checks = [
        check
        for rule, check in REGISTRY.checks(TRANSLATION, REGISTRY.select(list(select)))
        if rule.applies_to(lang)
    ]
    found: list[ProseFinding] = []
    hunspell = dictionary(lang)
    known = (
        None
        if hunspell is None
        else (lambda word: hunspell.lookup(word) or hunspell.lookup(word.lower()))
    )
    for number, line in lines:
        if english_sentence(line, resources.english_words, known):
            if skipped is not None:
                skipped.append((number, line))
            continue
        version = CardFile(
            f"prose.{lang}.md", "prose", "prose", lang, {"name": "prose"}, {}, line, number
        )
        # The rules measured look at the translation only; its English card is a stand-in.
        english = CardFile(
            "prose.en.md", "prose", "prose", "en", {"name": "prose"}, {}, line, number
        )
        card = Card("prose", "prose", english, {lang: version})
        subject = Subject(card, version, CardSource(card, english), language, resources)
        node = Text(line, pos=Position(number, 1, 0, len(line)))
        subject.__dict__["plain"] = PlainText(
            [PlainParagraph(0, line, Paragraph((node,)), [(0, node)])], 1
        )
        for check in checks:
            found.extend(ProseFinding(number, line, f, seed, lang) for f in check(subject))
    found.sort(key=lambda f: (f.line, f.finding.column, f.finding.code))
    return found


def english_sentence(
    line: str, english: frozenset[str] | set[str], known: Callable[[str], bool] | None = None
) -> bool:
    """Whether ``line`` is English, not the language measured (see ENGLISH_SHARE):
    « Translate the rules (wiki) -> done : » is; a lexicon line (« army : armée »,
    « deal damage : infliger des dégâts ») is not.  Without a dictionary (``known``),
    a word is unknown when it is a frequent English word."""
    tokens = [
        (norm, line[start:end])
        for norm, start, end in words(line)
        if norm.isalpha() and len(norm) > 1
    ]
    unknown = [
        norm for norm, word in tokens if (norm in english if known is None else not known(word))
    ]
    return (
        len(unknown) >= ENGLISH_WORDS
        and len(unknown) > ENGLISH_SHARE * len(tokens)
        and any(norm in english for norm in unknown)
    )


def lint_prose(
    text: str, lang: str = "fr", select: Sequence[str] | None = None
) -> list[ProseFinding]:
    """The findings of ``select`` (default: the language's typography rules) on every
    prose line of ``text``."""
    return lint_prose_lines(prose_lines(text), lang, select or DEFAULT_RULES[lang])


def lint_seeds(
    paths: Sequence[Path], lang: str, select: Sequence[str]
) -> tuple[list[ProseFinding], int, int]:
    """The findings on the ``lang`` prose of the seeds, the number of lines read, and
    how many of them were English (not linted)."""
    lines = seeds_prose(paths, lang)
    found: list[ProseFinding] = []
    english: list[tuple[int, str]] = []
    for seed in sorted({seed for seed, _, _ in lines}):
        found.extend(
            lint_prose_lines(
                [(n, text) for s, n, text in lines if s == seed], lang, select, seed, english
            )
        )
    return found, len(lines) - len(english), len(english)


# --------------------------------------------------------------------------------------
# Verdicts.


@dataclass
class Review:
    """The verdicts of a review file, and its sampling."""

    verdicts: list[dict]
    sample_seed: int | None = None
    sample_size: int | None = None
    path: str = ""
    #: False alarms judged on an earlier run that the linter no longer raises, each
    #: with what fixed it: the record of the measurement (``fixed`` in the file).
    fixed: list[dict] | None = None


def load_review(path: Path | None = None) -> Review:
    """The reviewers' verdicts (the format is in the module's documentation)."""
    root = glossaries_root()
    path = path or (root / "lint" / REVIEW_FILE if root else Path(REVIEW_FILE))
    data = (yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}) or {}
    verdicts = data.get("verdicts") or []
    for number, item in enumerate(verdicts, start=1):
        if (
            not isinstance(item, dict)
            or not {"seed", "line", "rule", "at", "verdict", "why"} <= set(item)
            or item["verdict"] not in ("real", "false alarm")
            or not item["at"]
        ):
            raise ValueError(
                f"{path}: verdict {number}: needs seed, line, rule, at, why and "
                "verdict (real or false alarm)"
            )
    sample = data.get("sample") or {}
    return Review(
        verdicts, sample.get("seed"), sample.get("size"), str(path), list(data.get("fixed") or [])
    )


def touches(found: ProseFinding, at: str) -> bool:
    """Whether ``at`` occurs in the finding's line where it covers or touches the
    finding's column."""
    column = found.finding.column - 1
    start = found.text.find(at)
    while start >= 0:
        if start <= column + 1 and start + len(at) >= column - 1:
            return True
        start = found.text.find(at, start + 1)
    return False


def judge(
    found: Sequence[ProseFinding], review: Review
) -> tuple[dict[tuple, dict], list[dict], list[dict]]:
    """finding key -> its verdict; the verdicts that judge no finding; those that judge
    more than one."""
    by_place: dict[tuple[str, int, str], list[ProseFinding]] = {}
    for f in found:
        by_place.setdefault((f.seed, f.line, f.finding.code), []).append(f)
    judged: dict[tuple, dict] = {}
    unused: list[dict] = []
    ambiguous: list[dict] = []
    for item in review.verdicts:
        hits = [
            f
            for f in by_place.get((item["seed"], item["line"], item["rule"]), [])
            if touches(f, item["at"])
        ]
        if not hits:
            unused.append(item)
        elif len(hits) > 1:
            ambiguous.append(item)
        else:
            judged[hits[0].key] = item
    return judged, unused, ambiguous


def sample(found: Sequence[ProseFinding], review: Review) -> list[ProseFinding]:
    """The findings that need a verdict: all of them, or per rule a random sample of
    ``review.sample_size`` when the rule has more."""
    if not review.sample_size:
        return list(found)
    chosen: list[ProseFinding] = []
    by_rule: dict[str, list[ProseFinding]] = {}
    for f in sorted(found, key=lambda f: f.key):
        by_rule.setdefault(f.finding.code, []).append(f)
    for code in sorted(by_rule):
        items = by_rule[code]
        if len(items) <= review.sample_size:
            chosen.extend(items)
        else:
            chosen.extend(
                random.Random(f"{review.sample_seed}:{code}").sample(items, review.sample_size)
            )
    return sorted(chosen, key=lambda f: f.key)


# --------------------------------------------------------------------------------------
# The report.


def report(
    paths: Sequence[Path],
    languages: Sequence[str] = LANGUAGES,
    select: Sequence[str] | None = None,
    review_path: Path | None = None,
    title: str | None = None,
    output: str = "docs/lint-typography.md",
) -> str:
    """The Markdown report of the rules on the seeds' prose, a section per language."""
    review = load_review(review_path)
    command = _command(paths, languages, select, review_path, title, output)
    sections = []
    everything: list[ProseFinding] = []
    for lang in languages:
        rules = list(select) if select else DEFAULT_RULES[lang]
        found, count, english = lint_seeds(paths, lang, rules)
        if not count:
            continue
        everything += found
        sections.append((lang, rules, found, count, english))
    judged, unused, ambiguous = judge(everything, review)
    needed = {f.key for f in sample(everything, review)}
    rule_names = ", ".join(sorted({r for _, rules, _, _, _ in sections for r in rules}))
    lines = [
        f"# {title or 'Typography rules on prose nobody here wrote'}",
        "",
        f"The rules {rule_names} run over the prose of the seed documents "
        f"({', '.join(f'`{p.name}`' for p in paths)}), each line read as the text "
        "of a card in its page's language.  Only the newest revision of each page "
        "is read, and only what is prose: wiki markup, URLs, file and category "
        "links, HTML, templates and emoticons are removed "
        "(`tools/prose_review.py`).  Generated by",
        "",
        f"    {command}",
        "",
        f"The verdicts are `{_display(review.path)}`: one per finding, with the "
        "reason written for that finding after reading it in its context.",
    ]
    if review.sample_size:
        lines[-1] += (
            f"  A rule with more than {review.sample_size} findings is "
            f"judged on a random sample of {review.sample_size} of them "
            f'(`random.Random("{review.sample_seed}:<rule>")`), so its '
            "precision is that of the sample, and its other findings are "
            "not judged."
        )
    lines += [
        "",
        "A precision of 100 % on n judged findings means no false alarm among those "
        "n: the rule's false alarm rate is then below 3/n with 95 % confidence (5 % "
        "for n = 60), not zero.  Lines whose words are mostly not in the language's "
        "dictionary, one of them a frequent English word, are English (the roadmap "
        "of the French style guide, English abilities quoted in the French list) and "
        "are not read; a short English note inside a French line is read, and is "
        "judged as what it is.",
        "",
    ]
    for lang, rules, found, count, english in sections:
        lines += _section(lang, rules, found, count, english, judged, needed)
    if review.fixed:
        lines += [
            "## False alarms fixed",
            "",
            "Judged false alarms of an earlier run that the linter no longer raises, "
            "and what fixed each.",
            "",
            "| seed:line | rule | word | why it was a false alarm | fixed by |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {str(v.get('seed', ''))[:3]}:{v.get('line')} | {v.get('rule')} | "
            f"`{v.get('at')}` | {v.get('why')} | {v.get('fixed')} |"
            for v in review.fixed
        ]
        lines.append("")
    if unused or ambiguous:
        lines += ["## Stale verdicts", ""]
        lines += [
            f"- {v['seed']}:{v['line']} {v['rule']} `{v['at']}`: judges "
            f"{'no finding' if v in unused else 'several findings'}"
            for v in unused + ambiguous
        ]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _section(
    lang: str,
    rules: Sequence[str],
    found: Sequence[ProseFinding],
    count: int,
    english: int,
    judged: dict[tuple, dict],
    needed: set[tuple],
) -> list[str]:
    """A language's part of the report: per rule, the findings, those the sample drew,
    their verdicts and the precision of the sample; every false alarm; every finding."""
    title = LANGUAGE_TITLES.get(lang, lang)
    seeds = sorted({f.seed for f in found})

    def tally(items: Iterable[ProseFinding]) -> tuple[int, int, int]:
        drawn = [f for f in items if f.key in needed]
        real = sum(1 for f in drawn if f.key in judged and judged[f.key]["verdict"] == "real")
        false = sum(1 for f in drawn if f.key in judged and judged[f.key]["verdict"] != "real")
        return len(drawn), real, false

    drawn, real, false = tally(found)
    outside = [f for f in found if f.key in judged and f.key not in needed]
    lines = [
        f"## {title} ({', '.join(rules)})",
        "",
        f"{len(found)} findings on {count} lines of {title} prose (seeds "
        f"{', '.join(s[:3] for s in seeds) or 'none with findings'}; {english} English "
        f"lines of these pages not read).  {drawn} to judge (the sample), "
        f"{real + false} judged: {real} real, {false} false alarms, precision "
        f"{_precision(real, false)}; {len(found) - drawn} outside the sample"
        + (
            f", {len(outside)} of them judged all the same (listed below, not counted "
            "in the precision)"
            if outside
            else ""
        )
        + ".",
        "",
        "| rule | findings | sample | judged | real | false alarms | precision |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    codes = {f.finding.code for f in found} | {
        rule.code
        for rule in REGISTRY.select(list(rules))
        if REGISTRY.target(rule.code) == TRANSLATION and rule.code.startswith(_PREFIXES[lang])
    }
    for code in sorted(codes):
        mine = [f for f in found if f.finding.code == code]
        n, ok, bad = tally(mine)
        rule = REGISTRY.get(code)
        name = rule.name if rule else ""
        lines.append(
            f"| {code} {name} | {len(mine)} | {n} | {ok + bad} | {ok} | {bad} | "
            f"{_precision(ok, bad)} |"
        )
    alarms = [f for f in found if f.key in judged and judged[f.key]["verdict"] != "real"]
    lines += ["", f"### False alarms ({title})", ""]
    if not alarms:
        lines.append("None among the judged findings.")
    for f in alarms:
        lines.append(
            f"- {f.seed[:3]}:{f.line} {f.finding.code} `{_code(f.excerpt)}`: {judged[f.key]['why']}"
        )
    missing = [f for f in found if f.key in needed and f.key not in judged]
    if missing:
        lines += ["", "### To judge", ""]
        lines += [f"- {f.seed}:{f.line} {f.finding.code} `{_code(f.excerpt)}`" for f in missing]
    lines += [
        "",
        f"### Every finding ({title})",
        "",
        "| seed:line | rule | excerpt | verdict | why |",
        "|---|---|---|---|---|",
    ]
    for f in found:
        item = judged.get(f.key)
        verdict = item["verdict"] if item else "not judged"
        why = item["why"].replace("|", "\\|") if item else ""
        lines.append(
            f"| {f.seed[:3]}:{f.line} | {f.finding.code} | "
            f"`{_code(f.excerpt).replace('|', chr(92) + '|')}` | {verdict} | {why} |"
        )
    lines.append("")
    return lines


def _precision(real: int, false: int) -> str:
    return f"{_percent(real, real + false)} (n = {real + false})" if real + false else "-"


def _command(
    paths: Sequence[Path],
    languages: Sequence[str],
    select: Sequence[str] | None,
    review_path: Path | None,
    title: str | None,
    output: str,
) -> str:
    """The command line that writes the report (the seeds as ``../shared/seeds/NAME``,
    so that the report does not depend on where they are)."""
    words = [".venv/bin/python tools/prose_review.py"]
    if tuple(languages) != LANGUAGES:
        words += [f"--lang {lang}" for lang in languages]
    if select:
        words.append("--rules " + " ".join(select))
    if review_path:
        words.append(f"--review {_display(str(review_path))}")
    if title:
        words.append(f"--title {title!r}")
    words += [f"{SEED_DIR}/{path.name}" for path in paths]
    return " ".join(words) + f" > {output}"


def _code(text: str) -> str:
    """``text`` inside a Markdown code span (no backquote closes it early)."""
    return text.replace("`", "'").strip() or " "


def _display(path: str) -> str:
    file = Path(path)
    return f"glossaries/{file.parent.name}/{file.name}" if file.parent.name == "lint" else path


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="tools/prose_review.py",
        description="Lint rules on the prose of the seed documents: a Markdown report.",
    )
    parser.add_argument("seeds", nargs="+", type=Path, metavar="SEED")
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        action="append",
        help="the pages' language (default: French and Esperanto)",
    )
    parser.add_argument(
        "--rules",
        nargs="+",
        metavar="PREFIX",
        help="rule codes or prefixes (default: FR2 for French, EO2 for Esperanto)",
    )
    parser.add_argument(
        "--review", type=Path, help=f"the verdicts (default: glossaries/lint/{REVIEW_FILE})"
    )
    parser.add_argument("--title", help="the report's title")
    parser.add_argument(
        "--output",
        default="docs/lint-typography.md",
        help="the file the report is meant for (named in its command line; "
        "the report is written to standard output)",
    )
    args = parser.parse_args(argv)
    sys.stdout.write(
        report(args.seeds, args.lang or LANGUAGES, args.rules, args.review, args.title, args.output)
    )


if __name__ == "__main__":
    main()
