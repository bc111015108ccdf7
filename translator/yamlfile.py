"""YAML that people edit: loaded with the line of everything, errors located.

PyYAML composes a node tree with positions before building Python values; keeping
both lets every later check say on which line a value stands.
"""

from __future__ import annotations

from typing import Any

import yaml

from .problems import Problem

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str, path: str, first_line: int,
         problems: list[Problem]) -> tuple[Any, yaml.Node | None] | None:
    """(data, node) of a YAML document, or ``None`` (and a problem) if it is malformed.

    ``first_line`` is the line of the text's first line in its file.
    """
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = first_line + (mark.line if mark else 0)
        column = (mark.column + 1) if mark else 0
        problems.append(Problem(path, line, f"malformed YAML: {error.problem}",
                                "check the indentation, colons and quotes of this line", column))
        return None
    except yaml.YAMLError as error:
        problems.append(Problem(path, first_line, f"malformed YAML: {error}"))
        return None
    finally:
        loader.dispose()
    return data, node


def child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    """The node under a mapping key or a sequence index."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key:
                return value_node
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


def line_of(node: yaml.Node | None, *path: str | int, first_line: int = 1) -> int:
    """Line of the value at ``path`` under ``node`` (its nearest existing ancestor's)."""
    line = first_line + (node.start_mark.line if node is not None else 0)
    for key in path:
        node = child(node, key)
        if node is None:
            break
        line = first_line + node.start_mark.line
    return line


def key_line_of(node: yaml.Node | None, *path: str | int, first_line: int = 1) -> int:
    """Line of the key that ends ``path`` (where a wrong key is written)."""
    parent = node
    for key in path[:-1]:
        parent = child(parent, key)
    if isinstance(parent, yaml.MappingNode) and path:
        for key_node, _ in parent.value:
            if key_node.value == path[-1]:
                return first_line + key_node.start_mark.line
    return line_of(node, *path, first_line=first_line)
