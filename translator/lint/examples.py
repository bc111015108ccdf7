"""Executable rule examples: a lint rule's ``bad`` and ``good`` examples, run.

Every rule documents itself with a bad and a good example (``translator lint --explain
CODE``, docs/rules.md).  A markup rule's examples are card text, which
:func:`translator.markup.check_text` checks as it is.  A lint rule compares a
translation with its English card, a card with other cards, or a card with a setting,
so its examples are small card sets written in this format, one line per value::

    en: Deal 2 damage to target creature.
    fr: Inflige 3 blessures à la créature ciblée.

- ``<lang>: <value>`` is the card text of one language version (``en``, ``fr``,
  ``eo``); ``<lang>.<field>: <value>`` is a front matter field of that card file
  (``name``, ``name2``, ``subtype``, ``info``, ``type``, ``faction``, ``lint-ignore``,
  ``source``, ``wip``...), written as the file writes it (YAML); a field given with no
  value is left out of the file.
- A line indented by two spaces continues the value on a new line.  Card text writes a
  line break as ``\\`` at the end of a line, as card files do, so there are no escapes;
  an empty line between two continuation lines is an empty line of the value (a new
  paragraph).
- A line ``---`` starts another card (library rules compare cards).
- A line ``settings.<key>: <value>`` sets a lint setting for the whole example
  (``french-spaces``, ``apostrophe``, ``esperanto-quotes``, ``spelling``: see
  :mod:`translator.lint.config`).
- A line starting with ``#`` is a comment for the reader.

What an example leaves out is the card of ``glossaries/lint/examples.yaml``: a Gaian
creature named *Card*, *Carte*, *Karto*; a translation's ``source`` is the fingerprint
of its English card (it is up to date) unless the example gives one.  An example is
linted in memory, as a library of those card files, by the real engine
(:func:`lint_example`), and its fixes are applied by the real fix machinery
(:func:`fix_example`): ``tests/lint/test_rule_examples.py`` checks that every rule's bad
example reports it, that its good one does not, and that its fix removes the finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .. import markup
from ..cards.files import parse_card_text
from ..cards.model import (
    LANGUAGE_NAMES,
    SOURCE_LANGUAGE,
    CardFile,
    Library,
    source_fingerprint,
)
from ..diagnostics import REGISTRY
from ..problems import Problem
from ..shipped import glossaries_root
from ..textio import InputError
from ..yamlfile import safe_load
from .config import CHOICES
from .engine import Options, Resources, lint
from .fixes import fix_library
from .model import Finding
from .rule import MARKUP

__all__ = [
    "Example",
    "ExampleCard",
    "Version",
    "card_files",
    "example_codes",
    "fix_example",
    "lint_example",
    "lint_files",
    "parse_example",
]

#: The deck the example's cards are filed in (it names their paths in findings).
DECK = "example"
#: The settings an example may set, besides the typographic choices.
_BOOLEAN_SETTINGS = ("spelling",)
_KEY_LINE = re.compile(r"(?P<lang>[a-z]{2})(?:\.(?P<field>[a-z][a-z0-9-]*))?:(?: (?P<value>.*))?$")
_SETTING_LINE = re.compile(r"settings\.(?P<key>[a-z-]+):(?: (?P<value>.*))?$")
_CONTINUATION = "  "
_SEPARATOR = "---"
TEXT = "text"


@dataclass
class Version:
    """One language version of an example card: its text and front matter values."""

    lang: str
    #: Field -> value as written in the example (``text`` is the card text).
    values: dict[str, str] = field(default_factory=dict)
    #: Field -> the example line it starts on (for messages).
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class ExampleCard:
    """One card of an example: its versions by language, in the example's order."""

    versions: dict[str, Version] = field(default_factory=dict)
    #: The example line the card starts on (for messages).
    line: int = 1


@dataclass
class Example:
    """A parsed example: cards, the lint settings it sets, and where it came from."""

    cards: list[ExampleCard]
    settings: dict[str, object] = field(default_factory=dict)
    origin: str = "example"

    def languages(self) -> list[str]:
        """The languages of its versions (English first): what resources it needs."""
        found = {lang for card in self.cards for lang in card.versions}
        return sorted(found, key=lambda lang: (lang != SOURCE_LANGUAGE, lang))


# --------------------------------------------------------------------------------------
# Reading the format.


def parse_example(text: str, origin: str = "example") -> Example:
    """Read an example; a line that is not of the format raises :class:`InputError`
    naming ``origin`` and the line, so that a broken example says where it breaks."""
    cards = [ExampleCard()]
    settings: dict[str, object] = {}
    current: tuple[Version, str] | None = None
    pending_blank = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(_CONTINUATION) and line.strip():
            if current is None:
                raise InputError(origin, "a continuation line must follow a value", number)
            version, key = current
            previous = version.values[key]
            joined = "\n" * (pending_blank + 1) if previous else ""
            version.values[key] = previous + joined + line[len(_CONTINUATION) :]
            pending_blank = 0
            continue
        if not line.strip():
            pending_blank += 1 if current is not None else 0
            continue
        current, pending_blank = None, 0
        if line.startswith("#"):
            continue
        if line == _SEPARATOR:
            cards.append(ExampleCard(line=number + 1))
            continue
        setting = _SETTING_LINE.match(line)
        if setting is not None:
            key, value = setting["key"], _setting(setting["key"], setting["value"], origin, number)
            settings[key] = value
            continue
        current = _value_line(cards[-1], line, origin, number)
    if not any(card.versions for card in cards):
        raise InputError(origin, "no card: write lines such as 'en: Draw a card.'", 1)
    for card in cards:
        if not card.versions:
            raise InputError(origin, "a card with no line between two '---'", card.line)
    return Example(cards, settings, origin)


def _value_line(card: ExampleCard, line: str, origin: str, number: int) -> tuple[Version, str]:
    """File a ``<lang>[.<field>]: <value>`` line under its card; returns where it went
    (continuation lines add to it)."""
    match = _KEY_LINE.match(line)
    if match is None:
        raise InputError(
            origin,
            f"expected '<lang>: <text>', '<lang>.<field>: <value>', 'settings.<key>: "
            f"<value>', '---' or a line indented by two spaces, not {line!r}",
            number,
        )
    lang, key = match["lang"], match["field"] or TEXT
    if lang not in LANGUAGE_NAMES:
        raise InputError(
            origin, f"unknown language {lang!r} (one of {_listed(LANGUAGE_NAMES)})", number
        )
    version = card.versions.setdefault(lang, Version(lang))
    if key in version.values:
        raise InputError(
            origin,
            f"{lang}.{key} is given twice in this card: continue a value with lines "
            "indented by two spaces, or start another card with '---'",
            number,
        )
    version.values[key] = match["value"] or ""
    version.lines[key] = number
    return version, key


def _setting(key: str, raw: str | None, origin: str, number: int) -> object:
    """A ``settings.<key>`` value, checked as the configuration file checks it."""
    if key in CHOICES:
        if raw not in CHOICES[key]:
            raise InputError(
                origin, f"settings.{key} is one of {_listed(CHOICES[key])}, not {raw!r}", number
            )
        return raw
    if key in _BOOLEAN_SETTINGS:
        if raw not in ("true", "false"):
            raise InputError(origin, f"settings.{key} is true or false, not {raw!r}", number)
        return raw == "true"
    known = (*CHOICES, *_BOOLEAN_SETTINGS)
    raise InputError(origin, f"unknown setting {key!r} (one of {_listed(known)})", number)


def _listed(values: Iterable[str]) -> str:
    return ", ".join(repr(value) for value in values)


# --------------------------------------------------------------------------------------
# The card files an example stands for.


@lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    """What an example leaves out: ``glossaries/lint/examples.yaml``."""
    root = glossaries_root()
    if root is None:
        raise FileNotFoundError("glossaries/lint/examples.yaml is not installed")
    data = safe_load((root / "lint" / "examples.yaml").read_text(encoding="utf-8"))
    return data


def _slug(example: Example, index: int) -> str:
    """``card``, or ``card-1``, ``card-2``... when the example compares cards."""
    return "card" if len(example.cards) == 1 else f"card-{index + 1}"


def card_files(example: Example) -> dict[str, str]:
    """The card files (path -> content) of ``example``: what :func:`lint_example`
    lints.  A value that makes no valid card file raises :class:`InputError` on the
    example's line, with the card checker's message."""
    files: dict[str, str] = {}
    defaults = _defaults()
    for index, card in enumerate(example.cards):
        slug = _slug(example, index)
        english = card.versions.get(SOURCE_LANGUAGE, Version(SOURCE_LANGUAGE))
        source_path = f"{DECK}/{slug}.{SOURCE_LANGUAGE}.md"
        front = _front(english, defaults["english"])
        files[source_path], source = _parsed(source_path, front, english, card, example.origin)
        for lang, version in card.versions.items():
            if lang == SOURCE_LANGUAGE:
                continue
            path = f"{DECK}/{slug}.{lang}.md"
            first = {
                "name": defaults["names"].get(lang, defaults["english"]["name"]),
                "source": f'"{source_fingerprint(source)}"',
            }
            front = _front(version, first)
            files[path], _ = _parsed(path, front, version, card, example.origin)
    return files


def _front(version: Version, defaults: Mapping[str, str]) -> dict[str, str]:
    """The front matter of a version's file: the defaults (or the version's values for
    them), then its other fields in the example's order; a field given with no value is
    left out."""
    front = {key: version.values.get(key, value) for key, value in defaults.items()}
    front.update((k, v) for k, v in version.values.items() if k != TEXT)
    return {key: value for key, value in front.items() if value != ""}


def _file(front: Mapping[str, str], version: Version) -> str:
    """A card file: its front matter, one line per field as given, then its text."""
    lines = "".join(f"{key}: {value}\n" for key, value in front.items())
    return f"---\n{lines}---\n{version.values.get(TEXT, '')}\n"


def _parsed(
    path: str, front: Mapping[str, str], version: Version, card: ExampleCard, origin: str
) -> tuple[str, CardFile]:
    """The file's content and its parse; its first problem is an error on the example's
    line (of the field it is about, else of the version's first line)."""
    text = _file(front, version)
    problems: list[Problem] = []
    parsed = parse_card_text(path, DECK, text, problems)
    if problems or parsed is None:
        problem = problems[0] if problems else Problem(path, 1, "not a card file")
        keys = list(front)  # file line 1 is the opening ---, then one line per field
        key = keys[problem.line - 2] if 2 <= problem.line < len(keys) + 2 else None
        line = version.lines.get(key or "", min(version.lines.values(), default=card.line))
        raise InputError(origin, f"{version.lang}: {problem.message}", line)
    return text, parsed


def _library(files: Mapping[str, str]) -> Library:
    """The library of one deck's card files, in memory (as ``cards.load_library`` reads
    them from disk)."""
    library = Library()
    for path, text in files.items():
        parsed = parse_card_text(path, DECK, text, [])
        if parsed is not None:
            library.add(parsed)
    return library


# --------------------------------------------------------------------------------------
# Linting and fixing.


def _options(opt_in: Iterable[str]) -> Options:
    """The default rules, and the opt-in ones named (a rule's own example runs it)."""
    extra = [code for code in opt_in if code not in {r.code for r in REGISTRY.select()}]
    if not extra:
        return Options()
    return Options(select=[rule.code for rule in REGISTRY.select()] + extra)


@contextmanager
def _settings(resources: Resources, settings: Mapping[str, object]) -> Iterator[None]:
    """``resources`` with the example's settings over the configured ones, meanwhile:
    the resources are shared (loading glossaries is slow), the settings are not."""
    saved = resources.settings
    resources.settings = {**saved, **settings}
    try:
        yield
    finally:
        resources.settings = saved


def lint_files(
    files: Mapping[str, str],
    resources: Resources,
    settings: Mapping[str, object] | None = None,
    opt_in: Iterable[str] = (),
) -> list[Finding]:
    """The findings on these card files (path -> content) of one deck: every default
    rule, and the ``opt_in`` ones."""
    with _settings(resources, settings or {}):
        return lint(_library(files), resources, _options(opt_in)).findings


def lint_example(
    example: Example, resources: Resources, opt_in: Iterable[str] = ()
) -> list[Finding]:
    """The findings on ``example``'s card files, linted as a library with its settings.

    ``resources`` must hold the example's languages (``lint.load_resources``)."""
    return lint_files(card_files(example), resources, example.settings, opt_in)


def fix_example(
    example: Example, resources: Resources, codes: Iterable[str] | None = None
) -> dict[str, str]:
    """The example's card files once ``translator lint --fix`` has fixed them (only the
    findings of ``codes``, when given): the same passes, the same checks that a fix
    changes only what it means to."""
    files = card_files(example)
    wanted = None if codes is None else set(codes)

    def findings_on(library: Library) -> list[Finding]:
        with _settings(resources, example.settings):
            found = lint(library, resources, _options(wanted or ())).findings
        return [f for f in found if wanted is None or f.code in wanted]

    library = _library(files)
    result = fix_library(library, findings_on, findings_on(library), files.__getitem__)
    return {**files, **result.contents}


def example_codes(code: str, text: str, resources: Resources) -> list[str]:
    """The codes reported on rule ``code``'s example ``text``: a markup rule's example
    is card text, checked as it is; a lint rule's is in this module's format."""
    rule = REGISTRY.get(code)
    if rule is None:
        raise KeyError(f"no rule {code}")
    if rule.target == MARKUP.name:
        return [diagnostic.code for diagnostic in markup.check_text(text)]
    example = parse_example(text, f"{code} example")
    return [finding.code for finding in lint_example(example, resources, opt_in=[code])]
