"""Inline rules of the card-text dialect, as a markdown-it-py plugin.

Each rule reproduces one inline parser of the reference (Aminduna's vendored
Microsoft.Toolkit.Parsers.Markdown): at each position where one of its trigger
characters stands, the reference tries its parsers in a fixed order and takes the
first that matches; markdown-it's inline ruler does exactly that, so the rules are
registered in the reference's order.  The reference's parsers do not pair delimiters
like CommonMark: ``**`` simply runs to the next ``**``, ``:`` to the next ``:``.  That
is what makes ``At 10:30 and 11:45`` a drop cap, and it is reproduced here on
purpose.

Every token carries ``meta["start"]`` and ``meta["end"]`` (offsets in the inline
text; container tokens also ``meta["inner"]``), so that every node of the document
tree, and every diagnostic, can point at the characters the author typed.

Where the reference throws an exception (it does, on a few inputs), the rule raises
:class:`ReferenceCrash`; the caller records it and parses again with crashes
disabled, so that the rest of the card can still be checked.
"""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING, Literal

from markdown_it.ruler import Ruler
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .blocks import KNOWN_SCHEMES, MARKDOWN_WHITESPACE, ReferenceCrash

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

#: Characters at which one of the reference's inline parsers may start.
TRIGGER_CHARS = "*_[<:/.@~^`!"
#: Where the ``text`` rule must stop: the trigger characters, narrowed by the context
#: their parsers require (a ``.`` only matters after ``www``, a ``/`` next to ``r``
#: or ``u``, ``!`` before ``[``, ``~`` before ``~``, ``<`` before a letter or ``!``,
#: ``@`` inside something shaped like an e-mail address, not in the ``@@`` of the
#: space rewrite).  Stopping less often changes nothing but speed: elsewhere every
#: rule would fail.
_STOP_RE = re.compile(
    r"[*_\[:^`]|(?<=www)\.|(?<=[ru])/|/(?=[ru]/)|!(?=\[)|~(?=~)|<(?=[A-Za-z!])"
    r"|(?<=[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~])@(?=[A-Za-z0-9_-]*\.[A-Za-z0-9._-])"
)

#: Nesting depth past which the reference would exhaust its stack (it recurses once
#: per nested element; ``^^^^…x`` nests once per caret).  Cards never come close.
MAX_DEPTH = 100


def _crash(state: StateInline, offset: int, reason: str) -> bool:
    """Raise, unless this parse runs with crashes disabled (then: no match)."""
    if state.env.get("_no_crash"):
        return False
    raise ReferenceCrash(offset, reason)


def _too_deep(state: StateInline, offset: int) -> bool:
    return _crash(state, offset, f"elements nested more than {MAX_DEPTH} deep")


def _min_start(state: StateInline) -> int:
    """Where the reference's current text run starts (its ``currentParsePosition``)."""
    return state.pos - len(state.pending)


def _take_back(state: StateInline, start: int, reason: str) -> bool:
    """Give back pending text for an element that starts before the trigger char.

    The reference's URL, ``www.``, e-mail and ``r/`` parsers match text before the
    character that triggered them.  When that text belongs to the previous element,
    the reference computes a negative-length text run and throws.
    """
    minimum = _min_start(state)
    if start < minimum:
        return _crash(state, start, reason)
    back = state.pos - start
    if back:
        pending = state.pending
        state.pending = pending[: len(pending) - back]
    return True


def _push(
    state: StateInline,
    ttype: str,
    tag: str,
    nesting: Literal[-1, 0, 1],
    start: int,
    end: int,
    **meta: object,
) -> Token:
    token = state.push(ttype, tag, nesting)
    token.meta = {"start": start, "end": end, **meta}
    return token


def _children(state: StateInline, start: int, end: int, ignore_links: bool = False) -> None:
    """Parse ``[start, end)`` as the children of the element being built.

    As in the reference, only a link's own text is parsed without links: emphasis
    inside that text parses its children with links again (``ParseInlineChildren``
    defaults to ``ignoreLinks: false``).
    """
    old_max = state.posMax
    old_ignore = state.env.get("_ignore_links", False)
    state.env["_ignore_links"] = ignore_links
    state.pos = start
    state.posMax = end
    state.md.inline.tokenize(state)
    state.posMax = old_max
    state.env["_ignore_links"] = old_ignore


def _container(
    state: StateInline,
    name: str,
    tag: str,
    start: int,
    inner: int,
    inner_end: int,
    end: int,
    markup: str,
    ignore_links: bool = False,
    **meta: object,
) -> bool:
    if state.level >= MAX_DEPTH:
        return _too_deep(state, start)
    _push(state, name + "_open", tag, 1, start, inner, inner=inner, markup=markup, **meta)
    _children(state, inner, inner_end, ignore_links)
    _push(state, name + "_close", tag, -1, inner_end, end, markup=markup)
    state.pos = end
    return True


def _find(src: str, needle: str, start: int, end: int) -> int:
    """``Common.IndexOf``: -1 when the range is empty or reversed."""
    if end - start < 0:
        return -1
    return src.find(needle, start, end)


def _closing(src: str, closer: str, inner: int, max_end: int) -> int:
    """Where the closing delimiter of a span starting at ``inner`` is, or -1.

    The reference's emphasis, strike-through, ``<sup>``/``<sub>`` and ``:code:``
    parsers all take the *next* ``closer``, and reject the span when it is empty or
    starts or ends with whitespace (they never look further).
    """
    inner_end = _find(src, closer, inner, max_end)
    if (
        inner_end <= inner
        or src[inner] in MARKDOWN_WHITESPACE
        or src[inner_end - 1] in MARKDOWN_WHITESPACE
    ):
        return -1
    return inner_end


_IGNORE_CASE: dict[str, re.Pattern[str]] = {
    needle: re.compile(re.escape(needle), re.IGNORECASE | re.ASCII)
    for needle in ("</a>", "/>", "<a")
}


def _find_ignore_case(src: str, needle: str, start: int, end: int) -> int:
    """``Common.IndexOf`` with ``OrdinalIgnoreCase``, for the ASCII needles it gets."""
    if end - start < 0:
        return -1
    match = _IGNORE_CASE[needle].search(src, start, end)
    return match.start() if match else -1


# --------------------------------------------------------------------------------------
# Text.


def text(state: StateInline, silent: bool) -> bool:
    """Skip to the next character at which a reference parser could start."""
    pos = state.pos
    match = _STOP_RE.search(state.src, pos, state.posMax)
    end = match.start() if match else state.posMax
    if end == pos:
        return False
    if not silent:
        state.append_pending(state.src[pos:end])
    state.pos = end
    return True


# --------------------------------------------------------------------------------------
# Emphasis: BoldItalicTextInline, BoldTextInline, ItalicTextInline.


def bold_italic(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] not in "*_" or len(src) < 6 or start + 6 >= max_end:
        return False
    seq = src[start : start + 3]
    if seq != "***" and seq != "___":
        return False
    inner = start + 3
    inner_end = _closing(src, seq, inner, max_end)
    if inner_end < 0:
        return False
    if silent:
        return True
    if state.level >= MAX_DEPTH:
        return _too_deep(state, start)
    end = inner_end + 3
    _push(state, "strong_open", "b", 1, start, inner, inner=inner, markup=seq)
    _push(state, "em_open", "i", 1, inner, inner, inner=inner, markup="")
    _children(state, inner, inner_end)
    _push(state, "em_close", "i", -1, inner_end, inner_end, markup="")
    _push(state, "strong_close", "b", -1, inner_end, end, markup=seq)
    state.pos = end
    return True


def bold(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] not in "*_" or start >= max_end - 1:
        return False
    seq = src[start : start + 2]
    if seq != "**" and seq != "__":
        return False
    inner = start + 2
    inner_end = _closing(src, seq, inner, max_end)
    if inner_end < 0:
        return False
    if not silent:
        return _container(state, "strong", "b", start, inner, inner_end, inner_end + 2, seq)
    return True


def italic(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    char = src[start]
    if char != "*" and char != "_":
        return False
    inner = start + 1
    inner_end = _closing(src, char, inner, max_end)
    if inner_end < 0:
        return False
    if not silent:
        return _container(state, "em", "i", start, inner, inner_end, inner_end + 1, char)
    return True


# --------------------------------------------------------------------------------------
# Links: MarkdownLinkInline (Aminduna's copy), HyperlinkInline.

# Aminduna's MarkdownLinkInline.IsEmail: an unanchored, case-sensitive RFC 5322 pattern.
_EMAIL_RE = re.compile(
    r"(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|\""
    r"(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21\x23-\x5b\x5d-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"
    r"\")@(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[(?:(?:25[0-5]"
    r"|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?|[a-z0-9-]*"
    r"[a-z0-9]:(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21-\x5a\x53-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])+)"
    r"\])"
)
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]+:")
_DRIVE_RE = re.compile(r"[A-Za-z]:[/\\]")


def is_url_valid(url: str) -> bool:
    """``Common.IsUrlValid``: relative URLs and known schemes are valid.

    .NET's ``Uri.TryCreate(url, UriKind.Absolute)`` is approximated: a scheme of two
    or more characters, a drive path (``c:/``) or, as on the Linux server, a path
    starting with ``/`` make a URL absolute; a one-letter "scheme" without a slash
    (``x:y``) does not.
    """
    match = _SCHEME_RE.match(url)
    if match:
        return match.group(0)[:-1].lower() in KNOWN_SCHEMES
    return not (_DRIVE_RE.match(url) or url.startswith("/"))


def markdown_link(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "[" or state.env.get("_ignore_links") or start == max_end:
        return False
    text_open = start + 1
    text_close = _matching(state, "[]").get(start, -1)
    if not text_open <= text_close < max_end:
        return False
    pos = text_close + 1
    while pos < max_end and src[pos] in MARKDOWN_WHITESPACE:
        pos += 1
    if pos == max_end:
        return False
    if src[pos] == "(":
        link_open = pos + 1
        while link_open < max_end and src[link_open] in MARKDOWN_WHITESPACE:
            link_open += 1
        link_close = _matching(state, "()").get(pos, -1)
        if not link_open <= link_close < max_end:
            return False
        end = link_close + 1
        while link_close > link_open and src[link_close - 1] in MARKDOWN_WHITESPACE:
            link_close -= 1
        if link_open == link_close:
            return False
        last_is_quote = src[link_close - 1] == '"'
        tooltip_start = _find(src, ' "', link_open, link_close - 1)
        if tooltip_start == link_open:
            return False
        if last_is_quote and tooltip_start != -1:
            url = src[link_open:tooltip_start].rstrip(" \t\r\n")
        else:
            url = src[link_open:link_close]
        if not (_EMAIL_RE.search(url) or is_url_valid(url)):
            return False
        if not silent:
            return _container(
                state,
                "link",
                "a",
                start,
                text_open,
                text_close,
                end,
                "[",
                ignore_links=True,
                url=url,
                ref_id=None,
            )
        return True
    if src[pos] == "[":
        link_close = _find(src, "]", pos + 1, max_end)
        if link_close < 0:
            return False
        ref_id = src[pos + 1 : link_close] or src[text_open:text_close]
        if not silent:
            return _container(
                state,
                "link",
                "a",
                start,
                text_open,
                text_close,
                link_close + 1,
                "[",
                ignore_links=True,
                url=None,
                ref_id=ref_id,
            )
        return True
    return False


#: :func:`_matching`'s answers for each inline parse, by bracket pair: they live as long
#: as the parse's state (one inline text), which is all they describe.
_MATCHING: weakref.WeakKeyDictionary[StateInline, dict[str, dict[int, int]]] = (
    weakref.WeakKeyDictionary()
)


def _matching(state: StateInline, pair: str) -> dict[int, int]:
    """Where each opening bracket of the inline text is closed, nesting counted.

    The reference finds a link's closing ``]`` (and ``)``) by scanning forward and
    counting nested pairs; the answer depends only on what follows the opening
    bracket, so one pass over the text answers every scan (which the reference
    repeats at each ``[``: quadratic on ``[[[[…``).
    """
    cache = _MATCHING.get(state)
    if cache is None:
        cache = _MATCHING[state] = {}
    matching = cache.get(pair)
    if matching is None:
        opener, closer = pair[0], pair[1]
        matching = {}
        stack: list[int] = []
        for match in re.finditer(re.escape(opener) + "|" + re.escape(closer), state.src):
            if match.group() == opener:
                stack.append(match.start())
            elif stack:
                matching[stack.pop()] = match.start()
        cache[pair] = matching
    return matching


def _find_any(src: str, chars: str, start: int, end: int) -> int:
    best = -1
    for char in chars:
        i = src.find(char, start, end)
        if i >= 0 and (best < 0 or i < best):
            best = i
    return best


_URL_END_CHARS = (" ", "\t", "\r", "\n", "<")
_URL_TRAILING_PUNCT = ")}]!;.?,"


def _url_end(src: str, start: int, max_end: int) -> int:
    """``HyperlinkInline.FindUrlEnd``."""
    end = _find_any(src, "".join(_URL_END_CHARS), start, max_end)
    if end < 0:
        end = max_end
    while end - 1 > start and src[end - 1] in _URL_TRAILING_PUNCT:
        end -= 1
    return end


def _hyperlink(
    state: StateInline, silent: bool, start: int, end: int, kind: str, reason: str
) -> bool:
    if start < state.pos and not _take_back(state, start, reason):
        return False
    if not silent:
        _push(state, "hyperlink", "", 0, start, end, kind=kind, text=state.src[start:end])
    state.pos = end
    return True


def angle_link(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "<" or state.env.get("_ignore_links"):
        return False
    inner = start + 1
    pos = -1
    for scheme in KNOWN_SCHEMES:
        if max_end - inner >= len(scheme) and src[inner : inner + len(scheme)].lower() == scheme:
            pos = inner + len(scheme)
            break
    if pos < 0:
        return False
    inner_end = _find_any(src, " \t\r\n>", pos, max_end)
    if inner_end < 0 or src[inner_end] != ">" or inner_end == pos:
        return False
    return _hyperlink(state, silent, start, inner_end + 1, "angle", "")


def url(state: StateInline, silent: bool) -> bool:
    src, trip, max_end = state.src, state.pos, state.posMax
    if src[trip] != ":" or state.env.get("_ignore_links"):
        return False
    start = -1
    for scheme in KNOWN_SCHEMES:
        scheme_start = trip - len(scheme)
        if (
            scheme_start >= 0
            and scheme_start <= max_end - len(scheme)
            and src[scheme_start:trip].lower() == scheme
        ):
            start = scheme_start
            break
    if start < 0:
        return False
    if start > 0 and src[start - 1].isalpha():
        return False
    pos = trip + 3
    if pos > max_end:
        return False
    dot = src.find(".", pos, max_end)
    if dot < 0 or dot == pos:
        return False
    end = _url_end(src, dot + 1, max_end)
    return _hyperlink(state, silent, start, end, "url", "url scheme right after another element")


def _reddit_end(src: str, start: int, end: int) -> int:
    pos = start
    while pos < len(src) and pos < end:
        c = src[pos]
        if not (c.isascii() and (c.isalnum() or c in "_/")):
            return pos
        pos += 1
    return end


def reddit_link(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "/" or state.env.get("_ignore_links"):
        return False
    # "/r/name" and "/u/name"
    if start <= max_end - 4 and src[start + 1] in "ru" and src[start + 2] == "/":
        end = _reddit_end(src, start + 3, max_end)
        if end - start >= (4 if src[start + 1] == "u" else 5):
            return _hyperlink(state, silent, start, end, "reddit", "")
    # "r/name" and "u/name"
    begin = start - 1
    if begin < 0 or begin > max_end - 3 or src[begin] not in "ru":
        return False
    if begin >= 1 and (_is_letter_or_digit(src[begin - 1]) or src[begin - 1] == "/"):
        return False
    end = _reddit_end(src, begin + 2, max_end)
    if end - begin < (3 if src[begin] == "u" else 4):
        return False
    return _hyperlink(state, silent, begin, end, "reddit", "r/ or u/ right after another element")


def _is_letter_or_digit(c: str) -> bool:
    """.NET ``char.IsLetterOrDigit``: letters and decimal digits (not ``½``)."""
    return c.isalpha() or c.isdecimal()


def www_link(state: StateInline, silent: bool) -> bool:
    src, trip, max_end = state.src, state.pos, state.posMax
    if src[trip] != "." or state.env.get("_ignore_links"):
        return False
    start = trip - 3
    if start < 0 or src[start:trip] != "www":
        return False
    if start >= 1 and (_is_letter_or_digit(src[start - 1]) or src[start - 1] == "<"):
        return False
    if start >= max_end - 4:
        return False
    end = _url_end(src, start + 4, max_end)
    return _hyperlink(state, silent, start, end, "www", "www. right after another element")


_EMAIL_LOCAL = frozenset("!#$%&'*+-/=?^_`{|}~")


def _ascii_alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def email(state: StateInline, silent: bool) -> bool:
    src, trip, max_end = state.src, state.pos, state.posMax
    if src[trip] != "@" or state.env.get("_ignore_links"):
        return False
    minimum = _min_start(state)
    start = trip
    while start > minimum:
        c = src[start - 1]
        if not (_ascii_alnum(c) or c in _EMAIL_LOCAL):
            break
        start -= 1
    if start == trip:
        return False
    dot = trip + 1
    while dot < max_end and (_ascii_alnum(src[dot]) or src[dot] in "-_"):
        dot += 1
    if dot == max_end or src[dot] != ".":
        return False
    end = dot + 1
    while end < max_end and (_ascii_alnum(src[end]) or src[end] in ".-_"):
        end += 1
    if end == dot + 1:
        return False
    return _hyperlink(state, silent, start, end, "email", "")


# --------------------------------------------------------------------------------------
# Other inlines the reference parses (and Aminduna then drops).


def comment(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "<" or start >= max_end - 1 or not src.startswith("<!--", start):
        return False
    inner_end = _find(src, "-->", start + 4, max_end)
    if inner_end < 0:
        return False
    if not silent:
        _push(state, "html_comment", "", 0, start, inner_end + 3)
    state.pos = inner_end + 3
    return True


def strikethrough(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "~" or start >= max_end - 1 or src[start : start + 2] != "~~":
        return False
    inner = start + 2
    inner_end = _closing(src, "~~", inner, max_end)
    if inner_end < 0:
        return False
    if not silent:
        return _container(state, "s", "s", start, inner, inner_end, inner_end + 2, "~~")
    return True


def _html_span(state: StateInline, silent: bool, tag: str) -> bool:
    """``<sup>x</sup>`` and ``<sub>x</sub>`` (no space just inside the tags)."""
    src, start, max_end = state.src, state.pos, state.posMax
    opening = f"<{tag}>"
    if max_end - start < 5 or not src.startswith(opening, start):
        return False
    inner = start + 5
    inner_end = _closing(src, f"</{tag}>", inner, max_end)
    if inner_end < 0:
        return False
    if not silent:
        return _container(state, tag, tag, start, inner, inner_end, inner_end + 6, opening)
    return True


def superscript(state: StateInline, silent: bool) -> bool:
    """``^word``, ``^(words)`` and ``<sup>words</sup>``."""
    src, start, max_end = state.src, state.pos, state.posMax
    char = src[start]
    if char == "<":
        return _html_span(state, silent, "sup")
    if char != "^":
        return False
    inner = start + 1
    if inner < max_end and src[inner] == "(":
        inner += 1
        inner_end = _find(src, ")", inner, max_end)
        if inner_end < 0:
            return False
        end = inner_end + 1
    else:
        if state.level >= MAX_DEPTH:
            # Checked before scanning: past the limit, a run of carets would
            # otherwise rescan the rest of the text at every caret.
            return _too_deep(state, start)
        space = _DOTNET_SPACE_RE.search(src, inner, max_end)
        inner_end = space.start() if space else max_end
        if inner_end == inner:
            return False
        end = inner_end
    if not silent:
        return _container(state, "sup", "sup", start, inner, inner_end, end, "^")
    return True


def subscript(state: StateInline, silent: bool) -> bool:
    """``<sub>words</sub>``."""
    if state.src[state.pos] != "<":
        return False
    return _html_span(state, silent, "sub")


def code(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "`":
        return False
    inner = start + 1
    if inner < max_end and src[inner] == "`":
        inner += 1
        inner_end = _find(src, "``", inner, max_end)
        if inner_end < 0:
            return False
        end = inner_end + 2
    else:
        inner_end = _find(src, "`", inner, max_end)
        if inner_end < 0:
            return False
        end = inner_end + 1
    if inner == inner_end:
        return False
    if not silent:
        _push(state, "code_inline", "code", 0, start, end, text=src[inner:inner_end])
    state.pos = end
    return True


def image(state: StateInline, silent: bool) -> bool:
    src, start, end = state.src, state.pos, state.posMax
    if src[start] != "!" or start >= end:
        return False
    pos = start + 1
    if pos >= end or src[pos] != "[":
        return False
    pos = _find_or_end(src, "]", pos + 1, end)
    if pos == end:
        return False
    pos += 1
    if pos < end and src[pos] == "[":
        pos = _find_or_end(src, "]", pos, end)
    elif pos < end and src[pos] == "(":
        url_start = pos
        pos = _find_or_end(src, ")", pos, end)
        dims = src.find(" =", url_start, pos)
        if dims > 0 and pos + 1 > len(src):
            return _crash(state, start, "unclosed image size at the end of a paragraph")
    if pos == end:
        return False
    if not silent:
        _push(state, "image", "img", 0, start, pos + 1)
    state.pos = pos + 1
    return True


def _find_or_end(src: str, char: str, start: int, end: int) -> int:
    found = src.find(char, start, end)
    return end if found < 0 else found


def symbol(state: StateInline, silent: bool) -> bool:
    """``:code:``, Aminduna's EmojiInline: symbols, breaks, drop caps."""
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != ":" or start >= max_end - 1:
        return False
    inner = start + 1
    inner_end = _closing(src, ":", inner, max_end)
    if inner_end < 0:
        return False
    if not silent:
        _push(state, "arc_code", "", 0, start, inner_end + 1, name=src[inner:inner_end])
    state.pos = inner_end + 1
    return True


def anchor(state: StateInline, silent: bool) -> bool:
    src, start, max_end = state.src, state.pos, state.posMax
    if src[start] != "<" or start >= max_end - 1 or src[start : start + 2] != "<a":
        return False
    inner = start + 2
    inner_end = _find_ignore_case(src, "</a>", inner, max_end)
    true_end = inner_end + 4
    if inner_end < 0:
        inner_end = _find_ignore_case(src, "/>", inner, max_end)
        true_end = inner_end + 2
        if inner_end < 0:
            return False
    next_link = _find_ignore_case(src, "<a", inner, max_end)
    if -1 < next_link < inner_end:
        return False
    if true_end + 1 <= max_end and src[true_end] == " ":
        true_end += 1
    if not silent:
        _push(state, "html_anchor", "", 0, start, true_end)
    state.pos = true_end
    return True


#: .NET's ``char.IsWhiteSpace`` (differs from ``str.isspace`` on U+001C-U+001F).
DOTNET_WHITESPACE = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

_DOTNET_SPACE_RE = re.compile("[" + "".join(sorted(DOTNET_WHITESPACE)) + "]")

#: The inline rules.  At a given character the reference tries its parsers in the
#: order of its ``Common._triggerList``: for ``*``/``_`` bold-italic, bold, italic;
#: for ``:`` URL then code; for ``<`` angle-bracket URL, comment, ``<sup>``,
#: ``<sub>``, anchor.  Rules of different characters never compete, so the groups
#: are ordered by how often their character occurs in card text (fewer calls).
INLINE_RULES = (
    ("text", text),
    ("bold_italic", bold_italic),
    ("bold", bold),
    ("italic", italic),
    ("url", url),
    ("symbol", symbol),
    ("markdown_link", markdown_link),
    ("angle_link", angle_link),
    ("comment", comment),
    ("superscript", superscript),
    ("subscript", subscript),
    ("anchor", anchor),
    ("email", email),
    ("reddit_link", reddit_link),
    ("www_link", www_link),
    ("strikethrough", strikethrough),
    ("code", code),
    ("image", image),
)


def arcmage_inline_plugin(md: MarkdownIt) -> None:
    """Replace markdown-it's inline rules by the reference's."""
    ruler: Ruler = Ruler()
    for name, rule in INLINE_RULES:
        ruler.push(name, rule)
    md.inline.ruler = ruler
    md.inline.ruler2 = Ruler()
