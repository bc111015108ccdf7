"""Every use of WeasyPrint beyond its public API, in one place.

WeasyPrint's public API (``HTML``, ``CSS``, ``Document``, ``Page``'s documented
attributes, ``FontConfiguration``, ``URLFetcher``) renders a card; the typesetter needs
three things more, none of them public:

- **a lighter UA stylesheet** for documents of cards (WeasyPrint's own without the rules
  that make no box in a card: a fifth of the styling time), which means its text
  (``weasyprint.html.UA``), its counter styles (``CounterStyle``), a document's
  ``HTML._ua_stylesheets`` hook, and a parsed stylesheet's rules (cssselect2's matcher
  buckets, ``CSS.page_rules``) to see that the theme styles none of them;
- **the laid-out box tree** of a page (``Page._page_box``, box classes, geometry and
  computed style), which the fitting measures text on: no public API says how tall a
  text is;
- **a page with one box swapped** (a text frame laid out alone put into a card laid out
  whole: ``Page(page_box)``, ``INITIAL_VALUES``, a placeholder's
  ``set_laid_out_box``), which spares a full layout per probe of the fitting.

Each internal is reached through a function here, and only here.  Where a public path
exists, a missing internal falls back to it (WeasyPrint's own UA stylesheet; a card
laid out whole instead of a swapped frame): slower, never different.  The box tree has
no public substitute, so its absence stops the import with the version needed.  The
versions these internals were read and tested on are :data:`SUPPORTED`, the same bounds
as ``pyproject.toml``'s (a test checks they agree); ``tests/typeset/test_typeset_weasy.py``
holds a canary per internal, which fails on a WeasyPrint that moved one.  Upgrading
WeasyPrint is described in docs/architecture.md (Dependencies).
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from importlib import metadata
from typing import Any

from ..errors import UserError


@contextlib.contextmanager
def _libraries_found_quickly() -> Iterator[None]:
    """WeasyPrint's import finds Pango, HarfBuzz, fontconfig and GObject by trying
    several names each (one per platform), and cffi asks :func:`ctypes.util.find_library`
    for every name that is not a file: on Linux, that runs ``ldconfig -p``, then
    ``gcc`` and ``ld`` for each name that is not found: dozens of programs, in every
    process that prints (a build and each of its workers).  Meanwhile,
    the one question is answered from one reading of ``ldconfig -p``, as
    :mod:`ctypes.util` reads it; a name it does not list is asked of the standard
    function as before when ``LD_LIBRARY_PATH`` or ``LIBRARY_PATH`` add folders that
    the cache does not cover, or when there is no cache to read (not Linux, no
    ``ldconfig``, an empty cache): then nothing is faster, and nothing is found
    differently."""
    standard = ctypes.util.find_library
    listed = _ldconfig_listing() if sys.platform.startswith("linux") else None
    if listed is None or " => " not in listed:  # no cache (a bare container): as before
        yield
        return
    elsewhere = bool(os.environ.get("LD_LIBRARY_PATH") or os.environ.get("LIBRARY_PATH"))
    abi = re.escape(_abi())

    def find_library(name: str) -> str | None:
        found = re.search(rf"\s+(lib{re.escape(name)}\.[^\s]+)\s+\({abi}", listed)
        if found is not None:
            return found.group(1)
        return standard(name) if elsewhere else None

    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = standard


def _abi() -> str:
    """The ABI ``ldconfig -p`` names for this machine's libraries, as
    :mod:`ctypes.util` matches it (a library of another architecture is never taken)."""
    bits = "64" if sys.maxsize > 2**32 else "32"
    machine = f"{os.uname().machine}-{bits}" if hasattr(os, "uname") else ""
    return {
        "x86_64-64": "libc6,x86-64",
        "ppc64-64": "libc6,64bit",
        "sparc64-64": "libc6,64bit",
        "s390x-64": "libc6,64bit",
        "ia64-64": "libc6,IA-64",
    }.get(machine, "libc6")


def _ldconfig_listing() -> str | None:
    """The text of ``ldconfig -p`` (the dynamic linker's cache), or None."""
    for program in ("/sbin/ldconfig", "/usr/sbin/ldconfig"):
        try:
            done = subprocess.run(
                [program, "-p"],
                capture_output=True,
                env={"LC_ALL": "C", "LANG": "C"},
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return done.stdout.decode("utf-8", "replace")
    return None


with _libraries_found_quickly():
    import weasyprint  # the one import of WeasyPrint: every module has it from here

#: The WeasyPrint releases these internals were read and tested on: ``>=`` the first,
#: ``<`` the second (major versions; pyproject.toml pins the same).
SUPPORTED = (70, 71)


class WeasyPrintVersionError(UserError):
    """The installed WeasyPrint is not one the typesetter was tested with."""


def _version() -> tuple[int, ...]:
    text = metadata.version("weasyprint")
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())


def check_version(version: tuple[int, ...] | None = None) -> None:
    """Refuse a WeasyPrint outside :data:`SUPPORTED`, saying which one is needed and
    how to get it (a newer one may have moved what this module reads)."""
    found = _version() if version is None else version
    low, high = SUPPORTED
    if not found or not low <= found[0] < high:
        shown = ".".join(map(str, found)) or "unknown"
        raise WeasyPrintVersionError(
            f"the typesetter needs WeasyPrint >={low},<{high} (installed: {shown}); "
            f"install it with `pip install 'weasyprint>={low},<{high}'` (./dev setup does), "
            "or see docs/architecture.md (Dependencies) to move to another version"
        )


check_version()

from weasyprint.document import Page  # noqa: E402 - only once the version is known

# The public API the other modules use, imported from here (so that WeasyPrint's
# libraries are always found as :func:`_libraries_found_quickly` says).
from weasyprint.text.fonts import FontConfiguration  # noqa: E402, F401 - re-exported
from weasyprint.urls import URLFetcher, URLFetcherResponse  # noqa: E402, F401 - re-exported

try:  # internals with a public fallback: None when this release moved them
    from weasyprint.css.counters import CounterStyle
    from weasyprint.html import UA as _UA_TEXT
except ImportError:  # pragma: no cover - a canary test fails first
    CounterStyle = None
    _UA_TEXT = None
try:
    from weasyprint.css.properties import INITIAL_VALUES as _INITIAL_VALUES
except ImportError:  # pragma: no cover
    _INITIAL_VALUES = None
from weasyprint.formatting_structure.boxes import TextBox  # noqa: E402 - required


@cache
def engine() -> str:
    """The layout engine: WeasyPrint's version and the Pango under it, what a layout
    depends on besides its inputs (a decision kept from an earlier build, as
    :mod:`.fits` keeps them, is kept for this engine only)."""
    try:
        from weasyprint.text.ffi import pango  # noqa: PLC0415

        layout = f"Pango {pango.pango_version()}"
    except (ImportError, AttributeError):  # pragma: no cover - another release's layout
        layout = "Pango unknown"
    return f"WeasyPrint {metadata.version('weasyprint')}, {layout}"


_SIDES = ("top", "right", "bottom", "left")
#: What each box's geometry is made of (CSS px): the fields a swapped frame must share.
_GEOMETRY = (
    "position_x",
    "position_y",
    "width",
    "height",
    *(f"{part}_{side}" for part in ("margin", "padding") for side in _SIDES),
    *(f"border_{side}_width" for side in _SIDES),
)


# -- the UA stylesheet ------------------------------------------------------------------


def ua_stylesheet_text() -> str | None:
    """The text of WeasyPrint's HTML UA stylesheet, or None (use WeasyPrint's own)."""
    return _UA_TEXT if isinstance(_UA_TEXT, str) else None


def ua_stylesheet(text: str) -> weasyprint.CSS:
    """``text`` parsed as a UA stylesheet is (with WeasyPrint's counter styles)."""
    if CounterStyle is None:  # pragma: no cover - ua_stylesheet_text() is None then
        raise RuntimeError("WeasyPrint's CounterStyle is gone: no UA stylesheet of our own")
    return weasyprint.CSS(string=text, counter_style=CounterStyle())


def default_ua_stylesheets(forms: bool = False) -> list[weasyprint.CSS]:
    """WeasyPrint's own UA stylesheets (with its form styles when ``forms``)."""
    from weasyprint.html import UA_FORM_STYLESHEET, UA_STYLESHEET  # noqa: PLC0415

    return [UA_STYLESHEET, UA_FORM_STYLESHEET] if forms else [UA_STYLESHEET]


def use_ua_stylesheets(html: weasyprint.HTML, sheets: Callable[..., list[Any]]) -> bool:
    """Have ``html`` rendered with the UA stylesheets ``sheets(forms=...)`` returns; False
    (WeasyPrint's own are used) when this release has no such hook."""
    if not callable(getattr(html, "_ua_stylesheets", None)):
        return False
    html._ua_stylesheets = sheets
    return True


def html_elements(html: weasyprint.HTML) -> Iterator[Any]:
    """Every element of a parsed document (``ElementTree`` elements)."""
    return html.etree_element.iter()


def declarations(sheet: weasyprint.CSS) -> list[tuple[str, Any]] | None:
    """Every declaration of a parsed stylesheet, as (property, value), its page rules'
    included; None when this release keeps them otherwise (say "may style anything")."""
    try:
        matcher = sheet.matcher
        buckets = [
            *matcher.id_selectors.values(),
            *matcher.class_selectors.values(),
            *matcher.lower_local_name_selectors.values(),
            *matcher.namespace_selectors.values(),
            *matcher.lang_attr_selectors,
            matcher.other_selectors,
        ]
        found = [d for bucket in buckets for *_, (rules, _) in bucket for d in rules]
        found += [d for *_, rules in sheet.page_rules for d in rules]
        return [(name, value) for name, value, _ in found]
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - canary first
        return None


def page_area_rules(sheet: weasyprint.CSS) -> list[str] | None:
    """The page areas (``@top-left``, ``@footnote``...) a parsed stylesheet has a rule
    for; None when this release keeps page rules otherwise."""
    try:
        rules = sheet.page_rules
        return [pseudo for _, selectors, _ in rules for _, pseudo, _ in selectors if pseudo]
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - canary first
        return None


# -- the laid-out box tree --------------------------------------------------------------


def page_box(page: weasyprint.Page) -> Any:
    """The root box of a laid-out page."""
    return page._page_box


def laid_out(box: Any) -> Any:
    """The box itself (an absolutely positioned box is kept behind a placeholder)."""
    return getattr(box, "_box", box)


def children(box: Any) -> tuple[Any, ...]:
    """A box's children as laid out (placeholders included: see :func:`laid_out`)."""
    return tuple(getattr(box, "children", ()))


def element(box: Any) -> Any:
    """The HTML element a box was made for, or None (anonymous boxes)."""
    return getattr(box, "element", None)


def classes(box: Any) -> tuple[str, ...]:
    """The classes of the element a box was made for."""
    found = element(box)
    return tuple((found.get("class") or "").split()) if found is not None else ()


def is_text(box: Any) -> bool:
    """Whether a box is a run of text (it has :func:`text`)."""
    return isinstance(box, TextBox)


def text(box: Any) -> str:
    """A text box's text."""
    return box.text


def style(box: Any, name: str) -> Any:
    """A box's computed value of a property (WeasyPrint's name: ``font_size``)."""
    return box.style[name]


def has_geometry(box: Any) -> bool:
    """Whether a box is placed (block, inline, line...) and so has a border box."""
    return hasattr(box, "border_box_x")


def border_rect(box: Any) -> tuple[float, float, float, float]:
    """A box's border box: (left, top, right, bottom), CSS px."""
    x, y = box.border_box_x(), box.border_box_y()
    return (x, y, x + box.border_width(), y + box.border_height())


def content_rect(box: Any) -> tuple[float, float, float, float]:
    """A box's content box: (left, top, right, bottom), CSS px."""
    x, y = box.content_box_x(), box.content_box_y()
    return (x, y, x + box.width, y + box.height)


def position(box: Any) -> tuple[float, float]:
    """A box's position (its margin box's top left corner), CSS px."""
    return (box.position_x, box.position_y)


def size(box: Any) -> tuple[float, float]:
    """A box's content width and height, CSS px."""
    return (box.width, box.height)


def margin_height(box: Any) -> float:
    """A box's height with its padding, borders and margins, CSS px."""
    return box.margin_height()


def geometry(box: Any) -> tuple[Any, ...]:
    """Everything of a box's place and size: two boxes with the same geometry take the
    same room on the page."""
    return tuple(getattr(box, name, None) for name in _GEOMETRY)


def same_style(box: Any, other: Any) -> bool | None:
    """Whether two boxes have the same computed style, property by property; None when
    this release does not say which properties there are."""
    if _INITIAL_VALUES is None:  # pragma: no cover - canary first
        return None
    return all(box.style[key] == other.style[key] for key in _INITIAL_VALUES)


def swap_child(page: weasyprint.Page, parent: Any, index: int, new: Any) -> weasyprint.Page | None:
    """``page`` with ``parent``'s child ``index`` (a box or an absolutely positioned
    box's placeholder) replaced by ``new``, laid out elsewhere at the same place: a new
    ``Page`` of the changed tree.  None (lay the page out again) when this release
    cannot make a page of a box tree.  ``page``'s boxes are changed."""
    holder = parent.children[index]
    if hasattr(holder, "set_laid_out_box"):  # an absolutely positioned box's placeholder
        holder.set_laid_out_box(new)
    else:
        parent.children[index] = new
    try:
        return Page(page._page_box)
    except TypeError:  # pragma: no cover - canary first
        return None
