"""Esperanto: endings, word formation, keyboard spellings, syllables.

Esperanto words carry their class in their ending, and all of it is regular: a
glossary term is found as card text declines it (*armeo*, *armeojn*; *marki*,
*markitan*), a phrase agreeing in every word up to its first preposition (*cela
estaĵo*, *celajn estaĵojn*).  The endings, the alphabet, the x- and h-system tables
and the syllables are in ``glossaries/eo/language.yaml``; the prepositions,
articles and participles are the grammar's (``glossaries/lint/eo-grammar.yaml``),
the prefixes, suffixes and correlatives the word formation's
(``glossaries/lint/eo-morphology.yaml``): each list is written once.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from .base import Language, WordFormation
from .data import normalized, shipped

GRAMMAR_FILE = "lint/eo-grammar.yaml"
MORPHOLOGY_FILE = "lint/eo-morphology.yaml"
#: What a case ending or -j follows (the noun's and the adjective's endings), and
#: the correlatives' tails that decline like them (kiu, kiuj, kiun).
_DECLINED_CORRELATIVES = "oau"
#: Letters after a noun's root (and its linking o) that start no second root of a
#: compound: the vowels, which open suffixes (-ig-: *markigita* is no compound of
#: *marko*), and ĵ.
_NO_ROOT_AFTER = "aeiouĵ"


@dataclass(frozen=True)
class Endings:
    """Esperanto's grammatical endings (``endings`` of the language file)."""

    noun: str
    adjective: str
    adverb: str
    plural: str
    accusative: str
    infinitive: str
    finite: tuple[str, ...]
    imperative: str

    @cached_property
    def cases(self) -> tuple[str, ...]:
        """What a noun or an adjective may add: nothing, -j, -n, -jn."""
        return ("", self.plural, self.accusative, self.plural + self.accusative)

    @cached_property
    def verb(self) -> tuple[str, ...]:
        """A verb's endings: infinitive, finite, imperative."""
        return (self.infinitive, *self.finite, self.imperative)

    @cached_property
    def declined(self) -> frozenset[str]:
        """The endings of nouns, adjectives and adverbs, with -j and -n (o, ojn, e, en)."""
        return frozenset(
            stem + case for stem in (self.noun, self.adjective) for case in self.cases
        ) | {self.adverb, self.adverb + self.accusative}


class Esperanto(Language):
    """Esperanto, as the Leksikono and the cards write it."""

    has_data = True
    other_files = (GRAMMAR_FILE, MORPHOLOGY_FILE)

    @cached_property
    def endings(self) -> Endings:
        data = self.data.section("endings")
        return Endings(
            data.text("noun"),
            data.text("adjective"),
            data.text("adverb"),
            data.text("plural"),
            data.text("accusative"),
            data.text("infinitive"),
            data.words("finite"),
            data.text("imperative"),
        )

    @cached_property
    def alphabet(self) -> frozenset[str]:
        """The 28 letters (lower case)."""
        return frozenset(self.data.text("alphabet"))

    @cached_property
    def vowels(self) -> frozenset[str]:
        return frozenset(self.data.text("vowels"))

    @cached_property
    def consonant_words(self) -> frozenset[str]:
        """Words that end in a consonant and take a supersign (ĉar, ĝis, eĉ)."""
        return frozenset(self.data.words("consonant-words"))

    @cached_property
    def lookalikes(self) -> dict[str, str]:
        """Letters typed for supersigned ones (č for ĉ) -> the supersigned letter."""
        return self.data.table("lookalikes")

    @cached_property
    def h_roots(self) -> tuple[str, ...]:
        """Roots that open with h, which make an h-system pair across a compound."""
        return self.data.section("h-system").words("h-roots")

    @cached_property
    def u_words(self) -> dict[str, int]:
        """A word as the h-system writes it (u for ŭ) -> where its ŭ is: the words where
        au is never two vowels, with the endings their stems take."""
        data = self.data.section("h-system")
        endings = self.endings
        modifiers = [endings.adjective + case for case in endings.cases]
        modifiers += [endings.adverb, endings.adverb + endings.accusative]
        words = [*data.words("u-words"), *data.words("u-stems")]
        words += [stem + ending for stem in data.words("u-stems") for ending in modifiers]
        words += [
            noun + endings.noun + case for noun in data.words("u-nouns") for case in endings.cases
        ]
        return {word.replace("ŭ", "u"): word.index("ŭ") for word in words}

    # ------------------------------------------------------------------ grammar

    @cached_property
    def prepositions(self) -> frozenset[str]:
        """Every preposition (of each class of the grammar's file): an agreeing phrase
        stops at one (*Infanoj de Geo*)."""
        classes = shipped(GRAMMAR_FILE).section("prepositions")
        return frozenset(word for key in classes.data for word in classes.words(str(key)))

    @cached_property
    def articles(self) -> frozenset[str]:
        """The article (*la*, elided *l*), which never takes an ending."""
        return frozenset(shipped(GRAMMAR_FILE).words("articles"))

    @cached_property
    def participles(self) -> tuple[str, ...]:
        """The participles' suffixes (-ant-, -int-, -ont-, -at-, -it-, -ot-)."""
        return shipped(GRAMMAR_FILE).words("participles")

    # ------------------------------------------------------------------ words

    @cached_property
    def _intransitive(self) -> str:
        return self.data.text("intransitive-suffix")

    def word_forms(self, word: str, pos: str) -> set[str]:
        """A verb in every ending and participle (and its intransitive in -iĝ-); a
        noun or an adjective with -j and -n (an adjective as an adverb too)."""
        endings = self.endings
        if pos == "verb" and word.endswith(endings.infinitive):
            root = word[: -len(endings.infinitive)]
            found: set[str] = set()
            for stem in (root, root + self._intransitive):
                found.update(stem + ending for ending in endings.verb)
                for participle in self.participles:
                    for vowel in (endings.adjective, endings.noun):
                        found.update(stem + participle + vowel + case for case in endings.cases)
                    found.add(stem + participle + endings.adverb)
            return found
        if word.endswith((endings.noun, endings.adjective)):
            found = {word + case for case in endings.cases}
            if word.endswith(endings.adjective):
                found.add(word[: -len(endings.adjective)] + endings.adverb)
            return found
        return {word}

    def _declinable(self, word: str) -> str:
        """How ``word`` takes a case ending in a phrase: "o"/"a" (number and case),
        "j" (already plural: only the accusative), or "" (does not change)."""
        endings = self.endings
        if word.lower() in self.articles or not word[:1].isalpha():
            return ""
        if word.endswith((endings.noun + endings.plural, endings.adjective + endings.plural)):
            return endings.plural
        return word[-1] if word.endswith((endings.noun, endings.adjective)) else ""

    def forms(self, term: str, pos: str) -> set[str]:
        """In a phrase, nouns and adjectives agree (*cela estaĵo*, *celajn
        estaĵojn*): the same ending is added to all of them at once, up to the first
        preposition."""
        words = term.split(" ")
        if len(words) == 1:
            return self.word_forms(term, pos)
        endings = self.endings
        kinds: list[str] = []
        agreeing = True
        for word in words:
            if word.lower() in self.prepositions:
                agreeing = False
            kinds.append(self._declinable(word) if agreeing else "")
        found: set[str] = set()
        for case in endings.cases:
            found.add(
                " ".join(
                    w + case
                    if kind in (endings.noun, endings.adjective)
                    else w + endings.accusative
                    if kind == endings.plural and endings.accusative in case
                    else w
                    for w, kind in zip(words, kinds, strict=True)
                )
            )
        if pos == "verb" and words[0].endswith(endings.infinitive):
            found.update(" ".join([v, *words[1:]]) for v in self.word_forms(words[0], "verb"))
        return found

    def plural(self, term: str) -> str:
        """-j on every noun and adjective up to the first preposition (*la supra
        karto de* -> *la supraj kartoj de*)."""
        endings = self.endings
        out: list[str] = []
        agreeing = True
        for word in term.split(" "):
            lower = word.lower()
            if lower in self.prepositions or lower in self.articles:
                agreeing = agreeing and lower in self.articles
                out.append(word)
                continue
            declined = agreeing and word.endswith((endings.noun, endings.adjective))
            out.append(word + endings.plural if declined else word)
        return " ".join(out)

    def inflections(self, term: str, replacement: str) -> Iterator[tuple[str, str]]:
        """The term, then the term with -jn, -j or -n, the replacement's nouns and
        adjectives taking the same ending."""
        yield term, replacement
        endings = self.endings
        declined = (endings.noun, endings.adjective)
        for case in (endings.cases[3], endings.cases[1], endings.cases[2]):
            if replacement[-1:] in declined:
                yield (
                    term + case,
                    " ".join(w + case if w[-1:] in declined else w for w in replacement.split()),
                )

    def elided_whole(self, written: str) -> str:
        """An elided noun is the noun less its -o (*dank'* for *danko*)."""
        return written + self.endings.noun

    def compound_holds(self, words: Collection[str], heads: frozenset[str]) -> bool:
        """A term ends a compound (*bataldamaĝon* holds *damaĝon*), or a noun's root
        starts one before another root (*bataldamaĝon* holds *batal-*, of *batalo*)."""
        noun = self.endings.noun
        roots = [h[: -len(noun)] for h in heads if len(h) >= 5 and h.endswith(noun)]
        return any(
            len(word) > len(head) + 2 and word.endswith(head)
            for word in words
            for head in heads
            if len(head) >= 4
        ) or any(
            len(word) > len(root) + 3
            and word.startswith(root)
            and word[len(root) + (word[len(root)] == noun)] not in _NO_ROOT_AFTER
            for word in words
            for root in roots
        )

    # ------------------------------------------------------------------ spelling

    @cached_property
    def word_formation(self) -> WordFormation:
        """Prefixes + a root + suffixes + an ending (``eo-morphology.yaml``), the
        endings this file's and the participles' suffixes the grammar's."""
        data = shipped(MORPHOLOGY_FILE)
        endings = self.endings
        table = data.section("correlatives")
        tails = table.words("tails")
        roots = frozenset(head + tail for head in table.words("heads") for tail in tails)
        forms = set(roots)
        for root in roots:
            if root[-1] in _DECLINED_CORRELATIVES:
                forms.update(root + case for case in endings.cases[1:])
            elif root[-1] == endings.adverb:
                forms.add(root + endings.accusative)
        every = [*endings.declined, *endings.verb]
        ending = re.compile(
            f"(?:(?:{'|'.join(self.participles)})?(?:{'|'.join(sorted(endings.declined))})"
            f"|{'|'.join(endings.verb)})$"
        )
        return WordFormation(
            data.words("prefixes"),
            (*data.words("suffixes"), *self.participles),
            data.words("glossary-suffixes"),
            tuple(sorted(every, key=len, reverse=True)),
            data.integer("shortest-root", 2),
            data.integer("bare-root", 4),
            data.integer("checked-root", 4),
            roots,
            frozenset(forms),
            normalized(data.words("abbreviations")),
            normalized(data.words("affix-roots")),
            frozenset(data.words("compound-openers")),
            self.data.text("alphabet"),
            ending,
            (endings.noun, endings.adjective, endings.adverb, endings.infinitive),
            endings.infinitive,
            endings.noun,
            (endings.noun, endings.infinitive, endings.adjective),
        )

    # ------------------------------------------------------------------ print

    @cached_property
    def _onsets(self) -> frozenset[str]:
        return frozenset(self.data.section("hyphenation").words("onsets"))

    @cached_property
    def _glide(self) -> str:
        return self.data.section("hyphenation").text("glide")

    def word_breaks(self, word: str) -> tuple[int, ...]:
        """Every syllable boundary of ``word`` (offsets into it).

        Each vowel is a syllable's nucleus, and two vowels in a row are two syllables
        (``kre-a-ĵo``).  The consonants between two vowels go with the next syllable,
        except that of two or more the last one alone does (``es-ta-ĵo``, ``sor-ĉo``),
        or the last two where they are a stop or fricative and ``l`` or ``r``
        (``nom-bro``, ``kon-traŭ-u-lo``, but ``at-le-to``).  ``ŭ`` after a vowel
        closes its syllable (``aŭ``, ``eŭ`` are diphthongs: ``kon-traŭ-u-lo``, not
        ``kon-tra-ŭu-lo``); ``j`` counts as a consonant, which puts ``aj``, ``oj``,
        ``uj`` before a consonant in one syllable (``taj-go``) and ``j`` between
        vowels in the next (``ka-jo``).
        """
        letters = word.casefold()
        nuclei = [i for i, letter in enumerate(letters) if letter in self.vowels]
        breaks = []
        for left, right in pairwise(nuclei):
            start = left + 1
            if letters[start : start + len(self._glide)] == self._glide:
                start += len(self._glide)  # the diphthong's glide stays with its vowel
            cluster = letters[start:right]
            if len(cluster) <= 1:
                breaks.append(start)
            elif cluster[-2:] in self._onsets:
                breaks.append(right - 2)
            else:
                breaks.append(right - 1)
        return tuple(b for b in breaks if 0 < b < len(word))


LANGUAGE = Esperanto("eo")
