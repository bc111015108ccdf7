"""Fitting kept across builds (translator/typeset/fits.py): a card built again from the
same inputs, into another folder, takes the answer an earlier build found and is laid
out once; the answer is the same as fitting it from the start, and an answer that no
longer fits, a record written by another hand or of another shape is never used."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.printkit import cmyk_profile, sample_deck
from translator import cache, cards
from translator.pdf.sizes import PRESETS
from translator.typeset import build, fits, render
from translator.typeset.options import BuildOptions

cmyk_profile()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> cards.Library:
    """Two sample cards whose French text shrinks in the default look, and one that fits."""
    return sample_deck(
        tmp_path_factory.mktemp("fits") / "deck", ("tide-warden", "courier", "flame-lash")
    )


def _build(library: cards.Library, out: Path) -> dict[str, tuple]:
    options = BuildOptions(PRESETS["arcmage"], jobs=1, cache_dir=out / ".cache")
    return {
        r.slug: (r.scale, r.overflow, r.elements)
        for r in build.build_cards(library, "fr", out, options, force=True)
    }


def _count_pages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Each render's (pages, measuring), from now on."""
    renders: list[tuple[int, bool]] = []
    original = render.Renderer.render

    def counted(self: render.Renderer, pages: list, measure: bool = False) -> object:
        renders.append((len(pages), measure))
        return original(self, pages, measure)

    monkeypatch.setattr(render.Renderer, "render", counted)
    return renders


@pytest.fixture(scope="module")
def fitted(
    library: cards.Library, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, tuple], dict, Path]:
    """The library built once with a cache folder of its own, every card fitted: (the
    answers, the record of them it kept, that cache folder)."""
    folder = tmp_path_factory.mktemp("fitted")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRANSLATOR_CACHE", str(folder / "user-cache"))
        renders = _count_pages(patch)
        answers = _build(library, folder / "out")
    assert len(renders) > 1  # something shrank: measured and laid out again
    assert any(scale < 1 for scale, _, _ in answers.values())
    record = folder / "user-cache" / fits.FOLDER / fits.FILE
    return answers, json.loads(record.read_text(encoding="utf-8")), folder / "user-cache"


@pytest.fixture
def own_cache(fitted: tuple[dict, dict, Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache folder :func:`fitted` used (its seal key: what its record is sealed
    with), with no record of answers: each test writes the one it needs."""
    folder = fitted[2]
    monkeypatch.setenv("TRANSLATOR_CACHE", str(folder))
    (folder / fits.FOLDER / fits.FILE).unlink(missing_ok=True)
    return folder


def _keep(own_cache: Path, document: dict) -> None:
    record = own_cache / fits.FOLDER / fits.FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(document), encoding="utf-8")


def test_a_build_into_another_folder_lays_each_card_out_once(
    library: cards.Library,
    fitted: tuple[dict, dict, Path],
    tmp_path: Path,
    own_cache: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected, document, _ = fitted
    assert len(document["cards"]) == 3 and cache.verified(document) is not None
    _keep(own_cache, document)
    renders = _count_pages(monkeypatch)
    assert _build(library, tmp_path / "two") == expected  # scales, sizes, boxes
    assert renders == [(3, False)]


def test_the_answers_are_those_of_fitting_from_the_start(
    library: cards.Library,
    fitted: tuple[dict, dict, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")  # no record: every card fitted
    assert _build(library, tmp_path / "cold") == fitted[0]


def test_an_answer_that_does_not_fit_is_fitted_again(
    library: cards.Library, fitted: tuple[dict, dict, Path], tmp_path: Path, own_cache: Path
) -> None:
    expected, document, _ = fitted
    document = json.loads(json.dumps(document))
    for entry in document["cards"].values():
        entry[0] = 1.0  # every text at full size: the shrunk ones overflow
    _keep(own_cache, cache.sealed(document))
    assert len(fits.read(document["cards"])) == 3
    assert _build(library, tmp_path / "two") == expected
    # The answers found anew replace the wrong ones: the next build lays each card out once.
    right = {name: fits.Fitted.made(*value) for name, value in fitted[1]["cards"].items()}
    assert fits.read(right) == right


@pytest.mark.parametrize(
    "change",
    ["unsealed", "other-shape", "unknown-element", "scale-above-one", "nan", "other-format"],
)
def test_a_record_not_to_be_trusted_is_no_record(
    fitted: tuple[dict, dict, Path], own_cache: Path, change: str
) -> None:
    document = json.loads(json.dumps(fitted[1]))
    entries = document["cards"]
    for name in entries:
        entries[name] = {
            "other-shape": {"scale": 0.52},
            "unknown-element": [0.52, {"text": 0.5}, []],
            "scale-above-one": [1.5, {}, []],
            "nan": [float("nan"), {}, []],
        }.get(change, [0.52, {}, []])
    if change == "other-format":
        document["format"] = 2
    if change == "unsealed":
        document.pop(cache.SEAL)
    else:
        document = cache.sealed(document)
    _keep(own_cache, document)
    assert fits.read(entries) == {}
    if change == "other-shape":  # the same record as written, sealed: read back
        _keep(own_cache, cache.sealed(fitted[1]))
        assert len(fits.read(entries)) == 3


def test_no_cache_folder_keeps_nothing(
    library: cards.Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    assert not fits.keep({"a" * 64: fits.Fitted(0.9)})
    assert fits.read(["a" * 64]) == {}


def test_the_key_names_the_layout_engine() -> None:
    from translator.typeset import weasy

    assert weasy.engine().startswith("WeasyPrint ")
    assert "Pango" in weasy.engine()
    assert fits.key("x" * 64) != fits.key("y" * 64)


@pytest.mark.parametrize("odd", ["link-out", "fifo"])
def test_a_link_or_a_fifo_in_the_records_place_is_neither_read_nor_written_through(
    own_cache: Path, tmp_path: Path, odd: str
) -> None:
    record = own_cache / fits.FOLDER / fits.FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    if odd == "link-out":
        record.symlink_to(outside)
    else:
        os.mkfifo(record)
    assert fits.read(["a" * 64]) == {}  # no hang on the FIFO, nothing read through the link
    assert fits.keep({"a" * 64: fits.Fitted(0.9)})
    assert record.is_file() and not record.is_symlink()
    assert outside.read_text(encoding="utf-8") == "{}"
    assert fits.read(["a" * 64]) == {"a" * 64: fits.Fitted(0.9)}
