"""The translation memory on the command line: ``translator suggest`` (what the memory
offers one card), ``translator export tmx`` and ``translator import tmx`` (the memory
out to Weblate or OmegaT, and their memories in)."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import api
from ..limits import MAX_EXCHANGE_ENTRIES
from ..textio import InputError, atomic_write
from . import output
from .common import EXIT_FINDINGS, EXIT_OK, Parser, UsageError, add_format, command_help
from .output import plural

if TYPE_CHECKING:
    from ..cards import Card, Library
    from ..workflow.memory import Match, Memory, Unit
    from ..workflow.tmx import TmxContent

#: What a text of a card is called, by its unit.
_LABELS = {
    "name": "name",
    "name2": "second name line",
    "subtype": "subtype",
    "info": "footer",
}
#: The most suggestions ``--limit`` may ask for (a screenful per text).
MAX_LIMIT = 20


# --------------------------------------------------------------------------------------
# What the memory offers a card


@dataclass
class Text:
    """One text of a card, as a translator meets it, and what the memory has for it."""

    #: The card's unit: name, name2, subtype, text (a paragraph or sentence), info.
    unit: str
    #: The memory's kind it is looked up as.
    kind: str
    english: str
    #: For the text: the paragraph (from 1), and the sentence in it (0: the paragraph).
    paragraph: int = 0
    sentence: int = 0
    exact: Match | None = None
    fuzzy: list[Match] = field(default_factory=list)

    @property
    def label(self) -> str:
        if self.unit != "text":
            return _LABELS[self.unit]
        if self.sentence:
            return f"paragraph {self.paragraph}, sentence {self.sentence}"
        return f"paragraph {self.paragraph}"

    @property
    def found(self) -> bool:
        return self.exact is not None or bool(self.fuzzy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "kind": self.kind,
            "paragraph": self.paragraph or None,
            "sentence": self.sentence or None,
            "english": self.english,
            "exact": self.exact.to_dict() if self.exact is not None else None,
            "fuzzy": [m.to_dict() for m in self.fuzzy],
        }


def card_texts(card: Card, lang: str, memory: Memory, cutoff: float, limit: int) -> list[Text]:
    """The texts of ``card`` in the order a translator reads them (the name lines, the
    subtype, each paragraph, then, for a paragraph the memory does not hold whole,
    each of its sentences, as the memory cuts them: its lines, an ability's name and
    reminder, their sentences; the footer of its own), each with its exact match or
    its fuzzy ones.  The card's own translation is never a suggestion for itself."""
    from ..cards.model import DEFAULT_FOOTERS  # noqa: PLC0415
    from ..workflow.memory import paragraphs, segments  # noqa: PLC0415

    source = card.source
    assert source is not None  # api.find_card gives English cards
    look = _Lookup(memory, f"{card.deck}/{card.slug}", cutoff, limit)
    found = []
    for unit, kind in (("name", "name"), ("name2", "name"), ("subtype", "subtype")):
        value = source.fields.get(unit)
        if value not in (None, ""):
            found.append(look(Text(unit, kind, str(value))))
    name = str(source.fields.get("name") or "") or None
    target_name = _target_name(card, lang, found)
    for number, paragraph in enumerate(paragraphs(source.body), start=1):
        text = look(Text("text", "paragraph", paragraph, number), name, target_name)
        parts = segments(paragraph)
        if text.exact is None and len(parts) == 1:
            # A one-sentence paragraph is a sentence too (what a foreign TMX holds).
            alone = look(Text("text", "sentence", paragraph, number), name, target_name)
            text.exact = alone.exact
            text.fuzzy = [] if alone.exact else _best(text.fuzzy + alone.fuzzy, limit)
        found.append(text)
        if text.exact is None and len(parts) > 1:
            for index, part in enumerate(parts, start=1):
                found.append(look(Text("text", "sentence", part, number, index), name, target_name))
    info = source.fields.get("info")
    if info not in (None, "", *DEFAULT_FOOTERS.values()):
        found.append(look(Text("info", "info", str(info)), name, target_name))
    return found


@dataclass
class _Lookup:
    """Looks texts up in a memory, leaving out one card's own units."""

    memory: Memory
    exclude: str
    cutoff: float
    limit: int

    def __call__(self, text: Text, name: str | None = None, target_name: str | None = None) -> Text:
        exact = self.memory.exact(text.kind, text.english, name, target_name)
        if exact is None and name:
            # A unit that knows no card name (a foreign TMX's) holds the name as text.
            exact = self.memory.exact(text.kind, text.english)
        if exact is not None and exact.unit.origin.where != self.exclude:
            text.exact = exact
            return text
        text.fuzzy = self.memory.fuzzy(
            text.kind,
            text.english,
            name,
            target_name,
            cutoff=self.cutoff,
            limit=self.limit,
            exclude=self.exclude,
        )
        return text


def _best(matches: list[Match], limit: int) -> list[Match]:
    return sorted(matches, key=lambda m: (-m.score, m.unit.english))[:limit]


def _target_name(card: Card, lang: str, found: list[Text]) -> str | None:
    """The card's name in ``lang``, put where a memory unit printed its card's own:
    the translation's (unless a draft's, still English), else the memory's."""
    version = card.translations.get(lang)
    english = card.source.fields.get("name") if card.source else None
    own = version.fields.get("name") if version is not None else None
    if own and not (version is not None and version.fields.get("wip") and own == english):
        return str(own)
    for text in found:
        if text.unit == "name" and text.exact is not None:
            return text.exact.target
    return None


def memory_without(library: Library, card: Card, lang: str) -> Memory:
    """The memory of ``lang`` for work on ``card``: the whole library's (its sibling
    decks and imported TMX files too), without the card's own translation."""
    others = {k: v for k, v in card.translations.items() if k != lang}
    library.cards[(card.deck, card.slug)] = replace(card, translations=others)
    try:
        return api.load_memory(library, lang)
    finally:
        library.cards[(card.deck, card.slug)] = card


# --------------------------------------------------------------------------------------
# translator suggest


def cmd_suggest(args: argparse.Namespace, out: TextIO) -> int:
    """``suggest``: for each text of one card, the memory's exact or fuzzy matches."""
    from ..workflow import states  # noqa: PLC0415

    lang = api.target_language(args.lang)
    if not 0 < args.min <= 100:
        raise UsageError(f"--min {args.min:g}: a similarity in percent, above 0 and at most 100")
    if not 1 <= args.limit <= MAX_LIMIT:
        raise UsageError(f"--limit {args.limit}: from 1 to {MAX_LIMIT} suggestions a text")
    library = api.load_library(list(args.paths) or None)
    card = api.find_card(library, args.card)
    memory = memory_without(library, card, lang)
    texts = card_texts(card, lang, memory, args.min, args.limit)
    state = states.card_state(card, lang).state
    exact = sum(1 for t in texts if t.exact is not None)
    fuzzy = sum(1 for t in texts if t.exact is None and t.fuzzy)
    summary = {
        "texts": len(texts),
        "exact": exact,
        "fuzzy": fuzzy,
        "none": len(texts) - exact - fuzzy,
    }
    code = EXIT_OK if exact or fuzzy else EXIT_FINDINGS
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "card": f"{card.deck}/{card.slug}",
                "lang": lang,
                "state": state,
                "memory": len(memory),
                "min": args.min,
                "texts": [t.to_dict() for t in texts],
                "summary": summary,
            },
            out,
        )
        return code
    color = output.use_color(out)
    out.write(
        f"{card.deck}/{card.slug} ({lang}, {state}): {plural(len(texts), 'text')}; "
        f"{exact} with an exact match, {fuzzy} with suggestions (≥ {args.min:g}%), "
        f"{summary['none']} without\n"
    )
    for text in texts:
        _write_text(text, out, color)
    if code == EXIT_FINDINGS:
        out.write(
            f"nothing in the {lang} memory ({plural(len(memory), 'English text')}) is like "
            f"this card's English (a lower --min finds more)\n"
        )
    return code


def _write_text(text: Text, out: TextIO, color: bool) -> None:
    """One text, then its match or suggestions, each with where it comes from, its
    translation, and how the memory's English differs from this one."""
    out.write(f"\n{output.paint(text.label, output.BOLD, color)}\n")
    out.write(textwrap.indent(text.english, "    ") + "\n")
    matches = [text.exact] if text.exact is not None else text.fuzzy
    if not matches:
        out.write("  nothing in the memory\n")
    for match in matches:
        score = "exact" if match.exact else f"{match.score:.0f}%"
        others = (
            f" (+{plural(len(match.alternatives), 'other translation')})"
            if match.alternatives
            else ""
        )
        out.write(f"  {score}: {where(match.unit)}{others}\n")
        out.write(textwrap.indent(match.target, "      ") + "\n")
        pieces = match.words()
        if any(kind != "=" for kind, _ in pieces):
            diff = output.word_diff_text(pieces, color)
            out.write(textwrap.indent(f"English: {diff}", "      ") + "\n")


def where(unit: Unit) -> str:
    """Where a unit comes from, as a translator looks for it: the card and its state,
    or the TMX file it was imported from (and what that file says it came from)."""
    origin = unit.origin
    if origin.state != "imported":
        return str(origin)
    told = f" (from {origin.where})" if origin.where != Path(origin.path).name else ""
    return f"{origin.path}, imported{told}"


# --------------------------------------------------------------------------------------
# translator export tmx


def cmd_export_tmx(args: argparse.Namespace, out: TextIO) -> int:
    """``export tmx``: the library's memory of one language as a TMX file."""
    from ..workflow import tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    lang = api.target_language(args.lang)
    to_stdout = args.output in (None, "-")
    if to_stdout and args.format == "json":
        raise UsageError("--format json prints a summary: give the TMX file with -o FILE")
    library = api.load_library(list(args.paths) or None)
    units = api.load_memory(library, lang, whole=False).units()
    data = tmx.write_tmx(units, lang).decode("utf-8")
    if to_stdout:
        out.write(data)
    else:
        _write(Path(args.output), data)
    kinds: dict[str, int] = {}
    origins: dict[str, int] = {}
    for unit in units:
        kinds[unit.kind] = kinds.get(unit.kind, 0) + 1
        origins[unit.origin.state] = origins.get(unit.origin.state, 0) + 1
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "lang": lang,
                "output": args.output,
                "units": len(units),
                "kinds": kinds,
                "states": origins,
            },
            out,
        )
        return EXIT_OK
    counts = ", ".join(f"{count} {kind}" for kind, count in kinds.items()) or "none"
    where_to = "standard output" if to_stdout else args.output
    print(f"wrote {where_to}: {plural(len(units), 'unit')} ({counts})", file=sys.stderr)
    if not units:
        print(
            f"translator: the {lang} memory is empty: no card has a {lang} translation "
            "to reuse (drafts and the parts of stale translations do not count)",
            file=sys.stderr,
        )
    return EXIT_OK


def _write(destination: Path, text: str) -> None:
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(str(destination.parent), f"cannot create: {error.strerror}") from None
    atomic_write(str(destination), text)


# --------------------------------------------------------------------------------------
# translator import tmx


@dataclass
class Gain:
    """What an import brings to one card to translate (a draft, or no translation)."""

    card: str
    state: str
    exact: int
    fuzzy: int

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "state": self.state, "exact": self.exact, "fuzzy": self.fuzzy}


def cmd_import_tmx(args: argparse.Namespace, out: TextIO) -> int:
    """``import tmx``: a TMX file's units into the library's memory of one language."""
    from ..workflow import tmx  # noqa: PLC0415 - translate-toolkit loads slowly

    lang = api.target_language(args.lang)
    # The file first: a file that cannot be imported says so before the library loads.
    content = tmx.read_tmx(args.file, lang)
    paths = list(args.library or []) or ["cards"]
    library = api.load_library(paths)
    root = _library_root(library)
    target = tmx.memory_path(root, lang)
    _check_inside(target, root)
    memory = api.load_memory(library, lang)
    stored = tmx.read_units(target, lang) if target.is_file() else []
    merged, added = tmx.merge(stored, content.units)
    if len(merged) > MAX_EXCHANGE_ENTRIES:
        raise InputError(
            args.file,
            f"the {lang} memory would hold {len(merged):,} units, more than a TMX file may "
            f"({MAX_EXCHANGE_ENTRIES:,}): is this the right file?",
        )
    if added and not args.dry_run:
        target.parent.mkdir(exist_ok=True)
        atomic_write(str(target), tmx.write_tmx(tmx.stored_units(merged), lang).decode("utf-8"))
    memory.add(added)
    gains = _gains(library, lang, memory, set(added))
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "lang": lang,
                "dry_run": args.dry_run,
                "file": args.file,
                "memory": str(target),
                "imported": len(added),
                "known": len(content.units) - len(added),
                "stored": len(merged),
                **{k: v for k, v in content.to_dict().items() if k in ("refused", "skipped")},
                "cards": [g.to_dict() for g in gains],
                "summary": {
                    "imported": len(added),
                    "refused": len(content.refused),
                    "cards": len(gains),
                    "exact": sum(g.exact for g in gains),
                    "fuzzy": sum(g.fuzzy for g in gains),
                },
            },
            out,
        )
    else:
        _write_import(args, content, target, len(added), len(merged), gains, lang, out)
    return EXIT_FINDINGS if content.refused else EXIT_OK


def _library_root(library: Library) -> Path:
    """The one folder holding the library's decks, where its memory is kept."""
    from ..workflow.memory import library_roots  # noqa: PLC0415

    roots = library_roots(library)  # api.load_library refuses a library without decks
    if len(roots) == 1:
        return roots[0]
    raise UsageError(
        f"the decks are in {len(roots)} folders ({', '.join(map(str, roots))}): "
        "give --library with the one whose memory this is"
    )


def _check_inside(target: Path, root: Path) -> None:
    """The memory file is written inside the library, links followed: a ``memory``
    link leading elsewhere is refused."""
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(target))
    if not real.is_relative_to(real_root):
        raise InputError(
            str(target),
            f"leads out of the library (to {real}): nothing is written there; "
            "make it a plain folder and file",
        )


def _gains(library: Library, lang: str, memory: Memory, added: set[Unit]) -> list[Gain]:
    """For each card of the library to translate (a draft or no translation), how many
    of its texts the imported units match exactly, or as the best suggestions."""
    from ..workflow.memory import FUZZY_CUTOFF  # noqa: PLC0415

    gains = []
    for (deck, slug), card in sorted(library.cards.items()):
        version = card.translations.get(lang)
        if card.source is None or (version is not None and not version.fields.get("wip")):
            continue
        texts = card_texts(card, lang, memory, FUZZY_CUTOFF, 3)
        exact = sum(1 for t in texts if t.exact is not None and t.exact.unit in added)
        fuzzy = sum(1 for t in texts if t.exact is None and any(m.unit in added for m in t.fuzzy))
        if exact or fuzzy:
            gains.append(
                Gain(f"{deck}/{slug}", "missing" if version is None else "draft", exact, fuzzy)
            )
    return gains


def _write_import(
    args: argparse.Namespace,
    content: TmxContent,
    target: Path,
    added: int,
    stored: int,
    gains: list[Gain],
    lang: str,
    out: TextIO,
) -> None:
    """What ``import tmx`` did, for a person."""
    for refusal in content.refused:
        print(f"translator: refused {refusal}", file=sys.stderr)
    verb = "would add" if args.dry_run else "added"
    known = len(content.units) - added
    skipped = [
        (content.other_language, "of another language"),
        (content.untranslated, "untranslated"),
        (content.inline, "with inline codes"),
        (content.duplicates, "repeated"),
    ]
    left = ", ".join(f"{count} {why}" for count, why in skipped if count)
    out.write(
        f"{verb} {plural(added, 'unit')} to {target} ({stored} "
        f"in all); {known} already there, {len(content.refused)} refused"
        f"{', skipped: ' + left if left else ''}\n"
    )
    if not gains:
        out.write(f"nothing new for the cards to translate into {lang}\n")
        return
    exact, fuzzy = sum(g.exact for g in gains), sum(g.fuzzy for g in gains)
    out.write(
        f"for the cards to translate into {lang}: {plural(exact, 'text')} now with an exact "
        f"match, {fuzzy} with a suggestion, in {plural(len(gains), 'card')}:\n"
    )
    for gain in gains:
        out.write(f"  {gain.card} ({gain.state}): {gain.exact} exact, {gain.fuzzy} fuzzy\n")
    paths = [p for p in args.library or [] if p != "cards"]
    where_ = "".join(f" {p}" for p in paths)
    out.write(f"see them: translator suggest {gains[0].card}{where_} --lang {lang}\n")


# --------------------------------------------------------------------------------------
# the commands


class _Intermixed(Parser):
    """A parser whose positionals may come after options (``suggest CARD --lang fr
    PATH``, the order people write): argparse's intermixed parsing, for one command."""

    _mixing = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._mixing:  # the passes of the intermixed parse itself
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


def register(commands: argparse._SubParsersAction) -> None:
    """``translator suggest``."""
    p = commands.add_parser(
        "suggest",
        help="what the translation memory offers one card",
        **command_help(
            "For each text of one card, in reading order (name lines, subtype, each "
            "paragraph, and each sentence of a paragraph the memory does not hold whole, "
            "the footer of its own): the exact translation the library already has, or the "
            "most similar ones (--min percent or more), each with the card or TMX file it "
            "comes from and how its English differs, word by word.  The card's own "
            "translation is not suggested.  Exit 0: something found; 1: nothing.",
            "translator suggest second/herald --lang fr cards --min 80 --limit 2",
        ),
    )
    p.__class__ = _Intermixed  # the subcommands' parser class is the group's
    p.add_argument("card", metavar="CARD", help="a slug, deck/slug, guid or card file")
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument(
        "--min",
        type=float,
        default=75.0,
        metavar="PERCENT",
        help="the lowest similarity suggested (default: 75)",
    )
    p.add_argument(
        "--limit", type=int, default=3, metavar="N", help="suggestions per text (default: 3)"
    )
    add_format(p)
    p.set_defaults(run=cmd_suggest)


def register_export(sub: argparse._SubParsersAction) -> None:
    """``translator export tmx`` (called by :mod:`.exchange`, which owns ``export``)."""
    p = sub.add_parser(
        "tmx",
        help="the translation memory as TMX (Weblate, OmegaT)",
        **command_help(
            "Write the library's translation memory of one language as a TMX 1.4 file: one "
            "unit per English text a translated card offers (name lines, subtype, footer, "
            "paragraphs, sentences) with its best translation (reviewed over translated over "
            "imported), its kind, card and state as x- properties; drafts and stale parts "
            "are left out.  Weblate and OmegaT import it as a translation memory.",
            "translator export tmx cards --lang fr -o memory.fr.tmx",
        ),
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="library or deck (default: cards)")
    p.add_argument("--lang", required=True)
    p.add_argument("-o", "--output", metavar="FILE.tmx", help="default: standard output")
    add_format(p)
    p.set_defaults(run=cmd_export_tmx)


def register_import(sub: argparse._SubParsersAction) -> None:
    """``translator import tmx`` (called by :mod:`.exchange`, which owns ``import``)."""
    p = sub.add_parser(
        "tmx",
        help="a translation memory (TMX) into the library's",
        **command_help(
            "Add the units of a TMX file (Weblate's, OmegaT's, 'translator export tmx') to "
            "the library's memory of one language, kept in LIBRARY/memory/LANG.tmx: from "
            "then on 'translate', 'suggest' and the PO export use them (after the library's "
            "own translations).  Units of other languages are skipped; translations with "
            "control characters or card markup errors are refused and listed (exit 1).  "
            "Then says which cards to translate the file helps.",
            "translator import tmx weblate-fr.tmx --lang fr --library cards",
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--lang", required=True, help="the translation's language in the file")
    p.add_argument(
        "--library", action="append", metavar="PATH", help="the card library (default: cards)"
    )
    p.add_argument("--dry-run", action="store_true", help="report, write nothing")
    add_format(p)
    p.set_defaults(run=cmd_import_tmx)
