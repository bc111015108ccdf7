"""The layout docs/architecture.md describes, checked: the stages import only the
stages before them and the shared modules, the applications (API, command line,
editor, watch server) sit above them, no module imports itself back through others,
and no module reads another's private names."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .conftest import ROOT

PACKAGE = ROOT / "translator"
#: The stages, in order: each may import the ones before it.
STAGES = (
    "markup",
    "cards",
    "languages",
    "glossary",
    "lint",
    "pdf",
    "typeset",
    "themes",
    "workflow",
    "review",
    "sync",
)
#: The clients of the stages: they may import any stage (and the ones listed before
#: them), no stage imports them.
APPLICATIONS = ("api", "watch", "editor", "cli", "_entry", "__main__")


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    imports: set[str] = field(default_factory=set)
    #: (line, what) of each private name of another module read here.
    private: list[tuple[int, str]] = field(default_factory=list)


def _modules() -> dict[str, Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        found[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if module.path.name != "__init__.py":
        base.pop()
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _known(name: str, modules: dict[str, Module]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _read(modules: dict[str, Module]) -> dict[str, Module]:  # noqa: PLR0912 - one walk
    for module in modules.values():
        aliases: dict[str, str] = {}
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _known(alias.name, modules)
                    if target:
                        module.imports.add(target)
                        aliases[alias.asname or alias.name.partition(".")[0]] = (
                            target if alias.asname else alias.name.partition(".")[0]
                        )
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, node)
                if not source.startswith("translator"):
                    continue
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in modules:
                        module.imports.add(sub)
                        aliases[alias.asname or alias.name] = sub
                        continue
                    target = _known(source, modules)
                    if target:
                        module.imports.add(target)
                    if _private(alias.name) and target != module.name:
                        module.private.append((node.lineno, f"{source}.{alias.name}"))
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _private(node.attr)
                and aliases[node.value.id] != module.name
            ):
                module.private.append((node.lineno, f"{aliases[node.value.id]}.{node.attr}"))
        module.imports.discard(module.name)
    return modules


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@cache
def modules() -> dict[str, Module]:
    """Every module of the package with what it imports and the private names it reads:
    read when a test first asks (not when the suite is collected, in every worker)."""
    return _read(_modules())


def _layer(name: str) -> tuple[str, int]:
    """("stage", index), ("application", index) or ("shared", 0) of a module."""
    top = name.split(".")[1] if "." in name else ""
    if top in STAGES:
        return ("stage", STAGES.index(top))
    if top in APPLICATIONS:
        return ("application", APPLICATIONS.index(top))
    return ("shared", 0)


def _cycles() -> Iterator[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = [0]

    def strong(node: str) -> Iterator[list[str]]:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in sorted(modules()[node].imports):
            if other not in index:
                yield from strong(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            found = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                found.append(other)
                if other == node:
                    break
            if len(found) > 1:
                yield sorted(found)

    for node in sorted(modules()):
        if node not in index:
            yield from strong(node)


def test_no_import_circle() -> None:
    """Function-level and type-checking imports count: a circle hidden in a function
    is still two modules that cannot be understood (or moved) one without the other."""
    assert list(_cycles()) == []


def test_each_stage_imports_only_the_stages_before_it() -> None:
    wrong = []
    for module in modules().values():
        kind, rank = _layer(module.name)
        for target in sorted(module.imports):
            other, other_rank = _layer(target)
            if target == "translator":  # the version
                continue
            allowed = (
                (kind == "shared" and other == "shared")
                or (
                    kind == "stage"
                    and (other == "shared" or (other == "stage" and other_rank <= rank))
                )
                or (kind == "application" and (other != "application" or other_rank <= rank))
            )
            if not allowed:
                wrong.append(f"{module.name} ({kind}) imports {target} ({other})")
    assert wrong == []


def test_no_module_reads_another_s_private_names() -> None:
    found = [
        f"{module.path.relative_to(ROOT)}:{line}: {what}"
        for module in modules().values()
        for line, what in module.private
        if not what.startswith(module.name + ".")
    ]
    assert found == []


def test_the_stages_are_the_documented_ones() -> None:
    """docs/architecture.md draws this order; a stage added or moved is drawn there."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert " → ".join(STAGES) in text
    for package in (*STAGES, *APPLICATIONS[:-2]):
        path = PACKAGE / package
        assert path.is_dir() or path.with_suffix(".py").is_file(), package


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages setuptools installs: one left out is missing
    from a wheel or a non-editable install, while the tests (run from the source tree)
    still pass."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {".".join(path.parent.relative_to(ROOT).parts) for path in PACKAGE.rglob("__init__.py")}
    assert found - listed == set()
