"""Write docs/rules.md, the reference of every rule, from the rule registry.

    .venv/bin/python tools/rules_doc.py [--check] [--out FILE]

The page is what the registry declares (code, name, severity, what the rule checks,
its languages, summary, rationale, bad and good examples, fix), the text
``translator lint --explain CODE`` prints, so it is regenerated, never edited: run
this after adding or changing a rule.  ``--check`` changes nothing and fails (status
1) when the page is not what this script writes; ``tests/lint/test_registry.py`` does the
same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from translator.diagnostics import REGISTRY, rules_reference
from translator.textio import atomic_write

#: The page this script writes.
RULES_PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def reference() -> str:
    """The page's text: every registered rule, in code order."""
    return rules_reference(REGISTRY.rules(), "Rules")


def main(argv: list[str] | None = None) -> int:
    """Write the page (or, with ``--check``, tell whether it is up to date)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RULES_PAGE, help=f"default: {RULES_PAGE}")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; status 1 if the page is stale"
    )
    options = parser.parse_args(argv)
    text = reference()
    if options.check:
        current = options.out.read_text("utf-8") if options.out.is_file() else None
        if current != text:
            print(f"{options.out} is stale: run tools/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    atomic_write(str(options.out), text, within=None)  # the file asked for
    print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
