"""Print the rule reference: ``python -m translator.rulesdoc > docs/rules.md``."""

from __future__ import annotations

from . import lint  # noqa: F401  (registers the lint rules, and the markup rules)
from .diagnostics import REGISTRY, rules_reference


def main() -> None:
    print(rules_reference(REGISTRY.rules(), "Rules"), end="")


if __name__ == "__main__":
    main()
