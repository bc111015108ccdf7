"""EO4 rules: the Esperanto grammar a reviewer corrects at once.

A direct object without its -n (EO401: « eltiru du kartoj »), an adjective that does
not agree with its noun in number or case (EO402: « viaj estaĵo », « cela estaĵon »),
an -n after a preposition that never takes it (EO403: « metu ĝin al vian armeon »).

Esperanto is regular enough to read from the endings alone (a noun ends in -o, an
adjective in -a, then -j and -n; a verb in -as -is -os -us -u -i): what the endings
cannot tell is data, ``glossaries/lint/eo-grammar.yaml`` (the closed classes, the
prepositions and which of them take the -n of direction, the transitive verbs).  The
rules look at **adjacent words only**, a noun phrase being ``(la) (determiners,
adjectives, numbers) noun`` with nothing but spaces between its words, so that a
comma, a symbol, a name (a capitalised word inside a sentence: an ability, a
faction), a digit or an unknown word ends the phrase and the check gives up: a false
alarm is as bad as a miss.  What they find on prose nobody here wrote (the wiki's
Esperanto pages), judged one by one: ``docs/lint-esperanto-grammar.md``.

The analysis (:func:`analyse`) is a pure function of a text and its words, so that the
same code runs on card paragraphs and on the wiki's prose.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ...diagnostics import Severity
from ...languages.eo import LANGUAGE as ESPERANTO
from ...shipped import glossaries_root
from ...yamlfile import safe_load
from ..context import Reporter, Subject
from ..model import Finding
from .esperanto import ESPERANTO_RULES, looks_esperanto, sentence_start
from .glossary import list_reminders

#: The family of this module's rules (EO4).
FAMILY = ESPERANTO_RULES.part("EO4")


GRAMMAR_FILE = "eo-grammar.yaml"


@dataclass(frozen=True, slots=True)
class Grammar:
    """The closed classes and verb lists of ``eo-grammar.yaml``."""

    determiners: frozenset[str]
    pronoun_correlatives: frozenset[str]
    pronouns: frozenset[str]
    articles: frozenset[str]
    transparent: frozenset[str]
    invariable: frozenset[str]
    clause_openers: frozenset[str]
    no_accusative: frozenset[str]
    prepositions: frozenset[str]
    transitive: frozenset[str]
    prefixes: tuple[str, ...]
    causative: str
    causative_exceptions: frozenset[str]
    participles: tuple[str, ...]
    adverbs: frozenset[str]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Grammar:
        def words(key: str) -> frozenset[str]:
            return frozenset(str(w) for w in data.get(key) or [])

        prepositions = data.get("prepositions") or {}
        no_accusative = frozenset(prepositions.get("no-accusative") or [])
        every = no_accusative.union(*(prepositions.get(k) or [] for k in prepositions))
        roots = frozenset(str(v)[:-1] for v in data.get("transitive") or [])
        return cls(
            words("determiners"),
            words("pronoun-correlatives"),
            words("pronouns"),
            words("articles"),
            words("transparent"),
            words("invariable"),
            words("clause-openers"),
            no_accusative,
            frozenset(every),
            roots,
            tuple(sorted(words("prefixes"), key=len, reverse=True)),
            str(data.get("causative-suffix") or ""),
            words("causative-exceptions"),
            tuple(sorted(words("participles"))),
            words("adverbs"),
        )


def grammar_file() -> Path:
    root = glossaries_root()
    if root is None or not (root / "lint" / GRAMMAR_FILE).is_file():
        raise FileNotFoundError(f"glossaries/lint/{GRAMMAR_FILE} is missing")
    return root / "lint" / GRAMMAR_FILE


@lru_cache(maxsize=1)
def load_grammar() -> Grammar:
    """The shipped grammar (read once per process)."""
    data = safe_load(grammar_file().read_text(encoding="utf-8")) or {}
    return Grammar.from_data(data)


# --------------------------------------------------------------------------------------
# Words.

NOUN, ADJECTIVE, DETERMINER, PRONOUN, ARTICLE, TRANSPARENT = (
    "noun",
    "adjective",
    "determiner",
    "pronoun",
    "article",
    "transparent",
)
PREPOSITION, VERB, OPENER, ADVERB, OTHER = "preposition", "verb", "opener", "adverb", "other"


@dataclass(frozen=True, slots=True)
class Word:
    """What the ending of one word tells: its class, -j, -n; a verb's form."""

    kind: str
    plural: bool = False
    accusative: bool = False
    #: A verb: "finite", "imperative" or "infinitive", and whether it is transitive.
    form: str = ""
    transitive: bool = False
    #: An adjective that is a participle (-anta, -ita, ...).
    participle: bool = False

    @property
    def agrees(self) -> bool:
        """Does the word take the -j and -n of its noun (an adjective, a determiner)?"""
        return self.kind in (ADJECTIVE, DETERMINER)

    @property
    def head(self) -> bool:
        return self.kind in (NOUN, PRONOUN)


_OTHER = Word(OTHER)
_AGREEING = frozenset({ADJECTIVE, DETERMINER})


def classify(word: str, grammar: Grammar, foreign: frozenset[str]) -> Word:
    """The class of ``word`` (normalized, lower case) from its ending and the grammar's
    closed classes; OTHER when it could be anything else (a name, English, a digit)."""
    return _classify(word, grammar, foreign)


def _classify(word: str, grammar: Grammar, foreign: frozenset[str]) -> Word:
    """:func:`classify`: a word of a closed class by its list, any other by its ending
    (a word that does not look Esperanto, or has a digit, is OTHER)."""
    if any(c.isdigit() for c in word):
        return _OTHER
    closed = _closed_class(word, grammar)
    if closed is not None:
        return closed
    last = word.rsplit("-", 1)[-1]
    if len(last) < 2 or not looks_esperanto(word.replace("-", "")):
        return _OTHER
    return _by_ending(word, last, grammar, foreign)


def _closed_class(word: str, grammar: Grammar) -> Word | None:
    """The class of a word the grammar lists as it stands (an article, a preposition,
    an adverb...), OTHER for an invariable word; None for a word it does not list."""
    for listed, kind in (
        (grammar.articles, ARTICLE),
        (grammar.transparent, TRANSPARENT),
        (grammar.prepositions, PREPOSITION),
        (grammar.clause_openers, OPENER),
        (grammar.adverbs, ADVERB),
    ):
        if word in listed:
            return Word(kind)
    return _OTHER if word in grammar.invariable else None


def _by_ending(word: str, last: str, grammar: Grammar, foreign: frozenset[str]) -> Word:
    """The class of a word by the ending of its ``last`` part: a pronoun or a declined
    word (with its -j and -n), an adverb in -e, a verb by its form; OTHER else."""
    accusative = last.endswith("n")
    base = last[:-1] if accusative else last
    if base in grammar.pronouns or base in grammar.pronoun_correlatives:
        return Word(PRONOUN, False, accusative)
    plural = base.endswith("j")
    base = base[:-1] if plural else base
    declined = _declined(word, base, plural, accusative, grammar, foreign)
    if declined is not None:
        return declined
    if plural or accusative:
        return _OTHER
    if base.endswith("e") and len(base) >= 4:
        return Word(ADVERB)
    endings = ESPERANTO.endings  # the language's: -as -is -os -us, -u, -i
    for ending, form in (
        *((e, "finite") for e in endings.finite),
        (endings.imperative, "imperative"),
        (endings.infinitive, "infinitive"),
    ):
        if last.endswith(ending) and len(last) > len(ending) + 1:
            return Word(VERB, form=form, transitive=_transitive(last[: -len(ending)], grammar))
    return _OTHER


def _declined(
    word: str,
    base: str,
    plural: bool,
    accusative: bool,
    grammar: Grammar,
    foreign: frozenset[str],
) -> Word | None:
    """The class of a word that takes -j and -n (``base``: without them): a relative,
    a determiner, a noun in -o, an adjective in -a (a participle or not); OTHER for
    an invariable, pronoun or foreign word; None for a word of no such class."""
    if base in grammar.clause_openers:  # kiun, kiujn: a relative or a question
        return Word(OPENER, plural, accusative)
    if base in grammar.determiners:
        return Word(DETERMINER, plural, accusative)
    if base in grammar.invariable or base in grammar.pronouns or word in foreign:
        return _OTHER
    if base.endswith("o") and len(base) >= 3:
        return Word(NOUN, plural, accusative)
    if base.endswith("a") and len(base) >= 3:
        participle = len(base) >= 6 and base[:-1].endswith(grammar.participles)
        return Word(ADJECTIVE, plural, accusative, participle=participle)
    return None


def _transitive(root: str, grammar: Grammar) -> bool:
    """Is ``root`` (a verb without its ending) a transitive verb of the grammar: listed,
    after a prefix that keeps transitivity, or a causative -ig- verb?"""
    if root in grammar.transitive:
        return True
    for prefix in grammar.prefixes:
        if root.startswith(prefix) and root[len(prefix) :] in grammar.transitive:
            return True
    suffix = grammar.causative
    return (
        bool(suffix)
        and root.endswith(suffix)
        and len(root) >= len(suffix) + 3
        and root not in grammar.causative_exceptions
    )


# --------------------------------------------------------------------------------------
# Phrases.


class Token(NamedTuple):
    word: str
    start: int
    end: int
    info: Word
    #: Only spaces between this word and the next: the two may be in one phrase.
    joined: bool


@dataclass(frozen=True, slots=True)
class Phrase:
    """A noun phrase: its tokens (indexes), the agreeing ones, its head (a noun or a
    pronoun; the last agreeing word of a nominalised adjective: « la alian »)."""

    first: int
    last: int
    agreeing: tuple[int, ...]
    head: int


@dataclass(frozen=True, slots=True)
class GrammarFinding:
    code: str
    start: int
    end: int
    message: str


#: Word classes already read, by grammar and foreign word list (a linter run reads the
#: same few hundred words again and again).
_CACHES: dict[tuple[Grammar, frozenset[str]], dict[str, Word]] = {}
_CACHE_SIZE = 100_000


def _tokens(
    text: str, tokens: list[tuple[str, int, int]], grammar: Grammar, foreign: frozenset[str]
) -> list[Token]:
    cache = _CACHES.get((grammar, foreign))
    if cache is None or len(cache) > _CACHE_SIZE:
        cache = _CACHES[(grammar, foreign)] = {}
    found = []
    count = len(tokens)
    for n, (word, start, end) in enumerate(tokens):
        if text[start].isupper() or (
            "-" in word and text[end - len(word.rsplit("-", 1)[-1])].isupper()
        ):
            written = text[start:end]
            if written[1:].islower() and sentence_start(text, start):
                info = cache.get(word) or cache.setdefault(word, _classify(word, grammar, foreign))
            else:
                info = _OTHER  # a name (an ability, a faction, a parameter: K, N)
        else:
            info = cache.get(word) or cache.setdefault(word, _classify(word, grammar, foreign))
        if n + 1 < count:
            gap = text[end : tokens[n + 1][1]]
            joined = gap == " " or (bool(gap) and not gap.strip(" \u00a0\u202f"))
        else:
            joined = False
        found.append(Token(word, start, end, info, joined))
    return found


def _adjacent(text: str, left: Token, right: Token) -> bool:
    """Are two consecutive words of one phrase: nothing but spaces between them?"""
    return left.joined


#: What may follow the last word of a phrase: a space, a punctuation mark, the end (not
#: « speco(j)n », « l' »: another ending or an elision).
_PHRASE_END = frozenset(' \u00a0\u202f\n.,;:!?)»"\ufffc')


def _ends(text: str, token: Token) -> bool:
    return token.end == len(text) or text[token.end] in _PHRASE_END


def noun_phrase(text: str, tokens: list[Token], i: int) -> Phrase | None:
    """The noun phrase opening at token ``i``, or None when the words from ``i`` are no
    complete phrase (something else interrupts it)."""
    agreeing: list[int] = []
    k = i
    while k < len(tokens):
        if k > i and not _adjacent(text, tokens[k - 1], tokens[k]):
            break
        info = tokens[k].info
        if info.kind == PRONOUN:
            return Phrase(i, k, (), k) if k == i and _ends(text, tokens[k]) else None
        if info.kind == NOUN:
            return Phrase(i, k, tuple(agreeing), k) if _ends(text, tokens[k]) else None
        if info.agrees:
            agreeing.append(k)
        elif info.kind not in (ARTICLE, TRANSPARENT):
            return None
        k += 1
    # no noun: a nominalised adjective (« detruu la alian. ») when the phrase ends the
    # clause, else an unknown word ended it
    if (
        agreeing
        and agreeing[-1] == k - 1
        and (k == len(text) or k == len(tokens) or text[tokens[k - 1].end] in ".,;:!?")
    ):
        return Phrase(i, k - 1, tuple(agreeing[:-1]), agreeing[-1])
    return None


def _phrase_text(text: str, tokens: list[Token], phrase: Phrase) -> str:
    return text[tokens[phrase.first].start : tokens[phrase.last].end]


def _with_n(text: str, tokens: list[Token], phrase: Phrase) -> str:
    """The phrase with -n on its head and agreeing words (the correction suggested)."""
    pieces = []
    position = tokens[phrase.first].start
    for k in range(phrase.first, phrase.last + 1):
        token = tokens[k]
        pieces.append(text[position : token.end])
        if k == phrase.head or k in phrase.agreeing:
            pieces.append("n")
        position = token.end
    return "".join(pieces)


def _clause_start(text: str, tokens: list[Token], i: int) -> int:
    """The first token of the clause of token ``i``: after the last punctuation mark,
    line break or clause-opening word before it."""
    k = i
    while k > 0:
        between = text[tokens[k - 1].end : tokens[k].start]
        if any(c in ',;.:!?()[]«»\n"\ufffc–—' for c in between):
            return k
        if tokens[k - 1].info.kind == OPENER:
            return k
        k -= 1
    return 0


def _object_before(tokens: list[Token], start: int, verb: int) -> bool:
    """Does the clause hold an accusative before the verb (its object: « kiun mi
    detruas », « ĝin detruu »)?"""
    if start > 0 and tokens[start - 1].info.kind == OPENER and tokens[start - 1].word.endswith("n"):
        return True
    return any(tokens[k].info.accusative for k in range(start, verb))


def _subject_before(text: str, tokens: list[Token], start: int, verb: int) -> bool:
    """Does the clause hold a subject before its finite verb (else the phrase after the
    verb may be the subject: « kiam atakas la urbo »)?"""
    if start > 0 and tokens[start - 1].word in ("kiu", "kiuj", "kio"):
        return True
    if any(tokens[k].info.head or tokens[k].info.agrees for k in range(start, verb)):
        return True
    # « ĉiu ludanto elektas tri urbojn kaj metas ilin... »: the verbs share a subject
    if start == 0 or tokens[start - 1].word not in ("kaj", "aŭ", "sed"):
        return False
    for k in range(start - 2, -1, -1):
        if any(c in ".!?:;\n" for c in text[tokens[k].end : tokens[k + 1].start]):
            return False
        if tokens[k].info.form == "finite":
            return True
    return False


def analyse(
    text: str,
    tokens: list[tuple[str, int, int]],
    grammar: Grammar,
    foreign: frozenset[str] = frozenset(),
) -> list[GrammarFinding]:
    """The EO4 findings in one text (a paragraph), given its words."""
    words = _tokens(text, tokens, grammar, foreign)
    found: list[GrammarFinding] = []
    previous_agrees = False
    for i, token in enumerate(words):
        kind = token.info.kind
        agrees = kind in _AGREEING and token.joined
        if not token.joined:
            pass
        elif kind == VERB:
            if token.info.transitive:
                found.extend(_check_object(text, words, i))
        elif kind == PREPOSITION:
            if token.word in grammar.no_accusative:
                found.extend(_check_preposition(text, words, i))
        elif agrees and not previous_agrees:
            found.extend(_check_agreement(text, words, i))
        previous_agrees = agrees
    found.sort(key=lambda f: (f.start, f.code))
    return found


def _check_object(text: str, words: list[Token], verb: int) -> Iterator[GrammarFinding]:
    first = verb + 1
    while (
        first + 1 < len(words)
        and words[first].info.kind == ADVERB
        and _adjacent(text, words[first], words[first + 1])
    ):
        first += 1  # « enteni precize kvardek kvin kartojn »
    phrase = noun_phrase(text, words, first)
    if phrase is None:
        return
    members = [words[k].info for k in (*phrase.agreeing, phrase.head)]
    if any(m.accusative for m in members):
        return  # the -n is there (or EO402 reports a disagreement)
    after = phrase.last + 1
    if (
        after < len(words)
        and _adjacent(text, words[phrase.last], words[after])
        and words[after].info.kind == VERB
        and words[after].info.form == "finite"
    ):
        return  # « kiam vi atakas la urbo perdas... »: the phrase is a subject
    start = _clause_start(text, words, verb)
    if _object_before(words, start, verb) or (
        words[verb].info.form == "finite" and not _subject_before(text, words, start, verb)
    ):
        return
    head = words[phrase.head]
    if head.info.kind == PRONOUN and head.word in ("oni",):
        return
    written = _phrase_text(text, words, phrase)
    verb_text = text[words[verb].start : words[verb].end]
    yield GrammarFinding(
        "EO401",
        words[phrase.first].start,
        head.end,
        f"'{verb_text} {written}': '{verb_text}' takes a direct object, which takes "
        f"the accusative -n ('{_with_n(text, words, phrase)}')",
    )


def _check_preposition(text: str, words: list[Token], preposition: int) -> Iterator[GrammarFinding]:
    phrase = noun_phrase(text, words, preposition + 1)
    if phrase is None:
        return
    members = [words[k].info for k in (*phrase.agreeing, phrase.head)]
    if not all(m.accusative for m in members):
        return  # no -n, or a disagreement EO402 reports
    written = _phrase_text(text, words, phrase)
    prep = text[words[preposition].start : words[preposition].end]
    yield GrammarFinding(
        "EO403",
        words[phrase.first].start,
        words[phrase.head].end,
        f"'{prep} {written}': '{prep}' takes no accusative -n (only a preposition of "
        "place takes the -n of direction: en, sur, sub...)",
    )


def _agreeing_part(words: list[Token], phrase: Phrase) -> list[int]:
    """The agreeing words of the phrase that belong to its noun: those after the last
    place where another phrase may open (an article or a determiner after an
    adjective: « nevundebla ĉi tiun vicon »; an -n after a participle without it: the
    participle's object, « eltiranta la karton »)."""
    kept: list[int] = []
    previous: Word | None = None
    for k in range(phrase.first, phrase.head + 1):
        info = words[k].info
        if previous is not None and (
            (info.kind == ARTICLE and kept)
            or (info.kind == DETERMINER and previous.kind == ADJECTIVE)
            or (previous.participle and not previous.accusative and info.accusative)
        ):
            kept = []
        if info.agrees:
            kept.append(k)
        if info.kind != TRANSPARENT:
            previous = info
    return [k for k in kept if k != phrase.head]


def _check_agreement(text: str, words: list[Token], first: int) -> Iterator[GrammarFinding]:
    phrase = noun_phrase(text, words, first)
    if phrase is None or words[phrase.head].info.kind != NOUN:
        return
    head = words[phrase.head]
    after = phrase.head + 1
    coordinated = (
        after < len(words)
        and words[after].word in ("kaj", "aŭ")
        and _adjacent(text, head, words[after])
    )
    after_and = first > 0 and words[first - 1].word in ("kaj", "aŭ")
    for k in _agreeing_part(words, phrase):
        word = words[k]
        plural = word.info.plural != head.info.plural
        case = word.info.accusative != head.info.accusative
        if plural and coordinated and word.info.plural:
            plural = False  # « viaj estaĵo kaj urbo »: one adjective for two nouns
        if plural and after_and and head.info.plural:
            plural = False  # « la enluda kaj eksterluda statoj »: one state each
        if not (plural or case):
            continue
        what = " and ".join(
            w for w, differs in (("number (-j)", plural), ("case (-n)", case)) if differs
        )
        written = text[word.start : word.end]
        noun = text[head.start : head.end]
        yield GrammarFinding(
            "EO402",
            word.start,
            word.end,
            f"'{written} {noun}' does not agree in {what}: an adjective takes the "
            "endings of its noun",
        )
        return


# --------------------------------------------------------------------------------------
# The rules.


def _findings(subject: Subject) -> dict[str, list[tuple[int, GrammarFinding]]]:
    """Every EO4 finding of the subject's printed paragraphs, by code (computed once for
    the three rules)."""
    cached = subject.cache.get("EO4")
    if cached is not None:
        return cached
    by_code: dict[str, list[tuple[int, GrammarFinding]]] = {}
    if subject.lang == "eo" and subject.is_translation:
        grammar = load_grammar()
        foreign = subject.resources.english_words
        # A reminder that is the abilities list's is the list's wording: its slips
        # are the list's to fix (a card that corrects them departs from it, TR404).
        reminders = list_reminders(subject)
        for paragraph in subject.plain.paragraphs:
            own = reminders.get(paragraph.index)
            for found in analyse(paragraph.text, paragraph.tokens, grammar, foreign):
                if own is None or found.start < own[0]:
                    by_code.setdefault(found.code, []).append((paragraph.index, found))
    subject.cache["EO4"] = by_code
    return by_code


def _report(subject: Subject, report: Reporter) -> Iterator[Finding]:
    """The findings of one EO4 rule: the grammar's own, of the rule's code."""
    for index, found in _findings(subject).get(report.rule.code, []):
        yield report.span(subject, index, found.start, found.message, None)


@FAMILY.rule(
    code="EO401",
    name="accusative-object",
    severity=Severity.WARNING,
    summary="The direct object of a transitive verb lacks the accusative -n (eltiru du kartoj).",
    rationale="Esperanto marks the direct object with -n (Fundamento §13), on the noun and on "
    "every adjective that agrees with it: « eltiru du kartojn », « detruu celan "
    "estaĵon ».  Arcmage Reguloj slips once: « Ĉiu kartaro devas enteni precize "
    "kvardek kvin kartoj ».  The rule reads the noun phrase right after a finite, "
    "imperative or infinitive form of a verb of `glossaries/lint/eo-grammar.yaml` "
    "(the glossary's and abilities list's transitive verbs, and -ig- verbs), its words "
    "adjacent (only spaces between them), and reports it when none of its words has "
    "-n.  Not when a preposition, ke, ĉu, kiel or a ki- word follows the verb (a "
    "clause or an indirect object), when a finite verb follows the phrase (it is the "
    "subject of the next clause: « kiam vi atakas la urbo perdas »), nor after a "
    "finite verb whose clause has no subject or has its object before it (« kiun mi "
    "regas »: the phrase after the verb may be the subject).",
    bad="en: Draw two cards.\neo: Eltiru du kartoj.",
    good="en: Draw two cards.\neo: Eltiru du kartojn.",
)
def check_accusative_object(subject: Subject, report: Reporter) -> Iterator[Finding]:
    yield from _report(subject, report)


@FAMILY.rule(
    code="EO402",
    name="adjective-agreement",
    severity=Severity.WARNING,
    summary="An adjective does not agree with its noun in number (-j) or case (-n) (viaj "
    "estaĵo, cela estaĵon).",
    rationale="An adjective, a possessive (mia, via, sia, ...) and the correlatives tiu, ĉiu, "
    "iu, neniu, tia, ĉia, ia, nenia take the -j and the -n of their noun (Fundamento "
    "§§4, 5): « ĉiuj viaj estaĵoj », « celan estaĵon ».  The rule reads the words "
    "before a noun, adjacent to it (only spaces, articles and numbers between); "
    "another phrase opens at an article, at a determiner after an adjective "
    "(« nevundebla ĉi tiun vicon »: the -n of time) and at an -n after a participle "
    "without it (« eltiranta karton »: the participle's object).  An adjective after "
    "its noun may be a predicate (« igu la estaĵon forta »: not compared), and kiu, "
    "kia may open a relative clause whose subject follows (« la kartoj, kiujn "
    "ludanto regas »: not compared).  Adjectives shared by nouns joined by kaj or aŭ "
    "(« viaj estaĵo kaj urbo », « la enluda kaj eksterluda statoj ») are not "
    "reported.  Arcmage Reguloj: « nova okazaĵokartoj », « kontraŭ atakanta "
    "estaĵoj ».",
    bad="en: All your creatures get +1/+0.\neo: Ĉiuj viaj estaĵo akiras +1/+0.",
    good="en: All your creatures get +1/+0.\neo: Ĉiuj viaj estaĵoj akiras +1/+0.",
)
def check_adjective_agreement(subject: Subject, report: Reporter) -> Iterator[Finding]:
    yield from _report(subject, report)


@FAMILY.rule(
    code="EO403",
    name="accusative-after-preposition",
    severity=Severity.WARNING,
    summary="An accusative -n after a preposition that never takes it (al vian armeon, kun ĝin).",
    rationale="A preposition takes the nominative (Fundamento §8); the -n is right after one "
    "only where it marks a direction, after the prepositions of place (« metu ĝin en "
    "vian armeon », « sur la tablon »), and in a few uses of ĝis, po, krom and "
    "anstataŭ.  The rule reports the -n after the prepositions that never take it "
    "(al, da, de, dum, el, kun, laŭ, malgraŭ, per, por, pri, pro, sen, ĉe: "
    "`glossaries/lint/eo-grammar.yaml`; not kontraŭ, a preposition of place too), "
    "when every word of the phrase has it (a phrase that disagrees is EO402's).  "
    "Listo de kapabloj has it twice: « metu unu S ... el via mano al vian armeon » "
    "(Evoluonto), « ludata rekte al vian armeon » (Subita), for « en vian armeon ».",
    bad="en: Put it from your hand into your army.\neo: Metu ĝin el via mano al vian armeon.",
    good="en: Put it from your hand into your army.\neo: Metu ĝin el via mano en vian armeon.",
)
def check_accusative_after_preposition(subject: Subject, report: Reporter) -> Iterator[Finding]:
    yield from _report(subject, report)
