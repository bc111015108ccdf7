"""Draft translations: what the glossary can fill, the rest left in English.

The wiki's roadmap for a new language starts by copying every card "with what can
already be filled in".  A draft holds:

- the subtype, rendered by the glossary (compound subtypes too: *Human Wizard* ->
  *Sorcier, humain*), and the language's footer line;
- ability lines (`***Salvage 2***`) named as the language's abilities list names them,
  with their parameters, and the list's reminder text where the English card uses
  the English list's;
- glossary terms in bold game-term runs (`***city***`, `***Creature***`,
  `***Dark Legion***`), in the singular or plural the English uses;
- everything else in English, with ``wip: true`` and ``status: Draft``: the linter
  reports each field and paragraph still in English as untranslated (TR401), and
  ``translator status`` counts the card as a draft.

A draft is made only where no translation exists: a person's work is never replaced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..cards.edit import render_card_file
from ..cards.model import (
    DEFAULT_FOOTERS,
    SOURCE_LANGUAGE,
    TRANSLATION_FIELDS,
    Card,
    CardFile,
    Library,
    source_fingerprint,
)
from ..glossary.forms import plural
from ..glossary.matcher import normalize
from ..glossary.model import Glossary
from ..lint.context import Language, Resources
from ..lint.model import plain_text
from ..lint.rules.translation import ability_line, loose, substitute
from ..markup.parser import parse


@dataclass
class Draft:
    """A draft translation to write: where, what, and what it filled or left."""

    card: Card
    lang: str
    path: str
    content: str
    #: What the glossary filled: "subtype", "footer", "ability Salvage", "term city".
    filled: list[str] = field(default_factory=list)
    #: What is still in English: "name", "name2", "subtype", "paragraph 2", ...
    english: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.card.slug,
            "deck": self.card.deck,
            "lang": self.lang,
            "path": self.path,
            "filled": self.filled,
            "english": self.english,
        }


_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_BOLD_LINE = re.compile(r"^(?P<mark>\*{2,3})(?P<inner>\S(?:.*?\S)?)(?P=mark)(?P<tail>\\?)$")
_ITALIC_LINE = re.compile(r"^\*(?P<inner>[^*\s](?:[^*]*[^*\s])?)\*$")
#: Symbols and drop caps (`:m:`, `:W:`): no words, whatever their letters.
_CODES = re.compile(r":[A-Za-z0-9]+:")
_BOLD_RUN = re.compile(r"(?P<mark>\*{2,3})(?P<inner>[^*\s](?:[^*]*?[^*\s])?)(?P=mark)")


class Drafter:
    """Makes drafts in one language from the glossaries."""

    def __init__(self, resources: Resources, lang: str) -> None:
        self.lang = lang
        self.language: Language = resources.language(lang)
        self.english: Glossary = resources.english.glossary
        self.glossary: Glossary = self.language.glossary

    # -- fields ------------------------------------------------------------------------

    def draft(self, card: Card) -> Draft:
        """The draft of ``card`` (which has its English source) in this language."""
        source = card.source
        assert source is not None
        filled: list[str] = []
        english: list[str] = []
        fields: dict[str, object] = {}
        for key in ("name", "name2"):
            value = source.fields.get(key)
            if value not in (None, ""):
                fields[key] = str(value)
                english.append(key)
        subtype = source.fields.get("subtype")
        if subtype not in (None, ""):
            rendered = self.language.subtype(str(subtype))
            fields["subtype"] = rendered or str(subtype)
            (filled if rendered else english).append("subtype")
        footer = str(source.fields.get("info") or DEFAULT_FOOTERS[SOURCE_LANGUAGE])
        rendered_footer = self.glossary.footer(footer)[0]
        fields["info"] = rendered_footer or footer
        (filled if rendered_footer else english).append("footer")
        fields["status"] = "Draft"
        fields["wip"] = True
        fields["source"] = source_fingerprint(source)
        body = self.text(source, filled, english)
        path = str(Path(source.path).with_name(f"{card.slug}.{self.lang}.md"))
        return Draft(
            card,
            self.lang,
            path,
            render_card_file(fields, body, TRANSLATION_FIELDS),
            filled,
            english,
        )

    # -- text --------------------------------------------------------------------------

    def text(self, source: CardFile, filled: list[str], english: list[str]) -> str:
        """The card text, paragraph by paragraph (paragraphs are blank-line separated
        in the card dialect, so each is drafted on its own)."""
        body = source.body.replace("\r\n", "\n").strip("\n")
        if not body:
            return ""
        out = []
        number = 0
        for chunk in _BLANK_LINES.split(body):
            printed = plain_text(parse(chunk).document, SOURCE_LANGUAGE).paragraphs
            number += bool(printed)
            drafted, left = self.paragraph(chunk, filled)
            if printed and left:
                english.append(f"paragraph {number}")
            out.append(drafted)
        return "\n\n".join(out) + "\n"

    def paragraph(self, chunk: str, filled: list[str]) -> tuple[str, bool]:
        """A drafted paragraph, and whether English words are left in it."""
        lines = chunk.split("\n")
        first = _BOLD_LINE.match(lines[0])
        if first is not None:
            ability = ability_line(first["inner"], self.language.abilities_by_english)
            if ability is not None:
                return self.ability(lines, first, *ability, filled=filled)
        return self.terms(chunk, filled)

    def ability(
        self,
        lines: list[str],
        first: re.Match[str],
        ability_id: str,
        values: list[str],
        filled: list[str],
    ) -> tuple[str, bool]:
        """An ability paragraph: the list's name and parameters, and its reminder where
        the English card words it as the English list does."""
        target = self.glossary.abilities[ability_id]
        english = self.english.abilities.get(ability_id)
        own, left = self.values(values, filled)
        if len(own) == len(target.params) and target.template:
            name = substitute(target.template, target.params, own)
        else:
            name = " ".join([target.name, *own])
        lines[0] = f"{first['mark']}{name}{first['mark']}{first['tail']}"
        filled.append(f"ability {english.en if english else target.name}")
        if len(lines) == 2 and english is not None and target.reminder:
            italic = _ITALIC_LINE.match(lines[1])
            expected = substitute(english.reminder, english.params, values)
            if italic is not None and loose(italic["inner"]) == loose(expected):
                lines[1] = f"*{substitute(target.reminder, target.params, own)}*"
                return "\n".join(lines), left
        rest = "\n".join(lines[1:])
        if not rest:
            return lines[0], left
        drafted, rest_left = self.terms(rest, filled)
        return "\n".join([lines[0], drafted]), left or rest_left

    def values(self, values: list[str], filled: list[str]) -> tuple[list[str], bool]:
        """An ability's parameter values in the language (a subtype, an ability name:
        *Discount Human*, *Militia Battle Scream 1*), and whether English is left."""
        out: list[str] = []
        left = False
        i = 0
        while i < len(values):
            for n in range(len(values) - i, 0, -1):
                phrase = " ".join(values[i : i + n])
                rendered = self.term(phrase)
                if rendered is not None:
                    out.append(rendered)
                    filled.append(f"term {phrase}")
                    i += n
                    break
            else:
                out.append(values[i])
                left = left or _has_words(_CODES.sub("", values[i]))
                i += 1
        return out, left

    def terms(self, text: str, filled: list[str]) -> tuple[str, bool]:
        """Bold runs naming a glossary term, faction, card type or subtype, in the
        language (the English run's number and capital kept); and whether English
        words are left outside them."""
        kept: list[str] = []

        def replace(match: re.Match[str]) -> str:
            inner = match["inner"]
            rendered = self.term(inner)
            if rendered is None:
                return match.group(0)
            filled.append(f"term {inner}")
            kept.append(match.group(0))
            return f"{match['mark']}{rendered}{match['mark']}"

        drafted = _BOLD_RUN.sub(replace, text)
        rest = text
        for run in kept:
            rest = rest.replace(run, " ", 1)
        return drafted, _has_words(_CODES.sub("", rest))

    def term(self, english: str) -> str | None:
        """The preferred rendering of an English term as written (None if the glossary
        has no single answer)."""
        # One English word may name two entries (*city*: the concept, the card type)
        # that the language writes alike but for a capital.
        renderings = {
            found.casefold(): found
            for hit in self.language.english.lookup(english)
            if (found := self._rendering(hit.kind, hit.id, english)) is not None
        }
        if len(renderings) != 1:
            return None
        rendered = next(iter(renderings.values()))
        if english[:1].isupper():
            return rendered[:1].upper() + rendered[1:]
        if english[:1].islower() and not rendered[1:2].isupper():
            return rendered[:1].lower() + rendered[1:]
        return rendered

    def _rendering(self, kind: str, identifier: str, english: str) -> str | None:
        if kind == "ability":
            ability = self.glossary.abilities.get(identifier)
            return None if ability is None else ability.name
        entry = self.glossary.entries.get(identifier)
        if entry is None or entry.preferred is None:
            return None
        rendered = entry.preferred.text
        if (
            entry.pos == "noun"
            and normalize(english) != normalize(entry.en)
            and english.endswith("s")
            and not entry.en.endswith("s")
        ):
            rendered = plural(rendered, self.lang)
        return rendered


def _has_words(text: str) -> bool:
    return any(c.isalpha() for c in text)


def plan_drafts(
    library: Library, resources: Resources, lang: str, decks: set[str] | None = None
) -> list[Draft]:
    """A draft for every English card of ``decks`` (all when None) that has no
    ``lang`` translation."""
    drafter = Drafter(resources, lang)
    found = []
    for (deck, _), card in sorted(library.cards.items()):
        if decks is not None and deck not in decks:
            continue
        if card.source is None or lang in card.translations:
            continue
        found.append(drafter.draft(card))
    return found
