"""TR rules: a translation says what its English card says.

Numbers with their signs (TR1), symbols and drop caps (TR2), the paragraph structure
(TR3), name lines, subtypes and abilities (TR4), English left over (TR5), staleness
(TR6) and the footer line (TR7).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator

from ...cards.model import DEFAULT_FOOTERS, SOURCE_LANGUAGE, changed_fields, is_default_footer
from ...diagnostics import Severity
from ...glossary.matcher import normalize, words
from ...markup.tree import SYMBOL_CODES, DropCap, Symbol, Text
from ...untrusted import invisible_difference, spacing_key
from ..context import Subject
from ..model import SYMBOL_MARK, Edit, Finding, PlainParagraph
from ..numbers import Number, compare, read_numbers
from ..rule import rule

# --------------------------------------------------------------------------------------
# Helpers shared by the rules of this module (and the glossary rules).


def aligned(subject: Subject, index: int) -> int | None:
    """The translation's paragraph matching source paragraph ``index``, if the two texts
    have the same number of paragraphs (otherwise TR301 says so)."""
    assert subject.source is not None
    if len(subject.source.plain.paragraphs) == len(subject.plain.paragraphs):
        return index
    return None


_LOOSE = str.maketrans(
    {"’": "'", "\u00a0": " ", "\u202f": " ", "\u2212": "-", "\u2013": "-", SYMBOL_MARK: " "}
)
_SPACES = re.compile(r"\s+")
_QUOTE_SPACES = re.compile(r" (?=[;:!?»])|(?<=«) ")


@functools.lru_cache(maxsize=8192)
def loose(text: str) -> str:
    """Text compared for meaning, not typography: case, quotes, spaces, final stop.
    (Remembered: the same reminders and sentences are compared on many cards.)"""
    text = unicodedata.normalize("NFC", text).casefold().translate(_LOOSE)
    text = _SPACES.sub(" ", text)
    text = _QUOTE_SPACES.sub("", text)
    return text.strip().rstrip(".").strip()


def _number_pairs(subject: Subject) -> Iterator[tuple[int | None, list[Number], list[Number]]]:
    """(translation paragraph index or None, source numbers, translation numbers):
    paragraph by paragraph when the structure matches, else of the whole texts."""
    assert subject.source is not None
    english = subject.resources.english.numbers
    phrases = subject.resources.english.phrases
    numbers = subject.language.numbers
    source = subject.source.plain.paragraphs
    target = subject.plain.paragraphs
    memo = subject.source.memo
    if len(source) == len(target):
        english_numbers = memo(
            "numbers", lambda: [read_numbers(p.text, english, p.tokens, phrases) for p in source]
        )
        for found, t in zip(english_numbers, target, strict=True):
            yield t.index, found, read_numbers(t.text, numbers, t.tokens)
    else:
        yield (
            None,
            memo(
                "numbers of the text",
                lambda: read_numbers("\n".join(p.text for p in source), english, phrases=phrases),
            ),
            read_numbers("\n".join(p.text for p in target), numbers),
        )


def _number_findings(subject: Subject) -> Iterator[Finding]:
    assert subject.source is not None
    for index, source_numbers, target_numbers in _number_pairs(subject):
        result = compare(source_numbers, target_numbers)
        where = "" if index is None else " in this paragraph"

        def at(start: int | None, code: str, message: str, index: int | None = index) -> Finding:
            if index is None or start is None:
                return subject.report_paragraph(code, index, message)
            return subject.report_span(code, index, start, message)

        if result.missing_stats or result.extra_stats:
            missing = ", ".join(result.missing_stats) or "nothing"
            extra = ", ".join(n.value for n in result.extra_stats) or "nothing"
            first = result.extra_stats[0].start if result.extra_stats else None
            yield at(
                first,
                "TR101",
                f"stat modifiers differ{where}: the English has "
                f"{missing} where the translation has {extra}",
            )
        if result.stat_order:
            english_order, target_order = result.stat_order
            yield at(
                None,
                "TR102",
                f"stat modifiers in another order{where}: "
                f"{' '.join(english_order)} in English, {' '.join(target_order)} here",
            )
        if result.missing_numbers:
            yield at(
                None,
                "TR103",
                f"number{'s' if len(result.missing_numbers) > 1 else ''} "
                f"{', '.join(result.missing_numbers)} of the English text missing{where}",
            )
        for number in result.extra_numbers:
            yield at(
                number.start,
                "TR104",
                f"'{number.value}' is not in the English text"
                + ("" if index is None else " of this paragraph"),
            )


# --------------------------------------------------------------------------------------
# TR1: numbers.


def _numbers(subject: Subject, code: str) -> Iterator[Finding]:
    """The findings of one TR1 rule; the four share one comparison per subject."""
    if not subject.is_translation:
        return
    yield from subject.shared("TR1", code, lambda: _number_findings(subject))


@rule(
    "TR101",
    "stat-modifier",
    Severity.ERROR,
    "A stat modifier of the English text (`+1/+1`, `-x/+0`) is missing or changed.",
    "Signs and order are the meaning of a stat modifier: `+1/+1` is a blessing, `-1/-1` "
    "a curse, and `+2/+0` is not `+0/+2`.  Translation tools compare digits without "
    "their signs and let such slips through.  Every modifier of the English text must "
    "be in the translation as written (a typographic minus counts as a minus).",
    "EN: Target creature gets -1/-1.\nFR: La créature ciblée reçoit +1/+1.",
    "EN: Target creature gets -1/-1.\nFR: La créature ciblée reçoit -1/-1.",
)
def check_stat_modifiers(subject: Subject) -> Iterator[Finding]:
    return _numbers(subject, "TR101")


@rule(
    "TR102",
    "stat-order",
    Severity.WARNING,
    "The stat modifiers are all there, but in another order.",
    "When a text gives several modifiers (`+1/+0`, then `+0/+1`), their order follows "
    "the order of the effects; swapping them swaps the effects.",
    "EN: I get +1/+0, then +0/+1.\nFR: Je reçois +0/+1, puis +1/+0.",
    "EN: I get +1/+0, then +0/+1.\nFR: Je reçois +1/+0, puis +0/+1.",
)
def check_stat_order(subject: Subject) -> Iterator[Finding]:
    return _numbers(subject, "TR102")


@rule(
    "TR103",
    "missing-number",
    Severity.ERROR,
    "A number of the English text (digits, a number word or X) is not in the translation.",
    "Costs, damage, card counts and the variable X must survive translation.  A number "
    "word counts as its number in every language ('two cards' matches 'deux cartes' and "
    "'du kartojn', not 'trois cartes'); a sign is part of the number (+2 is not 2).",
    "EN: Draw two cards.\nFR: Pioche trois cartes.",
    "EN: Draw two cards.\nFR: Pioche deux cartes.",
)
def check_missing_numbers(subject: Subject) -> Iterator[Finding]:
    return _numbers(subject, "TR103")


@rule(
    "TR104",
    "extra-number",
    Severity.WARNING,
    "Digits in the translation that the English text does not have.",
    "A number that appears only in the translation is usually a typo or a value "
    "carried over from another card.  Number words are not reported (French 'un', "
    "'une' are also articles).",
    "EN: Deal 2 damage.\nFR: Inflige 3 dégâts.",
    "EN: Deal 2 damage.\nFR: Inflige 2 dégâts.",
)
def check_extra_numbers(subject: Subject) -> Iterator[Finding]:
    return _numbers(subject, "TR104")


# --------------------------------------------------------------------------------------
# TR2: symbols and drop caps.


def _symbols(subject: Subject, source: bool) -> list[Symbol]:
    """The symbols of a text; a drop cap that is a symbol code in the wrong case
    (`:G2:`, not the letter `:M:`) counts as that symbol, since MK102 reports it."""
    result = subject.source.result if source and subject.source else subject.result
    found = []
    for paragraph in result.document.paragraphs:
        for node in paragraph.children:
            if isinstance(node, Symbol):
                found.append(node)
            elif (
                isinstance(node, DropCap)
                and len(node.letter) > 1
                and node.letter.lower() in SYMBOL_CODES
                and not node.letter.islower()
            ):
                found.append(Symbol(node.letter.lower(), node.pos))
    return found


@rule(
    "TR201",
    "symbols",
    Severity.ERROR,
    "The translation does not have the same cypher and mark symbols as the English text.",
    "Symbols (`:g2:` cypher discs, `:m:` marks, ...) are game information, like numbers: "
    "none may be lost, added or changed in translation.",
    "EN: :m: Pay :g2: to draw a card.\nFR: :m: Paye :g3: pour piocher une carte.",
    "EN: :m: Pay :g2: to draw a card.\nFR: :m: Paye :g2: pour piocher une carte.",
)
def check_symbols(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = [s.code for s in _symbols(subject, True)]
    target = _symbols(subject, False)
    wanted, have = Counter(english), Counter(s.code for s in target)
    if wanted == have:
        return
    missing = ", ".join(f":{c}:" for c in (wanted - have).elements())
    extra_codes = have - wanted
    extra = [s for s in target if extra_codes[s.code] > 0]
    unexpected = ", ".join(f":{c}:" for c in extra_codes.elements())
    message = (
        f"symbols differ from the English text: missing {missing or 'none'}, "
        f"not in the English {unexpected or 'none'}"
    )
    offset = extra[0].pos.offset if extra else None
    if offset is None:
        yield subject.report_paragraph("TR201", None, message)
    else:
        yield subject.report("TR201", "text", offset, message)


@rule(
    "TR202",
    "symbol-order",
    Severity.WARNING,
    "The symbols are the same as in English, but in another order.",
    "The order of symbols is part of their meaning (a cost before an effect, the marks "
    "of successive abilities).",
    "EN: :g1: then :g2:\nFR: :g2: puis :g1:",
    "EN: :g1: then :g2:\nFR: :g1: puis :g2:",
)
def check_symbol_order(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = [s.code for s in _symbols(subject, True)]
    target = _symbols(subject, False)
    codes = [s.code for s in target]
    if Counter(english) != Counter(codes) or english == codes:
        return
    first = next(i for i, (a, b) in enumerate(zip(english, codes, strict=True)) if a != b)
    yield subject.report(
        "TR202",
        "text",
        target[first].pos.offset,
        f"symbols in another order: {' '.join(english)} in English, {' '.join(codes)} here",
    )


@rule(
    "TR203",
    "drop-cap",
    Severity.WARNING,
    "The English text opens with a drop cap and the translation has none, or not on "
    "the first letter of its first word.",
    "A drop cap (`:W:hen`) is part of the card's layout; the translation keeps it, on "
    "its own first letter: the first letter of the paragraph's first word "
    "(`:Q:uand`), not the English letter kept before the translated word (`:W:Quand`) "
    "nor a letter further in the text.",
    "EN: :W:hen I die, draw a card.\nFR: Quand je meurs, pioche une carte.",
    "EN: :W:hen I die, draw a card.\nFR: :Q:uand je meurs, pioche une carte.",
)
def check_drop_cap(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None

    def caps(document_paragraphs: list[PlainParagraph]) -> list[int]:
        return [
            p.index
            for p in document_paragraphs
            if any(isinstance(n, DropCap) for n in p.paragraph.children)
        ]

    english = caps(subject.source.plain.paragraphs)
    if english and not caps(subject.plain.paragraphs):
        index = aligned(subject, english[0])
        yield subject.report_paragraph(
            "TR203", index, "the English text has a drop cap; this one has none"
        )
        return
    for paragraph in subject.plain.paragraphs:
        yield from _misplaced_drop_cap(subject, paragraph)


def _misplaced_drop_cap(subject: Subject, paragraph: PlainParagraph) -> Iterator[Finding]:
    """A drop cap that is not the first letter of the paragraph's first word: one left
    after the text (``Quand :J:e``), or the English letter kept before the translated
    word (``:W:Quand``)."""
    for position, (start, node) in enumerate(paragraph.runs):
        if not isinstance(node, DropCap) or len(node.letter) != 1 or not node.letter.isalpha():
            continue  # ':G2:' and the like: the markup rules say what they print
        before = paragraph.text[:start].strip(" \u00a0\u202f*_")
        after = paragraph.text[start + len(node.letter) :]
        if position > 0 and before:
            yield subject.report_span(
                "TR203",
                paragraph.index,
                start,
                f"the drop cap '{node.letter}' is not at the start of "
                "its paragraph: it must be the first letter of the "
                "first word",
            )
        elif after[:1].isupper():
            word = re.match(r"\w+", after)
            shown = word.group() if word else after[:1]
            yield subject.report_span(
                "TR203",
                paragraph.index,
                start,
                f"the drop cap '{node.letter}' is not the first letter of '{shown}': "
                f"write ':{shown[0]}:{shown[1:]}'",
            )


# --------------------------------------------------------------------------------------
# TR3: structure.


@rule(
    "TR301",
    "paragraphs",
    Severity.WARNING,
    "Not the same number of rule paragraphs as the English text.",
    "Each paragraph of rule text is an ability or an effect; a merged or split paragraph "
    "usually means a lost or duplicated rule, and it moves the layout (marks and drop "
    "caps belong to paragraphs).",
    "EN: ***Flying***\\\n*I can only be blocked by flying creatures.*\n\nDraw a card.\n"
    "FR: ***Vol***\\\n*Je ne peux être bloqué que par des créatures volantes.* Pioche une "
    "carte.",
    "EN: (as above)\nFR: ***Vol***\\\n*Je ne peux être bloqué que par des créatures "
    "volantes.*\n\nPioche une carte.",
)
def check_paragraphs(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    source, target = subject.source.plain, subject.plain
    english, here = len(source.rules), len(target.rules)
    if bool(source.flavor) != bool(target.flavor) and len(source.paragraphs) == len(
        target.paragraphs
    ):
        return  # flavour text in the wrong quotes, read as rule text: TR302 says so
    if english != here and (english or here):
        yield subject.report_paragraph(
            "TR301",
            None,
            f"{here} rule paragraph{'s' if here != 1 else ''} here, {english} in English",
        )


@rule(
    "TR302",
    "flavour",
    Severity.WARNING,
    "The English text has flavour text and the translation has none, or the reverse, "
    "or not as many flavour paragraphs.",
    'Flavour text is the last italic paragraph opening with a quote (`"` in English, '
    "`«` in French and Esperanto).  A translation that drops it loses it.  (Flavour "
    "text in another quotation mark, which Aminduna files as rule text, is the "
    "language's quote rule's: FR202, EO.)",
    'EN: Draw one card.\n\n*"Steel does not hesitate."*\nFR: Pioche une carte.',
    'EN: Draw one card.\n\n*"Steel does not hesitate."*\nFR: Pioche une carte.\n\n'
    "*« L’acier n’hésite pas. »*",
)
def check_flavour(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    english = bool(subject.source.plain.flavor)
    here = bool(subject.plain.flavor)
    if english and not here and _quoted_otherwise(subject):
        return  # flavour text in other quotation marks: the language's quote rule says so
    if english and not here:
        opening = "«" if subject.lang in ("fr", "eo") else '"'
        yield subject.report_paragraph(
            "TR302",
            len(subject.plain.paragraphs) - 1 if subject.plain.paragraphs else None,
            f"the English card has flavour text; here there is none (flavour text is an "
            f"italic paragraph opening with {opening})",
        )
    elif here and not english:
        yield subject.report_paragraph(
            "TR302", subject.plain.flavor_start, "flavour text that the English card does not have"
        )
    elif english and here:
        wanted, have = len(subject.source.plain.flavor), len(subject.plain.flavor)
        if have > wanted:
            yield subject.report_paragraph(
                "TR302",
                subject.plain.flavor_start + wanted,
                f"{have} flavour paragraphs here, {wanted} in English: a flavour quote "
                "is repeated or added",
            )
        elif have < wanted:
            yield subject.report_paragraph(
                "TR302",
                subject.plain.flavor_start + have - 1,
                f"{have} flavour paragraph{'s' if have > 1 else ''} here, {wanted} in "
                "English: part of the flavour text is lost",
            )


def _quoted_otherwise(subject: Subject) -> bool:
    """Does the translation's last paragraph open, in italics, with another quotation
    mark than its language's (flavour text Aminduna will not recognise)?"""
    paragraphs = subject.plain.paragraphs
    if not paragraphs:
        return False
    first = paragraphs[-1].paragraph.children[0]
    return isinstance(first, Text) and first.italic and first.text.lstrip()[:1] in "\"“”„'‘"


@rule(
    "TR303",
    "line-breaks",
    Severity.WARNING,
    "A paragraph has not the same number of line breaks (`\\`) as in English.",
    "An ability is written as its name, a line break, and its reminder: "
    "`***Name***\\` then `*reminder*`.  A line break lost (or added) inside bold or "
    "italics moves the reminder onto the name's line.",
    "EN: ***Overrun***\\\n*The surplus ...*\nFR: ***Débordement*** *Le surplus ...*",
    "EN: ***Overrun***\\\n*The surplus ...*\nFR: ***Débordement***\\\n*Le surplus ...*",
)
def check_line_breaks(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    source, target = subject.source.plain.paragraphs, subject.plain.paragraphs
    if len(source) != len(target):
        return
    for english, here in zip(source, target, strict=True):
        if english.line_breaks != here.line_breaks + _inline_ability(english, here):
            yield subject.report_paragraph(
                "TR303",
                here.index,
                f"{here.line_breaks} line break"
                f"{'s' if here.line_breaks != 1 else ''} in this paragraph, "
                f"{english.line_breaks} in English",
            )


def _inline_ability(english: PlainParagraph, here: PlainParagraph) -> int:
    """1 when ``here`` writes on one line (``***Nom -*** *rappel*``, the French guide's
    own style) the ability that ``english`` writes as a name, a line break and its
    reminder: the line break the English has is then not missing."""
    if (
        english.line_breaks != here.line_breaks + 1
        or here.first_bold() is None
        or english.first_bold() is None
    ):
        return 0
    start = here.reminder_start()
    if start is None or "\n" in here.text[:start]:
        return 0
    return 1


# --------------------------------------------------------------------------------------
# TR4: name lines, subtype, abilities.


@rule(
    "TR401",
    "untranslated-field",
    Severity.ERROR,
    "A field of the English card (second name line, subtype, text) has no translation, "
    "or a draft still holds it in English: the English one would be printed.",
    "A translation inherits what it does not hold, so a missing `name2`, `subtype` or "
    "text prints the English words on the translated card.  A draft (`wip: true`, as "
    "`translator translate` writes it) keeps in English what the glossary could not "
    "fill: each name line, subtype and paragraph still in English is reported until it "
    "is translated.",
    "EN: name2: of Saltmere\nFR: (no name2)",
    "EN: name2: of Saltmere\nFR: name2: de Salmère",
)
def check_untranslated_field(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    for key, what in (("name2", "second name line"), ("subtype", "subtype")):
        english = subject.source_value(key)
        if english and not subject.value(key):
            yield subject.report(
                "TR401",
                key,
                0,
                f"no {what}: the English '{english}' would be printed (add '{key}: ...')",
            )
    if subject.source_value("text").strip() and not subject.value("text").strip():
        yield subject.report("TR401", "text", 0, "no card text: the English text would be printed")
    fields, paragraphs = draft_english(subject)
    labels = {"name": "name", "name2": "second name line", "subtype": "subtype"}
    for key in fields:
        yield subject.report(
            "TR401", key, 0, f"draft: the {labels[key]} is still the English '{subject.value(key)}'"
        )
    for index in paragraphs:
        yield subject.report_paragraph(
            "TR401", index, f"draft: paragraph {index + 1} is still in English"
        )


def draft_english(subject: Subject) -> tuple[list[str], list[int]]:
    """What a draft (``wip: true``) still holds in English: name lines and subtype equal
    to the English ones, and paragraphs with English words or equal to their English
    paragraph.  Nothing for a translation that is not a draft."""
    found = subject.cache.get("draft-english")
    if found is None:
        found = subject.cache["draft-english"] = _draft_english(subject)
    return found


#: What is still reported in a draft's English paragraphs: that they are English, and
#: what breaks whatever the language (markup, symbols, structure, staleness).  Style,
#: spelling, numbers and glossary rules have nothing to say about English there.
DRAFT_REPORTS = ("TR401", "TR2", "TR3", "TR6", "TR7", "MK", "LN")


def draft_lines(subject: Subject) -> list[tuple[int, int]]:
    """The file lines (first, last) of a draft's paragraphs still in English."""
    paragraphs = subject.plain.paragraphs
    found = []
    for index in draft_english(subject)[1]:
        node = paragraphs[index].paragraph
        first = subject.locator(subject.file, "text", node.pos.offset)[1]
        last = subject.locator(subject.file, "text", max(node.pos.end - 1, node.pos.offset))[1]
        found.append((first, last))
    return found


def _draft_english(subject: Subject) -> tuple[list[str], list[int]]:
    if not subject.file.fields.get("wip") or not subject.is_translation:
        return [], []
    assert subject.source is not None
    fields = []
    for key in ("name", "name2", "subtype"):
        here = subject.value(key)
        if not here or here != subject.source_value(key):
            continue
        if key == "subtype" and subject.language.subtype(here) is not None:
            continue
        if key != "subtype" and _allowed(subject, [w for w, _, _ in words(here)], names=False):
            continue
        fields.append(key)
    source = subject.source.plain.paragraphs
    paragraphs = []
    for paragraph in subject.plain.paragraphs:
        english = source[paragraph.index] if paragraph.index < len(source) else None
        if _english_runs(subject, paragraph) or (
            english is not None
            and any(c.isalpha() for c in paragraph.text)
            and loose(english.text) == loose(paragraph.text)
            and not _allowed(subject, [w for w, _, _ in paragraph.tokens], False)
        ):
            paragraphs.append(paragraph.index)
    return fields, paragraphs


@rule(
    "TR402",
    "subtype",
    Severity.WARNING,
    "The subtype is not the glossary's rendering of the English subtype.",
    "Subtypes are game words: cards refer to them ('each Human you control'), so every "
    "card must spell them the same way.  Compound subtypes follow the language's rule "
    "(French: head noun first, comma, lower case after the first word: 'Seigneur, "
    "humain').",
    "EN: subtype: Human Lord\nFR: subtype: Seigneur Humain",
    "EN: subtype: Human Lord\nFR: subtype: Seigneur, humain",
    "Replaces the subtype by the glossary's rendering.",
)
def check_subtype(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english, here = subject.source_value("subtype"), subject.value("subtype")
    if not english or not here:
        return
    expected = subject.language.subtype(english)
    if expected is None or expected == here:
        return
    how = "capitalised differently" if expected.casefold() == here.casefold() else "different"
    yield subject.report(
        "TR402",
        "subtype",
        0,
        f"subtype '{here}' is {how} from the glossary's '{expected}' (English '{english}')",
        Edit("subtype", 0, len(here), expected),
    )


def source_abilities(subject: Subject) -> list[tuple[int, str, list[str]]]:
    """Abilities of the English text: (paragraph, ability id, parameter values).

    An ability is a paragraph opening with a bold run that starts with an ability's
    English name (`***Salvage 2***`); the words after the name are its parameters.
    """
    assert subject.source is not None
    source = subject.source
    return source.memo(("abilities", subject.lang), lambda: _abilities(subject))


def _abilities(subject: Subject) -> list[tuple[int, str, list[str]]]:
    assert subject.source is not None
    by_english = subject.language.abilities_by_english
    found = []
    for paragraph in subject.source.plain.paragraphs:
        line = paragraph.first_bold()
        ability = ability_line(line, by_english) if line else None
        if ability is not None:
            found.append((paragraph.index, *ability))
    return found


def ability_line(line: str, by_english: dict[str, str]) -> tuple[str, list[str]] | None:
    """(ability id, parameter values) of an English ability line (`Salvage 2`): the
    longest ability name it starts with, and the words after it."""
    tokens = line.split()
    for n in range(len(tokens), 0, -1):
        ability = by_english.get(normalize(" ".join(tokens[:n])))
        if ability is not None:
            return ability, tokens[n:]
    return None


def _starts_with(line: str, name: str) -> bool:
    line, name = normalize(line), normalize(name)
    return line == name or line.startswith(name + " ")


def ability_paragraph(subject: Subject, names: list[str], hint: int | None) -> int | None:
    candidates = [
        p
        for p in subject.plain.paragraphs
        if (line := p.first_bold()) and any(_starts_with(line, n) for n in names)
    ]
    if not candidates:
        return None
    if hint is not None and any(p.index == hint for p in candidates):
        return hint
    return candidates[0].index


@rule(
    "TR403",
    "ability-name",
    Severity.WARNING,
    "The English text uses an ability of the abilities list; the translation does not "
    "name it as the list does.",
    "Abilities are keywords: players look them up by name in the abilities list, so a "
    "card must use the list's name (in bold italics, followed by its parameters).",
    "EN: ***Overrun***\\\n*...*\nFR: ***Piétinement***\\\n*...*",
    "EN: ***Overrun***\\\n*...*\nFR: ***Débordement***\\\n*...*",
)
def check_ability_name(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    abilities = subject.language.glossary.abilities
    for index, ability_id, values in source_abilities(subject):
        ability = abilities[ability_id]
        names = [ability.name, *(t.text for t in ability.deprecated)]
        if ability_paragraph(subject, names, aligned(subject, index)) is None:
            named = (
                substitute(ability.template, ability.params, values)
                if ability.template
                else ability.name
            )
            english = " ".join([ability.en, *values])
            yield subject.report_paragraph(
                "TR403",
                aligned(subject, index),
                f"the English text has the ability '{english}': name it '{named}' in bold italics",
            )


def substitute(reminder: str, params: tuple[str, ...], values: list[str]) -> str:
    """An ability's template or reminder with the card's parameter values."""
    if len(params) != len(values):
        return reminder
    for param, value in zip(params, values, strict=True):
        reminder = re.sub(rf"(?<!\w){re.escape(param)}(?!\w)", value, reminder)
    return reminder


@rule(
    "TR404",
    "ability-reminder",
    Severity.WARNING,
    "An ability's reminder text differs from the abilities list, where the English card "
    "follows the English list.",
    "The reminder text under an ability name is the list's definition, with the card's "
    "parameters.  When the English card uses the English list's wording, the "
    "translation uses the translated list's wording (differences of case, apostrophes "
    "and spaces are not reported).  Where the list itself is wrong, say so with "
    "`lint-ignore` in the card and fix the list.",
    "FR: ***Sauvetage 2***\\\n*Tu peux payer 2 ressources pour revenir dans ta main.*",
    "FR: ***Sauvetage 2***\\\n*Tu peux payer 2 ressources pour me faire revenir du "
    "cimetière vers ta main.*",
)
def check_ability_reminder(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    english_list = subject.resources.english.glossary.abilities
    target_list = subject.language.glossary.abilities
    for index, ability_id, values in source_abilities(subject):
        english, target = english_list.get(ability_id), target_list[ability_id]
        source_paragraph = subject.source.plain.paragraphs[index]
        reminder = source_paragraph.after_first_break()
        if english is None or not reminder or not target.reminder:
            continue
        if loose(substitute(english.reminder, english.params, values)) != loose(reminder):
            continue  # the English card words it its own way: nothing to compare with
        found = ability_paragraph(subject, [target.name], aligned(subject, index))
        if found is None:
            continue  # TR403
        paragraph = subject.plain.paragraphs[found]
        line = paragraph.first_bold() or ""
        own_values = line.split()[len(target.name.split()) :]
        if len(own_values) != len(target.params):
            own_values = values
        expected = substitute(target.reminder, target.params, own_values)
        here = paragraph.after_first_break()
        if here and loose(here) != loose(expected):
            start = paragraph.reminder_start() or 0
            yield subject.report_span(
                "TR404",
                found,
                start,
                f"the reminder of '{target.name}' is not the list's: '{expected}'",
            )


# --------------------------------------------------------------------------------------
# TR5: English left in the translation.


@rule(
    "TR501",
    "same-as-english",
    Severity.WARNING,
    "The card text is the English text, unchanged.",
    "A text identical to its source was copied and not translated (a draft, or a file "
    "overwritten by mistake).  A text made only of the target language's glossary words "
    "(`***Boost***`) is not reported.",
    "EN: Draw a card.\nFR: Draw a card.",
    "EN: Draw a card.\nFR: Pioche une carte.",
)
def check_same_text(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation or draft_english(subject)[1]:
        return  # a draft's English paragraphs are TR401's
    here = subject.value("text").strip()
    if (
        here
        and here == subject.source_value("text").strip()
        and not _allowed(
            subject, [w for p in subject.plain.paragraphs for w, _, _ in p.tokens], False
        )
    ):
        yield subject.report_paragraph("TR501", None, "the card text is the English text")


@rule(
    "TR502",
    "same-name-as-english",
    Severity.INFO,
    "The card name (or subtype) is the English one.",
    "Card names are translated, except proper nouns.  Reported as information: a name "
    "kept on purpose can be marked with `lint-ignore: [TR502]`.  A name made of the "
    "target glossary's own words (Unique, Charge) is not reported.",
    "EN: name: Harbor Lord\nFR: name: Harbor Lord",
    "EN: name: Harbor Lord\nFR: name: Seigneur du port",
)
def check_same_name(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    for key in ("name", "name2", "subtype"):
        here = subject.value(key)
        if not here or here != subject.source_value(key) or key in draft_english(subject)[0]:
            continue  # a draft's English fields are TR401's
        if key == "subtype":
            if subject.language.subtype(here) is not None:
                continue  # TR402 compares it with the glossary's rendering
        elif _allowed(subject, [w for w, _, _ in words(here)], names=False):
            continue  # the target language's own words too (Unique, Charge, Boost)
        yield subject.report("TR502", key, 0, f"'{here}' is the English {key}")


def _allowed(subject: Subject, words_: list[str], names: bool = True) -> bool:
    """Are all these words the target language's (its glossary's words, the configured
    ``allow-english`` words, and with ``names`` the words of its card names)?"""
    vocabulary = subject.language.vocabulary
    allowed = subject.resources.allowed(subject.lang) if names else subject.resources.allowed_words
    return all(w in vocabulary or w in allowed for w in words_)


@rule(
    "TR503",
    "english-term",
    Severity.WARNING,
    "An English glossary term or ability name in the translation.",
    "Game words left in English ('army', 'Overrun') are the most common trace of an "
    "unfinished translation.  Words that are also the target language's (a term of its "
    "glossary, 'Charge', 'Boost') and card names are not reported.",
    "FR: Le surplus de damage est reporté sur la cité.",
    "FR: Le surplus de dégâts est reporté sur la cité.",
)
def check_english_terms(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    glossary = subject.language.glossary
    drafted = set(draft_english(subject)[1])  # a draft's English paragraphs are TR401's
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in drafted:
            continue
        for match in subject.language.english.find(paragraph.text, paragraph.tokens):
            if _allowed(subject, [w for w, _, _ in words(match.text)]):
                continue
            hit = match.hit
            if hit.kind == "ability":
                ability = glossary.abilities.get(hit.id)
                target = ability.name if ability else None
            else:
                entry = glossary.entries.get(hit.id)
                target = entry.preferred.text if entry and entry.preferred else None
            use = f": use '{target}'" if target else ""
            yield subject.report_span(
                "TR503",
                paragraph.index,
                match.start,
                f"English {'ability' if hit.kind == 'ability' else 'term'} "
                f"'{match.text}' left in the translation{use}",
            )


@rule(
    "TR504",
    "english-words",
    Severity.WARNING,
    "English words in the translation.",
    "Frequent English words of game text ('the', 'your', 'draw', 'when') are not French "
    "or Esperanto words: a sentence left in English, or half-translated.  The word list "
    "(glossaries/lint/en.yaml) leaves out words a target language shares; glossary "
    "words, card names and the configured `allow-english` words are never reported.",
    "FR: Quand j’entre en jeu, draw a card.",
    "FR: Quand j’entre en jeu, pioche une carte.",
)
def check_english_words(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    drafted = set(draft_english(subject)[1])  # a draft's English paragraphs are TR401's
    for paragraph in subject.plain.paragraphs:
        if paragraph.index in drafted:
            continue
        for start, end in _english_runs(subject, paragraph):
            yield subject.report_span(
                "TR504",
                paragraph.index,
                start,
                f"English left in the translation: '{paragraph.text[start:end]}'",
            )


def _english_runs(subject: Subject, paragraph: PlainParagraph) -> list[tuple[int, int]]:
    """Spans of English words in a paragraph (words two apart or closer are one run)."""
    english = subject.resources.english_words
    vocabulary = subject.language.vocabulary
    allowed = subject.resources.allowed(subject.lang)
    tokens = paragraph.tokens
    flagged = [
        i
        for i, (w, _, _) in enumerate(tokens)
        if w in english and w not in vocabulary and w not in allowed
    ]
    runs: list[list[int]] = []
    for i in flagged:
        if runs and i - runs[-1][-1] <= 2:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [(tokens[run[0]][1], tokens[run[-1]][2]) for run in runs]


# --------------------------------------------------------------------------------------
# TR6: staleness.


@rule(
    "TR601",
    "stale",
    Severity.WARNING,
    "The English card changed since this translation was made or reviewed.",
    "A translation's `source` key holds a fingerprint of the English fields it was made "
    "from (one group per field).  When the English name, subtype, text or footer "
    "changes, the fingerprint no longer matches: the translation may say something the "
    "card no longer says.  The finding names the fields that changed; after review, "
    "write the new fingerprint it gives.",
    'source: "13bd-01c1-b0f5-5f06-7423"   (the English text changed since)',
    'source: "13bd-01c1-77aa-5f06-7423"   (reviewed against the current English text)',
)
def check_stale(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    assert subject.source is not None
    fingerprint = subject.file.fields.get("source")
    if not isinstance(fingerprint, str) or not fingerprint:
        return
    changed = changed_fields(fingerprint, subject.source.file, subject.source.fingerprint)
    if changed == []:
        return
    what = (
        f"its {', '.join(changed)} changed"
        if changed
        else "which fields cannot be told (old fingerprint format)"
    )
    yield subject.report(
        "TR601",
        "source",
        0,
        f"the English card changed since this translation ({what}): review "
        f'it, then set source: "{subject.source.fingerprint}"',
    )


@rule(
    "TR602",
    "no-fingerprint",
    Severity.INFO,
    "The translation has no source fingerprint: nobody will know when it goes stale.",
    "Without a `source` fingerprint, a change of the English card cannot be detected.  "
    "Add the fingerprint this finding gives once the translation is checked against the "
    "current English card.",
    "(no source key)",
    'source: "13bd-01c1-b0f5-5f06-7423"',
)
def check_no_fingerprint(subject: Subject) -> Iterator[Finding]:
    if subject.is_translation and not subject.file.fields.get("source"):
        assert subject.source is not None
        yield subject.report(
            "TR602",
            "source",
            0,
            f'no source fingerprint: after review, add source: "{subject.source.fingerprint}"',
        )


# --------------------------------------------------------------------------------------
# TR7: footer.


def expected_footer(subject: Subject) -> tuple[str, list[str]]:
    """The language's footer line, and its deprecated spellings (from the glossary)."""
    found = subject.language.cache.get("footer")
    if found is None:
        found = subject.language.cache["footer"] = _footer(subject)
    return found


def _footer(subject: Subject) -> tuple[str, list[str]]:
    return subject.language.glossary.footer(DEFAULT_FOOTERS[SOURCE_LANGUAGE])


@rule(
    "TR701",
    "footer",
    Severity.WARNING,
    "The footer line is not the language's.",
    "Every card prints a footer line under its text; each language has its own, set by "
    "the community (French: 'arcmage.org - un jeu de carte libre - rejoignez-nous\u00a0!', "
    "with the no-break space the French typography wants before « ! »; Esperanto: "
    "'arcmage.org - aligu nin!').  A translation leaves `info` out to get it, or writes "
    "it.  The footers are compared with the language's typography applied: the kind of "
    "space (plain, no-break, narrow) is the typography rules' matter (FR201), not a "
    "different footer; when two footers differ only in characters that look alike, "
    "the message names them (U+0020 SPACE where it should be U+00A0 NO-BREAK SPACE).",
    "EO: info: arcmage.org - aligi nin!",
    "EO: info: arcmage.org - aligu nin!   (or no info key)",
    "Replaces the footer by the language's.",
)
def check_footer(subject: Subject) -> Iterator[Finding]:
    if not subject.is_translation:
        return
    english = subject.source_value("info")
    here = subject.value("info")
    expected, deprecated = expected_footer(subject)
    if english and not is_default_footer(english, SOURCE_LANGUAGE):
        if not here:
            yield subject.report(
                "TR701",
                "info",
                0,
                f"the English card has its own footer "
                f"line '{english}': translate it (add 'info: ...')",
            )
        return
    if not here or spacing_key(here) == spacing_key(expected):
        return
    why = "a deprecated spelling of" if here in deprecated else "not"
    hint = invisible_difference(here, expected)
    yield subject.report(
        "TR701",
        "info",
        0,
        f"footer '{here}' is {why} the {subject.lang} "
        f"footer '{expected}'" + (f" ({hint})" if hint else ""),
        Edit("info", 0, len(here), expected),
    )
