"""Black that overprints: text and thin rules in pure black (DeviceCMYK ``0 0 0 1``)
get an ExtGState ``/OP true /op true /OPM 1``, so that a RIP prints the black over the
ground instead of knocking the ground out under it (a white halo round every letter
when the plates misregister).

Black over a ground of C+M+Y above ``ink_limit - 100`` % would exceed the total ink
the printer accepts, and black over an image (artwork: unknown inks) could too, so
those keep knocking out: :class:`.painter.Painter` says what lies under each glyph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pikepdf

from .geometry import Point
from .painter import FILL_MODES, STROKE_MODES, Painter, Show, is_black
from .profiles import INK_LIMIT


def _fits(painter: Painter, points: Sequence[Point], before: int, ink_limit: float) -> bool:
    """Whether black overprinted at ``points`` stays within ``ink_limit``: every ground
    under them is a known flat colour whose C+M+Y plus the black's 100 % is at most
    the limit (black replaces the ground's own K)."""
    for ground in painter.grounds_of(points, before):
        if isinstance(ground, str):
            return False
        if (ground[0] + ground[1] + ground[2]) * 100 + 100 > ink_limit + 1e-6:
            return False
    return True


def _state_name(state: tuple[bool, bool, int]) -> str:
    stroke, fill, mode = state
    return f"/TrOP{int(stroke)}{int(fill)}{mode}"


_ON: tuple[bool, bool, int] = (True, True, 1)


def overprint_black(page: pikepdf.Page, ink_limit: float = INK_LIMIT) -> int:
    """Set pure-black text (and thin pure-black rules) of ``page``'s own content to
    overprint; returns how many text objects and rules now do.

    Each is wrapped in ``/TrOP111 gs`` (``/OP true /op true /OPM 1``: with OPM 1 the
    zero C, M and Y of ``0 0 0 1`` leave the inks under them alone) and a graphics
    state restoring the overprint that was in force; a text object all black gets
    them around BT ... ET, one of mixed colours around each black show.  Not set:
    text in a form (forms may be transparency groups, where overprint means something
    else), transparent or blended black, and black whose ground is not a known flat
    colour with C+M+Y at most ``ink_limit`` - 100 % (over an image the sum is not
    known: it keeps knocking out, as the preflight's ink check measured it before)."""
    painter = Painter()
    instructions = painter.page(page)
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    objects: dict[int, list[tuple[Show, bool]]] = {}
    for show in painter.shows:
        if show.index is None or show.text_object is None:
            continue
        fills, strokes = show.mode in FILL_MODES, show.mode in STROKE_MODES
        black = (not fills or is_black(show.fill)) and (not strokes or is_black(show.stroke))
        wanted = black and show.opaque and _fits(painter, show.points, show.ground, ink_limit)
        objects.setdefault(show.text_object, []).append((show, wanted))
    done = 0
    for start, shows in objects.items():
        if all(wanted for _, wanted in shows) and start not in painter.text_gs:
            end = _text_end(instructions, start)
            if end is not None:
                before.setdefault(start, []).append(_state_name(_ON))
                after.setdefault(end, []).append(_state_name(shows[0][0].overprint))
                done += 1
                continue
        for show, wanted in shows:
            if wanted and show.index is not None:
                before.setdefault(show.index, []).append(_state_name(_ON))
                after.setdefault(show.index, []).append(_state_name(show.overprint))
                done += 1
    for rule in painter.rules:
        if rule.thin and rule.opaque and _fits(painter, rule.points, rule.ground, ink_limit):
            before.setdefault(rule.start, []).append(_state_name(_ON))
            after.setdefault(rule.index, []).append(_state_name(rule.overprint))
            done += 1
    if not done:
        return 0
    _rewrite(page, instructions, before, after)
    return done


def _text_end(instructions: Sequence[Any], start: int) -> int | None:
    for index in range(start + 1, len(instructions)):
        if str(instructions[index].operator) == "ET":
            return index
    return None


def _rewrite(
    page: pikepdf.Page,
    instructions: Sequence[Any],
    before: dict[int, list[str]],
    after: dict[int, list[str]],
) -> None:
    """Write the content again with the overprint states inserted (a restore followed
    at once by the next overprint is left out: the black simply goes on overprinting),
    and add those states to the page's resources."""
    gs = pikepdf.Operator("gs")
    out: list[Any] = []
    pending_restore = False
    used: set[str] = set()

    def emit(name: str, restore: bool) -> None:
        nonlocal pending_restore
        if not restore and pending_restore and name == _state_name(_ON):
            out.pop()  # the restore just written: overprint simply goes on
            pending_restore = False
            return
        out.append(([pikepdf.Name(name)], gs))
        used.add(name)
        pending_restore = restore

    copied = 0  # the instructions before this one are in out
    for index in sorted(before.keys() | after.keys()):
        if index > copied:
            out += instructions[copied:index]
            pending_restore = False
        for name in before.get(index, []):
            emit(name, restore=False)
        out.append(instructions[index])
        pending_restore = False
        for name in after.get(index, []):
            emit(name, restore=True)
        copied = index + 1
    out += instructions[copied:]
    resources = page.obj.get("/Resources")
    if not isinstance(resources, pikepdf.Dictionary):
        resources = page.obj.Resources = pikepdf.Dictionary()
    states = resources.get("/ExtGState")
    if not isinstance(states, pikepdf.Dictionary):
        states = resources.ExtGState = pikepdf.Dictionary()
    for name in sorted(used):
        stroke, fill, mode = name[-3] == "1", name[-2] == "1", int(name[-1])
        states[name] = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=stroke, op=fill, OPM=mode)
    page.contents_coalesce()  # one stream (a page's own, written in place)
    page.obj.Contents.write(pikepdf.unparse_content_stream(out))
