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
  more than the exceptions (start-up time matters to a command line): each entry
  point here imports its module when first called, each type when first asked for.

The entry points are not re-exported from the ``translator`` package itself:
``translator.lint`` is the linter's package, so a ``translator.lint`` function would
be replaced by the package as soon as anything imported it.  Write
``from translator import api``.

The package holds one thin module per command group (:mod:`.linting`, :mod:`.library`,
:mod:`.cards`, :mod:`.markup`, :mod:`.glossary`, :mod:`.workflow`, :mod:`.memory`,
:mod:`.exchange`, :mod:`.review`, :mod:`.printing`, :mod:`.theme`, :mod:`.sync`): each
checks what it is asked, calls its stage and shapes the stage's result; what a
command does beyond that lives in its stage (a lint run in :mod:`translator.lint.run`,
a sign-off in :mod:`translator.review.signoff`...).  Every public name is here, at the
package's top.  Results that are a stage's own types (a build's report, a file's
preflight report, a review sheet, the configuration, a glossary entry, a card's
preview...) are named here too (:data:`BuildReport`, :data:`FileReport`,
:data:`Sheet`, :data:`Config`, :data:`GlossaryEntry`, :data:`CardPreview`...) and
imported when first asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path  # noqa: F401 - the examples' (doctest runs them in this namespace)
from typing import TYPE_CHECKING, Any

from ..errors import LibraryProblems

if TYPE_CHECKING:
    from ..cards.aminduna import ImportError_, ImportPlan
    from ..cards.state import STATES
    from ..glossary.search import GlossaryAbility, GlossaryEntry, GlossarySearch, GlossaryTerm
    from ..lint.config import Config
    from ..lint.run import FixResult, LintResult, LintSetup, LintSummary
    from ..paths import DEFAULT_LIBRARY, Paths
    from ..pdf.preflight import FileReport
    from ..review.plan import ReviewPlan, ReviewSheets
    from ..review.sheet import Sheet
    from ..review.signoff import Held, Reviewed, SignOff, sign_off
    from ..sync.client import host_of
    from ..sync.pull import PullResult
    from ..sync.push import PushResult
    from ..sync.run import (
        LoginResult,
        LoginTarget,
        Logout,
        login,
        login_target,
        logout,
        pull,
        push,
        push_server,
        sync_server,
    )
    from ..themes.arcmage.importer import ImportReport as ThemeImport
    from ..typeset.batch import Report as BuildReport
    from ..typeset.card_preview import CardPreview
    from ..workflow.runs import Drafts, ExchangeExport, ExchangeImport, import_exchange
    from ..workflow.states import marked_diff, word_diff
    from ..workflow.stored import MAX_SUGGESTIONS, CardSuggestions, TmxImport, suggest
    from .cards import (
        SHOWN_FIELDS,
        CardListing,
        CardRow,
        CardView,
        DeckListing,
        LibraryCheck,
        check_library,
        list_cards,
        show_card,
    )
    from .exchange import (
        ArcmageExport,
        export_arcmage,
        export_exchange,
        import_arcmage,
    )
    from .glossary import (
        GlossaryCheck,
        GlossaryExport,
        check_glossaries,
        export_glossary,
        glossary_search,
        load_glossaries,
    )
    from .library import card_library, find_card, load_library, target_language, target_languages
    from .linting import fix, lint, lint_options, lint_setup, load_config
    from .markup import (
        MarkupCheck,
        MarkupFormat,
        markup_check,
        markup_format,
        markup_html,
        markup_markdown,
        markup_rule_text,
        markup_rules,
        markup_xml,
    )
    from .memory import export_tmx, import_tmx, load_memory
    from .printing import (
        PREVIEW_DIR,
        Advance,
        BuildPlan,
        Stage,
        build,
        plan_build,
        preflight,
        preview_card,
    )
    from .review import plan_review_sheets, review_sheets
    from .theme import import_theme
    from .workflow import Status, StatusDiff, status, status_diff, translate

__all__ = [
    "DEFAULT_LIBRARY",
    "MAX_SUGGESTIONS",
    "PREVIEW_DIR",
    "SHOWN_FIELDS",
    "STATES",
    "Advance",
    "ArcmageExport",
    "BuildPlan",
    "BuildReport",
    "CardListing",
    "CardPreview",
    "CardRow",
    "CardSuggestions",
    "CardView",
    "Config",
    "DeckListing",
    "Drafts",
    "ExchangeExport",
    "ExchangeImport",
    "FileReport",
    "FixResult",
    "GlossaryAbility",
    "GlossaryCheck",
    "GlossaryEntry",
    "GlossaryExport",
    "GlossarySearch",
    "GlossaryTerm",
    "Held",
    "ImportError_",
    "ImportPlan",
    "LibraryCheck",
    "LibraryProblems",
    "LintResult",
    "LintSetup",
    "LintSummary",
    "LoginResult",
    "LoginTarget",
    "Logout",
    "MarkupCheck",
    "MarkupFormat",
    "Paths",
    "PullResult",
    "PushResult",
    "ReviewPlan",
    "ReviewSheets",
    "Reviewed",
    "Sheet",
    "SignOff",
    "Stage",
    "Status",
    "StatusDiff",
    "ThemeImport",
    "TmxImport",
    "build",
    "card_library",
    "check_glossaries",
    "check_library",
    "export_arcmage",
    "export_exchange",
    "export_glossary",
    "export_tmx",
    "find_card",
    "fix",
    "glossary_search",
    "host_of",
    "import_arcmage",
    "import_exchange",
    "import_theme",
    "import_tmx",
    "lint",
    "lint_options",
    "lint_setup",
    "list_cards",
    "load_config",
    "load_glossaries",
    "load_library",
    "load_memory",
    "login",
    "login_target",
    "logout",
    "marked_diff",
    "markup_check",
    "markup_format",
    "markup_html",
    "markup_markdown",
    "markup_rule_text",
    "markup_rules",
    "markup_xml",
    "plan_build",
    "plan_review_sheets",
    "preflight",
    "preview_card",
    "pull",
    "push",
    "push_server",
    "review_sheets",
    "show_card",
    "sign_off",
    "status",
    "status_diff",
    "suggest",
    "sync_server",
    "target_language",
    "target_languages",
    "translate",
    "word_diff",
]

#: The entry points, each in the module of its command group (imported when it is
#: first called), or, where the API would add nothing to it, the stage's own function
#: (``..sync.run``, ``..review.signoff``): one signature and one docstring, not two.
_FUNCTIONS: Mapping[str, str] = {
    "load_config": ".linting",
    "lint_options": ".linting",
    "lint": ".linting",
    "fix": ".linting",
    "lint_setup": ".linting",
    "load_library": ".library",
    "find_card": ".library",
    "card_library": ".library",
    "target_language": ".library",
    "target_languages": ".library",
    "load_glossaries": ".glossary",
    "glossary_search": ".glossary",
    "export_glossary": ".glossary",
    "check_glossaries": ".glossary",
    "load_memory": ".memory",
    "suggest": "..workflow.stored",
    "export_tmx": ".memory",
    "import_tmx": ".memory",
    "sign_off": "..review.signoff",
    "plan_review_sheets": ".review",
    "review_sheets": ".review",
    "plan_build": ".printing",
    "build": ".printing",
    "preview_card": ".printing",
    "preflight": ".printing",
    "sync_server": "..sync.run",
    "push_server": "..sync.run",
    "pull": "..sync.run",
    "push": "..sync.run",
    "login_target": "..sync.run",
    "login": "..sync.run",
    "logout": "..sync.run",
    "check_library": ".cards",
    "list_cards": ".cards",
    "show_card": ".cards",
    "import_arcmage": ".exchange",
    "export_arcmage": ".exchange",
    "export_exchange": ".exchange",
    "import_exchange": "..workflow.runs",
    "markup_format": ".markup",
    "markup_check": ".markup",
    "markup_rules": ".markup",
    "markup_xml": ".markup",
    "markup_markdown": ".markup",
    "markup_rule_text": ".markup",
    "markup_html": ".markup",
    "import_theme": ".theme",
    "translate": ".workflow",
    "status": ".workflow",
    "status_diff": ".workflow",
}

#: The types (and constants) the API names, imported when first asked for (the
#: typesetter's import alone takes longer than a lint of the sample): the module and
#: the name there.
_LAZY: Mapping[str, tuple[str, str]] = {
    "Advance": (".printing", "Advance"),
    "ArcmageExport": (".exchange", "ArcmageExport"),
    "BuildPlan": (".printing", "BuildPlan"),
    "BuildReport": ("translator.typeset.batch", "Report"),
    "CardListing": (".cards", "CardListing"),
    "CardPreview": ("translator.typeset.card_preview", "CardPreview"),
    "CardRow": (".cards", "CardRow"),
    "CardSuggestions": ("translator.workflow.stored", "CardSuggestions"),
    "CardView": (".cards", "CardView"),
    "Config": ("translator.lint.config", "Config"),
    "DEFAULT_LIBRARY": ("translator.paths", "DEFAULT_LIBRARY"),
    "DeckListing": (".cards", "DeckListing"),
    "Drafts": ("translator.workflow.runs", "Drafts"),
    "ExchangeExport": ("translator.workflow.runs", "ExchangeExport"),
    "ExchangeImport": ("translator.workflow.runs", "ExchangeImport"),
    "FileReport": ("translator.pdf.preflight", "FileReport"),
    "FixResult": ("translator.lint.run", "FixResult"),
    "GlossaryAbility": ("translator.glossary.search", "GlossaryAbility"),
    "GlossaryCheck": (".glossary", "GlossaryCheck"),
    "GlossaryEntry": ("translator.glossary.search", "GlossaryEntry"),
    "GlossaryExport": (".glossary", "GlossaryExport"),
    "GlossarySearch": ("translator.glossary.search", "GlossarySearch"),
    "GlossaryTerm": ("translator.glossary.search", "GlossaryTerm"),
    "Held": ("translator.review.signoff", "Held"),
    "ImportError_": ("translator.cards.aminduna", "ImportError_"),
    "ImportPlan": ("translator.cards.aminduna", "ImportPlan"),
    "LibraryCheck": (".cards", "LibraryCheck"),
    "LintResult": ("translator.lint.run", "LintResult"),
    "LintSetup": ("translator.lint.run", "LintSetup"),
    "LintSummary": ("translator.lint.run", "LintSummary"),
    "LoginResult": ("translator.sync.run", "LoginResult"),
    "LoginTarget": ("translator.sync.run", "LoginTarget"),
    "Logout": ("translator.sync.run", "Logout"),
    "MAX_SUGGESTIONS": ("translator.workflow.stored", "MAX_SUGGESTIONS"),
    "MarkupCheck": (".markup", "MarkupCheck"),
    "MarkupFormat": (".markup", "MarkupFormat"),
    "PREVIEW_DIR": (".printing", "PREVIEW_DIR"),
    "Paths": ("translator.paths", "Paths"),
    "PullResult": ("translator.sync.pull", "PullResult"),
    "PushResult": ("translator.sync.push", "PushResult"),
    "ReviewPlan": ("translator.review.plan", "ReviewPlan"),
    "ReviewSheets": ("translator.review.plan", "ReviewSheets"),
    "Reviewed": ("translator.review.signoff", "Reviewed"),
    "SHOWN_FIELDS": (".cards", "SHOWN_FIELDS"),
    "STATES": ("translator.cards.state", "STATES"),
    "Sheet": ("translator.review.sheet", "Sheet"),
    "SignOff": ("translator.review.signoff", "SignOff"),
    "Stage": (".printing", "Stage"),
    "Status": (".workflow", "Status"),
    "StatusDiff": (".workflow", "StatusDiff"),
    "ThemeImport": ("translator.themes.arcmage.importer", "ImportReport"),
    "TmxImport": ("translator.workflow.stored", "TmxImport"),
    "host_of": ("translator.sync.client", "host_of"),
    "marked_diff": ("translator.workflow.states", "marked_diff"),
    "word_diff": ("translator.workflow.states", "word_diff"),
}


def _entry(name: str, module: str) -> Callable[..., Any]:
    """``name`` of the API's module ``module``, imported when first called: so that
    ``import translator.api`` loads none of them (``help()`` and type checkers see the
    real function: ``translator.api.<module>.<name>``)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module, __name__), name)(*args, **kwargs)

    where = importlib.util.resolve_name(module, __name__)
    call.__name__ = call.__qualname__ = name
    call.__module__ = where
    call.__doc__ = f"See :func:`{where}.{name}`."
    return call


if not TYPE_CHECKING:
    globals().update({name: _entry(name, module) for name, module in _FUNCTIONS.items()})


def __getattr__(name: str) -> Any:
    """``api.BuildReport`` and the other types above, imported on first use;
    ``__test__``: every entry point's own function, whose examples
    ``doctest.testmod(api)`` runs (doctest looks only at what a module defines)."""
    if name == "__test__":
        return {n: getattr(importlib.import_module(m, __name__), n) for n, m in _FUNCTIONS.items()}
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
