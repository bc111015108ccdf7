"""The lint engine: which card versions to check, which rules to run, what to report.

Rules come from the registry (:mod:`translator.diagnostics`): markup rules on every
card version's text, translation rules on every translation, library rules on all
translations of a language at once.  Findings on a card file can be suppressed by
its front matter (``lint-ignore: [CODE, PREFIX]``); a suppression that suppresses
nothing is itself reported (LN001), so that stale ones do not pile up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from ..cards.model import SOURCE_LANGUAGE, CardFile, Library
from ..diagnostics import REGISTRY, Diagnostic, Family, Rule, Severity
from ..glossary.loader import load_glossary
from ..glossary.matcher import normalize
from ..heap import fewer_collections
from ..markup.parser import ParseResult
from ..problems import Problem
from .capitals import card_titles
from .context import (
    CardSource,
    FitMeasure,
    Language,
    Locator,
    Reporter,
    Resources,
    Subject,
    file_locator,
    number_words,
    read_language_data,
    word_set,
)
from .drafts import DRAFT_REPORTS, MISSING_TEXT_REPORTS, draft_lines, text_missing
from .model import Edit, Finding
from .numbers import Phrases
from .rule import COLLECTORS, ENGINE, LIBRARY, MARKUP, TRANSLATION, Collector

#: The LN rules: the engine reports them itself.
ENGINE_RULES = Family(prefix="LN", target=ENGINE)


#: Style settings used when the configuration names none.
DEFAULT_SETTINGS: dict[str, object] = {
    "french-spaces": "either",
    "apostrophe": "’",
    "esperanto-quotes": "tight",
    "spelling": True,
}


#: The engine's own rules: it reports them itself, with these declarations' reporters.
UNUSED_SUPPRESSION = ENGINE_RULES.rule(
    code="LN001",
    name="unused-suppression",
    severity=Severity.WARNING,
    summary="A `lint-ignore` code that suppresses nothing on this card.",
    rationale="Suppressions are for findings a reviewer has judged wrong for one card.  Once the "
    "card or the rule changes, a suppression that matches nothing hides the next real "
    "problem: remove it.",
    bad="en.name: Harbor Lord\n"
    "fr.name: Seigneur du port\n"
    "# the name was kept in English, then translated\n"
    "fr.lint-ignore: [TR502]",
    good="en.name: Harbor Lord\nfr.name: Seigneur du port",
)
UNKNOWN_SUPPRESSION = ENGINE_RULES.rule(
    code="LN002",
    name="unknown-suppression",
    severity=Severity.ERROR,
    summary="A `lint-ignore` entry that is not a rule code or prefix.",
    rationale="A misspelt code suppresses nothing and would silently leave a finding reported.",
    bad="en.name: Saltmere\n"
    "fr.name: Saltmere\n"
    "# a place's name, kept in English\n"
    "fr.lint-ignore: [TR52]",
    good="en.name: Saltmere\n"
    "fr.name: Saltmere\n"
    "# a place's name, kept in English\n"
    "fr.lint-ignore: [TR502]",
)

REDIRECTED_SUPPRESSION = ENGINE_RULES.rule(
    code="LN003",
    name="redirected-suppression",
    severity=Severity.WARNING,
    summary="A `lint-ignore` code a rule no longer has: write the rule's code now.",
    rationale="A rule whose code changed (or whose work another rule took over) is found "
    "under its former code still (docs/lint.md, Former codes): the suppression keeps "
    "suppressing that rule's findings.  Written with the code now, it names the rule "
    "that `--explain` and the reference know.",
    bad="en: I can defend against flying creatures.\n"
    "fr: Je peux défendre contre les créatures volantes.\n"
    "# the card's wording, approved by the designer\n"
    "fr.lint-ignore: [FR403]",
    good="en: I can defend against flying creatures.\n"
    "fr: Je peux défendre contre les créatures volantes.\n"
    "# the card's wording, approved by the designer\n"
    "fr.lint-ignore: [GL201]",
)


@dataclass
class Options:
    """What to lint and how: rule selection, languages, files, extra allowed words."""

    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    #: Only the card files with these paths (all of the library's if empty); the rest
    #: of their decks is still read, for the consistency rules.
    files: set[str] = field(default_factory=set)
    allow_english: list[str] = field(default_factory=list)
    #: Library paths whose glossary files add to the shipped ones.
    glossary_paths: list[str] = field(default_factory=list)
    #: Style settings (see :data:`translator.lint.config.CHOICES`): ``french-spaces``,
    #: ``apostrophe``, ``spelling``; defaults where absent.
    settings: dict[str, object] = field(default_factory=dict)
    #: How PR101 measures whether a text fits (the typesetter's measure, which comes
    #: after the linter: ``translator.api`` gives it); without it PR101 cannot run.
    fit: FitMeasure | None = None
    #: Warnings about former rule codes in ``select`` and ``ignore``, replaced by their
    #: codes now (:meth:`translator.diagnostics.Registry.redirected`).
    redirected: list[str] = field(default_factory=list)


@dataclass
class Report:
    findings: list[Finding]
    cards: int
    translations: int
    files: int

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def failed(self, fail_on: Severity) -> bool:
        return any(f.severity.rank >= fail_on.rank for f in self.findings)


def selected_rules(options: Options) -> list[Rule]:
    return REGISTRY.select(options.select or None, options.ignore or None)


def load_resources(
    languages: Iterable[str], options: Options, problems: list[Problem]
) -> Resources:
    """Glossaries and linter data for ``languages`` (English always)."""

    def language(lang: str, data: dict) -> Language:
        glossary, found = load_glossary(lang, options.glossary_paths)
        problems.extend(found)
        accepted = frozenset(normalize(str(w)) for w in data.get("spelling") or [])
        numbers = number_words(data)
        idioms = [str(idiom) for idiom in data.get("idioms") or []]
        elided = {
            normalize(str(full)): normalize(str(short))
            for short, fulls in (data.get("elisions") or {}).items()
            for full in fulls or []
        }
        return Language(
            lang,
            glossary,
            numbers,
            accepted=accepted,
            phrases=Phrases.read(numbers, idioms),
            elided=elided,
        )

    english_data = read_language_data(SOURCE_LANGUAGE, problems)
    resources = Resources(
        language(SOURCE_LANGUAGE, english_data),
        {},
        frozenset(str(w).casefold() for w in english_data.get("words") or []),
    )
    for lang in sorted(set(languages) - {SOURCE_LANGUAGE}):
        resources.languages[lang] = language(lang, read_language_data(lang, problems))
    resources.allowed_words.update(w.casefold() for w in options.allow_english)
    resources.settings = {**DEFAULT_SETTINGS, **options.settings}
    resources.fit = options.fit
    return resources


def _card_names(library: Library) -> dict[str, set[str]]:
    """Words of the card names of the library, by language."""
    found: dict[str, set[str]] = {}
    for card in library.cards.values():
        for version in (card.source, *card.translations.values()):
            if version is not None:
                for key in ("name", "name2"):
                    found.setdefault(version.lang, set()).update(
                        word_set(str(version.fields.get(key) or ""))
                    )
    return found


def _suppressions(file: CardFile) -> list[tuple[str, str]]:
    """The codes and prefixes of a card file's ``lint-ignore``: as written (upper case),
    and as meant (a former rule code means the code now)."""
    written = [code.strip().upper() for code in file.ignored_codes() if code.strip()]
    return [(code, REGISTRY.redirect(code) or code) for code in written]


def _apply_suppressions(
    subject: Subject, findings: list[Finding], selected: set[str]
) -> list[Finding]:
    """Drop suppressed findings; report suppressions that are misspelt, or that
    suppress nothing although a rule they name has run."""
    suppressions = _suppressions(subject.file)
    if not suppressions:
        return findings
    codes = [code for _, code in suppressions]
    used: set[str] = set()
    kept = []
    for finding in findings:
        matching = [c for c in codes if finding.code.startswith(c)]
        if matching:
            used.update(matching)
        else:
            kept.append(finding)
    for written, code in suppressions:
        if written != code:
            kept.append(
                REDIRECTED_SUPPRESSION.report.at(
                    subject,
                    "lint-ignore",
                    0,
                    f"lint-ignore '{written}' is now {code}: write {code}",
                )
            )
        if REGISTRY.unknown_prefixes([code]):
            kept.append(
                UNKNOWN_SUPPRESSION.report.at(
                    subject, "lint-ignore", 0, f"'{written}' in lint-ignore is not a rule code"
                )
            )
        elif code not in used and any(c.startswith(code) for c in selected):
            kept.append(
                UNUSED_SUPPRESSION.report.at(
                    subject,
                    "lint-ignore",
                    0,
                    f"lint-ignore '{written}' suppresses nothing on this card: remove it",
                )
            )
    return kept


DRAFT_LINES = "draft-lines"


def _outside_drafts(subject: Subject, findings: list[Finding]) -> list[Finding]:
    """Leave out, in a draft's paragraphs still in English, what only makes sense of a
    translated text (style, spelling, numbers, glossary): TR401 says they are English.
    Of a translation with no text, TR401 says that it is missing: the rules about what
    the text says have nothing to judge."""
    if text_missing(subject):
        return [f for f in findings if f.field != "text" or f.code.startswith(MISSING_TEXT_REPORTS)]
    ranges = subject.cache.get(DRAFT_LINES)
    if not ranges:
        return findings
    return [
        f
        for f in findings
        if f.field != "text"
        or f.code.startswith(DRAFT_REPORTS)
        or not any(first <= f.line <= last for first, last in ranges)
    ]


#: Markup findings that a translation inherits when it copies the English spacing: a
#: finding about the English card, reported there once, not on each translation.
INHERITED = frozenset({"MK107"})
_PUNCTUATION_AROUND = re.compile(r"(\S*)\s+(\S*)")
_LETTERS = re.compile(r"\w")


def _spacing(text: str, offset: int) -> str:
    """The marks around the space at ``offset`` (`::|::` for `:g1: :g2:`, `**|_` for
    `**Attaque** _vite_`): what stays the same when the words are translated."""
    start = offset
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    match = _PUNCTUATION_AROUND.match(text, start)
    if match is None:
        return ""
    return f"{_LETTERS.sub('', match.group(1))}|{_LETTERS.sub('', match.group(2))}"


#: A markup rule as the engine runs it: the rule, its check (bound to its markup
#: reporter), and the lint reporter that turns its diagnostics into findings.
MarkupRun = tuple[Rule, Callable[[ParseResult], Iterator[Diagnostic]], Reporter]


def _english_spacing(subject: Subject, run: MarkupRun) -> Counter[str]:
    """The spacing marks of a markup rule's findings on the English card."""
    assert subject.source is not None
    source = subject.source
    rule_, check, _ = run

    def compute() -> Counter[str]:
        body = source.file.body
        return Counter(_spacing(body, d.offset) for d in check(source.result))

    return source.memo(("inherited", rule_.code), compute)


def _markup_findings(
    subject: Subject, runs: list[MarkupRun], english_linted: bool = False
) -> Iterator[Finding]:
    for run in runs:
        rule_, check, report = run
        diagnostics = list(check(subject.result))
        if (
            diagnostics
            and english_linted
            and rule_.code in INHERITED
            and subject.is_translation
            and subject.source is not None
        ):
            english = _english_spacing(subject, run).copy()
            kept = []
            for diagnostic in diagnostics:
                mark = _spacing(subject.file.body, diagnostic.offset)
                if english[mark] > 0:
                    english[mark] -= 1  # the English card has it: reported there
                else:
                    kept.append(diagnostic)
            diagnostics = kept
        for diagnostic in diagnostics:
            fix = diagnostic.fix
            edit = None if fix is None else Edit("text", fix.start, fix.end, fix.replacement)
            yield report.at(subject, "text", diagnostic.offset, diagnostic.message, edit)


def subjects_of(
    library: Library, resources: Resources, options: Options, locator: Locator = file_locator
) -> list[Subject]:
    """Every card version to lint, in library order."""
    subjects: list[Subject] = []
    for _, card in sorted(library.cards.items()):
        source = CardSource(card, card.source) if card.source is not None else None
        for lang in card.languages():
            if options.languages and lang not in options.languages:
                continue
            file = card.version(lang)
            if file is None or (options.files and file.path not in options.files):
                continue
            language = resources.english if lang == SOURCE_LANGUAGE else resources.language(lang)
            subjects.append(Subject(card, file, source, language, resources, locator))
    return subjects


def _gather_context(
    library: Library,
    resources: Resources,
    options: Options,
    locator: Locator,
    collectors: list[tuple[str, Collector]],
    by_language: dict[str, list[Subject]],
) -> None:
    """Linting some files of a library: the cross-card rules (GL301, GL302) still
    compare them with every other translation of their language, so that one card
    is judged as the whole library would judge it; those others are only read."""
    named = set(options.files)
    wanted = set(by_language) or set(options.languages)
    everything = replace(options, files=set())
    others = [
        s
        for s in subjects_of(library, resources, everything, locator)
        if s.file.path not in named and s.is_translation and (not wanted or s.lang in wanted)
    ]
    for position, subject in enumerate(others):
        if not subject.result.crashes:
            for code, collect in collectors:
                subject.cache[code] = collect(subject)
            by_language.setdefault(subject.lang, []).append(subject)
        _forget(others, position)


def _forget(subjects: list[Subject], position: int) -> None:
    """Drop the parse trees of ``subjects[position]`` once its rules have run, and of
    its English card once none of the following subjects is its translation: parse
    trees are large, and an English card is parsed once for all its translations."""
    subject = subjects[position]
    subject.forget()
    following = subjects[position + 1] if position + 1 < len(subjects) else None
    if subject.source is not None and (following is None or following.source is not subject.source):
        subject.source.forget()


def lint(
    library: Library, resources: Resources, options: Options, locator: Locator = file_locator
) -> Report:
    """Lint the card versions of ``library`` that ``options`` selects."""
    with fewer_collections():
        return _lint(library, resources, options, locator)


def _lint(library: Library, resources: Resources, options: Options, locator: Locator) -> Report:
    resources.set_names(_card_names(library))
    resources.card_names = card_titles(library)
    chosen = selected_rules(options)
    # Each check is bound to its rule's reporter; markup diagnostics become findings
    # through a lint reporter of their rule.
    markup = [(r, check, Reporter(r)) for r, check in REGISTRY.checks(MARKUP, chosen)]
    translation = REGISTRY.checks(TRANSLATION, chosen)
    library_checks = REGISTRY.checks(LIBRARY, chosen)
    subjects = subjects_of(library, resources, options, locator)
    found: dict[int, list[Finding]] = {id(s): [] for s in subjects}
    collectors = [(r.code, COLLECTORS[r.code]) for r, _ in library_checks if r.code in COLLECTORS]
    by_language: dict[str, list[Subject]] = {}
    english_linted = {s.card.slug for s in subjects if not s.is_translation}
    for position, subject in enumerate(subjects):
        card_findings = found[id(subject)]
        card_findings.extend(
            _markup_findings(
                subject,
                [run for run in markup if run[0].applies_to(subject.lang)],
                subject.card.slug in english_linted,
            )
        )
        if (
            subject.is_translation
            and (translation or library_checks)
            and not subject.result.crashes
        ):  # else MK001 says where it fails
            card_findings.extend(_translation_findings(subject, translation, collectors))
            by_language.setdefault(subject.lang, []).append(subject)
        # Parse trees are large: keep them only while the card is being linted (a
        # library rule that reports a finding parses its card again).
        _forget(subjects, position)
    if options.files and collectors:
        _gather_context(library, resources, options, locator, collectors, by_language)
    _add_library_findings(subjects, by_language, library_checks, found)
    selected = {r.code for r in chosen}
    findings: list[Finding] = []
    for subject in subjects:
        kept = _apply_suppressions(subject, _outside_drafts(subject, found[id(subject)]), selected)
        findings.extend(f for f in kept if f.code in selected)
    findings.sort(key=Finding.sort_key)
    cards: set[tuple[str, str]] = {(s.card.deck, s.card.slug) for s in subjects}
    return Report(findings, len(cards), sum(1 for s in subjects if s.is_translation), len(subjects))


def _translation_findings(
    subject: Subject,
    translation: list[tuple[Rule, Callable[[Subject], Iterator[Finding]]]],
    collectors: list[tuple[str, Collector]],
) -> list[Finding]:
    """The findings of the translation rules on one translation, while its parse trees
    exist; what the library rules need of it later (their collectors' data, a draft's
    lines still in English) is kept in its cache, so that the trees can be dropped."""
    findings: list[Finding] = []
    for rule_, check in translation:
        if rule_.applies_to(subject.lang):
            findings.extend(check(subject))
    for code, collect in collectors:
        subject.cache[code] = collect(subject)
    if subject.file.fields.get("wip"):
        subject.cache[DRAFT_LINES] = draft_lines(subject)
    return findings


def _add_library_findings(
    subjects: list[Subject],
    by_language: dict[str, list[Subject]],
    library_checks: list[tuple[Rule, Callable[[list[Subject]], Iterator[Finding]]]],
    found: dict[int, list[Finding]],
) -> None:
    """Run the cross-card rules on each language's translations and add each finding
    to the card it is about; a finding on a card read only for context (linting some
    files) has no owner among ``subjects`` and is left out."""
    owners: dict[tuple[str, str, str], Subject] = {}
    for lang, group in by_language.items():
        for rule_, check_library in library_checks:
            if not rule_.applies_to(lang):
                continue
            for finding in check_library(group):
                if not owners:  # locating every card is only worth it for a finding
                    owners = {
                        (s.card.slug, s.lang, s.locator(s.file, "name", 0)[0]): s for s in subjects
                    }
                owner = owners.get((finding.card, finding.lang, finding.path))
                if owner is not None:  # else a card of the deck read for context only
                    found[id(owner)].append(finding)
