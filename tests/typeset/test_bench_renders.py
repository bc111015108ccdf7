"""bench/renders.py: the render comparison that proves speed work left every card drawn
as it was.  Tiny PDFs (a square on a page), so that a moved square is a known change."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pikepdf
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _renders() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_renders", ROOT / "bench" / "renders.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


renders = _renders()


def square_pdf(path: Path, x: float = 10, pages: int = 1) -> Path:
    """A 72 x 72 pt page (or several) with a black 20 pt square ``x`` pt from the left."""
    pdf = pikepdf.new()
    for _ in range(pages):
        page = pdf.add_blank_page(page_size=(72, 72))
        page.Contents = pdf.make_stream(f"0 0 0 rg {x} 10 20 20 re f".encode())
    pdf.save(path)
    return path


@pytest.fixture
def build(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    square_pdf(folder / "a.fr.pdf")
    square_pdf(folder / "b.fr.pdf", pages=2)
    return folder


def run(*argv: str) -> int:
    return renders.main(list(argv))


def test_same_pages_compare_equal(build: Path, tmp_path: Path, capsys) -> None:
    baseline = tmp_path / "before.json"
    assert run("save", str(build), "--to", str(baseline), "--dpi", "72", "--jobs", "1") == 0
    saved = json.loads(baseline.read_text("utf-8"))
    assert [(p["file"], p["page"]) for p in saved["pages"]] == [
        ("a.fr.pdf", 1),
        ("b.fr.pdf", 1),
        ("b.fr.pdf", 2),
    ]
    assert saved["pages"][0]["size"] == [72.0, 72.0] and saved["pages"][0]["pixels"] == [72, 72]
    # The three pages are one picture: kept once.
    assert len(list(renders.pixels_folder(baseline).glob("*.png"))) == 1
    # Another folder with the same pages (other bytes: a new file) renders the same.
    other = tmp_path / "again"
    other.mkdir()
    square_pdf(other / "a.fr.pdf")
    square_pdf(other / "b.fr.pdf", pages=2)
    assert run("compare", str(other), "--with", str(baseline), "--jobs", "1") == 0
    assert "every page renders as in the baseline" in capsys.readouterr().out


def test_a_moved_square_is_a_difference_with_its_size(build: Path, tmp_path: Path, capsys) -> None:
    baseline = tmp_path / "before.json"
    run("save", str(build), "--to", str(baseline), "--dpi", "72", "--jobs", "1")
    square_pdf(build / "a.fr.pdf", x=12)  # 2 px to the right: 2 x 20 px change on each side
    (build / "b.fr.pdf").unlink()
    square_pdf(build / "c.fr.pdf")
    capsys.readouterr()
    assert run("compare", str(build), "--with", str(baseline), "--jobs", "2") == 1
    out = capsys.readouterr().out
    assert "a.fr.pdf page 1: max difference 255/255, 1.543% of pixels differ" in out  # 80 / 5184
    assert "b.fr.pdf page 1: in the baseline, not rendered now" in out
    assert "b.fr.pdf page 2: in the baseline, not rendered now" in out
    assert "c.fr.pdf page 1: new (not in the baseline)" in out
    assert out.rstrip().endswith("1 differ, 2 missing, 1 new")


def test_a_page_of_another_size_differs_whole(build: Path, tmp_path: Path, capsys) -> None:
    baseline = tmp_path / "before.json"
    run("save", str(build / "a.fr.pdf"), "--to", str(baseline), "--dpi", "72", "--jobs", "1")
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(80, 72))
    pdf.save(build / "a.fr.pdf")
    assert run("compare", str(build / "a.fr.pdf"), "--with", str(baseline), "--jobs", "1") == 1
    assert (
        "a.fr.pdf page 1: pixels differ; page size changed: 72 x 72 pt (72 x 72 px), "
        "now 80 x 72 pt (80 x 72 px)"
    ) in capsys.readouterr().out


def test_measure_counts_pixels_with_any_channel_changed() -> None:
    from PIL import Image

    before = Image.new("RGB", (10, 10), (255, 255, 255))
    after = before.copy()
    after.putpixel((0, 0), (255, 250, 255))
    after.putpixel((1, 0), (0, 255, 255))
    assert renders.measure(before, after) == (255, 0.02)


def test_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    assert run("save", str(tmp_path / "nothing"), "--to", str(tmp_path / "b.json")) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert run("save", str(tmp_path), "--to", str(tmp_path / "b.json")) == 2
    assert "no PDF in" in capsys.readouterr().err
    square_pdf(tmp_path / "a.pdf")
    assert run("compare", str(tmp_path), "--with", str(tmp_path / "missing.json")) == 2
    assert "cannot read the baseline" in capsys.readouterr().err
