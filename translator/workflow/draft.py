"""Draft translations: what the glossary can fill, the rest left in English.

The wiki's roadmap for a new language starts by copying every card "with what can
already be filled in".  A draft holds:

- a name that is a glossary name (a faction, a token: *Dark Legion* -> *Ost de
  l'ombre*), as the glossary writes it;
- the subtype, rendered by the glossary (compound subtypes too: *Human Wizard* ->
  *Sorcier, humain*; a subtype that repeats the card type, as Aminduna imports a city,
  by the type's name), and the language's footer line;
- ability lines, on their own line (`***Salvage 2***\\` then the reminder) or inline
  (`***Salvage 2 -*** *reminder*`), named as the language's abilities list names them,
  with their parameters and the English separator, and the list's reminder text where
  the English card uses the English list's;
- glossary terms in bold game-term runs (`***city***`, `***Creature***`,
  `***Dark Legion***`), in the singular or plural the English uses;
- what the library translated already (:mod:`.memory`): a name, subtype or footer the
  glossary has no word for, a paragraph, or a sentence of one (a line, an ability's
  reminder), whose English is exactly this card's, taken from the best translation
  of it (reviewed before translated), and listed in ``memory:`` with the card it
  came from, so that the translator checks it fits;
- everything else in English, with ``wip: true`` and ``status: Draft``: the linter
  reports each field and paragraph still in English as untranslated (TR401), and
  ``translator status`` counts the card as a draft.

A draft is made only where no translation exists: a person's work is never replaced.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import languages
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
from ..glossary.inflection import plural
from ..glossary.matcher import normalize
from ..glossary.model import Glossary
from ..lint.context import Language, Resources
from ..lint.model import plain_text
from ..lint.rules.translation import ability_line, loose, substitute
from ..markup.parser import parse
from .memory import BLANK_LINES, Match, Memory, segments


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
    #: What came from the translation memory, and from where:
    #: "paragraph 2: first/guard, reviewed", "paragraph 3, sentence 1: ...".
    memory: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.card.slug,
            "deck": self.card.deck,
            "lang": self.lang,
            "path": self.path,
            "filled": self.filled,
            "english": self.english,
            "memory": self.memory,
        }


#: What may separate an ability's name from its reminder on one line, inside the bold
#: run (`***Veteran -***`) or just after it (`***Veteran*** -`): a dash or a colon.
_SEPARATOR = r"[ \t\u00a0\u202f]*[-\u2013\u2014:]"
#: An ability's bold name and what follows it: a line break (`***Veteran***\\`, the
#: reminder on the next line), the end, or spaces (inline, after a separator).
_ABILITY_HEAD = re.compile(
    rf"(?P<mark>\*{{2,3}})(?P<name>[^*\s](?:[^*\n]*?[^*\s])?)(?P<inside>{_SEPARATOR})?(?P=mark)"
    rf"(?:(?P<own>\\?\n|\Z)|(?P<outside>{_SEPARATOR})?(?P<gap>[ \t]+))"
)
#: An italic run opening the text after an ability's name: its reminder.
_REMINDER = re.compile(r"\*(?P<inner>[^*\s](?:[^*\n]*[^*\s])?)\*(?!\*)")
#: Line breaks and spaces between an ability's reminder and what follows it.
_LEAD = re.compile(r"(?:\\?\n|[ \t])*")
#: Glossary sections whose entries can be a card's whole name (a faction, a token).
_NAME_SECTIONS = ("faction", "subtype", "type")
#: Symbols and drop caps (`:m:`, `:W:`): no words, whatever their letters.
_CODES = re.compile(r":[A-Za-z0-9]+:")
_BOLD_RUN = re.compile(r"(?P<mark>\*{2,3})(?P<inner>[^*\s](?:[^*]*?[^*\s])?)(?P=mark)")
_TRAILING_SEPARATOR = re.compile(rf"{_SEPARATOR}$")


class Drafter:
    """Makes drafts in one language from the glossaries."""

    def __init__(
        self,
        resources: Resources,
        lang: str,
        memory: Memory | Callable[[], Memory] | None = None,
    ) -> None:
        self.lang = lang
        #: The memory, or what makes it (called when a draft first needs it).
        self._memory = memory
        # What the glossary fills is set as the language sets card text (the lists
        # write l'ombre, the style guide l’ombre: FR203), with the configured apostrophe.
        typography = languages.get(lang).typography
        wanted = resources.settings.get("apostrophe")
        self.typography = replace(typography, apostrophe=str(wanted)) if wanted else typography
        self.language: Language = resources.language(lang)
        self.english: Glossary = resources.english.glossary
        self.glossary: Glossary = self.language.glossary

    # -- fields ------------------------------------------------------------------------

    def draft(self, card: Card) -> Draft:
        """The draft of ``card`` (which has its English source) in this language."""
        source = card.source
        assert source is not None
        made = Draft(card, self.lang, "", "")
        fields: dict[str, object] = {}
        for key in ("name", "name2"):
            value = source.fields.get(key)
            if value not in (None, ""):
                fields[key] = self.line(made, key, "name", str(value), self.name(str(value)))
        subtype = source.fields.get("subtype")
        if subtype not in (None, ""):
            rendered = self.subtype(str(subtype), str(source.fields.get("type") or ""))
            fields["subtype"] = self.line(made, "subtype", "subtype", str(subtype), rendered)
        footer = str(source.fields.get("info") or DEFAULT_FOOTERS[SOURCE_LANGUAGE])
        rendered_footer = self.glossary.footer(footer)[0]
        fields["info"] = self.line(made, "footer", "info", footer, rendered_footer)
        fields["status"] = "Draft"
        fields["wip"] = True
        fields["source"] = source_fingerprint(source)
        names = (str(source.fields.get("name") or ""), str(fields.get("name") or ""))
        body = self.text(source, made, names)
        if made.memory:
            fields["memory"] = made.memory
        made.path = str(Path(source.path).with_name(f"{card.slug}.{self.lang}.md"))
        made.content = render_card_file(fields, body, TRANSLATION_FIELDS)
        return made

    def line(self, made: Draft, label: str, kind: str, english: str, rendered: str | None) -> str:
        """A one-line field: the glossary's rendering, else the memory's, else the
        English (reported)."""
        if rendered:
            made.filled.append(label)
            return self.typography.apply(rendered)
        found = self.recall(kind, english)
        if found is not None:
            made.memory.append(f"{label}: {found.unit.origin}")
            return found.target
        made.english.append(label)
        return english

    @property
    def memory(self) -> Memory | None:
        if callable(self._memory):
            self._memory = self._memory()
        return self._memory

    def recall(self, kind: str, english: str, names: tuple[str, str] = ("", "")) -> Match | None:
        """The memory's translation of exactly ``english`` (None without a memory)."""
        if self.memory is None:
            return None
        return self.memory.exact(kind, english, names[0] or None, names[1] or None)

    def name(self, english: str) -> str | None:
        """The glossary's name for a card named after an entry (a faction, a token),
        the whole name only: a name holding a glossary word (*Dark Legion Scout*) is
        the translator's to make."""
        found = {
            rendered
            for section in _NAME_SECTIONS
            if (rendered := self.glossary.preferred(section, english)) is not None
        }
        return next(iter(found)) if len(found) == 1 else None

    def subtype(self, english: str, card_type: str) -> str | None:
        """The glossary's subtype; for a subtype that only repeats the card type (an
        Aminduna import: *City* on a city), the type's name, as the card prints it."""
        rendered = self.language.subtype(english)
        if rendered is None and card_type and english.casefold() == card_type.casefold():
            rendered = self.glossary.preferred("type", card_type)
        return rendered

    # -- text --------------------------------------------------------------------------

    def text(self, source: CardFile, made: Draft, names: tuple[str, str]) -> str:
        """The card text, paragraph by paragraph (paragraphs are blank-line separated
        in the card dialect, so each is drafted on its own): the glossary's fills,
        then the memory's for what is left in English."""
        body = source.body.replace("\r\n", "\n").strip("\n")
        if not body:
            return ""
        out = []
        number = 0
        for chunk in BLANK_LINES.split(body):
            printed = plain_text(parse(chunk).document, SOURCE_LANGUAGE).paragraphs
            number += bool(printed)
            filled: list[str] = []
            drafted, left = self.paragraph(chunk, filled)
            if left and self.memory:  # an empty memory has nothing to add
                drafted, left = self.remembered(
                    chunk, drafted, left, f"paragraph {number}", made, names, filled
                )
            made.filled.extend(filled)
            if printed and left:
                made.english.append(f"paragraph {number}")
            out.append(drafted)
        return "\n\n".join(out) + "\n"

    def remembered(
        self,
        chunk: str,
        drafted: str,
        left: bool,
        where: str,
        made: Draft,
        names: tuple[str, str],
        filled: list[str],
    ) -> tuple[str, bool]:
        """A paragraph the glossary left (partly) in English, with what the memory has:
        the whole paragraph, else each segment (a sentence, a line, a reminder) still
        in English in the draft; and whether English is left."""
        whole = self.recall("paragraph", chunk, names)
        if whole is not None:
            made.memory.append(f"{where}: {whole.unit.origin}")
            filled.clear()  # the glossary's fills of the paragraph are replaced
            return whole.target, False
        parts = segments(chunk)
        found = [self.recall("sentence", segment, names) for segment in parts]
        if not any(found):
            return drafted, left
        result, position, used, still = drafted, 0, [], False
        for number, (segment, match) in enumerate(zip(parts, found, strict=True), 1):
            # The segment as the glossary left it: as written, or with its bold terms.
            form, english = segment, True
            at = result.find(form, position)
            if at < 0:
                form, english = self.terms(segment, [])
                at = result.find(form, position)
            if at < 0:
                continue  # the glossary drafted it (an ability's name, the list's reminder)
            if match is None:
                still = still or english
                position = at + len(form)
                continue
            result = result[:at] + match.target + result[at + len(form) :]
            position = at + len(match.target)
            used.append(f"{where}, sentence {number}: {match.unit.origin}")
        if not used:
            return drafted, left
        made.memory.extend(used)
        return result, still

    def paragraph(self, chunk: str, filled: list[str]) -> tuple[str, bool]:
        """A drafted paragraph (or the rest of one, after an ability), and whether
        English words are left in it."""
        head = _ABILITY_HEAD.match(chunk)
        if head is not None and (head["own"] is not None or head["inside"] or head["outside"]):
            ability = ability_line(head["name"], self.language.abilities_by_english)
            if ability is not None:
                return self.ability(head, chunk[head.end() :], *ability, filled=filled)
        return self.terms(chunk, filled)

    def ability(
        self,
        head: re.Match[str],
        rest: str,
        ability_id: str,
        values: list[str],
        filled: list[str],
    ) -> tuple[str, bool]:
        """An ability, in either style (`***Name***\\` then the reminder on its own line,
        or `***Name -*** *reminder*`): the list's name and parameters, the English
        separator and spacing, the reminder, and what follows it drafted in turn."""
        name, own, left = self.ability_name(ability_id, values, filled)
        mark = head["mark"]
        closed = max(head.end("name"), head.end("inside")) + len(mark)
        opening = f"{mark}{name}{head['inside'] or ''}{mark}{head.string[closed : head.end()]}"
        reminder = _REMINDER.match(rest)
        if reminder is None:
            drafted, rest_left = self.follow(rest, filled)
            return opening + drafted, left or rest_left
        text, english_left = self.reminder(reminder["inner"], ability_id, values, own)
        drafted, rest_left = self.follow(rest[reminder.end() :], filled)
        return f"{opening}*{text}*{drafted}", left or english_left or rest_left

    def ability_name(
        self, ability_id: str, values: list[str], filled: list[str]
    ) -> tuple[str, list[str], bool]:
        """The list's name with the card's parameters (`Garde du corps 2`), those
        parameters in the language, and whether English is left in them."""
        target = self.glossary.abilities[ability_id]
        english = self.english.abilities.get(ability_id)
        own, left = self.values(values, filled)
        if len(own) == len(target.params) and target.template:
            name = substitute(target.template, target.params, own)
        else:
            name = " ".join([target.name, *own])
        filled.append(f"ability {english.en if english else target.name}")
        return self.typography.apply(name), own, left

    def reminder(
        self, inner: str, ability_id: str, values: list[str], own: list[str]
    ) -> tuple[str, bool]:
        """The list's reminder where the English card words it as the English list
        does (with the card's parameters), else the English; and whether it is English."""
        target = self.glossary.abilities[ability_id]
        english = self.english.abilities.get(ability_id)
        if english is not None and target.reminder:
            expected = substitute(english.reminder, english.params, values)
            if loose(inner) == loose(expected):
                return self.typography.apply(substitute(target.reminder, target.params, own)), False
        return inner, _has_words(_CODES.sub("", inner))

    def follow(self, text: str, filled: list[str]) -> tuple[str, bool]:
        """What follows an ability's reminder in its paragraph (another ability, text),
        drafted in turn; its line breaks and spaces kept."""
        lead = _LEAD.match(text)
        start = lead.end() if lead is not None else 0
        if start == len(text):
            return text, False
        drafted, left = self.paragraph(text[start:], filled)
        return text[:start] + drafted, left

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
            # A separator closing the run (`***Dark Legion -***`) is the card's, kept.
            separator = _TRAILING_SEPARATOR.search(match["inner"])
            inner = match["inner"][: separator.start()] if separator else match["inner"]
            rendered = self.term(inner) if inner else None
            if rendered is None:
                return match.group(0)
            filled.append(f"term {inner}")
            kept.append(match.group(0))
            tail = separator.group(0) if separator else ""
            return f"{match['mark']}{rendered}{tail}{match['mark']}"

        drafted = _BOLD_RUN.sub(replace, text)
        rest = text
        for run in kept:
            rest = rest.replace(run, " ", 1)
        return drafted, _has_words(_CODES.sub("", rest))

    def term(self, english: str) -> str | None:
        """The preferred rendering of an English term as written (None if the glossary
        has no single answer), set as the language sets card text."""
        rendered = self._term(english)
        return None if rendered is None else self.typography.apply(rendered)

    def _term(self, english: str) -> str | None:
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
    library: Library,
    resources: Resources,
    lang: str,
    decks: set[str] | None = None,
    memory: Memory | Callable[[], Memory] | None = None,
) -> list[Draft]:
    """A draft for every English card of ``decks`` (all when None) that has no
    ``lang`` translation, with what ``memory`` has (none: the glossary's fills only)."""
    drafter = Drafter(resources, lang, memory)
    found = []
    for (deck, _), card in sorted(library.cards.items()):
        if decks is not None and deck not in decks:
            continue
        if card.source is None or lang in card.translations:
            continue
        found.append(drafter.draft(card))
    return found
