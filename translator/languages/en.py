"""English, the source language: the forms its glossary terms take in card text.

The English side of every glossary is found in the English cards in its inflected
forms (*draws*, *discarded*, *allies*), by the regular rules of
``glossaries/en/language.yaml``: a noun's plural, a verb's third person, past and
present participle.  A phrase inflects its last word, a verb phrase its first;
irregular forms (*dealt*) are not made.
"""

from __future__ import annotations

from functools import cached_property

from .base import EndingRules, Language


class English(Language):
    """English, as the Arcmage cards write it."""

    has_data = True

    @cached_property
    def _vowels(self) -> str:
        return self.data.text("vowels", "aeiou")

    @cached_property
    def _plural(self) -> EndingRules:
        return EndingRules.read(self.data.section("plural"), self._vowels)

    @cached_property
    def _verb_endings(self) -> tuple[str, ...]:
        return self.data.section("verbs").words("forms")

    @cached_property
    def _silent(self) -> str:
        return self.data.section("verbs").text("silent", "")

    def word_forms(self, word: str, pos: str) -> set[str]:
        """A word and its regular forms: a noun's plural, a verb's third person, past
        and present participle."""
        found = {word}
        if pos in ("noun", "verb"):
            found.add(self._plural.apply(word))
        if pos == "verb":
            silent = self._silent
            stem = word[: -len(silent)] if silent and word.endswith(silent) else word
            found.update(stem + ending for ending in self._verb_endings)
        return found

    def forms(self, term: str, pos: str) -> set[str]:
        """A verb phrase inflects its verb (*discard a card* -> *discards a card*),
        any other phrase its last word (*city card* -> *city cards*)."""
        words = term.split(" ")
        if len(words) == 1:
            return self.word_forms(term, pos)
        if pos == "verb":
            return {" ".join([v, *words[1:]]) for v in self.word_forms(words[0], "verb")}
        return {" ".join([*words[:-1], v]) for v in self.word_forms(words[-1], pos)}


LANGUAGE = English("en")
