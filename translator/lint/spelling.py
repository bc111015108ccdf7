"""Spelling: the Debian Hunspell dictionaries, read by spylls, and the glossaries.

A word of a translation is accepted when the language's Hunspell dictionary accepts
it, or when it is the community's: a word of a glossary term or ability name (in any
inflected form), of a card name of the library in that language, an ``allow-english``
word, or a word the language's linter data accepts (``spelling`` in
``glossaries/lint/<lang>.yaml``: what the dictionary lacks and the cards use).  What
differs between languages is the language's answer (:mod:`translator.languages`):
its dictionary, its elision, its inclusive forms, its word formation.
Numbers (``2``, ``1er``), symbol codes, single letters and roman numerals are words
too.  French: an elided word (*l'*, *qu'*,
*jusqu'*) is checked with its apostrophe, what follows on its own (*l'armée*), and
both together when apart they are not words (*aujourd'hui*); the two apostrophes
(’ and ') are one.  A hyphenated word that the dictionary does not know as a whole is
checked part by part (*désengage-la*, *c'est-à-dire*); the style guide's inclusive
forms are words (*toustes*, ``glossaries/lint/fr-inclusive.yaml``), and a middle-dot
form is one (*joueur·euse·s*: :meth:`Lexicon._middle_dot`).  Esperanto: a word is
prefixes + a root of the dictionary, the glossary or the correlatives + suffixes + an
ending (``glossaries/lint/eo-morphology.yaml``: *defend-ist-o*, *ĉiu-op-e*), and a
compound is accepted when it is a known root or word followed by a known word
(*ĵetkosto*: *ĵeti* + *kosto*; *pluvivas*: *plu* + *vivas*).

What is no prose is not checked (URLs, e-mail, file names, markup), nor names
(acronyms; a capitalised word inside a sentence that is no known name mistyped), nor
English (quoted, or a word of the English dictionary that is no glossary word
mistyped): measured on prose nobody here wrote in ``docs/lint-spelling.md``.  The
lookup cache holds Hunspell's answers only; what is accepted besides them is decided
afresh in each process, so changing it needs no new cache.

Lookup only: spylls suggests in tens of seconds per word, so suggestions are the
closest glossary word or card name (:meth:`Lexicon.suggest`).  Every lookup is
remembered, in memory and in a cache file per dictionary (:func:`cache_directory`);
a dictionary is read, once per process, only when a word is not there (French takes
0.4 s, Esperanto 0.1 s).  A missing dictionary is remembered, the rule skips its
language, and :func:`missing_dictionaries` says what to install.
"""

from __future__ import annotations

import atexit
import difflib
import functools
import gc
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from .. import languages
from ..cache import cache_directory, payload_digest, read_private, write_private
from ..glossary.matcher import normalize, words
from ..languages import Hunspell, MiddleDots, WordFormation
from ..languages.base import APOSTROPHES
from ..markup.tree import SYMBOL_CODES

#: Where the dictionaries are searched, after the directories of ``$DICPATH`` (as
#: Hunspell does): Debian's packages put theirs in /usr/share/hunspell.
SEARCH_PATH: list[Path] = [
    Path("/usr/share/hunspell"),
    Path("/usr/share/myspell/dicts"),
    Path("/usr/share/myspell"),
    Path("/usr/local/share/hunspell"),
]

#: Changes when what a cached lookup means changes (see :meth:`Dictionary.lookup`).
CACHE_FORMAT = 2
#: The dictionary that tells English left in a translation from a misspelling
#: (:meth:`Lexicon._english_word`): the source language's, never checked itself.
ENGLISH = "en"

#: What ends a sentence (or a clause, or a line) for the English left over.
_SENTENCE_ENDS = ".!?;:\n"
_ROMAN = re.compile(r"[IVXLCDM]+")
#: What is not prose, whose words are not checked: URLs (with or without a scheme),
#: e-mail addresses, file names, HTML tags, wiki templates and link targets, and
#: identifiers (Awesome_Rules_Concept).  The e-mail, file name and identifier patterns
#: start only where a run of their characters starts (the look-behinds): tried at every
#: letter of a long word, each scanned to the word's end, a card text of one 65,000
#: letter word took a minute in one call of the regular expression engine.
_NOT_PROSE = re.compile(
    r"(?:https?|ftp)://\S+|\bwww\.\S+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b[\w-]+(?:\.[\w-]+)*\.(?:org|com|net|fr|eu|io|info|be|ch|ca)\b(?:/\S*)?"
    r"|(?<![\w.%-])[\w.%-]+\.(?:png|svg|jpe?g|webp|gif|pdf|txt|md|ya?ml|json|zip|po|html?|css)\b"
    r"|\[\[(?:file|image|fichier|media):[^\]]*\]\]|</?[A-Za-z][^<>]*>|\{\{[^{}]*\}\}|\[\[[^\]|]*(?=[|\]])"
    r"|(?<!\w)\w*_[\w-]*",
    re.IGNORECASE,
)
#: Quotations (« », " ", “ ”, ‘ ’ and ' ' around words), and words in parentheses
#: (« Frères d'armes (Brothers in Arms) »): English quoted in the text.
_QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<!\w)'[^'\n]*'(?!\w)")
_PARENTHESES = re.compile(r"\([^()\n]*\)")
#: What may stand between a sentence's end and its first word.
_OPENING = " \t\u00a0\u202f«\"“‘'([*-–—"
#: What ends a sentence, for a capital to be a sentence's (not a proper noun's).
_SENTENCE_STARTS = ".!?…:\n"


#: The characters Hunspell dictionaries break words at (``BREAK`` of the French .aff:
#: hyphen, full stop, middle dot; Hunspell's default: the hyphen).
_BREAKS = re.compile("[-.·]")
#: Break points of a word beyond which its parts are looked up one by one
#: (:meth:`Dictionary.lookup`).  A real word has at most three (« qu'en-dira-t-on »,
#: « Provence-Alpes-Côte-d'Azur »); Hunspell itself refuses a word of ten or more.
MAX_BREAKS = 3


class Dictionary:
    """One language's Hunspell dictionary, loaded on the first word it must look up,
    with every lookup remembered (in memory, and on disk between runs)."""

    def __init__(self, lang: str, path: Path, cache: Path | None = None) -> None:
        self.lang = lang
        self.path = path
        #: The file of lookups of earlier runs (None: not kept).
        self.cache = cache
        #: word -> accepted, as looked up (a process checks most words many times).
        self.known: dict[str, bool] = _read_cache(cache) if cache is not None else {}
        self._hunspell: Any = None  # spylls.hunspell.Dictionary, once loaded
        self._saved = len(self.known)
        self.broken: str | None = None

    @property
    def loaded(self) -> bool:
        return self._hunspell is not None

    def load(self) -> Any:
        """The spylls dictionary (French takes 0.4 s to read, Esperanto 0.1 s:
        :mod:`.hunspell_files`)."""
        if self._hunspell is None:
            from .hunspell_files import load  # noqa: PLC0415

            # Reading makes a million objects and no garbage: the cyclic collector
            # scanning them again and again would double the time (2.0 s -> 1.0 s),
            # and they live as long as the process (frozen: never scanned again).
            collecting = gc.isenabled()
            gc.disable()
            try:
                self._hunspell = load(self.path)
                gc.freeze()
            finally:
                if collecting:
                    gc.enable()
            if self.cache is not None:
                atexit.register(self.save)
        return self._hunspell

    def lookup(self, word: str) -> bool:
        """Does the dictionary accept ``word``?  Lower-cased first (the cheap lookup:
        a lower-case entry also accepts its Capitalised and UPPER forms), then as
        written (proper nouns)."""
        found = self.known.get(word)
        if found is None:
            if self.broken is not None:
                return True
            try:
                hunspell = self.load()
            except Exception as error:  # a broken file must not stop lint
                name = languages.get(self.lang).name
                self.broken = _MISSING[self.lang] = (
                    f"cannot read the {name} Hunspell dictionary {self.path}: {error}; "
                    "spelling not checked"
                )
                return True
            parts = _BREAKS.split(word)
            if len(parts) > MAX_BREAKS + 1:
                # Each part on its own, as Hunspell accepts a word whose parts between
                # its BREAK characters are words: spylls tries every way of breaking
                # it, a number of tries exponential in the breaks (18 hyphens: 28 s).
                found = all(self.lookup(part) for part in parts if part)
                self.known[word] = found
                return found
            lower = word.lower()
            found = bool(hunspell.lookup(lower)) or (lower != word and bool(hunspell.lookup(word)))
            self.known[word] = found
        return found

    def save(self) -> None:
        """Write the lookups to the cache file, if there are new ones (at exit)."""
        if self.cache is None or len(self.known) == self._saved:
            return
        try:
            for stale in self.cache.parent.glob(f"spelling-{self.lang}-*.txt"):
                if stale != self.cache:
                    stale.unlink(missing_ok=True)  # an earlier version of the dictionary
        except OSError:
            pass
        body = "".join(f"{'+' if ok else '-'}{word}\n" for word, ok in self.known.items())
        data = body.encode("utf-8")
        head = f"# translator: Hunspell lookups in {self.path}.aff/.dic, content "
        if write_private(self.cache, head.encode("utf-8") + payload_digest(data) + b"\n" + data):
            self._saved = len(self.known)  # else: a cache that cannot be written is slower


#: Language -> its dictionary, or None when there is none (found on first use).
_LOADED: dict[str, Dictionary | None] = {}
#: Language -> why it is not checked (the message for the command line).
_MISSING: dict[str, str] = {}


def find_dictionary(lang: str) -> Path | None:
    """The dictionary of ``lang`` (its path without .aff/.dic), or None: the first
    of the language's file names found in the search path, the one its data prefers
    first (French: every spelling, 1990 reform too, over the classic one)."""
    hunspell = languages.get(lang).hunspell
    if hunspell is None:
        return None
    directories = [Path(d) for d in os.environ.get("DICPATH", "").split(os.pathsep) if d]
    found = [
        directory / name
        for directory in [*directories, *SEARCH_PATH]
        for name in hunspell.files
        if (directory / name).with_suffix(".aff").is_file()
        and (directory / name).with_suffix(".dic").is_file()
    ]
    if hunspell.prefer is not None:
        found.sort(key=lambda base: not preferred(base, hunspell))
    return found[0] if found else None


def preferred(base: Path, hunspell: Hunspell) -> bool:
    """Is this dictionary the one preferred among several of its language (French:
    Grammalecte's "toutes variantes", classic and 1990 spellings)?  Its .aff says so
    in its first line."""
    if hunspell.prefer is None:
        return False
    try:
        with base.with_suffix(".aff").open("rb") as file:
            return hunspell.prefer in file.read(512)
    except OSError:
        return False


def _cache_file(lang: str, path: Path) -> Path | None:
    """The cache file of a dictionary: named after the files' paths, sizes and dates,
    so that an updated dictionary starts afresh."""
    directory = cache_directory()
    if directory is None:
        return None
    identity = [str(CACHE_FORMAT), _spylls_version()]
    for suffix in (".aff", ".dic"):
        file = path.with_suffix(suffix).resolve()
        stat = file.stat()
        identity += [str(file), str(stat.st_size), str(stat.st_mtime_ns)]
    digest = hashlib.sha256("\0".join(identity).encode()).hexdigest()[:16]
    return directory / f"spelling-{lang}-{digest}.txt"


def _spylls_version() -> str:
    """spylls as installed, told by its files (where, size, date): a new release starts
    a new cache.  Cheaper than asking importlib.metadata for its version, whose import
    alone costs a lint of one card about 25 ms."""
    spec = find_spec("spylls")
    origin = spec.origin if spec is not None else None
    if origin is None:
        return "?"
    try:
        stat = Path(origin).stat()
    except OSError:
        return "?"
    return f"{origin}:{stat.st_size}:{stat.st_mtime_ns}"


def _read_cache(path: Path) -> dict[str, bool]:
    """The lookups kept by earlier runs (none from a file that is damaged, too large or
    not the user's own: :func:`translator.cache.read_private`; nor from one whose
    content is not what its first line's digest says: a word's answer changed there
    would change what lint reports)."""
    head, _, data = (read_private(path) or b"").partition(b"\n")
    if not head.endswith(b" content " + payload_digest(data)):
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {}
    return {
        line[1:]: line[0] == "+"
        for line in text.splitlines()
        if line[:1] in ("+", "-") and len(line) > 1
    }


def dictionary(lang: str) -> Dictionary | None:
    """The Hunspell dictionary of ``lang``, found once per process (None: there is
    none, and :func:`missing_dictionaries` says so).  It is read only when a word is
    not in the lookups of earlier runs."""
    if lang in _LOADED:
        return _LOADED[lang]
    found: Dictionary | None = None
    language = languages.get(lang)
    path = find_dictionary(lang)
    if language.hunspell is not None:
        name, package = language.name, language.hunspell.package
        if path is None:
            _MISSING[lang] = (
                f"no {name} Hunspell dictionary (install {package}): spelling not checked"
            )
        elif find_spec("spylls") is None:
            _MISSING[lang] = (
                f"the Python package spylls is missing (pip install "
                f"spylls): {name} spelling not checked"
            )
        else:
            found = Dictionary(lang, path, _cache_file(lang, path))
    _LOADED[lang] = found
    return found


def missing_dictionaries() -> list[str]:
    """Why languages met so far are not spell-checked: one message per language,
    for the command line to print once, after linting (``translator: MESSAGE``)."""
    return [_MISSING[lang] for lang in sorted(_MISSING)]


def english_dictionary() -> Dictionary | None:
    """The English Hunspell dictionary, or None (then English words are only the
    frequent-word list's; nothing is said: English is not spell-checked)."""
    if ENGLISH not in _LOADED:
        path = find_dictionary(ENGLISH)
        _LOADED[ENGLISH] = (
            Dictionary(ENGLISH, path, _cache_file(ENGLISH, path))
            if path is not None and find_spec("spylls") is not None
            else None
        )
    return _LOADED[ENGLISH]


_ENCODING = re.compile(rb"^SET\s+(\S+)", re.MULTILINE)


@functools.cache
def dictionary_roots(base: Path, formation: WordFormation) -> frozenset[str]:
    """The roots of a Hunspell dictionary of a language of :class:`WordFormation`
    (Esperanto): its entries (``defendi/AOT``) less their ending (o, a, e, i),
    lower-case entries only (not Aarono), not the words without an ending (al, dm:
    they would make compounds of typos), two-letter roots only of verbs (uz-, ir-;
    not ed- of edo), and no affix (ej-, ig-).
    Hunspell derives only what an entry's flags say (defendi takes no -ist-: no
    *defendisto*); :class:`Lexicon` derives with every affix, from these roots."""
    try:
        aff = base.with_suffix(".aff").read_bytes()
        raw = base.with_suffix(".dic").read_bytes()
    except OSError:
        return frozenset()
    found = _ENCODING.search(aff)
    encoding = found.group(1).decode("ascii") if found else "utf-8"
    try:
        text = raw.decode(encoding.lower().replace("iso8859", "iso8859-").replace("--", "-"))
    except (LookupError, UnicodeDecodeError):
        text = raw.decode("utf-8", "replace")
    roots: set[str] = set()
    for line in text.splitlines()[1:]:
        entry = line.split("/", 1)[0].strip()
        if (
            not entry
            or not entry[0].islower()
            or not entry.isalpha()
            or entry[-1] not in formation.entry_endings
        ):
            continue  # a proper noun, an abbreviation (dm), a word without ending (al)
        entry = normalize(entry)
        if len(entry) > 3 or entry[-1] == formation.infinitive:  # two letters: verbs only
            roots.add(entry[:-1])
    affixes = set(formation.prefixes) | set(formation.suffixes)
    return (frozenset(roots) - affixes) | formation.affix_roots


def _one_letter_away(word: str, alphabet: str) -> Iterator[str]:
    """Every string one letter of ``alphabet`` away from ``word`` (deleted,
    replaced, inserted, or two swapped)."""
    for i in range(len(word) + 1):
        head, tail = word[:i], word[i:]
        if tail:
            yield head + tail[1:]
            if len(tail) > 1:
                yield head + tail[1] + tail[0] + tail[2:]
        for letter in alphabet:
            yield head + letter + tail
            if tail and letter != tail[0]:
                yield head + letter + tail[1:]


@dataclass
class Lexicon:
    """A language's accepted words for one lint run: its dictionary, glossary words,
    card names and allowed words, with the verdict of every word cached."""

    lang: str
    dictionary: Dictionary
    #: Normalized words accepted as they are (glossary, card names, allowed, extra).
    words: frozenset[str]
    #: A language of word formation (Esperanto): roots of :attr:`words`, which take
    #: any ending.
    roots: frozenset[str] = frozenset()
    #: Normalized English words (the frequent-word list, the glossary's English terms,
    #: less the glossary's own words): a sentence that holds one the dictionary does
    #: not know is English left over, which TR503/TR504 report.
    english: frozenset[str] = frozenset()
    verdicts: dict[str, bool] = field(default_factory=dict)
    suggestions: dict[str, str | None] = field(default_factory=dict)
    #: A language of word formation: the roots words are derived from (the
    #: dictionary's, the glossary's, the correlatives), with any prefix, suffix and
    #: ending (:meth:`_derived`).
    derivable: frozenset[str] = frozenset()
    _candidates: list[str] | None = None
    #: What the language answers (:mod:`translator.languages`): its elision, its
    #: inclusive forms, its word formation.
    language: languages.Language = field(init=False, repr=False)
    #: How the language derives words (None: its words are the dictionary's).
    formation: WordFormation | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.language = languages.get(self.lang)
        self.formation = self.language.word_formation

    @classmethod
    def build(
        cls,
        lang: str,
        dictionary: Dictionary,
        *word_sets: frozenset[str],
        english: frozenset[str] = frozenset(),
    ) -> Lexicon:
        language = languages.get(lang)
        words = frozenset().union(*word_sets) | language.spelling_words
        roots: frozenset[str] = frozenset()
        derivable: frozenset[str] = frozenset()
        formation = language.word_formation
        if formation is not None:
            roots = frozenset(r for w in words if "-" not in w and (r := formation.root(w)))
            derivable = (
                roots | dictionary_roots(dictionary.path, formation) | formation.correlative_roots
            )
        return cls(lang, dictionary, words, roots, english, derivable=derivable)

    # ---------------------------------------------------------------- checking text

    def misspellings(
        self, text: str, tokens: list[tuple[str, int, int]], cut: dict[int, str] | None = None
    ) -> Iterator[tuple[int, str]]:
        """(start, word) of each misspelt word of ``text``, whose ``tokens`` are
        ``words(text)`` (normalized word, start, end; an apostrophe separates).

        Not reported: a word in a sentence left in English (TR503 and TR504 report the
        English), and a word at an offset of ``cut`` that is a word with the letter
        given there (a drop cap cut from its word by a space: MK105 reports it).
        """
        found = list(self._misspellings(text, tokens))
        if not found:
            return
        english = self._english_sentences(text, tokens)
        not_prose = [m.span() for m in _NOT_PROSE.finditer(text)]
        for start, word in found:
            if any(a <= start < b for a, b in english) or any(a <= start < b for a, b in not_prose):
                continue
            letter = cut.get(start) if cut else None
            if letter is not None and self.accepts((letter + word).casefold(), letter + word):
                continue
            if (
                self._name(text, start, word)
                or self._quoted_english(text, start)
                or self._abbreviation(text, start, word)
                or self._english_word(text, start, word)
            ):
                continue
            yield start, word

    def _abbreviation(self, text: str, start: int, word: str) -> bool:
        """An abbreviation of the language's list, with its period (Esperanto *ekz.*,
        *ktp.*: ``abbreviations`` in ``eo-morphology.yaml``)."""
        end = start + len(word)
        return (
            self.formation is not None
            and end < len(text)
            and text[end] == "."
            and normalize(word) in self.formation.abbreviations
        )

    def _english_word(self, text: str, start: int, word: str) -> bool:
        """A word of the English dictionary, which is no glossary word or card name
        mistyped (*crate* is *carte*'s typo): English left in the text (night, column,
        guidelines), which is not a misspelling; TR503 and TR504 report English left
        over.  Esperanto: capitalised words only (English, a deck's name): the
        language's :attr:`~translator.languages.Language.lower_case_english`."""
        english = english_dictionary()
        if (
            english is None
            or len(word) < 4
            or (not self.language.lower_case_english and not word[0].isupper())
            or "-" in (text[start - 1 : start] + text[start + len(word) : start + len(word) + 1])
        ):
            # Short words and parts of a hyphenated word (défausse-moa) are typos more
            # often than English; Esperanto's lower-case typos make English (sept).
            return False
        return english.lookup(word) and self.suggest(word) is None

    def _name(self, text: str, start: int, word: str) -> bool:
        """An acronym (ATK, CMJN, KKLs: two capitals, in text that is not all
        capitals), or a proper noun: a capitalised word that starts no sentence (a
        place, a person, a game) and is no glossary word or card name mistyped (no
        close one: *Salmèer* is reported)."""
        if not word[:1].isupper():
            return False
        if sum(c.isupper() for c in word) > 1:
            return any(c.islower() for c in text)
        before = start
        while before > 0 and text[before - 1] in _OPENING:
            before -= 1
        if before == 0 or text[before - 1] in _SENTENCE_STARTS:
            return False
        return self.suggest(word) is None

    def _quoted_english(self, text: str, start: int) -> bool:
        """Is the word in a quotation in English: half of its words at least are
        English words that are none of the language's (« night goant », 'Brothers in
        Arms')?"""
        english = english_dictionary()
        for quote in (*_QUOTED.finditer(text), *_PARENTHESES.finditer(text)):
            if quote.start() < start < quote.end():
                quoted = [norm for norm, _, _ in words(quote.group())]
                foreign = sum(
                    1
                    for norm in quoted
                    if not self.dictionary.lookup(norm)
                    and (norm in self.english or (english is not None and english.lookup(norm)))
                )
                # Half of its words English at least: « Hush, the harbor sleeps. Chutt.
                # Même le sol chante. » is French, with English for TR504.  (A quote
                # inside French parentheses is looked at too: « (ex: « night goant ») ».)
                if foreign > 0 and 2 * foreign >= len(quoted):
                    return True
        return False

    def _english_sentences(
        self, text: str, tokens: list[tuple[str, int, int]]
    ) -> list[tuple[int, int]]:
        """(start, end) of the sentences holding an English word that is none of the
        language's (allowed or not: allowing *the* allows its sentence)."""
        spans: list[tuple[int, int]] = []
        for norm, start, end in tokens:
            if (
                norm in self.english
                and not self.dictionary.lookup(text[start:end])
                and not (spans and start < spans[-1][1])
            ):
                before = max(text.rfind(c, 0, start) for c in _SENTENCE_ENDS)
                after = [i for i in (text.find(c, end) for c in _SENTENCE_ENDS) if i >= 0]
                spans.append((before + 1, min(after, default=len(text))))
        return spans

    def _misspellings(
        self, text: str, tokens: list[tuple[str, int, int]]
    ) -> Iterator[tuple[int, str]]:
        count = len(tokens)
        skip = 0
        dots = self.language.middle_dots
        for i, (norm, start, end) in enumerate(tokens):
            if skip:
                skip -= 1
                continue
            if dots is not None and end < len(text) and text[end] in dots.dots:
                # joueur·euse·s: one word, with its parts.
                group = [tokens[i]]
                while (
                    group[-1][2] < len(text)
                    and text[group[-1][2]] in dots.dots
                    and i + len(group) < count
                    and tokens[i + len(group)][1] == group[-1][2] + 1
                ):
                    group.append(tokens[i + len(group)])
                if len(group) > 1:
                    skip = len(group) - 1
                    written = text[start : group[-1][2]]
                    if not self._middle_dot([text[a:b] for _, a, b in group], dots):
                        yield start, written
                    continue
            elided = (
                i + 1 < count
                and end < len(text)
                and text[end] in APOSTROPHES
                and tokens[i + 1][1] == end + 1
            )
            if elided:
                if self._elided(norm, text[start:end]):
                    continue
                # aujourd'hui, prud'homme: not an elided word, a word with an apostrophe.
                after = tokens[i + 1]
                if self._joined(text[start:end] + "'" + text[after[1] : after[2]]):
                    skip = 1
                    continue
                yield start, text[start:end]
                continue
            yield from self._word(norm, text[start:end], start)

    def _middle_dot(self, parts: list[str], dots: MiddleDots) -> bool:
        """A middle-dot form (joueur·euse, joueur·euse·s, ami·e·s, le·a, Tou·te·s):
        its masculine and the feminine it spells are words.  The feminine is the
        masculine with its last letters (at most ``dots.replaced``) replaced by the
        ending: jou(eur) + euse, passi(f) + ve, ami + e."""
        plural = parts[-1] if len(parts) > 2 and parts[-1] in dots.plurals else ""
        masculine, endings = parts[0], parts[1 : len(parts) - (1 if plural else 0)]
        if len(endings) != 1 or not self.accepts(normalize(masculine + plural), masculine + plural):
            return False
        ending = endings[0]
        return any(
            self.accepts(normalize(form), form)
            for keep in range(len(masculine), max(0, len(masculine) - dots.replaced) - 1, -1)
            if (form := masculine[:keep] + ending + plural)
        )

    def _elided(self, norm: str, written: str) -> bool:
        """An elided word before an apostrophe (l', qu', jusqu'; Esperanto l', dank'),
        judged as the whole word the language says it stands for (French: with its
        apostrophe, as the dictionary lists it; Esperanto: the noun, *danko*)."""
        if self._trivial(norm, written) or norm in self.words:
            return True
        whole = self.language.elided_whole(written)
        return self.accepts(normalize(whole), whole)

    def _joined(self, written: str) -> bool:
        return written.casefold() in self.words or self.dictionary.lookup(written)

    def _word(self, norm: str, written: str, start: int) -> Iterator[tuple[int, str]]:
        if self.accepts(norm, written):
            return
        if "-" not in written:
            yield start, written
            return
        # A hyphenated word the dictionary lacks: its parts (Esperanto: all but the
        # last may be a bare root, Milican-Batalkrianto).
        offset = 0
        parts = written.split("-")
        for n, part in enumerate(parts):
            if part and not (
                self.accepts(part.casefold(), part)
                or (
                    self.formation is not None
                    and n < len(parts) - 1
                    and self._first_element(part.casefold(), self.formation)
                )
            ):
                yield start + offset, part
            offset += len(part) + 1

    # ---------------------------------------------------------------- one word

    @staticmethod
    def _trivial(norm: str, written: str) -> bool:
        """Single letters, numbers (2, 1er, 3e), symbol codes, roman numerals."""
        return (
            len(norm) == 1
            or any(c.isdigit() for c in norm)
            or norm in SYMBOL_CODES
            or _ROMAN.fullmatch(written) is not None
        )

    def accepts(self, norm: str, written: str) -> bool:
        """Is this word (normalized, and as written) spelt right?"""
        verdict = self.verdicts.get(written)
        if verdict is None:
            verdict = self.verdicts[written] = (
                norm in self.words
                or self._trivial(norm, written)
                or self.dictionary.lookup(written)
                or (self.formation is not None and self._formed(norm, self.formation))
            )
        return verdict

    def _formed(self, word: str, table: WordFormation) -> bool:
        """In a language of word formation (Esperanto): a correlative, a derivation,
        a glossary root with other suffixes and ending, or a compound."""
        return (
            word in table.correlatives
            or self._glossary_word(word, table)
            or ("-" not in word and (self._derived(word, table) or self._compound(word, 2, table)))
        )

    def _derived(self, word: str, table: WordFormation) -> bool:
        """Prefixes + a root + suffixes + an ending (:class:`WordFormation`): a root of
        the dictionary, the glossary or the correlatives (defend-ist-o, pag-iĝ-i,
        ĉiu-op-e, re-ven-ont-a).  Not when the word less its ending is one letter away
        from a root of the glossary: that is the community's word mistyped (trombejo
        is tomb-ej-o, the glossary's graveyard, not tromb-ej-o, a place of blood
        clots).  (A root one letter away in the dictionary would be too many: depend-,
        plen- and tren- are one letter from defend-, pren-.)"""
        for ending in table.endings:
            if not word.endswith(ending) or len(word) - len(ending) < table.shortest_root:
                continue
            found = self._analyse(word[: -len(ending)], table)
            if found is None:
                continue
            prefix, root, suffixes = found
            if not (prefix or suffixes) and len(root) < table.bare_root:
                continue  # te-as, ent-as: a short root takes the dictionary's endings only
            stem = word[: -len(ending)]
            mistyped = len(stem) >= table.checked_root and any(
                other in self.roots
                for other in _one_letter_away(stem, table.alphabet)
                if other != stem
            )
            return not mistyped
        return False

    def _analyse(self, stem: str, table: WordFormation) -> tuple[str, str, str] | None:
        """(prefixes, root, suffixes) of a word less its ending, or None."""
        for prefix in ("", *table.prefixes):
            if not stem.startswith(prefix):
                continue
            rest = stem[len(prefix) :]
            found = self._peel(rest, table, 3)
            if found is not None:
                return prefix, found[0], found[1]
            if prefix:
                for second in table.prefixes:
                    if rest.startswith(second):
                        found = self._peel(rest[len(second) :], table, 3)
                        if found is not None:
                            return prefix + second, found[0], found[1]
        return None

    def _peel(self, stem: str, table: WordFormation, depth: int) -> tuple[str, str] | None:
        """(root, suffixes) of a stem, at most ``depth`` suffixes peeled off its end."""
        if len(stem) >= table.shortest_root and stem in self.derivable:
            return stem, ""
        if depth:
            for suffix in table.suffixes:
                if stem.endswith(suffix) and len(stem) > len(suffix):
                    found = self._peel(stem[: -len(suffix)], table, depth - 1)
                    if found is not None:
                        return found[0], found[1] + suffix
        return None

    def _glossary_word(self, word: str, table: WordFormation) -> bool:
        """A glossary root with another ending and at most two suffixes (milicanaj,
        malmarkigi from malmarki)."""
        root = table.root(word)
        if root is None:
            return False
        if root in self.roots:
            return True
        for suffix in table.glossary_suffixes:
            if root.endswith(suffix) and len(root) - len(suffix) >= 3:
                stem = root[: -len(suffix)]
                if stem in self.roots or any(
                    stem.endswith(other) and stem[: -len(other)] in self.roots
                    for other in table.glossary_suffixes
                ):
                    return True
        return False

    def _whole(self, word: str, table: WordFormation) -> bool:
        """A word that can end a compound."""
        return (
            word in self.words or self.dictionary.lookup(word) or self._glossary_word(word, table)
        )

    def _first_element(self, part: str, table: WordFormation) -> bool:
        """What can open a compound: a preposition or adverb used as a prefix (ne, plu,
        kun), a noun with its linking o (defendo-), a root of the dictionary (ĵet- of
        ĵeti) or of the glossary (milican-).  Short words other than those (la, al,
        da) would make compounds of too many typos (laportas, alliaj)."""
        if part in table.compound_openers or part in self.roots or part in table.correlatives:
            return True
        if len(part) < 3:
            return False
        linking = table.linking
        if part.endswith(linking) and (
            self.dictionary.lookup(part) or part[: -len(linking)] in self.roots
        ):
            return True  # a noun with its linking o: defendo-, ensorĉo- (glossary)
        return any(self.dictionary.lookup(part + ending) for ending in table.compound_endings)

    def _compound(self, word: str, parts: int, table: WordFormation) -> bool:
        """Is ``word`` made of at most ``parts`` known elements (the last a word of
        four letters at least)?"""
        for cut in range(len(word) - 4, 1, -1):
            head, tail = word[:cut], word[cut:]
            if (
                self._whole(tail, table) or (parts > 2 and self._compound(tail, parts - 1, table))
            ) and self._first_element(head, table):
                return True
        return False

    # ---------------------------------------------------------------- suggestions

    def suggest(self, word: str) -> str | None:
        """The closest glossary word or card name, if one is close (no Hunspell
        suggestion: spylls takes tens of seconds per word), in the word's case."""
        key = word.casefold()
        if key not in self.suggestions:
            if self._candidates is None:
                self._candidates = sorted(w for w in self.words if len(w) > 2)
            low, high = len(key) * 2 // 3, len(key) * 3 // 2 + 1  # a ratio >= 0.8 needs it
            close = difflib.get_close_matches(
                key, [w for w in self._candidates if low <= len(w) <= high], n=1, cutoff=0.8
            )
            self.suggestions[key] = close[0] if close else None
        found = self.suggestions[key]
        if found is not None and word[:1].isupper():
            return found[:1].upper() + found[1:]  # Salmère, not salmère
        return found


def lexicon(
    language: Any, allowed: frozenset[str], english_words: frozenset[str] = frozenset()
) -> Lexicon | None:
    """The accepted words of ``language`` (a :class:`~.context.Language`) with the
    ``allowed`` words of this lint run, or None without a dictionary.  Built once per
    run (kept in the language's cache while the allowed words are the same).
    ``english_words``: the frequent English words (TR504's list)."""
    found = language.cache.get("spelling")
    if found is not None and found[0] is allowed:
        return found[1]
    speller = dictionary(language.lang)
    if speller is None:
        return None
    english = frozenset(
        word
        for key in language.english.index.values()
        for candidate, _ in key
        for word in candidate
    )
    # The abilities list is the authority for its own reminders: their words (nagon,
    # the list's word for a naga) are the language's, as the glossary's are.
    listed = frozenset(
        word
        for ability in language.glossary.abilities.values()
        for text in (
            ability.name,
            ability.template or "",
            ability.reminder or "",
            ability.example or "",
        )
        for word, _, _ in words(text)
    )
    built = Lexicon.build(
        language.lang,
        speller,
        language.vocabulary | listed,
        allowed,
        language.accepted,
        english=(english | english_words) - language.vocabulary,
    )
    language.cache["spelling"] = (allowed, built)
    return built
