"""EO rules: the Esperanto house style (Rekomendoj por traduki en esperanton)."""

from __future__ import annotations
