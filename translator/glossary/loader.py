"""Loading glossaries: the shipped files, then a library's own, all validated.

The shipped glossaries (``glossaries/`` in the source tree) are package data, so
``translator`` finds them from any directory.  A card library may add entries or
override shipped ones (same id) with its own files: ``glossary/<lang>/*.yaml`` or
``glossary.<lang>.yaml``, next to its cards.  Every file is checked against the
model: unknown keys (with a did-you-mean), wrong values, missing fields, each
reported with its file and line.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from .. import languages, yamlfile
from ..cache import kept
from ..languages.data import LANGUAGE_FILE
from ..limits import MAX_GLOSSARY_BYTES
from ..problems import Problem, did_you_mean
from ..shipped import glossaries_root
from ..textio import InputError, decode, read_file
from .model import (
    ADJECTIVE_FORMS,
    LANGUAGES,
    PARTS_OF_SPEECH,
    PHRASE,
    SECTIONS,
    STATUSES,
    Ability,
    Entry,
    Glossary,
    SubtypeRule,
    Term,
)

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FILE_KEYS = ("language", "source", "subtypes", "entries", "abilities")
SUBTYPE_KEYS = ("order", "separator", "capitalize", "between")
ENTRY_KEYS = (
    "id",
    "en",
    "section",
    "pos",
    "terms",
    "adjective",
    "note",
    "decision",
    "see",
    "definition",
)
TERM_KEYS = ("term", "status", "gender", "forms", "replaced_by", "date", "evidence")
ABILITY_KEYS = (
    "id",
    "en",
    "name",
    "params",
    "template",
    "reminder",
    "example",
    "status",
    "deprecated",
    "note",
)


def shipped_files(lang: str) -> list[Path]:
    """The glossary files that ship with the package, for ``lang`` (not the
    language's own data beside them, ``language.yaml``: :mod:`translator.languages`)."""
    root = glossaries_root()
    if root is None or not (root / lang).is_dir():
        return []
    return sorted(p for p in (root / lang).glob("*.yaml") if p.name != LANGUAGE_FILE)


def library_files(lang: str, paths: Iterable[str]) -> list[Path]:
    """A library's own glossary files for ``lang`` under ``paths``."""
    found: list[Path] = []
    for raw in paths:
        root = Path(raw)
        if root.is_file():
            root = root.parent
        if not root.is_dir():
            continue
        found += sorted(root.rglob(f"glossary.{lang}.yaml"))
        found += sorted(
            p
            for p in root.rglob("*.yaml")
            if p.parent.name == lang and p.parent.parent.name == "glossary"
        )
    return found


def load_glossary(
    lang: str, library: Iterable[str] = (), shipped: bool = True
) -> tuple[Glossary, list[Problem]]:
    """The glossary of ``lang``: shipped files (unless ``shipped`` is false), then the
    library's, which override them."""
    files = [*(shipped_files(lang) if shipped else []), *library_files(lang, library)]

    def load() -> tuple[Glossary, list[Problem]]:
        problems: list[Problem] = []
        glossary = Glossary(lang)
        for path in files:
            load_file(glossary, path, problems)
        return glossary, problems

    # What the files hold is kept for the next run (translator.cache): validated by
    # this package's code with the language's data (genders), read from the same files.
    root = glossaries_root()
    data = [root / lang / LANGUAGE_FILE] if root is not None else []
    code = sorted(Path(__file__).parent.glob("*.py"))
    shape = tuple[Glossary, list[Problem]]
    return kept(f"glossary-{lang}", [*files, *data], code, load, shape)


def load_file(glossary: Glossary, path: Path, problems: list[Problem]) -> None:
    """Add one glossary file's entries, abilities and subtype rule to ``glossary``,
    its problems to ``problems``: a file with problems still adds what it can."""
    display = str(path)
    loaded = _read_mapping(path, display, problems)
    if loaded is None:
        return
    data, node = loaded
    glossary.files.append(display)
    reader = _Reader(display, node, problems)
    reader.keys(data, FILE_KEYS, ())
    language = data.get("language")
    if language != glossary.lang:
        problems.append(
            Problem(
                display,
                reader.line("language"),
                f"language '{language}' in a {glossary.lang} glossary",
                f"write language: {glossary.lang}",
            )
        )
    rule = data.get("subtypes")
    if rule is not None:
        glossary.subtypes = reader.subtype_rule(rule)
    _add_entries(glossary, reader, data)
    _add_abilities(glossary, reader, data)


def _read_mapping(
    path: Path, display: str, problems: list[Problem]
) -> tuple[dict[str, Any], yaml.Node | None] | None:
    """(data, node) of a glossary file, or ``None`` (and a problem) when it cannot be
    read, is not YAML or is not a mapping: nothing of such a file can be used."""
    try:
        text = decode(read_file(path, MAX_GLOSSARY_BYTES, "glossary file"), display)
    except InputError as error:
        problems.append(Problem(display, error.line or 1, error.message, "", error.column))
        return None
    except OSError as error:
        problems.append(Problem(display, 0, f"cannot read: {error.strerror}"))
        return None
    loaded = yamlfile.load(text, display, 1, problems)
    if loaded is None:
        return None
    data, node = loaded
    if not isinstance(data, dict):
        problems.append(
            Problem(
                display,
                1,
                "a glossary file is a mapping",
                "with language:, source: and entries: or abilities:",
            )
        )
        return None
    return data, node


def _add_entries(glossary: Glossary, reader: _Reader, data: dict[str, Any]) -> None:
    """The file's entries (and phrases) into ``glossary``.  A later file overrides an
    earlier one (a library over the shipped data); within one file an id twice is a
    mistake."""
    seen: dict[str, int] = {}
    for index, raw in enumerate(reader.list(data, "entries", hint="entries:\n  - id: ...")):
        entry = reader.entry(raw, ("entries", index), glossary.lang)
        if entry is not None:
            reader.once(seen, entry.id, entry.line)
            if entry.section == PHRASE:
                if reader.phrase(raw, entry, ("entries", index)):
                    glossary.phrases[entry.id] = entry
            else:
                glossary.entries[entry.id] = entry


def _add_abilities(glossary: Glossary, reader: _Reader, data: dict[str, Any]) -> None:
    """The file's abilities into ``glossary``, overriding earlier files' as entries do."""
    seen: dict[str, int] = {}
    for index, raw in enumerate(reader.list(data, "abilities", hint="abilities:\n  - id: ...")):
        ability = reader.ability(raw, ("abilities", index))
        if ability is not None:
            reader.once(seen, ability.id, ability.line)
            glossary.abilities[ability.id] = ability


class _Reader:
    """Turns the YAML of one file into model objects, collecting problems."""

    def __init__(self, path: str, node: yaml.Node | None, problems: list[Problem]) -> None:
        self.path = path
        self.node = node
        self.problems = problems

    def line(self, *where: str | int) -> int:
        return yamlfile.line_of(self.node, *where)

    def problem(self, where: tuple, message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.path, self.line(*where), message, hint))

    def subtype_rule(self, raw: Any) -> SubtypeRule:
        if not isinstance(raw, dict):
            self.problem(
                ("subtypes",),
                "'subtypes' is a mapping",
                'subtypes: {order: reverse, separator: ", ", capitalize: first}',
            )
            return SubtypeRule()
        self.keys(raw, SUBTYPE_KEYS, ("subtypes",))
        separator = raw.get("separator", " ")
        return SubtypeRule(
            self.choice(raw, "order", ("same", "reverse"), "same", ("subtypes",)),
            separator if isinstance(separator, str) else " ",
            self.choice(raw, "capitalize", ("first", "all"), "first", ("subtypes",)),
            self.strings(raw, "between", ("subtypes",)),
        )

    def once(self, seen: dict[str, int], identifier: str, line: int) -> None:
        if identifier in seen:
            self.problems.append(
                Problem(
                    self.path,
                    line,
                    f"id '{identifier}' is used twice",
                    f"also on line {seen[identifier]}; ids are unique",
                )
            )
        seen.setdefault(identifier, line)

    def keys(self, data: dict, allowed: tuple[str, ...], where: tuple) -> None:
        for key in data:
            if key not in allowed:
                self.problems.append(
                    Problem(
                        self.path,
                        yamlfile.key_line_of(self.node, *where, key),
                        f"unknown key '{key}'",
                        did_you_mean(str(key), allowed),
                    )
                )

    def list(self, data: dict, key: str, where: tuple = (), hint: str = "") -> list:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem((*where, key), f"'{key}' must be a list", hint)
            return []
        return value

    def text(self, data: dict, key: str, where: tuple, required: bool = False) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(where, f"missing '{key}'")
            return None
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.problem((*where, key), f"'{key}' must be text", f'{key}: "..."')
            return None
        return str(value)

    def choice(
        self, data: dict, key: str, choices: tuple[str, ...], default: str, where: tuple
    ) -> str:
        value = data.get(key, default)
        if value not in choices:
            self.problem(
                (*where, key), f"unknown {key} '{value}'", did_you_mean(str(value), choices)
            )
            return default
        return str(value)

    def strings(self, data: dict, key: str, where: tuple) -> tuple[str, ...]:
        value = data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
            self.problem((*where, key), f"'{key}' must be a list of texts")
            return ()
        return tuple(str(v) for v in value)

    def identifier(self, data: dict, where: tuple) -> str | None:
        value = self.text(data, "id", where, required=True)
        if value is not None and not _ID_RE.match(value):
            self.problem(
                (*where, "id"),
                f"id '{value}' is not a slug",
                "lower-case letters, digits and hyphens: the English term slugified",
            )
            return None
        return value

    def term(self, raw: Any, where: tuple, lang: str) -> Term | None:
        if isinstance(raw, str):
            return Term(raw, path=self.path, line=self.line(*where))
        if not isinstance(raw, dict):
            self.problem(where, "a term is a mapping", "- term: ...\n  status: preferred")
            return None
        self.keys(raw, TERM_KEYS, where)
        text = self.text(raw, "term", where, required=True)
        if text is None:
            return None
        gender = raw.get("gender")
        genders = languages.get(lang).genders
        if gender is not None and gender not in genders:
            self.problem(
                (*where, "gender"),
                f"gender '{gender}'",
                f"{languages.get(lang).name} nouns only: {' or '.join(genders)}"
                if genders
                else f"no gender in {lang}",
            )
            gender = None
        date = self.text(raw, "date", where)
        if date is not None and not _DATE_RE.match(date):
            self.problem((*where, "date"), f"date '{date}' is not YYYY-MM-DD")
        return Term(
            text,
            self.choice(raw, "status", STATUSES, "preferred", where),
            gender,
            self.strings(raw, "forms", where),
            self.text(raw, "replaced_by", where),
            date,
            self.text(raw, "evidence", where),
            self.path,
            self.line(*where),
        )

    def entry(self, raw: Any, where: tuple, lang: str) -> Entry | None:
        if not isinstance(raw, dict):
            self.problem(where, "an entry is a mapping", "- id: army\n  en: army\n  terms: ...")
            return None
        self.keys(raw, ENTRY_KEYS, where)
        identifier = self.identifier(raw, where)
        english = self.text(raw, "en", where, required=True)
        if identifier is None or english is None:
            return None
        terms = [
            t
            for i, r in enumerate(self.list(raw, "terms", where))
            if (t := self.term(r, (*where, "terms", i), lang)) is not None
        ]
        if lang != "en" and not terms and not raw.get("note") and raw.get("section") != PHRASE:
            # A concept with no fixed term ('fellow: depends on the context') says so.
            self.problem(
                where,
                f"entry '{identifier}' has no terms",
                "terms:\n  - term: ...\n    status: preferred (or a note saying why there is none)",
            )
        adjective = raw.get("adjective") or {}
        if not isinstance(adjective, dict) or any(k not in ADJECTIVE_FORMS for k in adjective):
            self.problem((*where, "adjective"), "'adjective' maps m, f, mp, fp to forms")
            adjective = {}
        return Entry(
            identifier,
            english,
            self.choice(raw, "section", SECTIONS, "concept", where),
            self.choice(raw, "pos", PARTS_OF_SPEECH, "noun", where),
            terms,
            {str(k): str(v) for k, v in adjective.items()},
            self.text(raw, "note", where),
            self.text(raw, "decision", where),
            self.strings(raw, "see", where),
            self.text(raw, "definition", where),
            self.path,
            self.line(*where),
        )

    def phrase(self, raw: dict, entry: Entry, where: tuple) -> bool:
        """Is a ``section: phrase`` entry well formed?  A phrase (GL104) names the
        English words and every rendering a translation may use, all equally good: no
        gender, no adjective, nothing deprecated (a phrase has no history to follow)."""
        problems = len(self.problems)
        if entry.pos != PHRASE:
            self.problem(
                (*where, "pos") if "pos" in raw else where,
                f"phrase '{entry.id}' has pos '{entry.pos}'",
                "a phrase entry has pos: phrase (its words are found as written)",
            )
        if not entry.terms:
            self.problem(
                where,
                f"phrase '{entry.id}' has no renderings",
                "terms:\n  - term: jusqu'à la fin du tour\n    evidence: ... (every "
                "rendering a translation may use)",
            )
        for index, term in enumerate(entry.terms):
            if term.deprecated or term.gender or term.replaced_by:
                self.problem(
                    (*where, "terms", index),
                    f"rendering '{term.text}' of phrase '{entry.id}' has "
                    + (
                        "a status deprecated"
                        if term.deprecated
                        else "a gender"
                        if term.gender
                        else "replaced_by"
                    ),
                    "a phrase's renderings are all admitted: give term, status "
                    "(preferred or admitted), forms and evidence only",
                )
        if entry.adjective or entry.see:
            self.problem(
                where,
                f"phrase '{entry.id}' has " + ("an adjective" if entry.adjective else "see"),
                "a phrase entry has id, en, section, pos, terms and note",
            )
        return len(self.problems) == problems

    def ability(self, raw: Any, where: tuple) -> Ability | None:
        if not isinstance(raw, dict):
            self.problem(where, "an ability is a mapping", "- id: flying\n  en: Flying\n  ...")
            return None
        self.keys(raw, ABILITY_KEYS, where)
        identifier = self.identifier(raw, where)
        english = self.text(raw, "en", where, required=True)
        name = self.text(raw, "name", where, required=True)
        if identifier is None or english is None or name is None:
            return None
        deprecated = [
            t
            for i, r in enumerate(self.list(raw, "deprecated", where))
            if (t := self.term(r, (*where, "deprecated", i), "")) is not None
        ]
        for term in deprecated:
            term.status = "deprecated"
        return Ability(
            identifier,
            english,
            name,
            self.strings(raw, "params", where),
            self.text(raw, "template", where) or name,
            self.text(raw, "reminder", where) or "",
            self.text(raw, "example", where),
            self.choice(raw, "status", STATUSES, "preferred", where),
            deprecated,
            self.text(raw, "note", where),
            self.path,
            self.line(*where),
        )


def load_all(library: Iterable[str] = ()) -> tuple[dict[str, Glossary], list[Problem]]:
    """Every language's glossary."""
    library = list(library)
    glossaries: dict[str, Glossary] = {}
    problems: list[Problem] = []
    for lang in LANGUAGES:
        glossaries[lang], found = load_glossary(lang, library)
        problems += found
    return glossaries, problems
