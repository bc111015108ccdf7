"""``translator theme import-arcmage`` and the theme it makes, from the command line.

The official template set is reference material next to the checkout
(``../shared/arcmage-official``): the tests that need it skip without it.  The source
(folders, servers, caches) is tested in test_arcmage_source.py, the frames in
test_arcmage_raster.py, the layout in test_arcmage_layout_svg.py, the symbols in
test_arcmage_glyphs.py, the look itself in test_arcmage_look.py; here: the command, the
theme directory it writes, and what the build does with it.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pikepdf
import pytest
import yaml

from translator.typeset.symbols import BLACK_INK, symbol_svg
from translator.typeset.theme import ThemeError, load_theme

from .conftest import ROOT
from .printkit import arcmage_theme, cmyk_profile, official_templates

cmyk_profile()

_SCRIPT = Path(sys.executable).with_name("translator")
TRANSLATOR = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "translator"]
SAMPLE = ROOT / "cards" / "sample"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TRANSLATOR, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
        timeout=600,
    )


def one_card(tmp_path: Path, *slugs: str) -> Path:
    """A library holding only some sample cards (with their artwork)."""
    library = tmp_path / "library"
    library.mkdir()
    for slug in slugs:
        for path in SAMPLE.glob(f"{slug}.*.md"):
            (library / path.name).write_text(path.read_text("utf-8"), "utf-8")
    (library / "art").mkdir()
    for slug in slugs:
        for art in (SAMPLE / "art").glob(f"{slug}.*"):
            shutil.copyfile(art, library / "art" / art.name)
    (library / "deck.yaml").write_text(
        "name: Test\ncards:\n" + "".join(f"  {slug}: 1\n" for slug in slugs), "utf-8"
    )
    return library


# ------------------------------------------------------------------------ the command


@pytest.mark.slow
def test_import_writes_a_theme_that_loads(tmp_path: Path) -> None:
    folder = official_templates()
    out = tmp_path / "theme"
    done = run(
        "theme",
        "import-arcmage",
        str(folder),
        "--out",
        str(out),
        "--format",
        "json",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["theme"] == str(out.resolve())
    assert report["layouts"]["svg"] + report["layouts"]["defaults"] == 36
    assert report["layouts"]["svg"] == 6  # two factions x creature, city, magic in ../shared
    assert "g2" in report["symbols"] and "mc" in report["symbols"]
    theme = load_theme(out)
    assert theme.name == "Arcmage official look" and theme.size == "arcmage"
    assert theme.directories[1] == ROOT / "templates" / "arcmage"  # base: arcmage
    assert set(theme.extra_fonts) == {"caps", "footer", "narrow"}
    assert theme.back == (out / "back.png").resolve()
    assert set(theme.backgrounds) == {
        "Gaian",
        "Dark Legion",
        "Red Banner",
        "House of Nobles",
        "The Empire",
        "None",
    }
    # Several types share one template image: one frame file for them.
    gaian = theme.backgrounds["Gaian"]
    assert gaian["Magic"] == gaian["Event"] == gaian["Enchantment"]
    assert (out / "LICENSES").is_dir() and (out / "source.json").is_file()
    assert sorted(p.name for p in (out / "loyalty").iterdir()) == ["gaian.svg", "red-banner.svg"]
    # Positions are from the trim's corner: the template page is 0.5 and 1 mm outside.
    creature = theme.layout["gaian"]["creature"]
    assert creature["art"]["x"] == -0.5 and creature["art"]["y"] == -1.0
    assert creature["name"]["anchor"] == "end"
    assert creature["text"]["colour"] == [9.8, 10.2, 40.4, 0.0]  # #e6daa6 through SWOP
    assert theme.layout["gaian"]["magic"]["text"]["colour"] == [0, 0, 0, 100]  # near-black
    # Again into the same directory: replaced whole, nothing left beside it.
    again = run("theme", "import-arcmage", str(folder), "--out", str(out), "--no-progress")
    assert again.returncode == 0, again.stderr
    assert "Imported the official look" in again.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theme"]


@pytest.mark.slow
def test_import_never_replaces_a_directory_it_did_not_make(tmp_path: Path) -> None:
    folder = official_templates()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", "utf-8")
    done = run("theme", "import-arcmage", str(folder), "--out", str(mine), "--no-progress")
    assert done.returncode == 2
    assert "not an imported theme" in done.stderr and "Traceback" not in done.stderr
    assert (mine / "notes.txt").read_text("utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_a_bad_source_is_exit_2_in_one_line(tmp_path: Path) -> None:
    done = run(
        "theme",
        "import-arcmage",
        str(tmp_path / "nothing"),
        "--out",
        str(tmp_path / "theme"),
        "--no-progress",
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "theme").exists()


def test_help_has_an_example() -> None:
    done = run("theme", "import-arcmage", "--help")
    assert done.returncode == 0 and "example:" in done.stdout


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """The template set served on 127.0.0.1, as an Aminduna server serves it."""
    folder = official_templates()
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(_Quiet, directory=str(folder))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.slow
def test_import_from_a_server_into_the_users_themes(tmp_path: Path, server: str) -> None:
    """Without --out, into the user's data folder; then ``--theme arcmage`` finds it."""
    env = {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TRANSLATOR_CACHE": str(tmp_path / "cache" / "translator"),
    }
    done = run("theme", "import-arcmage", server, "--no-progress", env=env)
    assert done.returncode == 0, done.stderr
    theme = tmp_path / "data" / "translator" / "themes" / "arcmage"
    assert (theme / "theme.yaml").is_file()
    assert "--theme arcmage" in done.stdout
    assert any((tmp_path / "cache" / "translator").rglob("back.png"))  # kept for next time
    library = one_card(tmp_path, "courier")
    built = run(
        "build",
        str(library),
        "--theme",
        "arcmage",
        "--out",
        str(tmp_path / "out"),
        "--lang",
        "en",
        "--no-preflight",
        "--format",
        "json",
        env=env,
    )
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "out" / "courier.en.pdf").is_file()


# ---------------------------------------------------------------------- the build


@pytest.mark.slow
def test_the_theme_prints_only_its_card_size(tmp_path: Path) -> None:
    library = one_card(tmp_path, "courier")
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme()),
        "--size",
        "poker",
        "--out",
        str(tmp_path / "out"),
        "--no-preflight",
    )
    assert done.returncode == 2
    assert "theme.yaml: the theme" in done.stderr
    assert "is drawn for arcmage cards" in done.stderr and "--size arcmage" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_card_in_the_official_look(tmp_path: Path) -> None:
    """Courier: a creature of the Empire with loyalty, two name lines, a column mark and
    the French footer, which is too long for its line beside the discs in Liberation Sans
    and is set in Liberation Sans Narrow instead of being refused."""
    library = one_card(tmp_path, "courier")
    out = tmp_path / "out"
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme()),
        "--out",
        str(out),
        "--lang",
        "fr",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    [card] = report["cards"]
    assert card["errors"] == [] and card["pdf"]
    assert report["summary"]["preflight_errors"] == 0
    with pikepdf.open(out / "courier.fr.pdf") as pdf:
        fonts = {str(font.get("/BaseFont")) for font in pdf.pages[0].Resources.Font.values()}
    names = " ".join(fonts)  # WeasyPrint names them by their @font-face family
    for family in ("Card-Text-Bold", "Card-Caps", "Card-Footer-Narrow"):
        assert family in names, fonts


@pytest.mark.slow
def test_the_frame_is_converted_once(tmp_path: Path) -> None:
    """The frames are RGB PNGs in the theme; the build prints them as CMYK JPEGs from
    the artwork cache, converted once (a second build finds them there)."""
    library = one_card(tmp_path, "courier", "mossgate")
    out = tmp_path / "out"
    first = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme()),
        "--out",
        str(out),
        "--lang",
        "en",
        "--no-preflight",
    )
    assert first.returncode == 0, first.stderr
    cached = sorted((out / ".cache").glob("*.jpg"))
    second = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme()),
        "--out",
        str(out),
        "--lang",
        "en",
        "--no-preflight",
        "--force",
    )
    assert second.returncode == 0, second.stderr
    assert sorted((out / ".cache").glob("*.jpg")) == cached
    with pikepdf.open(out / "courier.en.pdf") as pdf:
        images = [
            x
            for x in pdf.pages[0].Resources.XObject.values()
            if x.get("/Subtype") == pikepdf.Name.Image
        ]
        assert any(i.ColorSpace == pikepdf.Name.DeviceCMYK and i.Width >= 1500 for i in images)


@pytest.mark.slow
def test_a_deck_holds_each_frame_once(tmp_path: Path) -> None:
    library = one_card(tmp_path, "courier", "iron-legionnaire")  # two Empire creatures
    out = tmp_path / "out"
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme()),
        "--out",
        str(out),
        "--lang",
        "en",
        "--deck",
        "--no-preflight",
    )
    assert done.returncode == 0, done.stderr
    [deck] = out.glob("*.deck.pdf")
    with pikepdf.open(deck) as pdf:
        frames = {
            x.objgen
            for page in pdf.pages
            for x in page.Resources.get("/XObject", {}).values()
            if x.get("/Subtype") == pikepdf.Name.Image and x.Width >= 1500
        }
        fronts = [page for page in pdf.pages if "/XObject" in page.Resources]
    assert len(fronts) >= 3
    assert len(frames) == 2, frames  # the Empire creature's frame and the back


# ------------------------------------------------------------------- theme plumbing


@pytest.mark.slow
def test_symbols_take_the_text_colour_in_the_theme_only() -> None:
    theme = arcmage_theme()
    ink = "device-cmyk(0.098 0.102 0.404 0)"
    own = symbol_svg("g2", theme_dir=theme, ink=ink)
    assert ink in own and BLACK_INK not in own
    shipped = symbol_svg("g2", ink=ink)  # the default theme's disc keeps black and white
    assert ink not in shipped and BLACK_INK in shipped


def test_a_layout_value_is_checked(tmp_path: Path) -> None:
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text(
        yaml.safe_dump(
            {
                "base": "arcmage",
                "layout": {
                    "gaian": {
                        "creature": {
                            "name": {"x": 60, "baseline": 45, "anchor": "right", "size": 13}
                        }
                    }
                },
            }
        ),
        "utf-8",
    )
    with pytest.raises(
        ThemeError,
        match=r"theme.yaml:\d+: layout.gaian.creature.name"
        r".anchor is 'right'.*start or middle or end",
    ):
        load_theme(theme)
    (theme / "theme.yaml").write_text(
        yaml.safe_dump(
            {
                "layout": {
                    "gaian": {"creature": {"text": {"x": 5, "y": 5000, "width": 50, "height": 30}}}
                }
            }
        ),
        "utf-8",
    )
    with pytest.raises(ThemeError, match=r"layout.gaian.creature.text.y is 5000"):
        load_theme(theme)


def test_a_bare_theme_name_that_is_not_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ThemeError, match="translator theme import-arcmage SOURCE"):
        load_theme("arcmage")
