"""The ``colour`` and ``intent`` checks' judgements: whether a colour space paints in
CMYK only, and whether the file says which CMYK its numbers mean.

A print shop's RIP converts RGB or grey by whatever profile it has, so anything that
is not CMYK is an error; a spot colour with a CMYK alternate is a warning (the RIP
prints the alternate unless the printer was asked for the extra ink).  Where the
spaces are used (content, images, shadings, groups) is :mod:`.content`'s business.
"""

from __future__ import annotations

import pikepdf

from .objects import lookup

_PROCESS_COLORANTS = frozenset({"/Cyan", "/Magenta", "/Yellow", "/Black", "/All", "/None"})
#: Colour spaces by their abbreviated names (inline images and their resources).
SPACE_ABBREVIATIONS = {
    "/G": "/DeviceGray",
    "/RGB": "/DeviceRGB",
    "/CMYK": "/DeviceCMYK",
    "/I": "/Indexed",
}

Fault = tuple[str, str]
"""(severity, description) of what is wrong with an object: a colour space that is not
CMYK, a font that is not embedded."""


def space_fault(space: object, resources: object, depth: int = 0) -> Fault | None:
    """None when ``space`` paints in CMYK only, else why not.

    Named spaces are looked up in ``resources``; an Indexed, Pattern, Separation or
    DeviceN space is judged by its base or alternate; a spot colour with a CMYK
    alternate is only a warning, since the RIP prints it as that alternate unless the
    printer was asked for the extra ink.
    """
    if depth > 8:
        return ("error", "colour space nested too deep")
    if isinstance(space, pikepdf.Name):
        return _named_fault(space, resources, depth)
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        return _family_fault(space, resources, depth)
    return ("error", f"unknown colour space {space!r}")


def _named_fault(space: pikepdf.Name, resources: object, depth: int) -> Fault | None:
    """:func:`space_fault` for a colour space given by name: a device space (CMYK, or
    RGB and grey, which are errors), or a name of the resources' ``/ColorSpace``."""
    name = SPACE_ABBREVIATIONS.get(str(space), str(space))
    if name in ("/DeviceCMYK", "/Pattern"):
        return None
    if name in ("/DeviceRGB", "/DeviceGray"):
        return ("error", name[1:])
    named = lookup(resources, "/ColorSpace", space)
    if named is None:
        return ("error", f"undefined colour space {name}")
    return space_fault(named, resources, depth + 1)


def _family_fault(space: pikepdf.Array, resources: object, depth: int) -> Fault | None:
    """:func:`space_fault` for an array colour space ``[/Family ...]``."""
    family = SPACE_ABBREVIATIONS.get(str(space[0]), str(space[0]))
    if len(space) == 1:
        return space_fault(pikepdf.Name(family), resources, depth + 1)
    if family == "/ICCBased":
        components = int(space[1].get("/N", 0))
        return None if components == 4 else ("error", f"ICCBased with N = {components}")
    if family in ("/Indexed", "/Pattern"):
        fault = space_fault(space[1], resources, depth + 1)
        return None if fault is None else (fault[0], f"{family[1:]} on {fault[1]}")
    if family in ("/Separation", "/DeviceN") and len(space) >= 3:
        return _colorant_fault(family, space, resources, depth)
    return ("error", family[1:])


def _colorant_fault(
    family: str, space: pikepdf.Array, resources: object, depth: int
) -> Fault | None:
    """A Separation or DeviceN space: its alternate must be CMYK; an ink other than the
    process four (or /All, /None) is a spot colour, a warning."""
    names = [space[1]] if family == "/Separation" else list(space[1])
    label = " ".join(str(n) for n in names)
    fault = space_fault(space[2], resources, depth + 1)
    if fault is not None:
        return ("error", f"{family[1:]} {label} with a {fault[1]} alternate")
    spots = [str(n) for n in names if str(n) not in _PROCESS_COLORANTS]
    if spots:
        return (
            "warning",
            f"spot colour {' '.join(spots)}, printed as its CMYK "
            "alternate unless the printer has the ink",
        )
    return None


def shading_fault(shading: object, resources: object) -> Fault | None:
    """A shading's colour space (a shading without one is no shading: not drawn)."""
    if not isinstance(shading, pikepdf.Object) or "/ColorSpace" not in shading:
        return None
    return space_fault(shading.get("/ColorSpace"), resources)


def image_fault(image: pikepdf.Object, resources: object) -> Fault | None:
    """An image's colour space; a JPEG 2000 image may carry its own, which is not
    read here (a warning), and any other image without one is an error."""
    space = image.get("/ColorSpace")
    if space is not None:
        return space_fault(space, resources)
    filters = image.get("/Filter")
    if filters == "/JPXDecode" or (
        isinstance(filters, pikepdf.Array) and "/JPXDecode" in [str(f) for f in filters]
    ):
        return ("warning", "JPEG 2000 colour space inside the image, not checked")
    return ("error", "no colour space")


def intent_fault(pdf: pikepdf.Pdf) -> str | None:
    """Without a CMYK output intent the CMYK numbers have no meaning a RIP can trust."""
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array) or len(intents) == 0:
        return "no output intent (Root /OutputIntents)"
    components = []
    for intent in intents:
        profile = (
            intent.get("/DestOutputProfile") if isinstance(intent, pikepdf.Dictionary) else None
        )
        if isinstance(profile, pikepdf.Stream):
            components.append(int(profile.get("/N", 0)))
    if 4 in components:
        return None
    if not components:
        return "the output intent has no /DestOutputProfile ICC profile"
    return f"the output intent's profile has {components[0]} components, not 4 (CMYK)"
