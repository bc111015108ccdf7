"""Reading a Hunspell dictionary faster than spylls (issue 22): the very dictionary
spylls reads, on every dictionary installed, and spylls's own reading when the installed
spylls is not the one mirrored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from translator.lint import hunspell_files, spelling


def installed() -> list[str]:
    return [lang for lang in ("fr", "eo", "en") if spelling.find_dictionary(lang) is not None]


@pytest.fixture
def not_mirrored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The installed spylls taken for another release than the one mirrored."""
    hunspell_files.mirrors_installed_spylls.cache_clear()
    monkeypatch.setattr(hunspell_files, "MIRRORED", frozenset())
    yield
    hunspell_files.mirrors_installed_spylls.cache_clear()


#: A spylls release whose reader this module does not mirror: spelling then reads the
#: dictionaries with spylls itself (correct, slower), and these tests are skipped, so
#: that a new spylls on PyPI does not fail a fresh CI run; compare its .dic reader with
#: :func:`read_dic`, then add its digest to ``MIRRORED``.
UNMIRRORED = pytest.mark.skipif(
    not hunspell_files.mirrors_installed_spylls(),
    reason="the installed spylls is not the one hunspell_files mirrors: it reads itself",
)


@UNMIRRORED
def test_the_installed_spylls_is_the_one_mirrored() -> None:
    assert hunspell_files.reader_digest() in hunspell_files.MIRRORED
    assert hunspell_files.mirrors_installed_spylls()


@UNMIRRORED
@pytest.mark.parametrize("lang", installed())
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_the_same_dictionary_as_spylls_reads(lang: str) -> None:
    """The same entries (stem, flags, tags, case) in the same order, the same indexes
    (of stems and of lower-case stems), the same replacement table of the .aff."""
    from spylls.hunspell import readers
    from spylls.hunspell.readers.file_reader import FileReader

    base = spelling.find_dictionary(lang)
    assert base is not None
    aff, context = readers.read_aff(FileReader(f"{base}.aff"))
    theirs = readers.read_dic(
        FileReader(f"{base}.dic", encoding=context.encoding), aff=aff, context=context
    )
    our_aff, our_context = readers.read_aff(FileReader(f"{base}.aff"))
    ours = hunspell_files.read_dic(Path(f"{base}.dic"), our_aff, our_context)
    assert len(ours.words) == len(theirs.words) > 1000
    assert ours.words == theirs.words
    assert list(ours.index.items()) == list(theirs.index.items())
    assert list(ours.lowercase_index.items()) == list(theirs.lowercase_index.items())
    assert our_aff.REP == aff.REP


@UNMIRRORED
def test_lines_spylls_reads_its_own_way(tmp_path: Path) -> None:
    """Entries with a tab, an escaped slash, a leading slash, alternative spellings
    (ph:, which add to the .aff's replacement table) or an alias of tags: read as
    spylls reads them."""
    from spylls.hunspell import readers
    from spylls.hunspell.readers.file_reader import FileReader

    (tmp_path / "x.aff").write_text(
        "SET UTF-8\nAM 2\nAM po:nom\nAM ph:kat\nSFX S Y 1\nSFX S 0 s .\n", encoding="utf-8"
    )
    (tmp_path / "x.dic").write_text(
        "9\nchat/S po:nom\ncat/S ph:kat\nwhich ph:wich\npretty ph:prity*\nhappy ph:hepi->happi\n"
        "tab/S\tpo:nom\nand\\/or/S\n/slash\nchien/S po:nom 2\nnoms/S 1\nParis\nÉTÉ/S\na/b/c\n",
        encoding="utf-8",
    )
    base = tmp_path / "x"
    aff, context = readers.read_aff(FileReader(f"{base}.aff"))
    theirs = readers.read_dic(FileReader(f"{base}.dic", encoding="utf-8"), aff=aff, context=context)
    our_aff, our_context = readers.read_aff(FileReader(f"{base}.aff"))
    ours = hunspell_files.read_dic(Path(f"{base}.dic"), our_aff, our_context)
    assert ours.words == theirs.words and len(ours.words) == 13
    assert list(ours.index.items()) == list(theirs.index.items())
    assert list(ours.lowercase_index.items()) == list(theirs.lowercase_index.items())
    assert our_aff.REP == aff.REP and len(aff.REP) > len(
        readers.read_aff(FileReader(f"{base}.aff"))[0].REP
    )


@pytest.mark.skipif("eo" not in installed(), reason="no Esperanto dictionary")
@pytest.mark.usefixtures("not_mirrored")
def test_another_spylls_reads_the_dictionary_itself() -> None:
    base = spelling.find_dictionary("eo")
    assert base is not None
    assert not hunspell_files.mirrors_installed_spylls()
    dictionary = hunspell_files.load(base)
    assert dictionary.lookup("domo") and not dictionary.lookup("domoxq")
