"""Package namespaces whose names are imported when first used (PEP 562).

``from translator import cards`` used to import the Aminduna importer, the markup
parser and markdown-it with it; ``translator --help`` paid for all of it.  A package
lists what it exports and the module each name lives in; a name is imported the first
time it is asked for (``cards.load_library``, ``from translator.cards import Card``),
then kept in the package's namespace.  Type checkers see the names through the
package's ``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any


def attach(namespace: dict[str, Any], exports: Mapping[str, str]) -> None:
    """Give the package whose ``globals()`` is ``namespace`` a ``__getattr__`` and a
    ``__dir__`` that import each name of ``exports`` (name: relative module) when it is
    first asked for."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    namespace["__getattr__"] = __getattr__
    namespace["__dir__"] = __dir__
    # A name that is also its module's (a function ``f`` in ``f.py``; none is now):
    # importing the module sets the package's attribute to the module, which the
    # name must override at once, as an eager import did.
    for name, module in exports.items():
        if module.lstrip(".") == name:
            __getattr__(name)


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, run when one of its attributes is first used (the standard
    library's :class:`importlib.util.LazyLoader`): the command line's modules all use
    ``translator.api``, whose dataclasses cost ``translator --help`` about 20 ms, and
    only the command run needs it."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(_Interruptible(spec.loader))
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:  # as an import sets it
        setattr(sys.modules[parent], child, module)
    return module


#: Whether the run of a lazy module was interrupted (Ctrl-C while it ran).
_INTERRUPTED = False


def interrupted() -> bool:
    """Whether a Ctrl-C stopped a lazy module while it ran: Python then reports the
    module's missing names as an :class:`ImportError` (``from .textio import decode``
    during its run), which is the interruption, not a bug."""
    return _INTERRUPTED


class _Interruptible(importlib.abc.Loader):
    """A module's loader whose run, stopped by a Ctrl-C, leaves no half-run module
    behind (it is dropped from ``sys.modules``) and says so (:func:`interrupted`)."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def exec_module(self, module: ModuleType) -> None:
        global _INTERRUPTED  # noqa: PLW0603 - one fact per process
        try:
            self._loader.exec_module(module)
        except KeyboardInterrupt:
            _INTERRUPTED = True
            sys.modules.pop(module.__name__, None)
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
