"""Helpers shared by the print tests."""

from __future__ import annotations

import pytest

from translator.typeset.artwork import Profile, find_profile


def cmyk_profile() -> Profile:
    """The CMYK profile a build uses, or the calling test module skipped with why (a
    machine without Ghostscript's profile)."""
    try:
        return find_profile()
    except Exception as error:  # any reason to skip is reported
        pytest.skip(f"no CMYK profile: {error} (apt-get install ghostscript)",
                    allow_module_level=True)
