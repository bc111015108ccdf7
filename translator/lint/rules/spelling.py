"""SP rules: spelling, with the Debian Hunspell dictionaries and the glossaries."""

from __future__ import annotations
