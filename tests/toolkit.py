"""The scripts in tools/, imported by the tests that check what they write.

tools/ holds scripts run by hand (``.venv/bin/python tools/prose_review.py``), not a
package: :func:`tool` loads one from its file, once per test session, under the name
``tools.<name>`` (registered, so that its dataclasses and pickles find their module).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as a module; the same module every time it is asked for."""
    qualified = f"tools.{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, ROOT / "tools" / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"tools/{name}.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[qualified]
        raise
    return module
