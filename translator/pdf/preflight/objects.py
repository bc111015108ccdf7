"""Reading the PDF objects every check looks at: a form's or a pattern's /Matrix, a
named resource, a page attribute inherited from the page tree.

A file from anywhere may have any of them missing or malformed: each answers a
default (the identity, None) instead of raising, so that an odd object costs one
finding, never the whole check.
"""

from __future__ import annotations

import pikepdf

from ..geometry import IDENTITY, Matrix


def pdf_matrix(value: object) -> Matrix:
    """A /Matrix entry, or the identity when it is absent or malformed."""
    if isinstance(value, pikepdf.Array) and len(value) == 6:
        try:
            a, b, c, d, e, f = (float(v) for v in value)
        except (TypeError, ValueError):
            return IDENTITY
        return (a, b, c, d, e, f)
    return IDENTITY


def lookup(resources: object, category: str, name: object) -> pikepdf.Object | None:
    """``resources[category][name]``, None when any of it is missing."""
    if not isinstance(resources, pikepdf.Dictionary):
        return None
    entries = resources.get(category)
    if not isinstance(entries, pikepdf.Dictionary):
        return None
    return entries.get(str(name))


def inherited(page: pikepdf.Dictionary, key: str) -> pikepdf.Object | None:
    """A page attribute that may sit on a parent /Pages node (Resources, MediaBox)."""
    node: object = page
    for _ in range(64):
        if not isinstance(node, pikepdf.Dictionary):
            return None
        if key in node:
            return node.get(key)
        node = node.get("/Parent")
    return None
