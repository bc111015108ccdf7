"""FR rules: the French style guide (Recommandations pour la traduction française)."""

from __future__ import annotations
