"""The CMYK output profile a print file is made for, and the ink sums every check of
total ink reads.

Below the typesetter: the artwork it converts (:mod:`translator.typeset.artwork`), the
output intent of each print file (:mod:`.pdfx`) and the preflight's ink check
(:mod:`.preflight`) use the same profile, found the same way (``--icc``,
``TRANSLATOR_ICC``, then the system's), and the same sums.
"""

from __future__ import annotations

import functools
import hashlib
import io
import operator
import os
from dataclasses import dataclass
from functools import lru_cache
from glob import glob
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from ..errors import UserError
from ..limits import MAX_PROFILE_BYTES
from ..textio import InputError, read_file

INK_LIMIT = 300.0
"""Total ink (C+M+Y+K, in %) a print shop accepts by default on coated paper."""


ENV_VAR = "TRANSLATOR_ICC"
"""An environment variable naming the CMYK profile when ``--icc`` is not given."""

SYSTEM_PROFILES: tuple[str, ...] = (
    # Debian and Ubuntu: package libgs-common, installed with ghostscript.
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",
    # Ghostscript's own layout, versioned or not (Debian links it to the above; other
    # systems and Homebrew are expected there, but were not checked).
    "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    "/usr/share/ghostscript/*/iccprofiles/default_cmyk.icc",
    "/usr/local/share/ghostscript/*/iccprofiles/default_cmyk.icc",
    "/opt/homebrew/share/ghostscript/*/iccprofiles/default_cmyk.icc",
)
"""Where :func:`find_profile` looks, in order, when neither a path nor
:data:`ENV_VAR` names a profile (glob patterns allowed).  Ghostscript's
``default_cmyk.icc`` is the "Artifex CMYK SWOP Profile" (AGPL): used from the
system, never shipped with the package."""

_INSTALL_HINT = "install one (apt-get install ghostscript) or give one with --icc FILE"


class ProfileError(UserError):
    """A CMYK profile that cannot be used: the message names the file and what to do.

    Only profile problems raise; a bad *image* is a warning and a placeholder, since
    one card's artwork must not stop a deck from printing."""


@dataclass(frozen=True)
class Profile:
    """The CMYK output profile: what artwork is converted to and the PDF's output intent.

    A plain value (hashable, picklable for worker processes); the parsed LittleCMS
    profile is cached per process by :meth:`cms_profile`."""

    path: Path
    description: str
    sha256: str

    def icc_bytes(self) -> bytes:
        """The profile file's bytes (e.g. for the PDF's ``DestOutputProfile``),
        checked against :attr:`sha256` so that the PDF and the images agree."""
        return _load_profile(str(self.path), self.sha256)[0]

    def cms_profile(self) -> ImageCms.ImageCmsProfile:
        """The parsed profile for ImageCms; parsed once per process."""
        return _load_profile(str(self.path), self.sha256)[1]


def find_profile(path: str | os.PathLike[str] | None = None) -> Profile:
    """The CMYK profile to print with: ``path`` (``--icc``), else the file named by
    :data:`ENV_VAR`, else the first of :data:`SYSTEM_PROFILES` that exists.

    A profile named explicitly (argument or environment) that is missing or unusable
    is an error rather than a silent fall-back: the user asked for that press's
    colours.  Raises :class:`ProfileError` with the path and what to do."""
    if path is not None and str(path):
        return _open_profile(Path(path), "given with --icc")
    env = os.environ.get(ENV_VAR, "")
    if env:
        return _open_profile(Path(env), f"named by {ENV_VAR}")
    for pattern in SYSTEM_PROFILES:
        for candidate in sorted(glob(pattern)) if "*" in pattern else [pattern]:
            if Path(candidate).is_file():
                return _open_profile(Path(candidate), "found on the system")
    raise ProfileError(
        f"no CMYK ICC profile found (looked at {', '.join(SYSTEM_PROFILES)}): "
        f"{_INSTALL_HINT}, or set {ENV_VAR}"
    )


def _open_profile(path: Path, how: str) -> Profile:
    """Read, hash, parse and check a profile; every failure names the file."""
    try:
        data = read_file(path, MAX_PROFILE_BYTES, "colour profile")
    except InputError as exc:
        if exc.message == "no such file":
            raise ProfileError(f"ICC profile {path} ({how}) not found: {_INSTALL_HINT}") from None
        raise ProfileError(
            f"ICC profile {path} ({how}) cannot be used: {exc.message}"
            "; give a readable CMYK profile with --icc FILE"
        ) from None
    resolved = path.resolve()
    sha = hashlib.sha256(data).hexdigest()
    try:
        cms = _load_profile(str(resolved), sha)[1]
    except (OSError, ImageCms.PyCMSError):
        raise ProfileError(
            f"{path} ({how}) is not an ICC profile: give a CMYK printer "
            "profile (.icc) with --icc FILE"
        ) from None
    space = cms.profile.xcolor_space.strip()
    if space != "CMYK":
        raise ProfileError(
            f"{path} ({how}) is a profile for {space}, not CMYK: give the "
            "printer's CMYK profile with --icc FILE"
        )
    if cms.profile.device_class != "prtr":
        raise ProfileError(
            f"{path} ({how}) is a '{cms.profile.device_class}' profile, not "
            "an output (printer) profile: give one with --icc FILE"
        )
    # The description ends with a newline in Ghostscript's profiles.
    description = ImageCms.getProfileDescription(cms).strip() or resolved.name
    return Profile(resolved, description, sha)


@lru_cache(maxsize=8)
def _load_profile(path: str, sha256: str) -> tuple[bytes, ImageCms.ImageCmsProfile]:
    """The bytes and parsed profile of ``path``, once per process (and per worker
    process: a :class:`Profile` travels as a plain value).  A file that changed since
    :func:`find_profile` hashed it is refused: images and output intent would
    disagree."""
    try:
        data = read_file(path, MAX_PROFILE_BYTES, "colour profile")
    except InputError as exc:
        raise ProfileError(f"ICC profile {path} cannot be read any more: {exc.message}") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ProfileError(f"ICC profile {path} changed while printing: run again")
    return data, ImageCms.ImageCmsProfile(io.BytesIO(data))


def band_sum(*bands: Image.Image) -> Image.Image:
    """Each pixel's sum over one-band images, as 32-bit integers (ImageMath, in C):
    a CMYK image's split summed is its total ink (C+M+Y+K, 0-1020 levels), the first
    three its C+M+Y.  The ink limit, the ink bound and the ink check all read it."""
    names = [f"b{index}" for index in range(len(bands))]
    return ImageMath.lambda_eval(
        lambda e: functools.reduce(operator.add, (e[name] for name in names)),
        **dict(zip(names, bands, strict=True)),
    )


def band_extrema(band: Image.Image) -> tuple[float, float]:
    """A one-band image's least and most value."""
    low, high = band.getextrema()
    assert isinstance(low, int | float) and isinstance(high, int | float)
    return float(low), float(high)
