"""translator from Python: what the command line does, as functions with typed results.

    from translator import api

    result = api.lint(["cards/sample"], languages=["fr"])
    for finding in result.findings:
        print(finding.path, finding.line, finding.code, finding.message)
    print(result.summary.errors, "errors")

Every command that reads a library, lints, fixes, builds, checks, writes review
sheets, signs cards off or looks words up in the glossaries is one call here, and the
command line (:mod:`translator.cli`) is a client of these calls: it parses the
arguments, calls them and prints what they return, as WeasyPrint's command line is
a client of its Python API.  So a script, a notebook or an editor plug-in gets
exactly what ``translator ...`` computes, without running it and parsing its output.

The rules of the module:

- nothing prints and nothing exits: every call returns a dataclass, and the command
  line decides what to show (text, JSON, colours, a progress bar);
- a mistake the user can fix (a configuration file, an unknown rule code, a card
  that does not exist, a library whose files have problems) raises a
  :class:`translator.errors.UserError` whose message names the file, the line and
  what to do; any other exception is a bug;
- importing it is cheap: the linter, the glossaries and the typesetter (WeasyPrint)
  are imported by the calls that use them, so ``import translator.api`` costs no
  more than the exceptions (start-up time matters to a command line).

The entry points are not re-exported from the ``translator`` package itself:
``translator.lint`` is the linter's package, so a ``translator.lint`` function would
be replaced by the package as soon as anything imported it.  Write
``from translator import api``.

Results that are the library's own types (a build's report, a file's preflight
report, a review sheet, the configuration) are named here too (:data:`BuildReport`,
:data:`FileReport`, :data:`Sheet`, :data:`Config`) and imported when first asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import LibraryProblems, UsageError

if TYPE_CHECKING:
    from .cards import Card, Library, Problem
    from .diagnostics import Rule, Severity
    from .glossary import Ability, Entry, Glossary
    from .lint import Finding, Options, Report
    from .lint.config import Config
    from .lint.context import Locator, Resources
    from .pdf.preflight import FileReport
    from .pdf.sizes import CardSize
    from .review.sheet import Sheet
    from .sync.client import ServerChoice
    from .sync.pull import PullResult
    from .sync.push import Outgoing, PushResult
    from .typeset.batch import Report as BuildReport
    from .typeset.batch import Request
    from .typeset.options import BuildOptions
    from .workflow.memory import Memory, Unit
    from .workflow.stored import TmxImport
    from .workflow.suggestions import Text

__all__ = [
    "BuildPlan",
    "BuildReport",
    "CardPreview",
    "CardSuggestions",
    "Config",
    "FileReport",
    "FixResult",
    "GlossaryAbility",
    "GlossaryEntry",
    "GlossarySearch",
    "GlossaryTerm",
    "Held",
    "LibraryProblems",
    "LintResult",
    "LintSetup",
    "LintSummary",
    "PullResult",
    "PushResult",
    "ReviewPlan",
    "ReviewSheets",
    "Reviewed",
    "Sheet",
    "SignOff",
    "TmxImport",
    "build",
    "export_tmx",
    "find_card",
    "fix",
    "glossary_search",
    "import_tmx",
    "lint",
    "lint_options",
    "lint_setup",
    "load_config",
    "load_glossaries",
    "load_library",
    "load_memory",
    "plan_build",
    "plan_review_sheets",
    "preflight",
    "preview_card",
    "pull",
    "push",
    "push_server",
    "review_sheets",
    "sign_off",
    "suggest",
    "sync_server",
    "target_language",
    "target_languages",
]

#: Where the library is when no path is given, as on the command line.
DEFAULT_LIBRARY = "cards"

#: A path or several: ``"cards/sample"`` is one path, not eleven.
Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
#: Told how many card PDFs are done since the last call (a progress bar's step).
Advance = Callable[[int], None]
#: Told what a build is doing ("cards (fr)", "preflight", ...).
Stage = Callable[[str], None]


def _paths(paths: Paths | None) -> list[str]:
    """``paths`` as a list of strings, the library when empty: a lone string is one
    path (iterating it would give its letters)."""
    if paths is None:
        return [DEFAULT_LIBRARY]
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths] or [DEFAULT_LIBRARY]


# --------------------------------------------------------------------------------------
# the configuration


def load_config(start: str | os.PathLike[str] | None = None, *, file: str | None = None) -> Config:
    """The configuration that applies in ``start`` (default: the current directory):
    the nearest ``translator.toml``, or ``pyproject.toml`` with a
    ``[tool.translator]`` table, up from there; an empty one when there is none.
    ``file`` names the file instead (``translator lint --config FILE``).

    The one reader of the configuration: ``translator lint`` and every command that
    lints on the way (review, translate, import) read it through here, so that
    they all agree.  A problem in the file raises an error naming its line.

    >>> config = load_config("cards/sample")
    >>> config.select, config.fail_on
    ([], None)
    """
    from .lint import config as lint_config  # noqa: PLC0415 - the linter loads slowly

    if file is not None:
        if not Path(file).is_file():
            raise UsageError(f"no configuration file {file}")
        return lint_config.load_config(Path(file))
    path = lint_config.find_config(None if start is None else Path(start))
    return lint_config.load_config(path) if path else lint_config.Config()


def lint_options(
    config: Config,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    languages: Sequence[str] = (),
    glossary: Sequence[str] = (),
    fail_on: str | None = None,
) -> tuple[Options, Severity]:
    """The lint options and the severity that fails a run: ``config``'s settings,
    with ``select`` (instead of the configured selection), ``ignore`` (added to it),
    ``fail_on`` (instead of the configured one) and ``glossary`` (library paths with
    glossary files, after the configured ones).

    A rule code or prefix that matches no rule is refused (a typo would silently
    check nothing), naming the configuration file when the code comes from it.  A
    former rule code means the code now (:data:`translator.diagnostics.REDIRECTS`),
    with a warning in ``options.redirected``.

    >>> options, fail_on = lint_options(load_config(), select=["TR1"], languages=["fr"])
    >>> options.select, fail_on.value
    (['TR1'], 'warning')
    """
    from .diagnostics import REGISTRY, Severity  # noqa: PLC0415
    from .lint import Options  # noqa: PLC0415

    in_file = f" (in {config.path})" if config.path else ""
    if select:
        chosen, redirected = REGISTRY.redirected(select)
    else:
        chosen, redirected = REGISTRY.redirected(config.select)
        redirected = [message + in_file for message in redirected]
    configured, in_config = REGISTRY.redirected(config.ignore)
    added, on_command_line = REGISTRY.redirected(ignore)
    skipped = configured + added
    redirected += [message + in_file for message in in_config] + on_command_line
    unknown = REGISTRY.unknown_prefixes(chosen + skipped)
    if unknown:
        where = f" (in {config.path})" if config.path and not select else ""
        raise UsageError(
            f"no rule matches {', '.join(unknown)}{where} (see 'translator lint --list-rules')"
        )
    options = Options(
        select=chosen,
        ignore=skipped,
        languages=list(languages),
        allow_english=config.allow_english,
        glossary_paths=[*config.glossary, *glossary],
        settings=dict(config.settings),
        fit=measure_fit,
        redirected=redirected,
    )
    return options, Severity(fail_on or config.fail_on or "warning")


def measure_fit(cards: Sequence[tuple[Card, str, Any]]) -> Iterator[tuple[Any, float, float]]:
    """PR101's measure (:data:`translator.lint.context.FitMeasure`): the typesetter's,
    loaded when a run measures (WeasyPrint loads slowly)."""
    from .typeset.overflow import overflowing  # noqa: PLC0415

    return overflowing(cards)


# --------------------------------------------------------------------------------------
# the library and its languages


def load_library(paths: Paths | None = None) -> Library:
    """The card library under ``paths`` (default: ``cards``).

    Its problems (a card file that does not parse, a deck without its English card)
    raise :class:`LibraryProblems`: what works on a library refuses to work on part of
    it.  (:func:`translator.cards.load_library` returns them instead.)

    >>> library = load_library("cards/sample")
    >>> library.find("veil-stalker")[0].name("fr")
    'Rôdeur du voile'
    """
    from .cards import load_library as read_library  # noqa: PLC0415

    library, problems = read_library(_paths(paths))
    if problems:
        raise LibraryProblems(problems)
    return library


def load_memory(library: Library | Paths | None, lang: str, *, whole: bool = True) -> Memory:
    """The translation memory of ``lang`` for work on ``library`` (a loaded library,
    or paths): every translated, non-draft, non-stale unit of the library's cards and
    of the decks beside them (``whole``), and the TMX files imported into it.

    >>> memory = load_memory("cards/sample", "fr")
    >>> memory.exact("name", "Courier").target
    'Messager'
    """
    from .cards.model import Library as LoadedLibrary  # noqa: PLC0415
    from .workflow.stored import load_memory as read_memory  # noqa: PLC0415

    loaded = library if isinstance(library, LoadedLibrary) else load_library(library)
    return read_memory(loaded, target_language(lang), whole=whole)


def target_language(lang: str) -> str:
    """``lang`` if cards are translated into it; English (the source) or an unknown
    code raises an error listing the languages.

    >>> target_language("fr")
    'fr'
    """
    from .cards.model import SOURCE_LANGUAGE  # noqa: PLC0415
    from .glossary.model import LANGUAGES  # noqa: PLC0415

    if lang == SOURCE_LANGUAGE or lang not in LANGUAGES:
        targets = ", ".join(x for x in LANGUAGES if x != SOURCE_LANGUAGE)
        raise UsageError(f"--lang {lang}: translations are into {targets}")
    return lang


def target_languages(library: Library, languages: Sequence[str] | None = ()) -> list[str]:
    """The translation languages asked for (each checked), else those the library
    has, else every language cards are translated into.

    >>> target_languages(load_library("cards/sample"))
    ['eo', 'fr']
    """
    from .cards.model import SOURCE_LANGUAGE  # noqa: PLC0415
    from .glossary.model import LANGUAGES  # noqa: PLC0415

    if languages:
        return [target_language(lang) for lang in dict.fromkeys(languages)]
    found = sorted({lang for card in library.cards.values() for lang in card.translations})
    return found or [x for x in LANGUAGES if x != SOURCE_LANGUAGE]


def card_library(references: Sequence[str], library: Paths | None = None) -> list[str]:
    """Where the cards ``references`` name are: ``library`` when given; else the decks
    of those that are card files (``translator review path/to/card.fr.md`` works from
    anywhere), with ``cards`` for the others."""
    if library:
        return _paths(library)
    decks = [str(Path(r).parent) for r in references if r.endswith(".md") and Path(r).is_file()]
    rest = len(decks) < len(references)
    return list(dict.fromkeys(decks)) + ([DEFAULT_LIBRARY] if rest or not decks else [])


def find_card(library: Library, reference: str) -> Card:
    """The one card ``reference`` names: a slug, ``deck/slug``, a guid or a card file
    path; none, or several (the same slug in two decks), is an error saying what to
    write.

    >>> find_card(load_library("cards/sample"), "sample/veil-stalker").slug
    'veil-stalker'
    """
    matches = [c for c in library.find(reference) if c.source is not None]
    if not matches:
        raise UsageError(f"no card '{reference}' (a slug, deck/slug, guid or card file path)")
    if len(matches) > 1:
        raise UsageError(f"'{reference}' names {len(matches)} cards: write deck/slug")
    return matches[0]


# --------------------------------------------------------------------------------------
# lint


@dataclass(frozen=True)
class LintSummary:
    """The counts of a lint run, in the order of the JSON report's ``summary``."""

    cards: int
    errors: int
    warnings: int
    infos: int
    translations: int
    files: int
    #: Findings with a safe fix (``fix`` applies them).
    fixable: int

    @classmethod
    def of(cls, report: Report) -> LintSummary:
        """The counts of ``report``."""
        from .diagnostics import Severity  # noqa: PLC0415

        return cls(
            cards=report.cards,
            errors=report.count(Severity.ERROR),
            warnings=report.count(Severity.WARNING),
            infos=report.count(Severity.INFO),
            translations=report.translations,
            files=report.files,
            fixable=sum(1 for f in report.findings if f.edit is not None),
        )

    @property
    def findings(self) -> int:
        return self.errors + self.warnings + self.infos

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class LintResult:
    """What the linter found: the findings with their counts, the rules that ran, and
    whether the run fails (a finding at ``fail_on`` or above).

    ``problems`` are files that could not be read as cards or glossaries (the command
    line exits 2 for them, after the report); ``unchecked`` says which languages had
    no spelling dictionary; ``redirected``, which former rule codes the selection
    named, and their codes now.
    """

    report: Report
    rules: list[Rule]
    fail_on: Severity
    problems: list[Problem] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    redirected: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return self.report.findings

    @property
    def files(self) -> int:
        """How many card files were linted."""
        return self.report.files

    @property
    def summary(self) -> LintSummary:
        return LintSummary.of(self.report)

    @property
    def failed(self) -> bool:
        """A finding at ``fail_on`` or above (the command line's exit status 1)."""
        return self.report.failed(self.fail_on)


@dataclass
class _Linting:
    """A library read and the linter set up for it: what :func:`lint` and :func:`fix`
    both start from (``fix`` lints again after each pass)."""

    library: Library
    resources: Resources
    options: Options
    fail_on: Severity
    locator: Locator
    problems: list[Problem]
    json: bool

    def lint(self, library: Library | None = None) -> Report:
        from .lint import lint  # noqa: PLC0415

        return lint(library or self.library, self.resources, self.options, self.locator)

    def result(self, report: Report) -> LintResult:
        from .lint import selected_rules  # noqa: PLC0415
        from .lint.spelling import missing_dictionaries  # noqa: PLC0415

        return LintResult(
            report,
            selected_rules(self.options),
            self.fail_on,
            list(self.problems),
            missing_dictionaries(),
            list(self.options.redirected),
        )


def _linting(
    paths: Paths | None,
    *,
    languages: Sequence[str],
    select: Sequence[str],
    ignore: Sequence[str],
    fail_on: str | None,
    sources: Sequence[str],
    glossary: Sequence[str],
    config: Config | None,
    fixing: bool = False,
) -> _Linting:
    from .lint import load_resources  # noqa: PLC0415
    from .lint.sources import is_json, load_inputs  # noqa: PLC0415

    options, fails = lint_options(
        load_config() if config is None else config,
        select=select,
        ignore=ignore,
        languages=languages,
        glossary=glossary,
        fail_on=fail_on,
    )
    chosen = _paths(paths)
    json_input = any(is_json(p) for p in chosen)
    if sources and not json_input:
        raise UsageError(
            "--source is for Aminduna JSON files: "
            "translator lint deck.fr.json --source deck.en.json"
        )
    inputs = load_inputs(chosen, [os.fspath(s) for s in sources])
    if fixing and json_input:
        raise UsageError(
            "--fix and --diff change card files, not Aminduna JSON: import "
            "it first (translator import arcmage)"
        )
    if not options.glossary_paths and not json_input:
        options.glossary_paths = chosen
    linted = options.languages or _languages_linted(inputs.library, inputs.files)
    problems = list(inputs.problems)
    resources = load_resources(linted, options, problems)
    options.files = inputs.files
    return _Linting(inputs.library, resources, options, fails, inputs.locator, problems, json_input)


def _languages_linted(library: Library, files: set[str]) -> list[str]:
    """The languages whose glossaries and dictionaries a lint needs: those of the card
    files named (the rest of the library is read for context in their languages only),
    else every translation's."""
    cards = library.cards.values()
    if files:
        return sorted(
            {lang for card in cards for lang, f in card.translations.items() if f.path in files}
        )
    return sorted({lang for card in cards for lang in card.translations})


def lint(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str | None = None,
    sources: Sequence[str] = (),
    glossary: Sequence[str] = (),
    config: Config | None = None,
) -> LintResult:
    """Lint the card files under ``paths`` (a library, decks, card files, or
    Aminduna JSON files with their English in ``sources``): ``translator lint``.

    ``languages``: only these translations (default: every one); ``select`` and
    ``ignore``: rule codes or prefixes; ``fail_on``: the lowest severity that fails
    the run; ``glossary``: libraries whose glossary files add to the shipped ones
    (default: ``paths``); ``config``: the settings (default: :func:`load_config`
    of the current directory; ``Config()`` for none).

    >>> result = lint("cards/sample", languages=["fr"], select=["TR", "GL"])
    >>> result.summary.findings, result.summary.cards, result.failed
    (0, 24, False)
    """
    run = _linting(
        paths,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
    )
    return run.result(run.lint())


@dataclass
class FixResult:
    """What fixing did: how many fixes, in which files (with their new contents and
    the diff), whether they were written, and what the linter still reports."""

    fixed: int
    #: The files changed (written when ``written``), sorted.
    changed: list[str]
    #: The new content of each changed file.
    contents: dict[str, str]
    #: A unified diff of every change (``translator lint --diff``).
    diff: str
    written: bool
    #: The findings left on the library as fixed.
    remaining: LintResult


def fix(
    paths: Paths | None = None,
    *,
    write: bool = True,
    languages: Sequence[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str | None = None,
    sources: Sequence[str] = (),
    glossary: Sequence[str] = (),
    config: Config | None = None,
) -> FixResult:
    """Apply the safe fixes of what :func:`lint` finds, lint again and repeat while
    fixes remain (a fix may make another possible): ``translator lint --fix``, or
    ``--diff`` with ``write=False`` (nothing written; the result has the diff).

    Only translations are changed, only what the fixes say, each file atomically; a
    file whose fix would not read back as intended is left alone; fixing twice
    changes nothing the second time.  The options are those of :func:`lint`; Aminduna
    JSON is not fixed (import it first).

    >>> result = fix("cards/sample", languages=["fr"], write=False)
    >>> result.fixed, result.changed
    (0, [])
    """
    from .lint.fixes import fix_library  # noqa: PLC0415
    from .textio import atomic_write, read_text  # noqa: PLC0415

    run = _linting(
        paths,
        languages=languages,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        sources=sources,
        glossary=glossary,
        config=config,
        fixing=True,
    )
    report = run.lint()
    changes = fix_library(
        run.library, lambda library: run.lint(library).findings, report.findings, read_text
    )
    if write:
        for path in changes.changed:
            atomic_write(path, changes.contents[path], within=Path(path).parent)
    # The last lint of the loop is the lint of the library as fixed (same cards, same
    # files: only the findings differ).
    report.findings = changes.findings
    changed = changes.changed
    return FixResult(
        changes.applied,
        changed,
        {path: changes.contents[path] for path in changed},
        changes.diff(),
        write,
        run.result(report),
    )


@dataclass
class LintSetup:
    """The linter set up for a library: what the commands that lint on the way
    (review, translate, import and export) use."""

    resources: Resources
    options: Options
    fail_on: Severity


def lint_setup(
    languages: Sequence[str], paths: Paths | None = None, *, config: Config | None = None
) -> LintSetup:
    """Glossaries and dictionaries of ``languages`` (English always) with the
    configured options, the glossary files of ``paths`` included; a glossary with
    problems raises :class:`LibraryProblems`.

    >>> setup = lint_setup(["fr"], "cards/sample")
    >>> sorted(setup.resources.languages)
    ['fr']
    """
    from .lint import load_resources  # noqa: PLC0415

    options, fail_on = lint_options(
        load_config() if config is None else config,
        languages=languages,
        glossary=_paths(paths),
    )
    problems: list[Problem] = []
    resources = load_resources(languages, options, problems)
    if problems:
        raise LibraryProblems(problems)
    return LintSetup(resources, options, fail_on)


# --------------------------------------------------------------------------------------
# review: sign-off and review sheets


@dataclass(frozen=True)
class Reviewed:
    """A translation marked reviewed (or that would be, in a dry run)."""

    card: str
    lang: str
    path: str
    #: Its state before: translated, stale, draft, reviewed.
    was: str
    #: What changed in the English since it was translated (when it was stale).
    changed: list[str]
    written: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Held:
    """A card not reviewed: its translation has lint errors to fix first, or it is
    stale (its English changed since it was translated: ``changed`` names the English
    fields, which the translation must follow before a review can vouch for it)."""

    card: str
    lang: str
    errors: int
    changed: list[str] = field(default_factory=list)
    stale: bool = False

    @property
    def reason(self) -> str:
        """Why the card was not reviewed, as ``translator review`` says it."""
        if self.stale:
            what = f"its {', '.join(self.changed)} changed" if self.changed else "it changed"
            return (
                f"stale: the English card changed since it was translated ({what}): "
                f"'translator status --diff {self.card} --lang {self.lang}' shows how; "
                "bring the translation up to date, then review it (--force reviews anyway)"
            )
        errors = f"{self.errors} error{'' if self.errors == 1 else 's'}"
        return f"{errors} to fix first (--force reviews anyway)"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reason": self.reason}


@dataclass
class SignOff:
    """What :func:`sign_off` did: the cards reviewed, the cards held back, and the
    lint report they were judged on."""

    reviewed: list[Reviewed]
    held: list[Held]
    report: Report
    dry_run: bool


def sign_off(
    cards: Sequence[str],
    *,
    lang: str,
    by: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    library: Paths | None = None,
    config: Config | None = None,
) -> SignOff:
    """Mark the ``lang`` translations of ``cards`` (slugs, ``deck/slug``, guids or
    paths) reviewed against the current English: today's date, ``by`` as the
    reviewer, the fingerprints of the English card and of the translation as
    reviewed, no ``wip``: ``translator review``.

    The cards are linted first; a card with lint errors, or a stale one (its English
    changed since it was translated), is held back (``force`` reviews it anyway),
    without holding back the others.  The report is the lint of the cards as left:
    after the review when it wrote them (a finding the review answered, such as a
    missing fingerprint, is gone).  ``dry_run`` writes nothing.  ``library``: where
    the cards are (default: ``cards``).

    >>> done = sign_off(["veil-stalker"], lang="fr", library="cards/sample", dry_run=True)
    >>> [(r.card, r.was, r.written) for r in done.reviewed], done.held
    ([('veil-stalker', 'translated', False)], [])
    """
    from .cards.edit import EditError, edit_card  # noqa: PLC0415
    from .diagnostics import Severity  # noqa: PLC0415
    from .lint import lint as run_lint  # noqa: PLC0415
    from .textio import InputError, atomic_write, read_text  # noqa: PLC0415
    from .workflow import states  # noqa: PLC0415

    lang = target_language(lang)
    paths = card_library(cards, library)
    found = load_library(paths)
    chosen = [find_card(found, reference) for reference in cards]
    missing = [c.slug for c in chosen if lang not in c.translations]
    if missing:
        raise UsageError(
            f"no {lang} translation of {', '.join(missing)}: 'translator translate' makes a draft"
        )
    setup = lint_setup([lang], paths, config=config)
    setup.options.files = {c.translations[lang].path for c in chosen}
    report = run_lint(found, setup.resources, setup.options)
    errors: dict[str, int] = {}
    for finding in report.findings:
        if finding.severity == Severity.ERROR:
            errors[finding.card] = errors.get(finding.card, 0) + 1
    before = {card.slug: states.card_state(card, lang) for card in chosen}
    held = (
        []
        if force
        else [
            Held(
                card.slug,
                lang,
                errors.get(card.slug, 0),
                before[card.slug].changed,
                before[card.slug].state == "stale",
            )
            for card in chosen
            if card.slug in errors or before[card.slug].state == "stale"
        ]
    )
    held_slugs = {h.card for h in held}
    done = []
    for card in chosen:
        if card.slug in held_slugs:
            continue
        version = card.translations[lang]
        state = before[card.slug]
        content = read_text(version.path)
        try:
            new = edit_card(version, content, states.review_changes(card, lang, reviewer=by))
        except EditError as error:
            raise InputError(version.path, str(error)) from None
        if not dry_run and new != content:
            atomic_write(version.path, new, within=Path(version.path).parent)
        done.append(
            Reviewed(
                card.slug,
                lang,
                version.path,
                state.state,
                state.changed,
                new != content and not dry_run,
            )
        )
    if any(item.written for item in done):  # the lint of the cards as they are now
        found = load_library(paths)
        report = run_lint(found, setup.resources, setup.options)
    return SignOff(done, held, report, dry_run)


@dataclass
class ReviewSheets:
    """The review sheets written: one per deck and language, and their index."""

    out: Path
    index: Path
    sheets: list[Sheet]

    def path(self, sheet: Sheet) -> Path:
        """Where ``sheet`` was written."""
        from .review.sheet import sheet_file  # noqa: PLC0415

        return self.out / sheet_file(sheet.deck, sheet.lang)


@dataclass
class ReviewPlan:
    """Review sheets ready to be made (the library read, the options checked):
    :attr:`total` says how many renders :meth:`run` will make, for a progress bar."""

    library: Library
    languages: list[str]
    out: Path
    build_dir: Path
    setup: LintSetup
    build_options: BuildOptions
    dpi: float
    renders: bool

    @property
    def total(self) -> int:
        """Card renders to make: every card in English and each language."""
        if not self.renders:
            return 0
        count = sum(1 for card in self.library.cards.values() if card.source is not None)
        return count * 2 * len(self.languages)

    def run(self, progress: Advance | None = None, stage: Stage | None = None) -> ReviewSheets:
        """Render the cards (or keep the renders up to date), lint, and write every
        sheet and the index into :attr:`out`."""
        from .review import sheet as review  # noqa: PLC0415

        say = stage or (lambda text: None)
        self.out.mkdir(parents=True, exist_ok=True)
        made = []
        library, setup = self.library, self.setup
        for lang in self.languages:
            renders = None
            if self.renders:
                renders = review.render_cards(
                    library, lang, self.build_dir, self.build_options, self.dpi, progress, stage
                )
            say(f"sheets ({lang})")
            report = review.lint_report(library, setup.resources, setup.options, lang)
            for deck in sorted(library.decks):
                page = review.make_sheet(
                    library, deck, lang, setup.resources, setup.options, renders, self.out, report
                )
                review.write_sheet(page, self.out)
                made.append(page)
        return ReviewSheets(self.out, review.write_index(made, self.out), made)


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
    from .typeset.options import BuildOptions  # noqa: PLC0415 - WeasyPrint loads slowly

    chosen = _paths(paths)
    library = load_library(chosen)
    langs = target_languages(library, languages)
    if not 24 <= dpi <= 300:
        raise UsageError("--dpi is between 24 and 300 (96: a screen; 150: zoom in)")
    card_size = _size(size)
    target = Path(out)
    setup = lint_setup(langs, chosen, config=config)
    return ReviewPlan(
        library,
        langs,
        target,
        Path(build_dir) if build_dir else target / "build",
        setup,
        BuildOptions(card_size, theme, icc, jobs=_jobs(jobs)),
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


# --------------------------------------------------------------------------------------
# print builds and their preflight


def _size(size: str | CardSize) -> CardSize:
    """A card size by name (``arcmage``, ``poker``) or ``WxH+B`` in mm (anything else
    is an :class:`~translator.errors.InvalidOption`)."""
    from .pdf.sizes import card_size  # noqa: PLC0415

    return card_size(size) if isinstance(size, str) else size


def _check_fit(floor: float, min_size: float) -> None:
    """How far a build (or a preview) may shrink a card: within what print allows."""
    if not 0.2 <= floor <= 1.0:
        raise UsageError("--floor is a scale between 0.2 and 1.0 (the reference's 0.52)")
    if not 4.0 <= min_size <= 9.0:
        raise UsageError("--min-size is a text size between 4 and 9 points (default 6)")


def _jobs(jobs: int | None) -> int:
    """Render processes: one per core unless told."""
    return max(1, os.cpu_count() or 1) if jobs is None else max(1, jobs)


@dataclass
class BuildPlan:
    """A build checked and ready to run: the library and what to make of it.
    :attr:`total` is how many card PDFs :meth:`run` will make or keep."""

    library: Library
    request: Request

    @property
    def total(self) -> int:
        from .typeset.batch import total_cards  # noqa: PLC0415

        return total_cards(self.library, self.request)

    def run(self, progress: Advance | None = None, stage: Stage | None = None) -> BuildReport:
        """Build: cards, decks, sheets, previews, then the preflight of every file."""
        from .typeset.batch import produce  # noqa: PLC0415

        return produce(self.library, self.request, progress, stage)


def plan_build(
    paths: Paths | None = None,
    *,
    languages: Sequence[str] = ("en",),
    out: str | os.PathLike[str] = "out",
    cards: Sequence[str] = (),
    size: str | CardSize = "arcmage",
    theme: str | None = None,
    icc: str | None = None,
    floor: float = 0.52,
    min_size: float = 6.0,
    allow_overflow: bool = False,
    jobs: int | None = None,
    force: bool = False,
    deck: bool = False,
    backs: str = "duplex",
    sheets: str | None = None,
    gutter: float = 0.0,
    margin: float = 5.0,
    sheet_backs: bool = False,
    previews: Sequence[str] = (),
    dpi: float = 300.0,
    ink_limit: float = 300.0,
    check: bool = True,
    fallback: str | None = None,
    strict: bool | None = None,
) -> BuildPlan:
    """Check a build's settings and read its library, without making anything yet
    (the command line shows a progress bar of :attr:`BuildPlan.total` while it
    runs).  The settings are those of ``translator build``: ``languages`` (codes,
    or ``all``), ``cards`` (slugs; default all), ``deck``, ``sheets`` (``a4``,
    ``letter``), ``previews`` (``png``, ``webp``), ``check=False`` for no
    preflight...; each out of its range raises an error saying what it may be.
    ``fallback="en"`` prints the English card where a translation is missing (else it
    is not printed, nor the deck and sheet files holding it), ``strict=True`` refuses
    stale translations and drafts (else printed with a warning); None for both takes
    ``translator.toml``'s ``[build]`` (:mod:`translator.typeset.readiness`).

    >>> plan = plan_build("cards/sample", languages=["all"], deck=True, jobs=1)
    >>> plan.request.languages, plan.total
    (['en', 'eo', 'fr'], 72)
    """
    from .typeset import batch  # noqa: PLC0415 - WeasyPrint loads slowly
    from .typeset.options import BuildOptions  # noqa: PLC0415

    card_size = _size(size)
    _check_fit(floor, min_size)
    if not 24 <= dpi <= 1200:
        raise UsageError("--dpi is between 24 and 1200 (300 to review, 96 for thumbnails)")
    if not 0 <= gutter <= 20:
        raise UsageError("--gutter is between 0 and 20 mm")
    if sheet_backs and not sheets:
        raise UsageError("--sheet-backs goes with --sheets a4|letter")
    if not 0 <= margin <= 30:
        raise UsageError("--margin is between 0 and 30 mm (5: what most printers leave)")
    if sheets:
        from .typeset import assemble  # noqa: PLC0415

        fault = assemble.layout_fault(card_size, sheets, gutter, margin)
        if fault is not None:
            raise UsageError(f"--sheets {sheets}: {fault}")
    chosen = _paths(paths)
    library = load_library(chosen)
    langs = batch.languages(languages, library)
    present = set(batch.languages(["all"], library))
    unknown = [lang for lang in langs if lang not in present]
    if unknown:
        raise UsageError(
            f"--lang {unknown[0]}: no card is in that language here; "
            f"one of {', '.join(sorted(present))} or all"
        )
    if not 100 <= ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    _check_slugs(library, cards, chosen)
    from .config import build_defaults  # noqa: PLC0415

    defaults = build_defaults()
    fallback = defaults.get("fallback") if fallback is None else fallback
    if fallback not in (None, "en"):
        raise UsageError(f"--fallback {fallback}: the language printed in its place is en")
    strict = bool(defaults.get("strict", False)) if strict is None else strict
    options = BuildOptions(
        card_size,
        theme,
        icc,
        floor,
        allow_overflow,
        _jobs(jobs),
        ink_limit=ink_limit,
        min_size=min_size,
    )
    request = batch.Request(
        langs,
        Path(out),
        options,
        slugs=list(cards),
        force=force,
        deck=deck,
        backs=backs,
        sheets=sheets,
        gutter=gutter,
        margin=margin,
        sheet_backs=sheet_backs,
        previews=list(previews),
        dpi=dpi,
        check=check,
        fallback=fallback,
        strict=strict,
    )
    return BuildPlan(library, request)


def _check_slugs(library: Library, slugs: Sequence[str], paths: Sequence[str]) -> None:
    """Every slug asked for is a card of the library (with the closest one when not)."""
    import difflib  # noqa: PLC0415

    known = {card.slug for card in library.cards.values() if card.source is not None}
    for slug in slugs:
        if slug not in known:
            close = difflib.get_close_matches(slug, sorted(known), n=1)
            raise UsageError(
                f"--card {slug}: no such card in {', '.join(paths)}"
                + (f" (did you mean {close[0]}?)" if close else "")
            )


def build(
    paths: Paths | None = None,
    *,
    progress: Advance | None = None,
    stage: Stage | None = None,
    **settings: Any,
) -> BuildReport:
    """Print-ready PDFs of the cards under ``paths``: one per card and language, and
    (as asked) deck files, print-and-play sheets and previews, each file checked by
    the preflight: ``translator build``.  ``settings`` are those of
    :func:`plan_build`; ``progress`` and ``stage`` follow the build.

    The report (:data:`BuildReport`) lists every card (``failed``: those that could
    not be printed, and why), file, preview, deck or sheet file not written, and
    preflight problem; ``ok`` is what the command line exits 0 for.

    >>> report = build("cards/sample", languages=["fr"], cards=["veil-stalker"], jobs=1)
    >>> report.ok, [Path(f).name for f in report.files]
    (True, ['veil-stalker.fr.pdf'])
    """
    return plan_build(paths, **settings).run(progress, stage)


#: Where :func:`preview_card` writes when not told (under the current directory).
PREVIEW_DIR = "out/preview"


@dataclass
class CardPreview:
    """A card file pictured as ``translator build`` prints it (:func:`preview_card`)."""

    card: str
    lang: str
    #: The card file, as given.
    path: str
    #: The picture written (cut at the trim): ``<out>/<slug>.<lang>.png``.
    png: str
    #: The card's PDF, when one was kept (``keep_pdf``, and the build would print it).
    pdf: str | None
    #: Its fit in a few words: ``fits``, ``shrunk to 92 %``, ``refused: the text does
    #: not fit (3.2 mm too tall at 52 %)``.
    summary: str
    #: Whether the build would print it (else ``errors`` say why).
    printable: bool
    #: The text's scale, and how many mm it is too tall at its floor (None: it fits).
    scale: float
    overflow: float | None
    warnings: list[str]
    errors: list[str]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def preview_card(
    path: str,
    *,
    text: str | None = None,
    out: str | os.PathLike[str] | None = None,
    dpi: int = 150,
    library: Paths | None = None,
    theme: str | None = None,
    size: str | CardSize = "arcmage",
    icc: str | None = None,
    floor: float = 0.52,
    min_size: float = 6.0,
    proof: bool = True,
    keep_pdf: bool = False,
    cache: str | os.PathLike[str] | None = None,
) -> CardPreview:
    """The card file ``path`` (any language) laid out exactly as ``translator build``
    lays it out, pictured as a PNG in ``out`` (default ``out/preview``): an editor's
    preview of the text it holds (``text``, unsaved; None: the file's).  ``library``:
    where the card is (default: its deck); ``theme``, ``size``, ``icc``, ``floor``,
    ``min_size``: the build's settings; ``proof``: a soft proof through the press's
    profile (the build's previews' colours; False: PDFium's faster, indicative
    render); ``cache``: where converted artwork is kept (default ``<out>/.cache``).

    A card the build would refuse is pictured too, its faults outlined in red
    (``printable`` False, ``errors`` say why).  Bad input (not a card file, outside
    a library, YAML that does not parse) raises a :class:`UserError` naming the file
    and line.  Warm (the second call in a process) it takes about half a second.

    >>> shown = preview_card("cards/sample/veil-stalker.fr.md")
    >>> shown.summary, shown.png
    ('fits', 'out/preview/veil-stalker.fr.png')
    """
    import time  # noqa: PLC0415

    from .typeset import card_preview  # noqa: PLC0415 - WeasyPrint loads slowly
    from .typeset.options import BuildOptions  # noqa: PLC0415

    start = time.perf_counter()
    if not 24 <= dpi <= 1200:
        raise UsageError("dpi is between 24 and 1200 (150: an editor's preview)")
    _check_fit(floor, min_size)
    target = Path(PREVIEW_DIR if out is None else out)
    found = card_preview.card_version(os.fspath(path), text, _paths(library) if library else [])
    options = BuildOptions(
        _size(size),
        theme,
        icc,
        floor,
        jobs=1,
        min_size=min_size,
        cache_dir=Path(cache) if cache is not None else target / ".cache",
    )
    slug = found.card.slug
    made = card_preview.picture(
        found.card,
        found.lang,
        found.roots,
        options,
        target / f"{slug}.{found.lang}.png",
        dpi,
        proof=proof,
        keep_pdf=keep_pdf,
    )
    result = made.result
    return CardPreview(
        slug,
        found.lang,
        os.fspath(path),
        str(made.png),
        None if made.pdf is None else str(made.pdf),
        card_preview.summary(made),
        made.printable,
        result.scale,
        result.overflow,
        list(result.warnings),
        [*result.errors, *(f"the card font lacks {g}" for g in result.missing_glyphs)],
        time.perf_counter() - start,
    )


def preflight(
    paths: Paths, *, size: str | CardSize | None = None, ink_limit: float = 300.0
) -> list[FileReport]:
    """Prove PDFs print-ready: one report per file, in the order given, with every
    problem found (page, card, object, what to fix); ``report.ok`` when it has no
    error: ``translator preflight``.  ``size``: the card size every card page must
    have (default: only consistent boxes); ``ink_limit``: the total ink allowed (%).

    A file that is not a PDF at all raises an error before anything is checked.

    >>> [report] = preflight("out/veil-stalker.fr.pdf", size="arcmage")
    >>> report.ok, report.pages
    (True, 1)
    """
    from .pdf import preflight as checks  # noqa: PLC0415
    from .textio import InputError  # noqa: PLC0415

    card_size = _size(size) if size else None
    if not 100 <= ink_limit <= 400:
        raise UsageError("--ink-limit is a total ink coverage between 100 and 400 (%)")
    files = [os.fspath(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    for name in files:  # nothing to check at all: an input error, before any check
        fault = checks.input_fault(name)
        if fault is not None:
            raise InputError(name, fault)
    return checks.check_files(
        files,
        size=card_size,
        ink_limit=ink_limit,
        min_ppi=300.0,
        ink=True,
        dpi=checks.DEFAULT_DPI,
    )


# --------------------------------------------------------------------------------------
# the glossaries


def _glossary_library(library: Paths | None) -> list[str]:
    """Libraries whose glossary files add to the shipped ones: those given, else
    ``cards`` when there is one here."""
    if library:
        return _paths(library)
    return [DEFAULT_LIBRARY] if Path(DEFAULT_LIBRARY).is_dir() else []


def load_glossaries(
    languages: Sequence[str], library: Paths | None = None
) -> tuple[dict[str, Glossary], list[Problem]]:
    """The glossaries of English and ``languages``, with the glossary files of
    ``library`` (default: ``cards`` when there is one), and their problems.

    >>> glossaries, problems = load_glossaries(["fr"])
    >>> sorted(glossaries), problems
    (['en', 'fr'], [])
    """
    from .glossary import load_glossary  # noqa: PLC0415

    folders = _glossary_library(library)
    loaded: dict[str, Glossary] = {}
    problems: list[Problem] = []
    for lang in dict.fromkeys(["en", *languages]):
        loaded[lang], found = load_glossary(lang, folders)
        problems += found
    return loaded, problems


@dataclass(frozen=True)
class GlossaryTerm:
    """A target-language term of an entry, with every form the linter recognises."""

    term: str
    status: str
    gender: str | None
    forms: list[str]
    replaced_by: str | None
    date: str | None
    evidence: str | None


@dataclass(frozen=True)
class GlossaryEntry:
    """A glossary entry: an English term and its translations."""

    kind: ClassVar[str] = "entry"

    id: str
    en: str
    section: str
    pos: str
    terms: list[GlossaryTerm]
    adjective: dict[str, str] | None
    note: str | None
    decision: str | None
    see: list[str]
    #: ``file:line`` of the entry.
    where: str

    @classmethod
    def of(cls, entry: Entry, lang: str) -> GlossaryEntry:
        from .glossary import forms  # noqa: PLC0415

        return cls(
            entry.id,
            entry.en,
            entry.section,
            entry.pos,
            [
                GlossaryTerm(
                    t.text,
                    t.status,
                    t.gender,
                    sorted(forms(t.text, lang, entry.pos, t.forms)),
                    t.replaced_by,
                    t.date,
                    t.evidence,
                )
                for t in entry.terms
            ],
            entry.adjective or None,
            entry.note,
            entry.decision,
            list(entry.see),
            f"{entry.path}:{entry.line}",
        )

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator glossary lookup --format json``."""
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class GlossaryAbility:
    """An ability, with its English template and reminder next to it: a translator
    looking one up is comparing the two."""

    kind: ClassVar[str] = "ability"

    id: str
    en: str
    name: str
    en_template: str | None
    en_reminder: str | None
    template: str
    params: list[str]
    reminder: str
    example: str | None
    status: str
    #: Former names: ``term``, ``replaced_by``, ``date``, ``evidence``.
    deprecated: list[dict[str, str | None]]
    note: str | None
    where: str

    @classmethod
    def of(cls, ability: Ability, english: Ability | None) -> GlossaryAbility:
        return cls(
            ability.id,
            ability.en,
            ability.name,
            english.template if english else None,
            english.reminder if english else None,
            ability.template,
            list(ability.params),
            ability.reminder,
            ability.example,
            ability.status,
            [
                {
                    "term": t.text,
                    "replaced_by": t.replaced_by,
                    "date": t.date,
                    "evidence": t.evidence,
                }
                for t in ability.deprecated
            ],
            ability.note,
            f"{ability.path}:{ability.line}",
        )

    def to_dict(self) -> dict[str, Any]:
        """The shape of ``translator glossary lookup --format json``."""
        return {"kind": self.kind, **asdict(self)}


@dataclass
class GlossarySearch:
    """What a glossary search found: entries and abilities, the best matches first,
    and the problems of the glossary files read."""

    query: str
    lang: str
    results: list[GlossaryEntry | GlossaryAbility]
    problems: list[Problem] = field(default_factory=list)


def glossary_search(term: str, lang: str, *, library: Paths | None = None) -> GlossarySearch:
    """Look ``term`` up in the ``lang`` glossary, in English or in ``lang``, in any
    inflected form; when nothing matches a whole term, every entry and ability
    containing it: ``translator glossary lookup``.

    >>> found = glossary_search("créatures", "fr")
    >>> [(r.kind, r.en) for r in found.results][:1]
    [('entry', 'creature')]
    """
    from .glossary import Hit, Matcher, words  # noqa: PLC0415

    loaded, problems = load_glossaries([lang], library)
    target = loaded[lang]
    hits = Matcher(target, side="english").lookup(term) + Matcher(target).lookup(term)
    if not hits:
        needle = " ".join(w for w, _, _ in words(term))
        hits = [
            Hit("term", e.id, e.en, "preferred")
            for e in target.entries.values()
            if needle
            and (needle in e.en.casefold() or any(needle in t.text.casefold() for t in e.terms))
        ]
        hits += [
            Hit("ability", a.id, a.name, a.status)
            for a in target.abilities.values()
            if needle and (needle in a.en.casefold() or needle in a.name.casefold())
        ]
    seen: set[tuple[str, str]] = set()
    results: list[GlossaryEntry | GlossaryAbility] = []
    for hit in hits:
        kind = "ability" if hit.kind == "ability" else "entry"
        if (kind, hit.id) in seen:
            continue
        seen.add((kind, hit.id))
        if kind == "ability":
            english = loaded["en"].abilities.get(hit.id)
            results.append(GlossaryAbility.of(target.abilities[hit.id], english))
        else:
            results.append(GlossaryEntry.of(target.entries[hit.id], lang))
    return GlossarySearch(term, lang, results, problems)


# --------------------------------------------------------------------------------------
# the translation memory

#: The most suggestions :func:`suggest` gives a text (a screenful).
MAX_SUGGESTIONS = 20


@dataclass
class CardSuggestions:
    """What the translation memory offers one card (``translator suggest``)."""

    card: Card
    lang: str
    #: The card's state in ``lang`` (missing, draft, ...).
    state: str
    #: How many English texts the memory holds.
    memory: int
    cutoff: float
    texts: list[Text]

    @property
    def summary(self) -> dict[str, int]:
        exact = sum(1 for t in self.texts if t.exact is not None)
        fuzzy = sum(1 for t in self.texts if t.exact is None and t.fuzzy)
        return {
            "texts": len(self.texts),
            "exact": exact,
            "fuzzy": fuzzy,
            "none": len(self.texts) - exact - fuzzy,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": f"{self.card.deck}/{self.card.slug}",
            "lang": self.lang,
            "state": self.state,
            "memory": self.memory,
            "min": self.cutoff,
            "texts": [t.to_dict() for t in self.texts],
            "summary": self.summary,
        }


def suggest(
    card: str,
    lang: str,
    *,
    library: Paths | None = None,
    cutoff: float = 75.0,
    limit: int = 3,
) -> CardSuggestions:
    """For each text of ``card`` (a slug, ``deck/slug``, guid or file), the exact
    translation the memory has, or its most similar ones (``cutoff`` percent or more,
    ``limit`` each); the card's own translation is never a suggestion for itself.

    >>> found = suggest("veil-stalker", "fr", library="cards/sample")
    >>> found.summary["texts"] > 0
    True
    """
    from .workflow import states  # noqa: PLC0415
    from .workflow.suggestions import card_texts  # noqa: PLC0415

    lang = target_language(lang)
    if not 0 < cutoff <= 100:
        raise UsageError(f"--min {cutoff:g}: a similarity in percent, above 0 and at most 100")
    if not 1 <= limit <= MAX_SUGGESTIONS:
        raise UsageError(f"--limit {limit}: from 1 to {MAX_SUGGESTIONS} suggestions a text")
    loaded = load_library(card_library([card], library))
    found = find_card(loaded, card)
    memory = load_memory(loaded, lang)
    return CardSuggestions(
        found,
        lang,
        states.card_state(found, lang).state,
        len(memory),
        cutoff,
        card_texts(found, lang, memory, cutoff, limit),
    )


def export_tmx(library: Paths | None, lang: str) -> tuple[bytes, list[Unit]]:
    """The translation memory of ``lang`` of the library under ``library`` (its own
    decks, and the TMX files imported into it) as a TMX 1.4 file, and its units."""
    from .workflow import tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    units = load_memory(library, lang, whole=False).units()
    return tmx.write_tmx(units, lang), units


def import_tmx(
    file: str, lang: str, *, library: Paths | None = None, dry_run: bool = False
) -> TmxImport:
    """Add a TMX file's units to the library's memory of ``lang``
    (``LIBRARY/memory/LANG.tmx``), and say what they bring to the cards to translate."""
    from .workflow import stored, tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    lang = target_language(lang)
    content = tmx.read_tmx(file, lang)  # first: a file that cannot be read says so at once
    return stored.import_tmx(content, load_library(library), lang, dry_run=dry_run)


# --------------------------------------------------------------------------------------
# Aminduna sync


def sync_server(server: str | None = None, references: Sequence[str] = ()) -> str:
    """The Aminduna server a pull or push talks to: ``server``, else the one the web
    addresses among ``references`` name, else $TRANSLATOR_SERVER, the configuration's
    ``[aminduna] server``, or the public server.  Addresses naming another server than
    ``server`` are a mistake (:class:`UsageError`)."""
    from .sync import client as sync_client  # noqa: PLC0415
    from .sync.pull import parse_reference  # noqa: PLC0415

    named = {
        sync_client.server_address(ref.server)
        for ref in map(parse_reference, references)
        if ref.server
    }
    if len(named) > 1:
        raise UsageError(f"the addresses name {len(named)} servers; pull from one at a time")
    if named and server is None:
        return named.pop()
    chosen = sync_client.resolve_server(server)
    if named and named != {chosen}:
        raise UsageError(
            f"the address names {named.pop()} but the server is {chosen}: drop --server, "
            "or give an address on that server"
        )
    return chosen


def push_server(deck: str | os.PathLike[str], server: str | None = None) -> str:
    """Where a push of ``deck`` goes: ``server``, else $TRANSLATOR_SERVER, else the
    configuration's ``[aminduna] server``, else the public server: never a server a
    pull record names.  Every record of the deck must name that server (else a
    :class:`~translator.sync.records.RecordError` naming the record and both servers):
    checked here, before any request."""
    return _push_choice(deck, server).address


def _push_choice(deck: str | os.PathLike[str], server: str | None) -> ServerChoice:
    """The :class:`~translator.sync.client.ServerChoice` of a push of ``deck``, its
    records checked against it (:func:`push_server`)."""
    from .sync import client as sync_client  # noqa: PLC0415
    from .sync.records import check_servers  # noqa: PLC0415

    choice = sync_client.choose_server(server)
    check_servers(os.fspath(deck), choice.address, choice.source)
    return choice


def pull(
    references: Sequence[str],
    into: str | os.PathLike[str],
    *,
    server: str | None = None,
    languages: Sequence[str] = ("fr", "eo"),
    search: str | None = None,
    library: str | os.PathLike[str] | None = None,
    keep_local: bool = False,
    take_server: bool = False,
    timeout: float | None = None,
    deadline: float | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> PullResult:
    """Pull decks, cards (web addresses or guids) and a ``search`` from Aminduna into
    the deck directory ``into``, with their translations in ``languages``: ``translator
    pull``.  Anonymous: the routes it reads need no login.  Conflicts are in the
    result (``result.conflicts``), not raised: everything else was pulled.

    ``timeout`` bounds each answer as a whole (default: ``[aminduna] timeout``, else
    30 s), ``deadline`` every request of the pull, retries included (default:
    ``[aminduna] deadline``, else 15 minutes): past it the pull stops, and writes
    nothing."""
    from .sync import client as sync_client  # noqa: PLC0415
    from .sync import pull as sync_pull  # noqa: PLC0415

    limit = sync_client.resolve_deadline(deadline)
    refs = [sync_pull.parse_reference(ref) for ref in references]
    address = sync_server(server, references)
    wait = sync_client.resolve_timeout(option=timeout)
    with sync_client.Client(address, timeout=wait, deadline=limit) as remote:
        return sync_pull.pull(
            remote,
            refs,
            os.fspath(into),
            search=search,
            languages=languages,
            library_root=None if library is None else os.fspath(library),
            keep_local=keep_local,
            take_server=take_server,
            on_progress=on_progress,
        )


def push(
    deck: str | os.PathLike[str],
    lang: str,
    *,
    server: str | None = None,
    token: str | None = None,
    only: Sequence[str] = (),
    dry_run: bool = False,
    force: bool = False,
    include_unreviewed: bool = False,
    library: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    deadline: float | None = None,
    on_card: Callable[[Outgoing, int, int], None] | None = None,
) -> PushResult:
    """Send the translations of ``deck`` in ``lang`` changed since their pull, reviewed
    and lint-clean (``force``: despite lint errors): ``translator push``.  ``token``
    defaults to $TRANSLATOR_TOKEN or the stored login (``translator login``); a
    ``dry_run`` needs none and sends nothing.

    The server is ``server``, else $TRANSLATOR_SERVER, else ``[aminduna] server``,
    else the public one (:func:`push_server`; never a record's).  The token of
    $TRANSLATOR_TOKEN goes only to a server ``server`` or $TRANSLATOR_SERVER names, or
    the public one (:func:`translator.sync.auth.token_for`).  ``timeout`` and
    ``deadline`` as for :func:`pull`; a push stopped by its deadline keeps the records
    of the cards it sent (``result.stopped``)."""
    from .sync import auth  # noqa: PLC0415
    from .sync import client as sync_client  # noqa: PLC0415
    from .sync import push as sync_push  # noqa: PLC0415

    sync_push.check_language(lang)  # before asking for a login the push cannot use
    limit = sync_client.resolve_deadline(deadline)
    choice = _push_choice(deck, server)
    address = choice.address
    remote = None
    user = None
    if not dry_run:
        wait = sync_client.resolve_timeout(option=timeout)
        token = token or auth.token_for(choice)
        user = auth.token_user(token)
        remote = sync_client.Client(address, token, timeout=wait, deadline=limit)
    try:
        return sync_push.push(
            remote,
            os.fspath(deck),
            lang,
            only=only,
            dry_run=dry_run,
            force=force,
            include_unreviewed=include_unreviewed,
            library_root=None if library is None else os.fspath(library),
            on_card=on_card,
            server=address,
            user=user,
        )
    finally:
        if remote is not None:
            remote.close()


# --------------------------------------------------------------------------------------
# the library's own result types, imported when first asked for

_LAZY: Mapping[str, tuple[str, str]] = {
    "BuildReport": ("translator.typeset.batch", "Report"),
    "Config": ("translator.lint.config", "Config"),
    "FileReport": ("translator.pdf.preflight", "FileReport"),
    "Sheet": ("translator.review.sheet", "Sheet"),
    "PullResult": ("translator.sync.pull", "PullResult"),
    "PushResult": ("translator.sync.push", "PushResult"),
    "TmxImport": ("translator.workflow.tmx", "TmxImport"),
}


def __getattr__(name: str) -> Any:
    """``api.BuildReport`` and the other types above, imported on first use (the
    typesetter's import alone takes longer than a lint of the sample)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # noqa: PLC0415

    module, attribute = _LAZY[name]
    return getattr(importlib.import_module(module), attribute)
