"""Hover and completion for card files: what ``translator lsp`` shows, without the protocol.

An :class:`Assistant` answers for one language (the file's: ``fr``, ``eo`` or ``en``)
with the linter's own resources, so that the editor sees card text as the linter
does: a word is a glossary term when the linter's matcher finds it, in any inflected
form, across elisions and multi-word terms, and a ``:code:`` is what the card-text
parser makes of it.  Offsets are ``str`` indexes into the whole file (front matter and
body); the server converts them from and to the protocol's UTF-16 positions.

- :meth:`Assistant.hover`: the glossary entry of the term under the cursor (its
  English term, preferred term, forms, deprecated terms and what replaces them, the
  note; a deprecated term says so first), an ability's reminder text, or what a symbol
  code prints.  In an English card an English term shows its translations in the
  languages loaded.  Everything in the markdown is escaped: card text and library
  glossaries are untrusted.
- :meth:`Assistant.complete`: symbol codes after ``:``, the language's glossary terms
  and abilities after two letters, each inserted as the language's cards write it.
  The indexes are built once, so that a completion is a few bisections.

What each symbol prints is data, ``glossaries/editor/symbols.yaml``, read on first use.
Neither method raises on any text or offset: a broken front matter, an offset past the
end or inside a code give ``None`` or ``[]``.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .. import languages
from ..api import GlossaryAbility, GlossaryEntry
from ..cards.model import SOURCE_LANGUAGE
from ..glossary import forms as inflect
from ..glossary.matcher import Hit, Match, words
from ..glossary.model import PHRASE, Ability, Entry, Glossary
from ..markup.parser import ParseResult, parse
from ..markup.ruletext import symbol_text
from ..markup.tree import (
    BREAK_CODE,
    EMPTY_PARAGRAPH_CODE,
    SYMBOL_CODES,
    DropCap,
    LineBreak,
    Symbol,
    symbol_kind,
)
from ..shipped import glossaries_root
from ..textio import split_front_matter
from ..yamlfile import safe_load

if TYPE_CHECKING:
    from ..lint.context import Language, Resources

#: Front-matter keys whose values hold words a glossary knows (hover).
HOVER_KEYS = frozenset({"name", "name2", "type", "subtype", "faction", "info"})
#: Front-matter keys whose values are written by the translator (completion).
COMPLETE_KEYS = frozenset({"name", "name2", "subtype"})
#: A word prefix shorter than this offers nothing: two letters narrow the glossary to a
#: screenful, one letter would offer half of it.
MIN_PREFIX = 2
#: The most completions returned: a client shows a screenful and filters as one types.
MAX_COMPLETIONS = 60
#: Forms listed in a hover before "... and N more" (French verbs have dozens).
MAX_FORMS = 16
#: The most characters of a drop cap a hover repeats (stray colons pair up far apart).
MAX_CAP_SHOWN = 60
#: The longest paragraph (or line) a hover parses for its symbols, in characters.
MAX_PARSE = 4096
#: Characters on each side of the cursor a hover reads for a term.
HOVER_MARGIN = 400
#: Characters before the cursor a completion reads for a code (the longest is 5).
CODE_MARGIN = 16
#: Characters before the cursor a completion reads for its words.
COMPLETE_MARGIN = 200
#: Words before the cursor that may start a multi-word term (« points de défense de la c…»).
MAX_CONTEXT_WORDS = 5


@dataclass(frozen=True)
class Hover:
    """What the cursor is on: ``markdown`` to show, for ``text[start:end]``."""

    markdown: str
    start: int
    end: int


@dataclass(frozen=True)
class Completion:
    """One completion item: the client replaces ``text[start:offset]`` by ``insert``
    (``text[start:end]`` when ``end`` is set: the cursor stands inside a code)."""

    label: str
    insert: str
    kind: str  # "symbol" | "term" | "ability"
    detail: str
    #: Markdown, everything from the glossaries escaped: the reminder, the English
    #: term, the translations, the note; what a symbol prints and where it goes.
    documentation: str
    start: int
    #: Sorts the items (clients sort by label otherwise): preferred terms first.
    sort_text: str = ""
    #: A deprecated term, offered so that the one typing it learns its replacement
    #: (which is what ``insert`` holds).
    deprecated: bool = False
    #: What the client filters on against ``text[start:offset]``: the word as typed
    #: would be written ("" is ``insert``).  A deprecated term inserts its replacement
    #: but is found by its own letters (*vil* finds *ville → cité*).
    filter_text: str = ""
    end: int | None = None


# --------------------------------------------------------------------------------------
# the symbol data (glossaries/editor/symbols.yaml)


@dataclass(frozen=True)
class SymbolData:
    """What every code prints, by code; the drop cap's and the notes' templates."""

    prints: dict[str, str]
    descriptions: dict[str, str]
    families: dict[str, str]
    placements: dict[str, str]
    drop_cap: tuple[str, str]
    notes: dict[str, str]

    def family(self, code: str) -> str:
        return self.families.get(
            code, "break" if code in (BREAK_CODE, EMPTY_PARAGRAPH_CODE) else ""
        )


def symbols_file() -> Path | None:
    """The shipped symbol descriptions (inside the package once installed)."""
    root = glossaries_root()
    path = None if root is None else root / "editor" / "symbols.yaml"
    return path if path is not None and path.is_file() else None


@functools.cache
def symbol_data() -> SymbolData:
    """The symbol descriptions, read once; a missing or malformed file gives empty
    descriptions (the hover then names the code only) rather than a failing server:
    the file is shipped data, which ``tests/editor/test_editor_assist.py`` checks whole."""
    path = symbols_file()
    try:
        data = safe_load(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        data = {}
    return _symbol_data(data if isinstance(data, dict) else {})


def _symbol_data(data: dict[str, Any]) -> SymbolData:
    """The YAML's mappings, keeping only strings (a broken entry is skipped)."""
    prints: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    families: dict[str, str] = {}
    for item in _items(data.get("codes")):
        code = str(item.get("code", ""))
        prints[code] = str(item.get("prints", ""))
        descriptions[code] = str(item.get("description", ""))
        families[code] = str(item.get("family", ""))
    placements = {
        str(name): str(value.get("placement", ""))
        for name, value in _mapping(data.get("families")).items()
        if isinstance(value, dict)
    }
    cap = _mapping(data.get("drop_cap"))
    return SymbolData(
        prints,
        descriptions,
        families,
        placements,
        (str(cap.get("prints", "a drop cap {letter}")), str(cap.get("description", ""))),
        {str(k): str(v) for k, v in _mapping(data.get("notes")).items()},
    )


def _items(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# --------------------------------------------------------------------------------------
# where the cursor is


_FIELD_RE = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*")
#: A YAML comment after a plain value.
_COMMENT_RE = re.compile(r"[ \t]+#")


def body_start(text: str) -> int:
    """Where the card text starts: after the front matter, as the card reader splits
    it; a front matter still open (no closing ``---`` yet) is all front matter, so that
    its lines are not taken for card text while one types them."""
    front, _, _ = split_front_matter(text)
    if not front and (text.startswith("---\n") or text.startswith("---\r\n")):
        return len(text)
    return len(front)


def field_at(text: str, end: int, offset: int) -> tuple[str, int, int] | None:
    """(key, start, end) of the front-matter value under ``offset`` (the front matter
    ends at ``end``); None on a key, a fence, a comment or a nested value."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset, end)
    line_end = end if line_end < 0 else line_end
    match = _FIELD_RE.match(text, line_start, line_end)
    if match is None or offset < match.end():
        return None
    value_start, value_end = match.end(), line_end
    if text[value_end - 1 : value_end] == "\r":
        value_end -= 1
    if text[value_start : value_start + 1] not in ('"', "'"):
        comment = _COMMENT_RE.search(text, value_start, value_end)
        value_end = comment.start() if comment else value_end
    if offset > value_end:
        return None
    return match.group(1), value_start, value_end


def paragraph_bounds(text: str, offset: int) -> tuple[int, int]:
    """The paragraph around ``offset``: its lines between blank lines (a multi-word
    term may run from one line to the next, as the paragraph does)."""
    start = text.rfind("\n", 0, offset) + 1
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if not text[previous : start - 1].strip():
            break
        start = previous
    end = _line_end(text, offset)
    while end < len(text):
        following = _line_end(text, end + 1)
        if not text[end + 1 : following].strip():
            break
        end = following
    return start, end


def tokens(text: str) -> list[tuple[str, int, int]]:
    """The matcher's words of ``text``, a drop cap joined to its word (``:W:hen`` is
    *when*), so that the first word of a paragraph is found as the linter finds it."""
    found = words(text)
    merged: list[tuple[str, int, int]] = []
    i = 0
    while i < len(found):
        word, start, end = found[i]
        if (
            end - start == 1
            and i + 1 < len(found)
            and text[start - 1 : start] == ":"
            and text[end : end + 1] == ":"
            and found[i + 1][1] == end + 1
        ):
            merged.append((word + found[i + 1][0], start, found[i + 1][2]))
            i += 2
            continue
        merged.append(found[i])
        i += 1
    return merged


# --------------------------------------------------------------------------------------
# markdown


#: What makes inline markdown: emphasis, code, links and images, HTML and entities,
#: strikethrough, table cells.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&~|])")
#: What makes a block at the start of a line: a numbered list item (« 1. »).
_MD_NUMBERED = re.compile(r"\d+(?=[.)])")


def esc(text: str) -> str:
    """``text`` as literal markdown: lines joined, every character that could start
    emphasis, code, a link, an image, HTML or an entity backslash-escaped (CommonMark
    allows it before any punctuation), and a leading one that could start a block (a
    heading, a list, a quote), so that card text or a library's glossary makes no
    markup in a hover."""
    flat = _MD_INLINE.sub(r"\\\1", " ".join(text.split()))
    numbered = _MD_NUMBERED.match(flat)
    if numbered:
        return f"{flat[: numbered.end()]}\\{flat[numbered.end() :]}"
    return f"\\{flat}" if flat[:1] in ("#", "+", "-", "=", ">") else flat


def _bold(text: str) -> str:
    return f"**{esc(text)}**" if text.strip() else ""


def _italic(text: str) -> str:
    return f"*{esc(text)}*" if text.strip() else ""


def _forms_line(term: str, forms: Iterable[str]) -> str:
    """The other forms of a term, as a short list."""
    folded = term.casefold()
    others = sorted({f for f in forms if f.casefold() != folded}, key=str.casefold)
    if not others:
        return ""
    shown = ", ".join(esc(f) for f in others[:MAX_FORMS])
    more = len(others) - MAX_FORMS
    return shown + (f", … ({more} more)" if more > 0 else "")


def _since(date: str | None) -> str:
    return f" (since {esc(date)})" if date else ""


# --------------------------------------------------------------------------------------
# the completion index


def fold(text: str) -> str:
    """A term or a prefix as completion compares them: the matcher's words, without
    case or accents, one space apart (*Cite* finds *cité*, *d'at* finds *d'attaque*)."""
    joined = " ".join(word for word, _, _ in words(text))
    decomposed = unicodedata.normalize("NFD", joined)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class _Candidate:
    """A term or ability as completion offers it."""

    key: str
    text: str
    kind: str
    #: 0 preferred term, 1 admitted term or adjective, 2 ability, 3 deprecated term.
    rank: int
    detail: str
    documentation: str
    #: What a deprecated term is replaced by ("": the term itself is inserted).
    replacement: str = ""
    ability: Ability | None = None
    section: str = ""


@dataclass
class _Index:
    """Candidates sorted by key, for prefix search by bisection."""

    keys: list[str] = field(default_factory=list)
    candidates: list[_Candidate] = field(default_factory=list)

    @classmethod
    def of(cls, candidates: Iterable[_Candidate]) -> _Index:
        # A word both a concept and a type (créature, Créature): the concept first.
        ordered = sorted(
            (c for c in candidates if c.key),
            key=lambda c: (c.key, c.section in _FIELD_SECTIONS, c.rank, c.text),
        )
        return cls([c.key for c in ordered], ordered)

    def starting(self, prefix: str) -> Iterator[_Candidate]:
        """The candidates whose key starts with ``prefix``."""
        i = bisect.bisect_left(self.keys, prefix)
        while i < len(self.keys) and self.keys[i].startswith(prefix):
            yield self.candidates[i]
            i += 1


# --------------------------------------------------------------------------------------
# the assistant


class Assistant:
    """Hover and completion for the card files of one language.

    ``resources`` are the linter's (:func:`translator.api.lint_setup`): the same
    glossaries, library overrides included, and the same matcher, built once and shared
    with the linter.  Everything completion needs is indexed here, once.
    """

    def __init__(self, resources: Resources, lang: str) -> None:
        self.resources = resources
        self.lang = lang
        self.language: Language = (
            resources.english if lang == SOURCE_LANGUAGE else resources.language(lang)
        )
        self.glossary: Glossary = self.language.glossary
        self.matcher = self.language.matcher
        self.index = _Index.of(self._candidates())
        self._parsed: tuple[str, ParseResult] | None = None

    # ---- hover

    def hover(self, text: str, offset: int) -> Hover | None:
        """What the cursor at ``offset`` is on: a glossary term or ability (body and
        front-matter values), a symbol code or drop cap (body); None elsewhere.  What
        holds the character at ``offset`` comes first, then what ends just before it
        (a cursor after a word)."""
        if not _valid(text, offset):
            return None
        start = body_start(text)
        if offset < start:
            found = field_at(text, start, offset)
            if found is None or found[0] not in HOVER_KEYS:
                return None
            low, high = found[1], found[2]
            return self._term_hover(text, low, high, offset, True) or self._term_hover(
                text, low, high, offset, False
            )
        low, high = paragraph_bounds(text, offset)
        low = max(low, start)
        for inside in (True, False):
            symbol = self._symbol_hover(text, low, high, offset, inside)
            if symbol is not None:
                return symbol
            term = self._term_hover(text, *_around(text, low, high, offset), offset, inside)
            if term is not None:
                return term
        return _pa_hover(text, offset)

    def _term_hover(
        self, text: str, low: int, high: int, offset: int, inside: bool
    ) -> Hover | None:
        """The glossary hits of the term holding ``offset`` (``inside``) or ending
        there, in ``text[low:high]``."""
        window = text[low:high]
        at = offset - low
        under = [
            m
            for m in self.matcher.find(window, tokens(window))
            if (m.start <= at < m.end if inside else m.end == at)
        ]
        if not under:
            return None
        sections = [self._hit_markdown(m.hit) for m in _distinct(under)]
        markdown = "\n\n---\n\n".join(s for s in sections if s)
        return Hover(markdown, low + under[0].start, low + under[0].end) if markdown else None

    def _hit_markdown(self, hit: Hit) -> str:
        if hit.kind == "ability":
            ability = self.glossary.abilities.get(hit.id)
            return "" if ability is None else self._ability_markdown(ability, hit)
        entry = self.glossary.entries.get(hit.id)
        if entry is None:
            return ""
        if self.lang == SOURCE_LANGUAGE:
            return self._english_entry_markdown(entry)
        return self._entry_markdown(entry, hit)

    def _entry_markdown(self, entry: Entry, hit: Hit) -> str:
        """A target-language entry: status of the hovered term, then every term with
        its forms or its replacement, the adjective, the note and related entries."""
        view = GlossaryEntry.of(entry, self.lang)
        lines = [_status_line(view, hit.term)] if hit.status != "preferred" else []
        preferred = entry.preferred
        lines.append(
            f"{_bold(preferred.text if preferred else hit.term)} · *{esc(entry.en)}* "
            f"({esc(entry.section)}, {esc(entry.pos)}) · "
            f"{esc(languages.get(self.lang).glossary_name)}"
        )
        lines.append("")
        lines += [_term_line(term) for term in view.terms]
        if view.adjective:
            lines.append(
                "- adjective: " + ", ".join(f"{esc(k)} {esc(v)}" for k, v in view.adjective.items())
            )
        lines += self._see_lines(entry)
        lines += _note_lines(entry.note, entry.definition)
        return "\n".join(lines).strip()

    def _english_entry_markdown(self, entry: Entry) -> str:
        """An English term: its entry, then its terms in each language loaded."""
        lines = [
            f"{_bold(entry.en)} ({esc(entry.section)}, {esc(entry.pos)}) · English glossary",
            "",
        ]
        forms = _forms_line(entry.en, inflect(entry.en, SOURCE_LANGUAGE, entry.pos))
        if forms:
            lines.append(f"- forms: {forms}")
        for lang, language in sorted(self.resources.languages.items()):
            if lang == SOURCE_LANGUAGE:
                continue
            target = language.glossary.entries.get(entry.id)
            lines.append(_translation_line(lang, target))
        lines += self._see_lines(entry)
        lines += _note_lines(entry.note, entry.definition)
        return "\n".join(lines).strip()

    def _ability_markdown(self, ability: Ability, hit: Hit) -> str:
        """An ability: its template and reminder in this language, the English ones
        (or, in an English card, the translations), and its former names."""
        english = self.resources.english.glossary.abilities.get(ability.id)
        view = GlossaryAbility.of(ability, english)
        lines: list[str] = []
        if hit.status == "deprecated":
            old = next((t for t in ability.deprecated if t.text == hit.term), None)
            lines += [
                f"⚠ {_bold(hit.term)} is a former name of this ability"
                f"{_since(old.date if old else None)}: use {_bold(ability.name)}.",
                "",
            ]
        lines += [f"{_bold(view.template or view.name)} · ability ({_italic(view.en)})", ""]
        if view.reminder:
            lines += [_italic(view.reminder), ""]
        if view.params:
            lines.append("- parameters: " + ", ".join(esc(p) for p in view.params))
        if self.lang != SOURCE_LANGUAGE and view.en_reminder:
            lines.append(
                f"- English: {_bold(view.en_template or view.en)}: {_italic(view.en_reminder)}"
            )
        if self.lang == SOURCE_LANGUAGE:
            lines += self._ability_translations(ability.id)
        lines += [
            f"- former name: ~~{esc(str(t['term']))}~~ → {esc(str(t['replaced_by'] or '?'))}"
            f"{_since(t['date'])}"
            for t in view.deprecated
        ]
        lines += _note_lines(view.note, None)
        return "\n".join(lines).strip()

    def _ability_translations(self, ability_id: str) -> list[str]:
        lines = []
        for lang, language in sorted(self.resources.languages.items()):
            found = language.glossary.abilities.get(ability_id)
            if lang == SOURCE_LANGUAGE or found is None:
                continue
            name = _bold(found.template or found.name)
            reminder = f": {_italic(found.reminder)}" if found.reminder else ""
            lines.append(f"- {esc(languages.get(lang).name)}: {name}{reminder}")
        return lines

    def _see_lines(self, entry: Entry) -> list[str]:
        names = [
            self.glossary.entries[i].en if i in self.glossary.entries else i for i in entry.see
        ]
        return ["- see: " + ", ".join(esc(n) for n in names)] if names else []

    def _symbol_hover(
        self, text: str, low: int, high: int, offset: int, inside: bool
    ) -> Hover | None:
        """The symbol, drop cap or line break holding ``offset`` (``inside``) or ending
        there, in the paragraph ``text[low:high]``.  Codes pair, and marks and drop
        caps have their place, within a paragraph: parsing it alone (its line alone,
        in a paragraph past :data:`MAX_PARSE`) keeps a hover fast on any card."""
        if high - low > MAX_PARSE:
            low, high = text.rfind("\n", 0, offset) + 1, _line_end(text, offset)
            if high - low > MAX_PARSE:
                return None
        paragraph_text = text[low:high]
        for paragraph in self._parse(paragraph_text).document.paragraphs:
            for index, node in enumerate(paragraph.children):
                if not isinstance(node, Symbol | DropCap | LineBreak):
                    continue
                start, end = low + node.pos.offset, low + node.pos.end
                if start < end and (start <= offset < end if inside else offset == end):
                    after = text[end : end + 1]
                    markdown = _node_markdown(node, text[start:end], index == 0, after)
                    return Hover(markdown, start, end) if markdown else None
        return None

    def _parse(self, source: str) -> ParseResult:
        """The parse of a paragraph, kept for the next hover on the same one."""
        if self._parsed is None or self._parsed[0] != source:
            self._parsed = (source, parse(source))
        return self._parsed[1]

    # ---- completion

    def complete(self, text: str, offset: int) -> list[Completion]:
        """Completions at ``offset``: symbol codes after ``:`` in card text, glossary
        terms and abilities after a word prefix (card text and the translated
        front-matter values); [] elsewhere."""
        if not _valid(text, offset):
            return []
        start = body_start(text)
        if offset < start:
            found = field_at(text, start, offset)
            if found is None or found[0] not in COMPLETE_KEYS:
                return []
            return self._complete_words(text, found[1], offset, field=found[0])
        line_start = max(text.rfind("\n", 0, offset) + 1, start)
        symbols = self._complete_symbols(text, start, line_start, offset)
        if symbols is not None:
            return symbols
        return self._complete_words(text, line_start, offset)

    def _complete_symbols(
        self, text: str, body: int, line_start: int, offset: int
    ) -> list[Completion] | None:
        """Codes for a ``:`` and its letters before the cursor; None when the cursor
        is not after one (a colon inside a word or after a no-break space is none)."""
        window = max(line_start, offset - CODE_MARGIN)
        match = _CODE_PREFIX_RE.search(text, window, offset)
        if match is None or match.end() != offset:
            return None
        colon = match.start()
        before = text[colon - 1] if colon > line_start else " "
        if before in _NO_CODE_BEFORE or before.isalnum():
            return None
        prefix = match.group(1).lower()
        rest = _CODE_REST_RE.match(text, offset)
        end = rest.end() if rest is not None and rest.end() > offset else None
        opening = _opens_paragraph(text, body, line_start, colon)
        data = symbol_data()
        return [
            _symbol_completion(code, data, colon, opening, end)
            for code in _ALL_CODES
            if code.startswith(prefix)
        ]

    def _complete_words(
        self, text: str, low: int, offset: int, field: str | None = None
    ) -> list[Completion]:
        """Terms and abilities whose words start with those before the cursor (the
        current word alone, or with up to four words before it: a multi-word term)."""
        if offset - low > COMPLETE_MARGIN:
            space = text.find(" ", offset - COMPLETE_MARGIN, offset)
            low = space + 1 if space >= 0 else offset - COMPLETE_MARGIN
        context = words(text[low:offset])
        if not context or low + context[-1][2] != offset:
            return []
        # The drop cap of a paragraph's first word: « :Q:ua » completes as « :Q:uand ».
        cap = None if field else _drop_cap_before(text, low + context[-1][1])
        last = context[-1][0]
        if len(last) + (cap is not None) < MIN_PREFIX or not last[0].isalpha():
            return []
        found: dict[tuple[str, str], Completion] = {}
        for count in range(min(MAX_CONTEXT_WORDS, len(context)), 0, -1):
            start = low + context[-count][1]
            typed = text[start:offset]
            with_cap = count == 1 and cap is not None
            if with_cap and cap is not None:
                start, typed = cap - 1, text[cap] + typed
            for candidate in self.index.starting(fold(typed)):
                if field is not None and (
                    candidate.kind == "ability"
                    or (field == "subtype" and candidate.section != "subtype")
                ):
                    continue
                key = (candidate.kind, candidate.text.casefold())
                if key not in found:
                    item = self._completion(
                        candidate,
                        text,
                        start,
                        offset,
                        typed,
                        cap=with_cap,
                        field=field,
                        head=start == low,
                    )
                    # More words typed make a closer match: those items come first.
                    found[key] = replace(
                        item, sort_text=f"{MAX_CONTEXT_WORDS - count}{item.sort_text}"
                    )
        items = sorted(found.values(), key=lambda c: (c.sort_text, c.label.casefold()))
        return items[:MAX_COMPLETIONS]

    def _completion(
        self,
        candidate: _Candidate,
        text: str,
        start: int,
        offset: int,
        typed: str,
        *,
        cap: bool,
        field: str | None,
        head: bool,
    ) -> Completion:
        """A candidate as an item, inserted in the case of what was typed (after its
        drop cap, when the word has one: ``cap``).  ``field`` is the front-matter key
        (None in the card text), ``head`` whether the item starts its value."""
        if candidate.ability is not None:
            return self._ability_completion(candidate, candidate.ability, text, start, offset)
        word = candidate.replacement or candidate.text
        if candidate.section in _FIELD_SECTIONS:
            word = self._field_case(word, typed, field, head)
        word = match_case(word, typed)
        insert = _with_cap(word) if cap else word
        label = f"{candidate.text} → {word}" if candidate.replacement else word
        typed_form = match_case(candidate.text, typed)
        return Completion(
            label,
            insert,
            "term",
            candidate.detail,
            candidate.documentation,
            start,
            sort_text=f"{candidate.rank}{candidate.key}",
            deprecated=bool(candidate.replacement),
            filter_text=(_with_cap(typed_form) if cap else typed_form)
            if candidate.replacement
            else "",
        )

    def _field_case(self, word: str, typed: str, field: str | None, head: bool) -> str:
        """A type or subtype, which the glossary writes as its field does (*Soldat*):
        in the ``subtype`` field capitalised as the language's subtype rule says
        (French: the first word only, « Oiseau, soldat »), in running text without
        a capital unless one was typed (FR302: « le **soldat** ciblé »)."""
        if field == "subtype":
            if head or self.glossary.subtypes.capitalize == "all":
                return word[:1].upper() + word[1:]
            return word[:1].lower() + word[1:]
        if field is None and not typed[:1].isupper():
            return word[:1].lower() + word[1:]
        return word

    def _ability_completion(
        self, candidate: _Candidate, ability: Ability, text: str, start: int, offset: int
    ) -> Completion:
        """An ability as the language's cards write it: its definition (the name in
        bold italics, a line break, the reminder in italics) on a line of its own, its
        name in the running text's emphasis elsewhere.  Asterisks typed before the
        name are replaced, not doubled."""
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        stars = len(before) - len(before.rstrip("*"))
        typed = text[start:offset]
        template = ability.template or ability.name
        alone = not before[: len(before) - stars].strip() and not _rest_of_line(text, offset)
        if alone and ability.reminder:
            insert = f"***{template}***\\\n*{ability.reminder}*"
        else:
            marks, lower = _RUNNING_EMPHASIS.get(self.lang, ("***", False))
            if lower:
                template = match_case(template[:1].lower() + template[1:], typed)
            insert = f"{marks}{template}{marks}"
        label = candidate.text
        if candidate.replacement:
            label = f"{candidate.text} → {candidate.replacement}"
        return Completion(
            label,
            insert,
            "ability",
            candidate.detail,
            candidate.documentation,
            start - stars,
            sort_text=f"{candidate.rank}{candidate.key}",
            deprecated=bool(candidate.replacement),
            # The client compares it with what was typed, asterisks included.
            filter_text=before[len(before) - stars :] + match_case(candidate.text, typed),
        )

    def _candidates(self) -> Iterator[_Candidate]:
        """Every term and ability of the glossary, once, as completion offers them."""
        if self.lang == SOURCE_LANGUAGE:
            yield from self._english_candidates()
        else:
            for entry in self.glossary.entries.values():
                yield from _entry_candidates(entry)
        english = self.resources.english.glossary.abilities
        for ability in self.glossary.abilities.values():
            yield from _ability_candidates(ability, english.get(ability.id), self.lang)

    def _english_candidates(self) -> Iterator[_Candidate]:
        for entry in self.glossary.entries.values():
            if entry.section in _NOT_OFFERED:
                continue
            translations = "; ".join(
                f"{esc(lang)}: {_bold(found.preferred.text)}"
                for lang, language in sorted(self.resources.languages.items())
                if (found := language.glossary.entries.get(entry.id)) is not None
                and found.preferred is not None
            )
            yield _Candidate(
                fold(entry.en),
                entry.en,
                "term",
                0,
                f"{entry.section}, {entry.pos}",
                "\n\n".join(s for s in (translations, esc(entry.note or "")) if s),
                section=entry.section,
            )


# --------------------------------------------------------------------------------------
# helpers of the assistant


#: How French and the others write an ability named in running text: French in simple
#: bold and without a capital (the guide's Typographie: FR302, FR303), English and
#: Esperanto as their cards do, in bold italics as the list writes the name.
_RUNNING_EMPHASIS: dict[str, tuple[str, bool]] = {"fr": ("**", True)}

#: Sections whose terms the glossary writes as a field's value, capitalised (*Soldat*).
_FIELD_SECTIONS = frozenset({"type", "subtype"})
#: Sections completion leaves out: phrases are no terms, a footer is a field's value.
_NOT_OFFERED = frozenset({PHRASE, "footer"})
#: A colon and the letters typed after it (the cursor is at the end of the search).
_CODE_PREFIX_RE = re.compile(r":([A-Za-z0-9]*)$")
#: After these a colon is punctuation, not a code: French writes « Coût : 3 » with a
#: no-break space before its colon.
_NO_CODE_BEFORE = "\u00a0\u202f"
_CODE_REST_RE = re.compile(r"[A-Za-z0-9]*:")
_ALL_CODES = (
    *sorted(SYMBOL_CODES, key=lambda c: (symbol_kind(c) != "cypher", len(c), c)),
    BREAK_CODE,
    EMPTY_PARAGRAPH_CODE,
)


def _valid(text: object, offset: object) -> bool:
    return (
        isinstance(text, str)
        and isinstance(offset, int)
        and not isinstance(offset, bool)
        and 0 <= offset <= len(text)
    )


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end


def _rest_of_line(text: str, offset: int) -> str:
    return text[offset : _line_end(text, offset)].strip()


def _opens_paragraph(text: str, body: int, line_start: int, at: int) -> bool:
    """Whether ``at`` starts a paragraph: only blanks before it on its line, and its
    line the body's first or after a blank line."""
    if text[line_start:at].strip():
        return False
    if line_start <= body:
        return True
    previous = text.rfind("\n", body, line_start - 1) + 1
    previous = max(previous, body)
    return not text[previous : line_start - 1].strip()


def _drop_cap_before(text: str, word_start: int) -> int | None:
    """The offset of a one-letter drop cap right before a word (``:Q:`` of
    ``:Q:ua``), None when there is none."""
    if (
        word_start >= 3
        and text[word_start - 1] == ":"
        and text[word_start - 3] == ":"
        and text[word_start - 2].isalpha()
        and (word_start == 3 or not text[word_start - 4].isalnum())
    ):
        return word_start - 2
    return None


def _with_cap(word: str) -> str:
    """A word written with a drop cap: *quand* is ``:Q:uand``."""
    return f":{word[:1].upper()}:{word[1:]}"


def match_case(term: str, typed: str) -> str:
    """``term`` in the case of what was typed: *Cr* gives *Créature*, *CR* gives
    *CRÉATURE*; a lower-case prefix keeps the glossary's own case (*Enfants de Gaïa*)."""
    letters = [c for c in typed if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return term.upper()
    if letters and letters[0].isupper():
        return term[:1].upper() + term[1:]
    return term


def _symbol_completion(
    code: str, data: SymbolData, start: int, opening: bool, end: int | None
) -> Completion:
    """A code as an item.  At a paragraph's start the marks come first; elsewhere the
    inline symbols do, and a mark says where it belongs (MK104)."""
    family = data.family(code)
    prints = data.prints.get(code) or f"the symbol :{code}:"
    if family == "break":
        rank = 2 if opening else 1
    elif family in ("mark", "column"):
        rank = 0 if opening else 2
        prints += "" if opening else " (at a paragraph's start)"
    else:
        rank = 1 if opening else 0
    return Completion(
        f":{code}:",
        f":{code}:",
        "symbol",
        prints,
        esc(" ".join(s for s in (data.descriptions.get(code), data.placements.get(family)) if s)),
        start,
        sort_text=f"{rank}{_ALL_CODES.index(code):02d}",
        end=end,
    )


def _entry_candidates(entry: Entry) -> Iterator[_Candidate]:
    """An entry's terms (preferred, admitted, deprecated with their replacement) and
    its adjective's forms."""
    if entry.section in _NOT_OFFERED:
        return
    preferred = entry.preferred
    for term in entry.terms:
        status = term.status
        rank = {"preferred": 0, "admitted": 1}.get(status, 3)
        if term.deprecated:
            replacement = term.replaced_by or (preferred.text if preferred else "")
            detail = f"deprecated{' since ' + term.date if term.date else ''}: use {replacement}"
        else:
            replacement = ""
            detail = f"{entry.en} ({entry.section}{', ' + status if status != 'preferred' else ''})"
        documentation = "\n\n".join(
            s for s in (f"English: *{esc(entry.en)}*", esc(entry.note or "")) if s
        )
        yield _Candidate(
            fold(term.text),
            term.text,
            "term",
            rank,
            detail,
            documentation,
            replacement=replacement if term.deprecated and replacement else "",
            section=entry.section,
        )
    for key, form in entry.adjective.items():
        yield _Candidate(
            fold(form), form, "term", 1, f"{entry.en}: adjective ({key})", "", section=entry.section
        )


def _ability_candidates(
    ability: Ability, english: Ability | None, lang: str
) -> Iterator[_Candidate]:
    """An ability by its name (and its former names, which insert the current one)."""
    detail = f"ability: {ability.template or ability.name}"
    if lang != SOURCE_LANGUAGE:
        detail += f" ({english.template if english and english.template else ability.en})"
    parts = [_italic(ability.reminder)]
    if lang != SOURCE_LANGUAGE and english is not None and english.reminder:
        name = _bold(english.template or english.name)
        parts.append(f"English: {name}: {_italic(english.reminder)}")
    documentation = "\n\n".join(p for p in parts if p)
    yield _Candidate(
        fold(ability.name), ability.name, "ability", 2, detail, documentation, ability=ability
    )
    for old in ability.deprecated:
        yield _Candidate(
            fold(old.text),
            old.text,
            "ability",
            3,
            f"former name{' since ' + old.date if old.date else ''}: use {ability.name}",
            documentation,
            replacement=ability.name,
            ability=ability,
        )


def _distinct(matches: list[Match]) -> list[Match]:
    """One match per entry or ability.  Where several terms of one entry have the same
    words (*Gardien, humain* and the deprecated *Gardien Humain*), the term written
    exactly as in the text wins, then the preferred one, so that a hover says
    "deprecated" only of what is."""
    best: dict[tuple[str, str], Match] = {}
    for match in matches:
        key = ("ability" if match.hit.kind == "ability" else "entry", match.hit.id)
        kept = best.get(key)
        if kept is None or _closeness(match) < _closeness(kept):
            best[key] = match
    return list(best.values())


def _closeness(match: Match) -> tuple[int, int]:
    exact = 0 if match.hit.term == match.text else 1
    return exact, _STATUS_ORDER.get(match.hit.status, 3)


_STATUS_ORDER = {"preferred": 0, "admitted": 1, "deprecated": 2}


def _status_line(view: GlossaryEntry, hovered: str) -> str:
    """The first line when the hovered term is not the preferred one."""
    term = next((t for t in view.terms if t.term == hovered), None)
    preferred = next((t.term for t in view.terms if t.status == "preferred"), "")
    if term is None or term.status == "preferred":
        return ""
    if term.status == "deprecated":
        replacement = term.replaced_by or preferred
        return f"⚠ {_bold(term.term)} is deprecated{_since(term.date)}: use {_bold(replacement)}.\n"
    return f"{_bold(term.term)} is admitted; the preferred term is {_bold(preferred)}.\n"


def _term_line(term: Any) -> str:
    """One term of an entry: status, gender, forms, or what replaces it."""
    gender = f" ({esc(term.gender)})" if term.gender else ""
    if term.status == "deprecated":
        return (
            f"- deprecated: ~~{esc(term.term)}~~{gender} → {_bold(term.replaced_by or '?')}"
            f"{_since(term.date)}"
        )
    forms = _forms_line(term.term, term.forms)
    return f"- {esc(term.status)}: {_bold(term.term)}{gender}" + (
        f"; forms: {forms}" if forms else ""
    )


def _translation_line(lang: str, entry: Entry | None) -> str:
    """An English entry's terms in one language, on one line."""
    name = esc(languages.get(lang).name)
    if entry is None or not entry.terms:
        return f"- {name}: not in the {esc(languages.get(lang).glossary_name)}"
    parts = []
    for term in entry.terms:
        if term.deprecated:
            parts.append(f"~~{esc(term.text)}~~ → {esc(term.replaced_by or '?')}")
        else:
            status = "" if term.status == "preferred" else f" ({esc(term.status)})"
            parts.append(f"{_bold(term.text)}{status}")
    return f"- {name}: " + ", ".join(parts)


def _note_lines(note: str | None, definition: str | None) -> list[str]:
    return [f"\n{esc(text)}" for text in (definition, note) if text]


def _node_markdown(node: Symbol | DropCap | LineBreak, source: str, first: bool, after: str) -> str:
    """What a symbol, drop cap or line break prints, and why it may not."""
    data = symbol_data()
    if isinstance(node, LineBreak):
        return _code_markdown(BREAK_CODE, "\\" if source == "\\" else ":br:", data, [])
    if isinstance(node, Symbol):
        misplaced = data.family(node.code) in ("mark", "column") and not first
        notes = [data.notes.get("misplaced", "")] if misplaced else []
        return _code_markdown(node.code, f":{node.code}:", data, notes)
    return _drop_cap_markdown(node.letter, data, first, after)


def _code_markdown(code: str, shown: str, data: SymbolData, notes: list[str]) -> str:
    """A known code (``shown`` as typed: ``:br:`` or ``\\``): what it prints, its
    shape, where it goes, its rule-text spelling and the notes."""
    family = data.family(code)
    prints = data.prints.get(code) or f"the symbol :{code}:"
    lines = [f"`{shown}` prints {esc(prints)}", ""]
    lines += [esc(t) for t in (data.descriptions.get(code), data.placements.get(family)) if t]
    if code in SYMBOL_CODES:
        lines.append(f"\nIn the rule text Aminduna derives: {esc(symbol_text(code))}")
    lines += [f"\n⚠ {esc(note)}" for note in notes if note]
    return "\n".join(lines).strip()


def _drop_cap_markdown(letter: str, data: SymbolData, first: bool, after: str) -> str:
    """A drop cap (``letter`` is untrusted text), with what is odd about it: a
    mistyped code, colons paired by accident, several letters, a lower-case letter, a
    space after it, a place other than its paragraph's start."""
    prints, description = data.drop_cap
    shown = letter if len(letter) <= MAX_CAP_SHOWN else letter[: MAX_CAP_SHOWN - 1] + "…"
    values = {"letter": shown, "first": letter[:1].upper(), "code": letter.lower()}
    lines = [f"{_bold(':' + shown + ':')} prints {esc(_fill(prints, values))}", ""]
    if description:
        lines.append(esc(_fill(description, values)))
    notes = []
    if letter.lower() in _ALL_CODES:
        notes.append("case")
    elif not letter.isalpha():
        notes.append("colons")
    elif len(letter) > 1:
        notes.append("long")
    elif letter.islower():
        notes.append("lower")
    if after[:1] in (" ", "\t") and letter.isalpha():
        notes.append("space_after")
    if not first:
        notes.append("misplaced")
    lines += [f"\n⚠ {esc(_fill(data.notes[n], values))}" for n in notes if data.notes.get(n)]
    return "\n".join(lines).strip()


def _fill(template: str, values: dict[str, str]) -> str:
    """A data template with its ``{name}`` fields (an unknown field is left as written)."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def _pa_hover(text: str, offset: int) -> Hover | None:
    """``:pa:`` and a lone ``\\`` line before a blank line leave no node (they empty
    their paragraph): found in the source."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = _line_end(text, offset)
    line = text[line_start:line_end]
    data = symbol_data()
    for match in re.finditer(":pa:", line):
        start, end = line_start + match.start(), line_start + match.end()
        if start <= offset <= end:
            return Hover(_code_markdown(EMPTY_PARAGRAPH_CODE, ":pa:", data, []), start, end)
    if line.strip() == "\\" and not text[line_end + 1 : _line_end(text, line_end + 1)].strip():
        start = line_start + line.index("\\")
        if start <= offset <= start + 1:
            return Hover(_code_markdown(EMPTY_PARAGRAPH_CODE, "\\", data, []), start, start + 1)
    return None


def _around(text: str, low: int, high: int, offset: int) -> tuple[int, int]:
    """``[low, high)`` narrowed to :data:`HOVER_MARGIN` characters on each side of
    ``offset``, cut at spaces: a term is a few words, a paragraph may be a card long."""
    if offset - low > HOVER_MARGIN:
        space = text.find(" ", offset - HOVER_MARGIN, offset)
        low = space + 1 if space >= 0 else low
    if high - offset > HOVER_MARGIN:
        space = text.rfind(" ", offset, offset + HOVER_MARGIN)
        high = space if space >= 0 else high
    return low, high
