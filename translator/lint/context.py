"""What a lint rule sees: one card version, its English source, and the language data.

Everything a rule may need is computed once and cached: the parsed text of a source
card is shared by its French and Esperanto translations, the glossary indexes by
every card of a language.  Rules stay small functions over a :class:`Subject`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import yaml

from .. import languages
from ..cards.model import SOURCE_LANGUAGE, Card, CardFile, source_fingerprint
from ..diagnostics import Applicability, RegistryError, Rule
from ..glossary.inflection import forms as inflect
from ..glossary.matcher import Match, Matcher, normalize, words
from ..glossary.model import Glossary
from ..markup.parser import ParseResult, parse
from ..markup.tree import Document
from ..problems import Problem
from ..shipped import glossaries_root
from ..yamlfile import safe_load
from .model import About, Edit, Finding, PlainText, plain_text
from .numbers import NO_PHRASES, Phrases

T = TypeVar("T")

#: Where a finding is: (path, line, column) of character ``offset`` of a field.
Locator = Callable[[CardFile, str, int], tuple[str, int, int]]


def language_file(lang: str) -> Path | None:
    """The linter's data for ``lang`` (number words, English words): glossaries/lint/."""
    root = glossaries_root()
    path = None if root is None else root / "lint" / f"{lang}.yaml"
    return path if path is not None and path.is_file() else None


def read_language_data(lang: str, problems: list[Problem]) -> dict[str, Any]:
    path = language_file(lang)
    if path is None:
        return {}
    try:
        data = safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problems.append(
            Problem(
                str(path),
                mark.line + 1 if mark else 1,
                f"not valid YAML: {getattr(error, 'problem', error)}",
            )
        )
        return {}
    if not isinstance(data, dict):
        problems.append(Problem(str(path), 1, "expected a mapping (language, numbers, words)"))
        return {}
    return data


def number_words(data: dict[str, Any]) -> dict[str, str]:
    """Normalized number word -> its value as digits."""
    table: dict[str, str] = {}
    for value, spellings in (data.get("numbers") or {}).items():
        for spelling in spellings or []:
            table[normalize(str(spelling))] = str(value)
    return table


@dataclass
class Language:
    """A target language's glossary, indexes and linter data."""

    lang: str
    glossary: Glossary
    numbers: dict[str, str]
    #: Words the spelling rule accepts beyond the dictionary (the linter data's
    #: ``spelling`` list, normalized).
    accepted: frozenset[str] = frozenset()
    #: Derived data shared by the rules (a footer line, ...), computed once.
    cache: dict[object, Any] = field(default_factory=dict)
    #: Multi-word number words (*once per*) and the idioms whose number words are
    #: no numbers (*no one*): the linter data's ``numbers`` and ``idioms``.
    phrases: Phrases = NO_PHRASES
    #: A full word -> the elided form that stands for it (*que* -> *qu*), from the
    #: linter data's ``elisions``: word sequences compare with the elision applied.
    elided: dict[str, str] = field(default_factory=dict)

    def memo(self, key: object, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per language (rules derive data from the glossary)."""
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    @cached_property
    def spellings(self) -> dict[str, str]:
        """A number's value -> its first spelling in the language's number words."""
        found: dict[str, str] = {}
        for word, value in self.numbers.items():
            found.setdefault(value, word)
        return found

    def subtype(self, english: str) -> str | None:
        """The glossary's rendering of an English subtype (None: a word is missing)."""
        key = ("subtype", english)
        if key not in self.cache:
            self.cache[key] = self.glossary.subtype(english)[0]
        return self.cache[key]

    @cached_property
    def matcher(self) -> Matcher:
        """Target terms (preferred, admitted, deprecated) in their inflected forms."""
        return Matcher(self.glossary)

    @cached_property
    def english(self) -> Matcher:
        """The English side of this glossary: terms the source may use."""
        return Matcher(self.glossary, side="english")

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every word of every target form: words that are this language's, not English."""
        return frozenset(
            word
            for key in self.matcher.index.values()
            for candidate, _ in key
            for word in candidate
        )

    @cached_property
    def heads(self) -> dict[str, frozenset[str]]:
        """Entry id -> forms of the first word of its multi-word terms (not deprecated).

        A phrase is written with other articles than the glossary's (*j'inflige les
        dégâts* for *infliger des dégâts*): its head, in any form, is taken as the term.
        A one-word term is all head: found even inside a longer term that the matcher
        took as a whole (*cité* in *points de défense de la cité*).
        """
        found: dict[str, frozenset[str]] = {}
        for entry in self.glossary.entries.values():
            heads: set[str] = set()
            for term in entry.terms:
                if term.deprecated:
                    continue
                parts = term.text.split()
                if len(parts) == 1:
                    heads |= {
                        normalize(f) for f in inflect(term.text, self.lang, entry.pos, term.forms)
                    }
                else:
                    heads |= {normalize(f) for f in inflect(parts[0], self.lang, entry.pos)}
            if heads:
                found[entry.id] = frozenset(heads)
        return found

    @cached_property
    def narrower(self) -> dict[str, list[str]]:
        """Entry id -> entries whose English term contains it ('defense strength' ->
        'city defense strength'): a narrower term says at least as much."""
        by_words = {e.id: f" {normalize(e.en)} " for e in self.glossary.entries.values()}
        return {
            entry_id: [
                other
                for other, words_ in by_words.items()
                if other != entry_id and english in words_
            ]
            for entry_id, english in by_words.items()
        }

    @cached_property
    def abilities_by_english(self) -> dict[str, str]:
        return {normalize(a.en): a.id for a in self.glossary.abilities.values()}


#: What tells which card versions' text does not fit its box (PR101): given (card,
#: language, tag) triples, it yields (tag, mm too tall, scale tried) for each that does
#: not.  The typesetter measures it (``translator.typeset.overflow.overflowing``); it
#: comes after the linter, so whoever runs the linter hands it in (``Options.fit``).
FitMeasure = Callable[[Sequence[tuple[Card, str, Any]]], Iterable[tuple[Any, float, float]]]


@dataclass
class Resources:
    """Languages, English data and library-wide facts shared by every subject."""

    english: Language
    languages: dict[str, Language]
    english_words: frozenset[str]
    #: The configured ``allow-english`` words (normalized).
    allowed_words: set[str] = field(default_factory=set)
    #: Words of the library's card names, by language: a card names another card.
    name_words: dict[str, set[str]] = field(default_factory=dict)
    #: The library's card names as word tuples, by language (the capitals of titles,
    #: FR301: another card's name is a proper noun); see :mod:`.capitals`.
    card_names: Mapping[str, set[tuple[str, ...]]] = field(default_factory=dict)
    _allowed: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    #: Style settings (``french-spaces``, ``apostrophe``, ``spelling``).
    settings: dict[str, object] = field(default_factory=dict)
    #: How text is measured for fit (PR101), if the caller gave a measure.
    fit: FitMeasure | None = None

    def set_names(self, name_words: dict[str, set[str]]) -> None:
        """The card-name words of the library being linted."""
        self.name_words = name_words
        self._allowed.clear()

    def allowed(self, lang: str) -> frozenset[str]:
        """Words never reported as English left in a ``lang`` text."""
        found = self._allowed.get(lang)
        if found is None:
            found = self._allowed[lang] = frozenset(
                self.allowed_words | self.name_words.get(lang, set())
            )
        return found

    def language(self, lang: str) -> Language:
        found = self.languages.get(lang)
        if found is None:
            found = Language(lang, Glossary(lang), {})
            self.languages[lang] = found
        return found


class CardSource:
    """The English card: parsed once, read by the rules of every translation."""

    def __init__(self, card: Card, file: CardFile) -> None:
        self.card = card
        self.file = file
        self._english: dict[str, list[tuple[int, Match]]] = {}
        #: What rules derive from the English text, shared by its translations.
        self._memo: dict[object, Any] = {}

    def memo(self, key: object, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per English card (its translations all need it)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def result(self) -> ParseResult:
        return parse(self.file.body, self.file.body_line)

    @cached_property
    def fingerprint(self) -> str:
        """The English card's fingerprint, as its translations should hold it."""
        return source_fingerprint(self.file)

    @cached_property
    def plain(self) -> PlainText:
        return plain_text(self.result.document, SOURCE_LANGUAGE)

    def forget(self) -> None:
        """Drop the parse tree and what is derived from it (recomputed if needed)."""
        _release(self.__dict__.pop("result", None))
        self.__dict__.pop("plain", None)
        self._english.clear()
        self._memo.clear()

    def english_matches(self, language: Language) -> list[tuple[int, Match]]:
        """Glossary terms (the English side of ``language``'s glossary) in the printed
        text: (paragraph index, match)."""
        found = self._english.get(language.lang)
        if found is None:
            found = [
                (paragraph.index, match)
                for paragraph in self.plain.paragraphs
                for match in language.english.find(paragraph.text, paragraph.tokens)
            ]
            self._english[language.lang] = found
        return found


def _release(result: ParseResult | None) -> None:
    """Break a parse tree's reference cycle (its nodes' lazy positions point back at
    it), so that reference counting frees it at once instead of the garbage collector."""
    if result is not None:
        result.document = Document(())
        result.paragraphs.clear()


def file_locator(file: CardFile, key: str, offset: int) -> tuple[str, int, int]:
    """Position of character ``offset`` of a field in a card file."""
    if key == "text":
        body = file.body
        offset = max(0, min(offset, len(body)))
        column = offset - (body.rfind("\n", 0, offset) + 1) + 1
        return file.path, file.body_line + body.count("\n", 0, offset), column
    line = file.lines.get(key)
    if line is None:
        return file.path, file.line("name") if key != "name" else 1, 1
    lines = file.front_matter.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    column = text.find(":") + 1
    while column < len(text) and text[column] == " ":
        column += 1
    if column < len(text) and text[column] in "\"'":
        column += 1
    return file.path, line, column + offset + 1


class Subject:
    """One card version to lint, with its source (for a translation) and language."""

    def __init__(
        self,
        card: Card,
        file: CardFile,
        source: CardSource | None,
        language: Language,
        resources: Resources,
        locator: Locator = file_locator,
    ) -> None:
        self.card = card
        self.file = file
        self.lang = file.lang
        self.source = source
        self.language = language
        self.resources = resources
        self.locator = locator
        #: Results shared by several rules (computed by the first that needs them);
        #: those keyed ``("tree", name)`` are derived from the parse tree and dropped
        #: with it (:meth:`forget`).
        self.cache: dict[object, Any] = {}

    @property
    def is_translation(self) -> bool:
        return self.lang != SOURCE_LANGUAGE and self.source is not None

    def memo(self, key: object, compute: Callable[[], T]) -> T:
        """``compute()``, once per subject: the pass that the rules of one family share
        (TR1, GL1), made by the first of them to run; each reports its own part."""
        if key not in self.cache:
            self.cache[key] = compute()
        found: T = self.cache[key]
        return found

    def forget(self) -> None:
        """Drop the parse tree and what is derived from it (recomputed if needed)."""
        result = self.__dict__.pop("result", None)
        if self.source is None or result is not self.source.__dict__.get("result"):
            _release(result)  # a source's tree is the source's to release
        for name in ("plain", "matches", "term_ids", "words"):
            self.__dict__.pop(name, None)
        # What rules derive from the tree, keyed ("tree", name): dropped with it.
        for key in [k for k in self.cache if isinstance(k, tuple) and k[:1] == ("tree",)]:
            del self.cache[key]

    @cached_property
    def result(self) -> ParseResult:
        if self.source is not None and self.file is self.source.file:
            return self.source.result
        return parse(self.file.body, self.file.body_line)

    @cached_property
    def plain(self) -> PlainText:
        if self.source is not None and self.file is self.source.file:
            return self.source.plain
        return plain_text(self.result.document, self.lang)

    @cached_property
    def matches(self) -> list[tuple[int, Match]]:
        """Target glossary terms in the printed text: (paragraph index, match)."""
        found: list[tuple[int, Match]] = []
        for paragraph in self.plain.paragraphs:
            found.extend(
                (paragraph.index, m)
                for m in self.language.matcher.find(paragraph.text, paragraph.tokens)
            )
        return found

    @cached_property
    def term_ids(self) -> set[str]:
        return {match.hit.id for _, match in self.matches}

    @cached_property
    def words(self) -> set[str]:
        """Every printed word, normalized."""
        return {word for p in self.plain.paragraphs for word, _, _ in p.tokens}

    def uses(self, entry_id: str) -> bool:
        """Does the text use a term of this entry (any form, a phrase's head, a
        narrower entry's term, or in a language that joins compounds in one word, a
        compound holding the term: :meth:`translator.languages.Language.compound_holds`)?"""
        if entry_id in self.term_ids:
            return True
        heads = self.language.heads.get(entry_id)
        if heads is not None:
            if not heads.isdisjoint(self.words):
                return True
            if languages.get(self.lang).compound_holds(self.words, heads):
                return True  # Esperanto: bataldamaĝon holds damaĝon
        # A narrower term counts when it is there itself, not merely its head word
        # (défendre une cité says defend; défendre alone is not it).
        return any(other in self.term_ids for other in self.language.narrower.get(entry_id, ()))

    def value(self, key: str) -> str:
        """A field of this file as written (``text``: the body); '' when absent."""
        if key == "text":
            return self.file.body
        value = self.file.fields.get(key)
        return "" if value is None else str(value)

    def source_value(self, key: str) -> str:
        if self.source is None:
            return ""
        if key == "text":
            return self.source.file.body
        value = self.source.file.fields.get(key)
        return "" if value is None else str(value)

    def text_edit(self, paragraph: int, start: int, end: int, replacement: str) -> Edit | None:
        """A fix replacing printed characters ``[start, end)`` of a paragraph, or None
        when they are not written as printed in the file (an entity, markup in
        between): a fix never guesses where to write."""
        plain = self.plain.paragraphs[paragraph]
        expected = plain.text[start:end]
        if start == end:
            if start == 0:
                return None
            offset = plain.source_offset(start - 1) + 1
            if self.file.body[offset - 1 : offset] != plain.text[start - 1]:
                return None
            return Edit("text", offset, offset, replacement)
        offset = plain.source_offset(start)
        last = plain.source_offset(end - 1) + 1
        if self.file.body[offset:last] != expected:
            return None
        return Edit("text", offset, last, replacement)


class Reporter:
    """Makes the findings of one rule.

    The engine hands each check the reporter of its own rule, so that a finding's code
    and severity are the rule's, never typed in the check; the subject reported on is
    an argument (a library rule reports on many).  An edit is refused from a rule
    declared without a fix.
    """

    __slots__ = ("rule",)

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def at(
        self,
        subject: Subject,
        key: str,
        offset: int,
        message: str,
        edit: Edit | None = None,
        about: About | None = None,
    ) -> Finding:
        """A finding at character ``offset`` of field ``key`` (``text``: the body);
        ``about``: what of the two texts it compares (:class:`.model.About`)."""
        if edit is not None and self.rule.applicability is Applicability.NONE:
            raise RegistryError(f"rule {self.rule.code} declares no fix, yet its check made one")
        path, line, column = subject.locator(subject.file, key, offset)
        guid = subject.file.fields.get("guid")
        return Finding(
            self.rule.code,
            self.rule.severity,
            message,
            path,
            line,
            column,
            subject.card.slug,
            None if guid in (None, "") else str(guid),
            subject.lang,
            key,
            edit,
            about,
        )

    def paragraph(
        self, subject: Subject, index: int | None, message: str, about: About | None = None
    ) -> Finding:
        """A finding on paragraph ``index`` of the text (the text's start if None)."""
        paragraphs = subject.plain.paragraphs
        if index is not None and 0 <= index < len(paragraphs):
            offset = paragraphs[index].paragraph.pos.offset
            return self.at(subject, "text", offset, message, about=about)
        return self.at(subject, "text", _first_printed(subject.file.body), message, about=about)

    def span(
        self,
        subject: Subject,
        paragraph: int,
        start: int,
        message: str,
        edit: Edit | None = None,
        about: About | None = None,
    ) -> Finding:
        """A finding at character ``start`` of a printed paragraph's plain text."""
        offset = subject.plain.paragraphs[paragraph].source_offset(start)
        return self.at(subject, "text", offset, message, edit, about)


def _first_printed(body: str) -> int:
    stripped = body.lstrip()
    return len(body) - len(stripped)


def word_set(text: str) -> set[str]:
    return {word for word, _, _ in words(text)}
