"""The questions generic code asks a language, and the answers of a language that
translator knows nothing about.

Generic code (the glossary matcher, the linter, the typesetter) never branches on a
language's code: it asks the language object (:func:`translator.languages.get`).
Each language is a subclass in a module of its own (``en.py``, ``fr.py``, ``eo.py``)
that answers in code what is logic (how a French phrase agrees, how an Esperanto
word is cut into syllables) and reads what is a list or a table from its data file,
``glossaries/<code>/language.yaml`` (:mod:`.data`).  The base class answers for a
language with no module: terms have one form, there is no dictionary, words break
where pyphen's patterns say.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import ClassVar

from ..shipped import glossaries_root
from .data import LANGUAGE_FILE, DataFile, language_data

#: What replaces a space that must not break.
NO_BREAK_SPACE = "\u00a0"
#: The two apostrophes, typewriter and typographic: one character to the reader.
APOSTROPHES = "'’"
#: A gettext ``Plural-Forms`` value: how many forms, and the C expression choosing one.
_PLURAL_FORMS = re.compile(r"nplurals=[1-9]; plural=[n0-9 ()<>=!&|?:%+*/-]+;")


@dataclass(frozen=True)
class Hunspell:
    """Where a language's Hunspell dictionary is, and what installs it."""

    #: File names to try (without .aff/.dic), in order.
    files: tuple[str, ...]
    #: The Debian package that installs it (what the command line says to install).
    package: str
    #: What the first bytes of the .aff of the dictionary preferred among several
    #: installed ones say (French: Grammalecte's "TOUTES VARIANTES"), or None.
    prefer: bytes | None = None


@dataclass(frozen=True)
class Typography:
    """How a language sets the short texts translator prints itself (type lines,
    faction names, footers), as its translators set their card text."""

    #: What the typewriter apostrophe is printed as.
    apostrophe: str = "’"
    #: Characters a space before which is a no-break space (French ; : ! ? »).
    no_break_before: str = ""
    #: Characters a space after which is a no-break space (French «).
    no_break_after: str = ""
    #: Words a space after which is a no-break space (Esperanto's elided article l’).
    bound_words: tuple[str, ...] = ()

    def apply(self, text: str) -> str:
        """``text`` with the typographic apostrophe and its no-break spaces (an
        ordinary space there can leave « ! » alone at the start of a line)."""
        text = text.replace("'", self.apostrophe)
        for pattern in self._patterns:
            text = pattern.sub(NO_BREAK_SPACE, text)
        return text

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        """The spaces to bind, as patterns built from the lists (in this order:
        before punctuation, after it, after a bound word)."""
        found = []
        if self.no_break_before:
            found.append(re.compile(f" (?=[{re.escape(self.no_break_before)}])"))
        if self.no_break_after:
            found.append(re.compile(f"(?<=[{re.escape(self.no_break_after)}]) "))
        if self.bound_words:
            words = "|".join(rf"(?<=\b{re.escape(w)})" for w in self.bound_words)
            found.append(re.compile(f"(?:{words}) ", re.IGNORECASE))
        return tuple(found)


@dataclass(frozen=True)
class EndingRule:
    """One rule of a table of endings (a plural, a feminine): a word with one of
    ``endings`` (and not one of ``exceptions``) takes ``add`` after it, or ``replace``
    instead of its ending."""

    endings: tuple[str, ...]
    add: str = ""
    replace: str | None = None
    exceptions: frozenset[str] = frozenset()
    #: Only after a consonant (English *spy* -> *spies*, not *day* -> *daies*).
    after_consonant: bool = False

    @classmethod
    def read(cls, data: DataFile) -> EndingRule:
        endings = data.words("endings")
        if not endings:
            raise data.error("endings", "missing", "`endings: [al]`: what the rule applies to")
        return cls(
            endings,
            data.text("add", ""),
            data.text("replace") if data.has("replace") else None,
            frozenset(data.words("except")),
            data.flag("after-consonant", False),
        )


@dataclass(frozen=True)
class EndingRules:
    """A table of endings tried in order (the first rule that applies decides), and
    what a word no rule applies to takes."""

    rules: tuple[EndingRule, ...]
    regular: str
    vowels: str = "aeiou"

    @classmethod
    def read(cls, data: DataFile, vowels: str = "aeiou") -> EndingRules:
        return cls(
            tuple(EndingRule.read(rule) for rule in data.sections("rules")),
            data.text("regular"),
            vowels,
        )

    def apply(self, word: str) -> str:
        """``word`` with its ending (the endings compared in lower case)."""
        lower = word.lower()
        for rule in self.rules:
            if not lower.endswith(rule.endings) or lower in rule.exceptions:
                continue
            ending = next(e for e in rule.endings if lower.endswith(e))
            before = len(word) - len(ending) - 1
            if rule.after_consonant and (before < 0 or lower[before] in self.vowels):
                continue
            if rule.replace is not None:
                return word[: len(word) - len(ending)] + rule.replace
            return word + rule.add
        return word + self.regular


@dataclass(frozen=True)
class MiddleDots:
    """Inclusive forms written with a middle dot (French *joueur·euse·s*): the dots,
    how many final letters of the masculine the feminine ending may replace, and the
    plural endings that may close the form."""

    dots: str
    replaced: int
    plurals: frozenset[str]


@dataclass(frozen=True)
class WordFormation:
    """How words are built from roots (Esperanto: prefixes + a root + suffixes + an
    ending), for the spelling rule to accept regular derivations the dictionary does
    not list."""

    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    #: The suffixes a root of the glossary takes before another ending (fewer).
    glossary_suffixes: tuple[str, ...]
    #: Longest first: *ojn* before *on* before *o*.
    endings: tuple[str, ...]
    shortest_root: int
    bare_root: int
    checked_root: int
    #: Correlatives as roots (ĉiu, tiam, kiel) and as words (ĉiujn, tien).
    correlative_roots: frozenset[str]
    correlatives: frozenset[str]
    #: Abbreviations, written with a period (ekz., ktp.).
    abbreviations: frozenset[str]
    #: Affixes also used as roots (iĝi, igi: ekiĝanta).
    affix_roots: frozenset[str]
    #: Prepositions and adverbs that open compounds besides roots (neblokita, pluvivi).
    compound_openers: frozenset[str]
    #: The language's letters (for the roots one letter away from a root).
    alphabet: str
    #: A word's grammatical ending, with a participle's suffix: what precedes it is
    #: the word's root (*distancfrap-antaj*, *viv-as*).
    ending: re.Pattern[str]
    #: The endings a dictionary entry has (a noun's, an adjective's, an adverb's, a
    #: verb's: *defendi*), and the verb's among them.
    entry_endings: tuple[str, ...]
    infinitive: str
    #: What joins a noun to the next root of a compound (*defendo-*).
    linking: str
    #: The endings with which a root opening a compound is a word of the dictionary
    #: (a noun, a verb, an adjective: *ĵet-* of *ĵeti*).
    compound_endings: tuple[str, ...]

    def root(self, word: str) -> str | None:
        """``word`` less its ending (three letters at least), or None."""
        match = self.ending.search(word)
        if match is None or match.start() < 3:
            return None
        return word[: match.start()]


class Language:
    """A language as generic code sees it.  This class answers for a language
    translator has no module for; each module overrides what its language does."""

    #: Whether ``glossaries/<code>/language.yaml`` holds this language's data.
    has_data: ClassVar[bool] = False
    #: The other shipped data files its module reads (``lint/eo-grammar.yaml``).
    other_files: ClassVar[tuple[str, ...]] = ()

    def __init__(self, code: str) -> None:
        self.code = code

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code}>"

    @cached_property
    def data(self) -> DataFile:
        """The language's data file (an empty one for a language with none)."""
        if not self.has_data:
            return DataFile(Path(f"glossaries/{self.code}/language.yaml"), {}, None)
        return language_data(self.code)

    def data_files(self) -> list[Path]:
        """The shipped files this language's answers come from, for what depends on
        them (a build records them: new typography or hyphenation makes new PDFs)."""
        root = glossaries_root()
        if root is None or not self.has_data:
            return []
        return [root / self.code / LANGUAGE_FILE, *(root / name for name in self.other_files)]

    # ------------------------------------------------------------------ names

    @cached_property
    def name(self) -> str:
        """Its English name, in messages: "the French dictionary"."""
        return self.data.text("name", self.code)

    @cached_property
    def glossary_name(self) -> str:
        """What its community calls its glossary (the French *Lexique*)."""
        return self.data.text("glossary-name", "glossary")

    @cached_property
    def plural_forms(self) -> str:
        """gettext's ``Plural-Forms`` for the language, for the PO files translator
        writes (French ``nplurals=2; plural=(n > 1);``): the value gettext's tools
        expect, which CLDR's (babel's) is not for every language."""
        value = self.data.text("plural-forms")
        if _PLURAL_FORMS.fullmatch(value) is None:
            raise self.data.error(
                "plural-forms",
                f"{value!r} is not a gettext Plural-Forms value",
                'write `plural-forms: "nplurals=2; plural=(n != 1);"`',
            )
        return value

    # ------------------------------------------------------------------ words

    @cached_property
    def genders(self) -> tuple[str, ...]:
        """The genders a glossary noun may have (French m, f); none: it has none."""
        return self.data.words("genders")

    def forms(self, term: str, pos: str) -> set[str]:
        """Every inflected form of a glossary term of part of speech ``pos`` (noun,
        adjective, verb, phrase) that card text may use, the term itself included."""
        return {term}

    def plural(self, term: str) -> str:
        """The plural of a noun phrase (*cité* -> *cités*), for a fix or a draft that
        writes a term where the text has its plural; without a rule, the term."""
        return term

    def inflections(self, term: str, replacement: str) -> Iterator[tuple[str, str]]:
        """Forms of ``term``, each with ``replacement`` in the same form: how a fix
        writes a replacement term where the text has the old term inflected (the
        term itself, then its plural)."""
        yield term, replacement
        yield self.plural(term), self.plural(replacement)

    @cached_property
    def supersigns(self) -> dict[str, str]:
        """Letter -> the letter with its supersign, for a language whose words are
        also written for keyboards without those letters (Esperanto's x- and
        h-systems: cx, ch for ĉ), which comparisons read as meant; empty: none."""
        return self.data.table("supersigns")

    def compound_holds(self, words: Collection[str], heads: frozenset[str]) -> bool:
        """Whether one of ``words`` is a compound holding one of ``heads`` (forms of
        a glossary term), in a language that writes compounds as one word."""
        return False

    def elided_whole(self, written: str) -> str:
        """The whole word an elided word before an apostrophe is judged as by the
        spelling rule: here the word with its apostrophe, as dictionaries list French
        *l'*, *qu'*, *jusqu'*."""
        return written + "'"

    # ------------------------------------------------------------------ spelling

    @cached_property
    def hunspell(self) -> Hunspell | None:
        """Its Hunspell dictionary (None: spelling is not checked)."""
        section = self.data.section("hunspell")
        files = section.words("files")
        if not files:
            return None
        prefer = section.text("prefer", "")
        return Hunspell(files, section.text("package"), prefer.encode() if prefer else None)

    @cached_property
    def lower_case_english(self) -> bool:
        """Whether a lower-case word of the English dictionary that is no word of this
        language is English left in the text (French *night*), not a typo: false
        where the language's typos make English words (Esperanto *sept*)."""
        return self.data.section("spelling").flag("lower-case-english", True)

    @cached_property
    def spelling_words(self) -> frozenset[str]:
        """Words the spelling rule accepts that no dictionary lists (normalized)."""
        return frozenset()

    @cached_property
    def middle_dots(self) -> MiddleDots | None:
        """Its inclusive middle-dot forms, read as one word (None: it has none)."""
        return None

    @cached_property
    def word_formation(self) -> WordFormation | None:
        """How its words are derived from roots (None: words are the dictionary's)."""
        return None

    # ------------------------------------------------------------------ print

    @cached_property
    def typography(self) -> Typography:
        """How the short texts translator prints are set in this language."""
        section = self.data.section("typography")
        return Typography(
            section.text("apostrophe", "’"),
            section.text("no-break-before", ""),
            section.text("no-break-after", ""),
            section.words("bound-words"),
        )

    def word_breaks(self, word: str) -> tuple[int, ...] | None:
        """Where ``word`` may break, by the language's own rule; None: where
        pyphen's patterns for the language say."""
        return None
