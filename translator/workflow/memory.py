"""Translation memory: every translation the library already has, keyed by its English.

A translator's time goes into text that was translated somewhere already: the same
reminder, the same sentence on ten cards, last year's deck.  The memory holds, for one
language, every *unit* of every translated card:

- the name lines, the subtype and the card's own footer, each as one line;
- every paragraph of the text (the flavour's too), paired with the translation's
  paragraph in the same place;
- every sentence of a paragraph, paired the same way, when both sides have as many.

A pair is kept only where it can be trusted: the translation is not a draft
(``wip``), the English has not changed since in that part of the card (its fingerprint
group is not stale), the translation differs from the English, and both sides hold
the same numbers and symbol codes (a paragraph pair that does not is no translation of
each other: the cards were laid out differently).  When one English text has several
translations, a reviewed one wins over a translated one, which wins over an imported
TMX entry; then the most frequent; then the first card in library order.

Keys are the English after normalising whitespace, with the card's own name (which a
card may print in its text) replaced by a placeholder, so that "Courier deals 2
damage" on the card Courier matches "Herald deals 2 damage" on the card Herald, and
the translation gets the new card's name.

Exact matches fill drafts (:mod:`.draft`); fuzzy ones (≥ 75 % similar, rapidfuzz's
normalised Indel similarity, the measure of Python's difflib ratio) are suggestions
(PO export, ``translator suggest``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from ..cards.model import DEFAULT_FOOTERS, SOURCE_LANGUAGE, Card, CardFile, Library, changed_fields
from ..markup.tree import SYMBOL_CODES
from ..paths import inside
from .states import edited_since_review, word_diff

#: The pools units are matched within: a paragraph never matches a name.
KINDS = ("name", "subtype", "info", "paragraph", "sentence")
#: The lowest similarity (percent) a fuzzy match is offered at.
FUZZY_CUTOFF = 75.0
#: The states a memory unit comes from, best first.
STATES = ("reviewed", "translated", "imported")

#: Where the card's own name stood (a character no card text may hold).
NAME = "\ufffcname\ufffc"

#: What separates a card text's paragraphs (the drafts split them so too).
BLANK_LINES = re.compile(r"\n[ \t]*\n")
#: A sentence ends at . ! ? (a French space before ! ?), a closing markup or quote
#: after it, then a space and what starts a sentence: a capital, a digit, a symbol
#: code or markup.
_SENTENCE_END = re.compile(
    r"(?<=[.!?…])(?:[*_»”\"')\]]*)(?=\s+(?:[*_«“\"(\[]*)[A-ZÀ-ÖØ-ÞĈĜĤĴŜŬ0-9:])"
)
#: A ``\\`` line break ends a line (the ``\\`` stays with it).
_LINE_BREAK = re.compile(r"(?<=\\)\n")
#: A bold run opening a line, then (after a separator) an italic reminder: an
#: ability's name in the inline style, ``***Bodyguard 2 -*** *...*``.
_LEADING_RUN = re.compile(r"(\*{2,3})[^*\n]+?\1[ \t]*(?:[-–—:][ \t]*)?(?=\*(?!\*))")
#: A segment that is only a bold run (with a separator or a line break).
_NAME_RUN = re.compile(r"(\*{2,3})[^*\n]+?\1[ \t]*(?:[-–—:][ \t]*)?\\?")
#: Where a paragraph has more than one segment.
_SEGMENT_END = re.compile(_SENTENCE_END.pattern + r"|\\\n|^\*{2,3}[^*\n]+?\*{2,3}[ \t]")
#: Codes first (``:g2:`` is a code, not the number 2), then numbers.
_CODES_AND_NUMBERS = re.compile(r":[A-Za-z0-9]+:|\d+")
_NO_CODE_OR_NUMBER = re.compile(r"[^:\d]*")


@dataclass(frozen=True)
class Origin:
    """Where a memory unit comes from: a card of the library, or a TMX file."""

    state: str
    #: ``deck/slug`` of the translated card, or the TMX file's path.
    where: str
    path: str = ""

    def __str__(self) -> str:
        return f"{self.where}, {self.state}"


@dataclass(eq=False, slots=True)
class Unit:
    """One English text and its translation (compared by identity: two cards'
    units of one text are two units)."""

    kind: str
    english: str
    target: str
    origin: Origin
    #: The unit's card's name in English and in the translation, where its text may
    #: print it (None for names and subtypes, and for TMX units).
    name: str | None = None
    target_name: str | None = None

    #: (kind, normalised English): what the memory looks the unit up by.
    key: tuple[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.key = (self.kind, normalize(self.english, self.name))

    def target_for(self, name: str | None) -> str:
        """The translation, with ``name`` where the unit's card printed its own."""
        if not name or not self.target_name:
            return self.target
        return _replace_name(self.target, self.target_name).replace(NAME, name)


@dataclass
class Match:
    """A memory unit found for an English text, and how alike their English is."""

    unit: Unit
    #: The English asked about, as the card writes it.
    english: str
    #: Similarity of the normalised English texts, in percent (100: exact).
    score: float
    #: The translation, with the asking card's name where the unit's card had its own.
    target: str
    #: How many other units share this English with another translation.
    alternatives: list[Unit] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return self.score >= 100.0

    def words(self) -> list[tuple[str, str]]:
        """The memory's English -> this English, word by word (what differs)."""
        return word_diff(self.unit.english, self.english)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.unit.kind,
            "score": round(self.score, 1),
            "english": self.english,
            "memory_english": self.unit.english,
            "target": self.target,
            "state": self.unit.origin.state,
            "from": self.unit.origin.where,
            "diff": [list(piece) for piece in self.words()],
        }


def normalize(text: str, name: str | None = None) -> str:
    """The key of an English text: whitespace collapsed, the card's own name replaced."""
    text = " ".join(text.split())
    if name:
        text = _replace_name(text, name)
    return text


def _replace_name(text: str, name: str) -> str:
    if name not in text:  # most texts: no pattern to build (one per card name)
        return text
    return re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", NAME, text)


def paragraphs(body: str) -> list[str]:
    """A card body's paragraphs as written (blank-line separated, as the card dialect
    and the drafts split them)."""
    body = body.replace("\r\n", "\n").strip("\n")
    return [chunk for chunk in BLANK_LINES.split(body) if chunk.strip()] if body else []


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences as written, the spaces between them left out (one
    sentence: a list of one)."""
    pieces: list[str] = []
    start = 0
    for end in _SENTENCE_END.finditer(paragraph):
        pieces.append(paragraph[start : end.end()])
        start = end.end()
    pieces.append(paragraph[start:])
    return [piece.strip() for piece in pieces if piece.strip()]


def segments(paragraph: str) -> list[str]:
    """A paragraph's segments as written: its lines (``\\`` line breaks, the ``\\``
    kept with its line), an ability's name run and its reminder (``***Flying -***
    *reminder*``: two segments, as ``***Flying***\\`` and ``*reminder*`` on two lines
    are), and the sentences of each; the spaces between them left out.  So a reminder
    is the same segment in both ability styles."""
    found: list[str] = []
    for line in _LINE_BREAK.split(paragraph) if "\\\n" in paragraph else (paragraph,):
        lead = _LEADING_RUN.match(line)
        if lead is not None:
            found.append(lead.group(0).strip())
        found.extend(sentences(line[lead.end() :] if lead is not None else line))
    return found


def name_run(segment: str) -> bool:
    """Is a segment only a bold run (an ability's name: ``***Flying -***``,
    ``***Bodyguard 2***\\``)?  The glossary's to translate, not the memory's: its
    parameter changes from card to card, its style too."""
    return _NAME_RUN.fullmatch(segment) is not None


def agree(english: str, target: str) -> bool:
    """Do both sides hold the same symbol codes and numbers (in any order)?  A pair
    that does not is not a translation of each other."""
    if _NO_CODE_OR_NUMBER.fullmatch(english) and _NO_CODE_OR_NUMBER.fullmatch(target):
        return True  # most sentences: nothing to compare
    return _symbols_and_numbers(english) == _symbols_and_numbers(target)


def _symbols_and_numbers(text: str) -> list[str]:
    """The symbol codes and numbers of a text, sorted; a drop cap (``:W:hen``, a code
    that is no symbol) is the language's first letter, not counted."""
    found = _CODES_AND_NUMBERS.findall(text)
    return sorted([f for f in found if f[0] != ":" or f[1:-1] in SYMBOL_CODES])


def _pairs(source: CardFile, version: CardFile, stale: set[str]) -> Iterator[tuple[str, str, str]]:
    """(kind, English, translation) of every unit one translation offers."""
    for key, kind in (("name", "name"), ("name2", "name"), ("subtype", "subtype")):
        if key in stale:
            continue
        english, target = source.fields.get(key), version.fields.get(key)
        if english not in (None, "") and target not in (None, ""):
            yield kind, str(english), str(target)
    english_info, target_info = source.fields.get("info"), version.fields.get("info")
    if (
        "info" not in stale
        and english_info not in (None, "", *DEFAULT_FOOTERS.values())
        and target_info not in (None, "")
    ):
        yield "info", str(english_info), str(target_info)
    if "text" in stale:
        return
    english_paragraphs, target_paragraphs = paragraphs(source.body), paragraphs(version.body)
    if len(english_paragraphs) != len(target_paragraphs):
        return
    for english, target in zip(english_paragraphs, target_paragraphs, strict=True):
        pairs: list[tuple[str, str]] = []
        if _SEGMENT_END.search(english):
            english_segments, target_segments = segments(english), segments(target)
            if len(english_segments) == len(target_segments):
                pairs = list(zip(english_segments, target_segments, strict=True))
        agreeing = [agree(one, other) for one, other in pairs]
        # Segments that all agree make a paragraph that does (no second reading).
        if not (pairs and all(agreeing)) and not agree(english, target):
            continue
        yield "paragraph", english, target
        for (one, other), agreed in zip(pairs, agreeing, strict=True):
            if agreed and not name_run(one):
                yield "sentence", one, other


def card_units(card: Card, lang: str) -> list[Unit]:
    """What ``card``'s ``lang`` translation offers the memory (nothing for a draft, a
    missing translation, or the parts of a stale one the English changed in)."""
    source, version = card.source, card.translations.get(lang)
    if source is None or version is None or version.fields.get("wip"):
        return []
    stale: set[str] = set()
    fingerprint = version.fields.get("source")
    if isinstance(fingerprint, str) and fingerprint:
        changed = changed_fields(fingerprint, source)
        if changed is None:  # the old format: changed, but which part is unknown
            return []
        stale = set(changed)
    # A review that still holds (of this text, card, language and English: the parts
    # a stale card did not change in are still the ones reviewed).
    held = bool(version.fields.get("reviewed")) and not edited_since_review(version)
    state = "reviewed" if held else "translated"
    origin = Origin(state, f"{card.deck}/{card.slug}", version.path)
    english_name, target_name = source.fields.get("name"), version.fields.get("name")
    names = (str(english_name), str(target_name)) if english_name and target_name else (None, None)
    found = []
    for kind, english, target in _pairs(source, version, stale):
        if english.split() == target.split():
            continue  # nothing translated: nothing to reuse
        if kind in ("name", "subtype"):
            found.append(Unit(kind, english, target, origin))
        else:
            found.append(Unit(kind, english, target, origin, *names))
    return found


class Memory:
    """The translations of one language, looked up by their English."""

    def __init__(self, lang: str, units: Iterable[Unit] = ()) -> None:
        self.lang = lang
        self._by_key: dict[tuple[str, str], list[Unit]] = {}
        self._best: dict[tuple[str, str], Unit] | None = None
        self._keys: dict[str, list[str]] = {}
        self.add(units)

    def add(self, units: Iterable[Unit]) -> None:
        for unit in units:
            self._by_key.setdefault(unit.key, []).append(unit)
        self._best = None
        self._keys = {}

    def __len__(self) -> int:
        return len(self._by_key)

    def units(self) -> list[Unit]:
        """The best unit of every English text, in a stable order (what TMX gets)."""
        best = self._ranked()
        return [best[key] for key in sorted(best)]

    def _ranked(self) -> dict[tuple[str, str], Unit]:
        if self._best is None:
            self._best = {key: _best(units) for key, units in self._by_key.items()}
        return self._best

    def exact(
        self,
        kind: str,
        english: str,
        name: str | None = None,
        target_name: str | None = None,
        *,
        exclude: str | None = None,
    ) -> Match | None:
        """The translation of ``english`` (the exact text, as normalised), or None.

        ``name`` is the asking card's English name, ``target_name`` its name in the
        translation (default: ``name``), put where the unit's card printed its own;
        ``exclude`` (``deck/slug``) leaves a card's own units out.  A text of one
        sentence is looked up among paragraphs and sentences both (a one-sentence
        paragraph is a sentence: what a foreign TMX file holds), and, when it holds
        the card's name, also as written (a unit that knows no card name holds it as
        text)."""
        for key in self._keys_of(kind, english, name):
            unit = self._offered(key, exclude)
            if unit is not None:
                return self._match(unit, english, 100.0, key, target_name or name)
        return None

    def _offered(self, key: tuple[str, str], exclude: str | None) -> Unit | None:
        """The unit a key offers: its best, or its best not from the card ``exclude``."""
        if key not in self._by_key:
            return None
        if exclude is None:
            return self._ranked()[key]
        units = [u for u in self._by_key[key] if u.origin.where != exclude]
        return _best(units) if units else None

    def _keys_of(self, kind: str, english: str, name: str | None) -> list[tuple[str, str]]:
        """The keys ``english`` is looked up by, in order (see :meth:`exact`)."""
        texts = [normalize(english, name)]
        if name and texts[0] != normalize(english):
            texts.append(normalize(english))
        return [(pool, text) for pool in self._pools(kind, english) for text in texts]

    @staticmethod
    def _pools(kind: str, english: str) -> tuple[str, ...]:
        if kind in ("paragraph", "sentence") and not _SEGMENT_END.search(english):
            return (kind, "sentence" if kind == "paragraph" else "paragraph")
        return (kind,)

    def fuzzy(
        self,
        kind: str,
        english: str,
        name: str | None = None,
        target_name: str | None = None,
        *,
        cutoff: float = FUZZY_CUTOFF,
        limit: int = 3,
        exclude: str | None = None,
    ) -> list[Match]:
        """The most similar English texts of the memory (``cutoff`` percent or more),
        best first (a text of one sentence among paragraphs and sentences both);
        ``exclude`` (``deck/slug``) leaves out a card's own units."""
        query = normalize(english, name)
        found: dict[str, Match] = {}
        for pool in self._pools(kind, english):
            for key, score, _ in process.extract(
                query,
                self._pool_keys(pool),
                scorer=fuzz.ratio,
                score_cutoff=cutoff,
                limit=limit + 1,
            ):
                unit = self._offered((pool, key), exclude)
                if unit is None or key in found:
                    continue
                found[key] = self._match(
                    unit, english, float(score), (pool, key), target_name or name
                )
        return sorted(found.values(), key=lambda m: (-m.score, m.unit.english))[:limit]

    def lookup(
        self,
        kind: str,
        english: str,
        name: str | None = None,
        target_name: str | None = None,
        *,
        cutoff: float = FUZZY_CUTOFF,
        limit: int = 3,
        exclude: str | None = None,
    ) -> tuple[Match | None, list[Match]]:
        """(the exact match, or None; else the fuzzy ones): what a translator is
        offered for one text."""
        exact = self.exact(kind, english, name, target_name, exclude=exclude)
        if exact is not None:
            return exact, []
        return None, self.fuzzy(
            kind, english, name, target_name, cutoff=cutoff, limit=limit, exclude=exclude
        )

    def _pool_keys(self, pool: str) -> list[str]:
        keys = self._keys.get(pool)
        if keys is None:
            keys = self._keys[pool] = sorted(k for (kind, k) in self._by_key if kind == pool)
        return keys

    def _match(
        self, unit: Unit, english: str, score: float, key: tuple[str, str], name: str | None
    ) -> Match:
        own = unit.target_for(NAME)
        others = [u for u in self._by_key[key] if u.target_for(NAME) != own]
        return Match(unit, english, score, unit.target_for(name), others)


def _best(units: list[Unit]) -> Unit:
    """The translation to offer among those of one English text."""
    counts = Counter(unit.target_for(NAME) for unit in units)
    return min(
        units,
        key=lambda u: (STATES.index(u.origin.state), -counts[u.target_for(NAME)], u.origin.where),
    )


def build_memory(library: Library, lang: str, extra: Iterable[Unit] = ()) -> Memory:
    """The memory of ``lang`` from every translated card of ``library``, and ``extra``
    (an imported TMX file's units)."""
    if lang == SOURCE_LANGUAGE:
        raise ValueError("English is the source: it has no translation memory")
    units: list[Unit] = []
    for _, card in sorted(library.cards.items()):
        units.extend(card_units(card, lang))
    units.extend(extra)
    return Memory(lang, units)


# --------------------------------------------------------------------------------------
# The library's memory

#: ``<library>/memory/<lang>.tmx``: the TMX files imported into a library
#: (``translator import tmx``), part of its memory.
MEMORY_FOLDER = "memory"


def library_roots(library: Library) -> list[Path]:
    """The folders holding the library's decks: where the rest of the library is
    (``translate cards/new-deck`` reuses what ``cards/old-deck`` translated)."""
    return sorted({Path(deck.directory).parent for deck in library.decks.values()})


def memory_files(roots: Iterable[Path], lang: str) -> list[Path]:
    """The imported TMX files of ``lang`` under ``roots`` that exist (inside them)."""
    return [
        path
        for root in roots
        # A memory folder or file that links out of the library is neither read nor
        # written (translator.paths.inside).
        if (path := root / MEMORY_FOLDER / f"{lang}.tmx").is_file() and inside(path, root)
    ]
