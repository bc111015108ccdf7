"""French: inflection by the regular rules, the inclusive forms, the typography.

Card text says *armées*, *ciblée*, *l'armée*, *engagez*; the Lexique says *armée*,
*ciblé*, *engager*.  Rather than a statistical lemmatizer (which guesses, and
guesses wrong on game words like *mort-vivant*), the forms are made by the regular
rules, from the part of speech the glossary gives; the tables of endings are in
``glossaries/fr/language.yaml``, irregular forms in the glossary (``forms``).
Elision (*l'*, *d'*) needs no form: an apostrophe separates words when text is
cut into words.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from .base import APOSTROPHES, EndingRules, Language, MiddleDots
from .data import DataFile, normalized, shipped

#: What may follow a word of a list of subtypes (*Sorcier, humain*): kept after it.
_LIST_PUNCTUATION = ",;:"
#: The style guide's inclusive forms (fused, and with a middle dot), a file of the
#: spelling rule's data.
INCLUSIVE_FILE = "lint/fr-inclusive.yaml"


@dataclass(frozen=True)
class Conjugation:
    """A regular verb group, by its infinitive's ending (``glossaries/fr/language.yaml``,
    ``verbs``): the endings of its forms after the stem."""

    infinitive: str
    keep: str
    exceptions: tuple[str, ...]
    longer_than: int
    forms: tuple[str, ...]
    soft_forms: tuple[str, ...]
    imperative: str

    @classmethod
    def read(cls, data: DataFile) -> Conjugation:
        return cls(
            data.text("infinitive"),
            data.text("keep", ""),
            data.words("except"),
            data.integer("longer-than", 0),
            data.words("forms"),
            data.words("soft-forms"),
            data.text("imperative"),
        )

    def stem(self, word: str) -> str | None:
        """The stem of ``word`` if it is a verb of this group, else None."""
        if (
            not word.endswith(self.infinitive)
            or word.endswith(self.exceptions)
            or len(word) <= self.longer_than
        ):
            return None
        return word[: len(word) - len(self.infinitive)] + self.keep


class French(Language):
    """French, as the Lexique and the style guide write it."""

    has_data = True
    other_files = (INCLUSIVE_FILE,)

    @cached_property
    def _plural(self) -> EndingRules:
        return EndingRules.read(self.data.section("plural"))

    @cached_property
    def _compound_part(self) -> int:
        return self.data.section("plural").integer("compound-part", 3)

    @cached_property
    def _feminine(self) -> EndingRules:
        return EndingRules.read(self.data.section("feminine"))

    @cached_property
    def _verbs(self) -> tuple[Conjugation, ...]:
        return tuple(Conjugation.read(verb) for verb in self.data.sections("verbs"))

    @cached_property
    def enclitics(self) -> tuple[str, ...]:
        """Pronouns joined to an imperative by a hyphen (*Sacrifie-moi*)."""
        return self.data.words("enclitics")

    @cached_property
    def _phrase_stops(self) -> frozenset[str]:
        return frozenset(self.data.words("phrase-stops"))

    # ------------------------------------------------------------------ words

    def word_plural(self, word: str) -> str:
        """The regular plural of a noun or an adjective (a compound's long parts
        agree: *mort-vivant* -> *morts-vivants*)."""
        if "-" in word:
            return "-".join(
                self.word_plural(part)
                if part.isalpha() and len(part) >= self._compound_part
                else part
                for part in word.split("-")
            )
        return self._plural.apply(word)

    def feminine(self, word: str) -> str:
        """The regular feminine of an adjective or a past participle."""
        if "-" in word:
            return "-".join(self.feminine(part) for part in word.split("-"))
        return self._feminine.apply(word)

    def adjective_forms(self, word: str) -> set[str]:
        """An adjective in both genders and numbers."""
        feminine = self.feminine(word)
        return {word, feminine, self.word_plural(word), self.word_plural(feminine)}

    def verb_forms(self, word: str) -> set[str]:
        """The forms of a regular verb card text uses: present (tu, il, ils, vous),
        imperative (with an enclitic pronoun too: *joue-moi*), past participle (agreed),
        infinitive and present participle; an irregular verb is itself only."""
        for verb in self._verbs:
            stem = verb.stem(word)
            if stem is None:
                continue
            soft = stem + "e" if stem.endswith("g") else stem  # mangeons
            found = {word}
            found.update(stem + ending for ending in verb.forms)
            found.update(soft + ending for ending in verb.soft_forms)
            imperative = stem + verb.imperative
            found.add(imperative)
            found.update(f"{imperative}-{pronoun}" for pronoun in self.enclitics)
            return found
        return {word}

    def phrase_plural(self, words: list[str]) -> str:
        """The plural of a noun phrase: the head and the words that agree with it
        (adjectives, the other parts of a compound subtype: *Sorciers, humains*), up
        to the first preposition, article or elided word."""
        out: list[str] = []
        agreeing = True
        for word in words:
            core = word.rstrip(_LIST_PUNCTUATION)
            if agreeing and (
                core.lower() in self._phrase_stops or any(a in core for a in APOSTROPHES)
            ):
                agreeing = False
            out.append(
                self.word_plural(core) + word[len(core) :]
                if agreeing and core[:1].isalpha()
                else word
            )
        return " ".join(out)

    def forms(self, term: str, pos: str) -> set[str]:
        """The term's head inflected by its part of speech (the rest of a phrase as
        it is), and a noun phrase's plural."""
        words = term.split(" ")
        head, rest = words[0], words[1:]
        core = head.rstrip(_LIST_PUNCTUATION)
        tail = head[len(core) :]
        if pos == "noun":
            heads = {core, self.word_plural(core)}
        elif pos == "adjective":
            heads = self.adjective_forms(core)
        elif pos == "verb":
            heads = self.verb_forms(core)
        else:
            heads = {core}
        found = {" ".join([h + tail, *rest]) for h in heads}
        if pos == "noun" and rest:
            found.add(self.phrase_plural(words))
        return found

    def plural(self, term: str) -> str:
        return self.phrase_plural(term.split(" "))

    def inflections(self, term: str, replacement: str) -> Iterator[tuple[str, str]]:
        """The term, then its plural (words split at any white space)."""
        yield term, replacement
        yield self.phrase_plural(term.split()), self.phrase_plural(replacement.split())

    # ------------------------------------------------------------------ spelling

    @cached_property
    def _inclusive(self) -> DataFile:
        return shipped(INCLUSIVE_FILE)

    @cached_property
    def spelling_words(self) -> frozenset[str]:
        """The style guide's fused inclusive forms (*toustes*, *ellui*)."""
        return normalized(self._inclusive.words("words"))

    @cached_property
    def middle_dots(self) -> MiddleDots:
        """The middle-dot forms (*joueur·euse·s*), read as one word."""
        data = self._inclusive
        return MiddleDots(
            "".join(data.words("middle-dots") or ("·",)),
            data.integer("replaced-letters", 3),
            frozenset(data.words("plural-endings") or ("s",)),
        )


LANGUAGE = French("fr")
