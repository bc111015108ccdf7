"""Print the rule reference: ``python -m translator.rulesdoc > docs/rules.md``."""

from __future__ import annotations

from .diagnostics import REGISTRY, rules_reference
from .markup import checks  # noqa: F401  (registers the markup rules)


def main() -> None:
    print(rules_reference(REGISTRY.rules(), "Rules"), end="")


if __name__ == "__main__":
    main()
