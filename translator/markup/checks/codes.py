"""MK1 rules: codes, drop caps and symbols (what a pair of colons prints)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from markdown_it.token import Token

from ...diagnostics import Applicability, Diagnostic, Fix, Severity
from ..parser import ParsedParagraph, ParseResult
from ..tree import BREAK_CODE, EMPTY_PARAGRAPH_CODE, DropCap, LineBreak, Symbol, Text
from .common import KNOWN_CODES, MARKUP_RULES, Reporter, node_text, paragraph_printed, preview

#: The family of this module's rules (MK1).
FAMILY = MARKUP_RULES.part("MK1")


_CODE_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9]{0,3}")


def _code_tokens(result: ParseResult) -> Iterator[tuple[ParsedParagraph, Token]]:
    for paragraph in result.paragraphs:
        for token, printed in paragraph_printed(paragraph):
            if printed and token.type == "arc_code":
                yield paragraph, token


def _classify_code(name: str, next_char: str = " ") -> str:
    """How a printed ``:name:`` reads: ``known`` code, proper drop cap ``letter``,
    known code in the wrong ``case``, drop-cap-like ``letters``, typo'd ``code``, or
    ``other`` text that just happens to sit between two colons.

    ``next_char`` (what follows the closing colon) decides between a wrong-case
    code and a multi-letter drop cap: ``:Mi:ne`` is a drop cap, ``:Mi: x`` a code.
    """
    if name in KNOWN_CODES:
        return "known"
    if len(name) == 1 and "A" <= name <= "Z":
        return "letter"
    starts_word = next_char.isalpha()
    if name.lower() in KNOWN_CODES and not starts_word:
        return "case"
    return _classify_unknown(name, starts_word)


def _classify_unknown(name: str, starts_word: bool) -> str:
    """How a name that is no code (in any case) reads: a few letters are a drop cap
    (``letters``) unless, standing apart from the next word, they look like a known
    code mistyped (``code``); longer names shaped like a code are a typo'd ``code``,
    anything else ``other`` text."""
    if name.isalpha() and len(name) <= 3:
        if not starts_word and len(name) > 1 and _did_you_mean(name):
            return "code"
        return "letters"
    if _CODE_LIKE.fullmatch(name):
        return "code"
    return "other"


def _next_char(paragraph: ParsedParagraph, token: Token) -> str:
    end = token.meta["end"]
    text = paragraph.inline.text
    return text[end] if end < len(text) else " "


@FAMILY.rule(
    code="MK101",
    name="colon-pair",
    severity=Severity.ERROR,
    summary="Two colons in running text pair up into a drop cap.",
    rationale="A `:` followed, later in the paragraph, by another `:` is read as a code; when "
    "the text between them is not a known code, Aminduna prints it as a drop cap: "
    '`At 10:30 and 11:45` prints a huge "30 and 11".  A colon followed by a space '
    "cannot open a code, which is why `Cost: 3` is safe.",
    bad="At 10:30 and 11:45, draw a card.",
    good="At 10 h 30 and 11 h 45, draw a card.",
)
def check_colon_pair(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        if _classify_code(name, _next_char(paragraph, token)) == "other":
            yield report.at_inline(
                result,
                paragraph.inline,
                token.meta["start"],
                token.meta["end"],
                f"':{preview(name)}:' prints as a drop cap "
                f'"{preview(name)}": these colons pair up',
            )


def _did_you_mean(name: str) -> str | None:
    lowered = name.lower()
    for code in sorted(KNOWN_CODES):
        if (
            len(code) == len(lowered)
            and sum(a != b for a, b in zip(code, lowered, strict=True)) == 1
        ):
            return code
        if abs(len(code) - len(lowered)) == 1:
            longer, shorter = (code, lowered) if len(code) > len(lowered) else (lowered, code)
            if any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer))):
                return code
    return None


@FAMILY.rule(
    code="MK102",
    name="unknown-code",
    severity=Severity.ERROR,
    summary="A `:code:` that is not a symbol: Aminduna prints it as a drop cap.",
    rationale="Codes are case-sensitive: `:G1:` is not the cypher disc `:g1:` but a drop cap "
    '"G1", `:Br:` is not a line break.  Any code Aminduna does not know becomes a drop '
    "cap.  Known codes: g0-g9, gx, gt, m, m0-m9, ma, mt, mx, mi, mc, mic, mis, br, pa.",
    bad="Pay :G1: to draw a card.",
    good="Pay :g1: to draw a card.",
    fix="Lower-cases a code that differs from a known one only by case.",
    applicability=Applicability.SAFE,
)
def check_unknown_code(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        kind = _classify_code(name, _next_char(paragraph, token))
        start, end = token.meta["start"], token.meta["end"]
        if kind == "case":
            source_start = result.source_offset(paragraph.inline, start)
            source_end = result.source_offset(paragraph.inline, end - 1) + 1
            yield report.at(
                result,
                source_start,
                source_end,
                f"':{name}:' is not ':{name.lower()}:' (codes are case-sensitive): "
                f'it prints as a drop cap "{name}"',
                Fix(source_start, source_end, f":{name.lower()}:"),
            )
        elif kind == "code":
            guess = _did_you_mean(name)
            hint = f" (did you mean ':{guess}:'?)" if guess else ""
            yield report.at_inline(
                result,
                paragraph.inline,
                start,
                end,
                f"':{name}:' is not a known code: it prints as a drop cap \"{name}\"{hint}",
            )


@FAMILY.rule(
    code="MK103",
    name="drop-cap-letter",
    severity=Severity.WARNING,
    summary="A drop cap that is not one capital letter.",
    rationale="A drop cap is meant to be the first letter of the paragraph, as a capital: "
    "`:W:hen`.  Aminduna prints `:w:hen` with a small w and `:Wh:en` with two letters "
    "in the drop cap, and its reverse conversion (used when cards are copied) keeps "
    "only the first letter, upper-cased, so the card changes the next time it is "
    "copied.",
    bad=":wh:en I come into play, draw a card.",
    good=":W:hen I come into play, draw a card.",
    fix="Keeps the first letter, capitalised, in the drop cap and moves the others into the text.",
    applicability=Applicability.SAFE,
)
def check_drop_cap_letter(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph, token in _code_tokens(result):
        name = token.meta["name"]
        if _classify_code(name, _next_char(paragraph, token)) != "letters" or (
            len(name) == 1 and name.isupper()
        ):
            continue
        source_start = result.source_offset(paragraph.inline, token.meta["start"])
        source_end = result.source_offset(paragraph.inline, token.meta["end"] - 1) + 1
        capital = name[0].upper() if len(name[0].upper()) == 1 else name[0]
        fixed = f":{capital}:{name[1:].lower() if name[1:].isupper() else name[1:]}"
        if len(name) > 1:
            message = f"the drop cap ':{name}:' holds {len(name)} letters; write ':{capital}:'"
        else:
            message = f"the drop cap ':{name}:' is lower case; write ':{capital}:'"
        yield report.at(
            result, source_start, source_end, message, Fix(source_start, source_end, fixed)
        )


@FAMILY.rule(
    code="MK104",
    name="misplaced-drop-cap",
    severity=Severity.WARNING,
    summary="A drop cap or large mark that does not start its paragraph.",
    rationale="The layout reserves space for a drop cap (two lines), a large mark (`:m:`, "
    "`:m0:`-`:m9:`, `:ma:`, `:mt:`, `:mx:`, `:mi:`: two lines) or a column mark (`:mc:`, "
    "`:mic:`) only at the start of a paragraph.  Elsewhere the symbol lands in the "
    "middle of a line.  Inline symbols are `:g0:`-`:g9:`, `:gx:`, `:gt:` and `:mis:`.",
    bad="Deal 1 damage. :m: Draw a card.",
    good="Deal 1 damage.\n\n:m: Draw a card.",
)
def check_misplaced_drop_cap(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph in result.paragraphs:
        for node in paragraph.node.children[1:]:
            if isinstance(node, DropCap):
                if _classify_code(node.letter) not in ("letter", "letters"):
                    continue  # MK101 or MK102 explain this one
                what = f"the drop cap ':{node.letter}:'"
            elif isinstance(node, Symbol) and node.kind in ("mark", "column"):
                what = f"the {'column' if node.kind == 'column' else 'large'} mark ':{node.code}:'"
            else:
                continue
            yield report.at(
                result,
                node.pos.offset,
                node.pos.end,
                f"{what} is not at the start of its paragraph",
            )


@FAMILY.rule(
    code="MK105",
    name="space-after-drop-cap",
    severity=Severity.WARNING,
    summary="A space between a drop cap and the rest of its word.",
    rationale="The drop cap is the first letter of the first word: a space after it prints a gap "
    'inside the word (`:C: herche` prints "C herche").',
    bad=":T: he end.",
    good=":T:he end.",
    fix="Deletes the spaces after the drop cap.",
    applicability=Applicability.SAFE,
)
def check_space_after_drop_cap(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    source = result.source
    for paragraph in result.paragraphs:
        children = paragraph.node.children
        if len(children) > 1:
            first, second = children[0], children[1]
            if not (
                isinstance(first, DropCap)
                and isinstance(second, Text)
                and second.text[:1].isspace()
                and _classify_code(first.letter) in ("letter", "letters")
            ):
                continue
            start = first.pos.end
            end = start
            while end < len(source) and source[end] in " \t":
                end += 1
            fix = Fix(start, end, "") if end > start else None
            yield report.at(
                result,
                start,
                max(end, start + 1),
                f"space after the drop cap ':{first.letter}:' prints a gap",
                fix,
            )


@FAMILY.rule(
    code="MK106",
    name="erasing-empty-paragraph",
    severity=Severity.ERROR,
    summary="`:pa:` in the middle of a paragraph erases the text before it.",
    rationale="`:pa:` (what a line holding only `\\` becomes) empties its paragraph, so that it "
    "prints as an empty line.  Anywhere but at the start of a paragraph it silently "
    "deletes everything before it in that paragraph.",
    bad="Draw a card. :pa: Discard a card.",
    good="Draw a card.\n\n\\\n\nDiscard a card.",
)
def check_erasing_pa(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for erasure in result.erasures:
        erased = "".join(node_text(n) for n in erasure.erased)
        yield report.at_inline(
            result,
            erasure.inline,
            erasure.code_start,
            erasure.code_start + 4,
            f"':pa:' erases what comes before it: \"{preview(erased)}\" is not printed",
        )


@FAMILY.rule(
    code="MK107",
    name="vanishing-space",
    severity=Severity.WARNING,
    summary="A space between two symbols, or between two styled runs, that Aminduna deletes.",
    rationale="Aminduna drops any run of text made only of spaces: the space in `:g1: :g2:` or "
    "in `__bold__ _italic_` is not printed, and the two touch.  A space next to a `*` "
    "survives (the reference protects it), and so does `@@`, which Aminduna prints as "
    "a space.",
    bad="Pay :g1: :g2:.",
    good="Pay :g1:@@:g2:.",
)
def check_vanishing_space(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    paragraphs = {id(p.inline): p for p in result.paragraphs}
    for run in result.vanished:
        tokens = paragraphs[id(run.inline)].tokens
        index = run.token_index
        if index == 0 or index == len(tokens) - 1:
            continue
        if not (_separates(tokens[index - 1]) and _separates(tokens[index + 1])):
            continue
        yield report.at_inline(
            result,
            run.inline,
            run.start,
            run.end,
            "this space is not printed: Aminduna deletes runs of spaces "
            "between two items (write @@ for a space)",
        )


def _separates(token: Token) -> bool:
    """Is this token a printed item that a space next to it would separate?"""
    if token.type == "arc_code":
        return token.meta["name"] not in (BREAK_CODE, EMPTY_PARAGRAPH_CODE)
    return token.type in ("strong_open", "strong_close", "em_open", "em_close", "text")


@FAMILY.rule(
    code="MK108",
    name="trailing-line-break",
    severity=Severity.WARNING,
    summary="A line break at the end of a paragraph prints an empty line.",
    rationale="A `\\` at the end of the last line of a paragraph breaks the line once more, which "
    "adds an empty line before the next paragraph (paragraphs already have space "
    "between them).  For a deliberate empty line, use a paragraph holding only `\\`.",
    bad="Draw a card.\\\n\nDiscard a card.",
    good="Draw a card.\n\nDiscard a card.",
    fix="Deletes the final line break.",
    applicability=Applicability.SAFE,
)
def check_trailing_break(result: ParseResult, report: Reporter) -> Iterator[Diagnostic]:
    for paragraph in result.paragraphs:
        children = paragraph.node.children
        if children and isinstance(children[-1], LineBreak):
            node = children[-1]
            yield report.at(
                result,
                node.pos.offset,
                node.pos.end,
                "this line break ends its paragraph: it prints an empty line",
                Fix(node.pos.offset, node.pos.end, ""),
            )
