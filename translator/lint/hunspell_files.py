"""Reading a Hunspell dictionary into spylls, faster than spylls reads it.

spylls takes about 0.55 s to read the 86,000 entries of the French ``.dic`` (a first
lint, with no spelling cache yet, spends most of its time there, issue 22): for each
entry it parses the morphological tags (``po:nom is:mas``) and the flags again,
though a few hundred distinct ones make up the whole file.  :func:`read_dic` builds the
very same :class:`spylls.hunspell.data.dic.Dic` (the same entries, in the same order,
the same indexes) parsing each distinct tag string and flag string once, and lets
entries that share them share the parsed value: spylls only ever reads an entry's
``flags`` and ``data`` once the dictionary is read.  Any line it does not handle the
simple way (a tab, a backslash, a leading slash, ``ph:`` alternative spellings, which
add to the .aff's replacement table) is read by spylls's own code.

It is used only with the spylls whose reader it mirrors: the installed reader's
files must have the digest of :data:`MIRRORED` (:func:`mirrors_installed_spylls`),
or spylls reads the dictionary itself.  ``tests/languages/test_hunspell_files.py`` compares both
readers on every dictionary installed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

#: The digest of the spylls files whose reading :func:`read_dic` mirrors
#: (:data:`READER_FILES`), spylls 0.1.7 from PyPI.
MIRRORED = frozenset({"9e55d24a4eea1adb"})
#: The spylls files, under ``spylls/hunspell``, that define what reading a .dic means.
READER_FILES = ("readers/dic.py", "readers/file_reader.py", "data/dic.py")
_BOM = "\xef\xbb\xbf"  # what spylls's file reader strips from a first line
#: The tags of an entry without any (spylls reads an entry's tags, never changes them).
_NO_TAGS: Any = {}


def load(base: Path) -> Any:
    """The spylls dictionary of ``base``.aff and ``base``.dic, the .dic read by
    :func:`read_dic` when it mirrors the installed spylls."""
    from spylls.hunspell import Dictionary, readers  # noqa: PLC0415
    from spylls.hunspell.readers.file_reader import FileReader  # noqa: PLC0415

    if not mirrors_installed_spylls():
        return Dictionary.from_files(str(base))
    aff, context = readers.read_aff(FileReader(str(base) + ".aff"))
    return Dictionary(aff, read_dic(Path(str(base) + ".dic"), aff, context))


@cache
def mirrors_installed_spylls() -> bool:
    """Is the installed spylls's .dic reader the one :func:`read_dic` mirrors?"""
    return reader_digest() in MIRRORED


def reader_digest() -> str:
    """A digest of the installed spylls's :data:`READER_FILES` (``-`` when missing)."""
    spec = find_spec("spylls.hunspell")
    if spec is None or spec.origin is None:
        return "-"
    package = Path(spec.origin).parent
    digest = hashlib.sha256()
    try:
        for name in READER_FILES:
            digest.update((package / name).read_bytes())
    except OSError:
        return "-"
    return digest.hexdigest()[:16]


def read_dic(path: Path, aff: Any, context: Any) -> Any:
    """The :class:`~spylls.hunspell.data.dic.Dic` that spylls's ``read_dic`` makes of
    the .dic file ``path`` (with the ``aff`` and ``context`` of its .aff)."""
    from spylls.hunspell.algo.capitalization import Type  # noqa: PLC0415
    from spylls.hunspell.data.dic import Dic, Word  # noqa: PLC0415
    from spylls.hunspell.readers import dic as spylls  # noqa: PLC0415

    with path.open(encoding=context.encoding, errors="surrogateescape") as file:
        text = file.read()
    result = Dic(words=[])
    words, index, lowercase = result.words, result.index, result.lowercase_index
    tags_in, guess, lower_of = spylls.TAG_REGEXP.search, aff.casing.guess, aff.casing.lower
    ignore = context.ignore.tr if context.ignore else None
    datas: dict[str, Any] = {}
    flag_sets: dict[str, set[str]] = {}
    for line in _entries(text):
        if "\t" in line or "\\" in line or line[0] == "/" or " ph:" in line:
            _read_by_spylls(line, aff, context, result)
            continue
        word, data = line, _NO_TAGS
        found = tags_in(line)
        if found:
            word, tags = line[: found.start()], line[found.start() :]
            data = datas.get(tags)
            if data is None:
                data = datas[tags] = spylls.parse_data(tags, aff.AM)
            if "ph" in data:  # an alias (AM) that stands for ph:
                _read_by_spylls(line, aff, context, result)
                continue
        parts = word.split("/", 2)
        word, flags = parts if len(parts) == 2 else (word, "")
        if ignore is not None:
            word = word.translate(ignore)
        flag_set = flag_sets.get(flags)
        if flag_set is None:
            flag_set = flag_sets[flags] = {*context.parse_flags(flags)}
        captype = guess(word)
        entry = Word(word, flag_set, data, [], captype)
        words.append(entry)
        index[word].append(entry)
        # spylls indexes a word without capitals under each of its letters: so here
        for lower in lower_of(word) if captype != Type.NO else word:
            lowercase[lower].append(entry)
    return result


def _entries(text: str) -> Iterator[str]:
    """The lines of a .dic file as spylls's reader gives them: stripped, without the
    empty ones, nor a first line that counts the entries (or its byte-order mark as
    spylls sees one)."""
    from spylls.hunspell.readers.dic import COUNT_REGEXP  # noqa: PLC0415

    lines = text.split("\n")  # as readline() splits, after the universal newlines
    first = lines[0].replace(_BOM, "") if lines[0].startswith(_BOM) else lines[0]
    lines[0] = "" if COUNT_REGEXP.match(first.strip()) else first
    return (line for line in map(str.strip, lines) if line)


def _read_by_spylls(line: str, aff: Any, context: Any, into: Any) -> None:
    """Read one entry with spylls's own code (which may add to ``aff.REP``), and add
    it to ``into`` as spylls would have."""
    from spylls.hunspell.readers import dic as spylls  # noqa: PLC0415

    one = spylls.read_dic(iter([(2, line)]), aff=aff, context=context)
    for entry in one.words:
        into.words.append(entry)
        into.index[entry.stem].append(entry)
    for lower, entries in one.lowercase_index.items():
        into.lowercase_index[lower].extend(entries)
