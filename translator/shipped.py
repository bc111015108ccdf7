"""Where the data shipped with the package is: ``glossaries/`` and ``templates/``.

Below every stage, so that the glossary, the languages, the linter and the typesetter
find the same folders without importing one another.  In an installed package they are
package data (``translator/glossaries``, ``translator/templates``); in a source tree (or
an editable install) the top-level folders of the checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def _root(name: str) -> Path | None:
    installed = resources.files("translator") / name
    if isinstance(installed, Path) and installed.is_dir():
        return installed
    source_tree = Path(__file__).resolve().parents[1] / name
    return source_tree if source_tree.is_dir() else None


def glossaries_root() -> Path | None:
    """The shipped glossaries and language data (``glossaries/``), if there are any."""
    return _root("glossaries")


def templates_root() -> Path:
    """The shipped themes, print conditions and review templates (``templates/``)."""
    return _root("templates") or Path(__file__).resolve().parents[1] / "templates"
