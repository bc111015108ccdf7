"""Typed values as plain data, and back, checked against their types.

What a run keeps for the next one (the glossaries as read, in the user's cache
folder) must not be able to run code when it is read back, as a pickle does: anyone
who can write one file there would run code at the next ``lint``.  So a kept value is
written as plain data (JSON: objects, lists, strings, numbers) and read back by
:func:`decode`, which builds the value from its declared type, a dataclass's fields
by their annotations, and refuses anything else (:class:`Mismatch`): a damaged,
foreign or hostile file is a value made afresh, never code run and never a value of
the wrong type handed to the code that uses it.

Supported: ``str``, ``int``, ``float``, ``bool``, ``None``, ``X | None`` (and other
unions of these), ``list[X]``, ``tuple[X, ...]``, fixed tuples, ``dict[str, X]``, and
dataclasses whose fields are of these types.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["Mismatch", "decode", "encode"]


_Decoder = Callable[[Any], Any]


class Mismatch(ValueError):
    """Plain data that is not a value of the type asked for."""


def encode(value: Any) -> Any:
    """``value`` as plain data (JSON's kinds): a dataclass as an object of its fields,
    a tuple as a list."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: encode(getattr(value, field.name)) for field in _fields(type(value))}
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise Mismatch(f"a dict with keys that are not text: {type(value).__name__}")
        return {key: encode(item) for key, item in value.items()}
    raise Mismatch(f"{type(value).__name__} is not plain data")


def decode(data: Any, kind: Any) -> Any:
    """The value of type ``kind`` that :func:`encode` made ``data`` of; a
    :class:`Mismatch` when ``data`` is not one (whatever it holds)."""
    return _decoder(kind)(data)


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _decoder(kind: Any) -> _Decoder:  # noqa: PLR0911 - one branch per kind of type
    """The function that checks and builds a value of ``kind`` from plain data."""
    if kind is Any:
        raise TypeError("Any is not a type plain data can be checked against")
    if kind in (str, bool):
        return _exactly(kind)
    if kind is int:
        return _exactly(int)  # not a bool, whose type is not int
    if kind is float:
        return _number
    if kind is None or kind is type(None):
        return _exactly(type(None))
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _dataclass(kind)
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _union(tuple(_decoder(a) for a in arguments))
    if origin is list:
        return _sequence(list, _decoder(arguments[0]))
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return _sequence(tuple, _decoder(arguments[0]))
        return _fixed(tuple(_decoder(a) for a in arguments))
    if origin is dict:
        if arguments[0] is not str:
            raise TypeError(f"{kind}: only text keys are plain data")
        return _mapping(_decoder(arguments[1]))
    raise TypeError(f"{kind} is not a type plain data can be checked against")


def _exactly(kind: type) -> _Decoder:
    def check(data: Any) -> Any:
        if type(data) is not kind:
            raise Mismatch(f"{_shown(data)} where {kind.__name__} was expected")
        return data

    return check


def _number(data: Any) -> float:
    if type(data) not in (int, float):
        raise Mismatch(f"{_shown(data)} where float was expected")
    return float(data)


def _union(options: tuple[_Decoder, ...]) -> _Decoder:
    def check(data: Any) -> Any:
        for option in options:
            try:
                return option(data)
            except Mismatch:
                continue
        raise Mismatch(f"{_shown(data)} is none of the types expected")

    return check


def _sequence(kind: type, item: _Decoder) -> _Decoder:
    def check(data: Any) -> Any:
        if type(data) is not list:
            raise Mismatch(f"{_shown(data)} where a list was expected")
        return kind(item(value) for value in data)

    return check


def _fixed(items: tuple[_Decoder, ...]) -> _Decoder:
    def check(data: Any) -> Any:
        if type(data) is not list or len(data) != len(items):
            raise Mismatch(f"{_shown(data)} where a list of {len(items)} was expected")
        return tuple(item(value) for item, value in zip(items, data, strict=True))

    return check


def _mapping(item: _Decoder) -> _Decoder:
    def check(data: Any) -> Any:
        if type(data) is not dict:
            raise Mismatch(f"{_shown(data)} where an object was expected")
        return {_key(key): item(value) for key, value in data.items()}

    return check


def _key(key: Any) -> str:
    if type(key) is not str:
        raise Mismatch(f"{_shown(key)} where a key was expected")
    return key


def _dataclass(cls: type) -> _Decoder:
    hints = typing.get_type_hints(cls)
    fields = [(f.name, f) for f in _fields(cls)]
    # Built on first use: a dataclass may hold itself, or one declared after it.
    decoders: dict[str, _Decoder] = {}

    def check(data: Any) -> Any:
        if type(data) is not dict:
            raise Mismatch(f"{_shown(data)} where a {cls.__name__} was expected")
        if not decoders:
            decoders.update((name, _decoder(hints[name])) for name, _ in fields)
        values = {}
        for name, field in fields:
            if name in data:
                values[name] = decoders[name](data[name])
            elif (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            ):
                raise Mismatch(f"a {cls.__name__} without its {name}")
        if len(data) != len(values) and any(key not in decoders for key in data):
            raise Mismatch(f"a {cls.__name__} with fields it does not have")
        return cls(**values)

    return check


def _shown(data: Any) -> str:
    return type(data).__name__
