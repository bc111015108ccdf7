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

from tests.conftest import ROOT
from tests.printkit import cmyk_profile
from translator.typeset.symbols import BLACK_INK, symbol_svg
from translator.typeset.theme import ThemeError, load_theme

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
def test_import_writes_a_theme_that_loads(tmp_path: Path, official_templates: Path) -> None:
    folder = official_templates
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
def test_import_never_replaces_a_directory_it_did_not_make(
    tmp_path: Path, official_templates: Path
) -> None:
    folder = official_templates
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", "utf-8")
    done = run("theme", "import-arcmage", str(folder), "--out", str(mine), "--no-progress")
    assert done.returncode == 2
    assert "not an imported theme" in done.stderr and "Traceback" not in done.stderr
    assert (mine / "notes.txt").read_text("utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


@pytest.mark.slow  # seconds, even alone: out of the quick loop
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
def server(official_templates: Path) -> Iterator[str]:
    """The template set served on 127.0.0.1, as an Aminduna server serves it."""
    folder = official_templates
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
def test_the_theme_prints_only_its_card_size(tmp_path: Path, arcmage_theme: Path) -> None:
    library = one_card(tmp_path, "courier")
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme),
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
def test_a_card_in_the_official_look(tmp_path: Path, arcmage_theme: Path) -> None:
    """Courier: a creature of the Empire with loyalty, two name lines, a column mark and
    the French footer, which is too long for its line beside the discs in Liberation Sans
    and is set in Liberation Sans Narrow instead of being refused."""
    library = one_card(tmp_path, "courier")
    out = tmp_path / "out"
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme),
        "--out",
        str(out),
        "--lang",
        "fr",
        "--format",
        "json",
        # The official templates print its reminder reversed under 7 pt: a preflight
        # warning, counted, which is the templates' and not this test's business.
        "--fail-on",
        "error",
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
def test_the_frame_is_converted_once(tmp_path: Path, arcmage_theme: Path) -> None:
    """The frames are RGB PNGs in the theme; the build prints them as CMYK JPEGs from
    the artwork cache, converted once (a second build finds them there)."""
    library = one_card(tmp_path, "courier", "mossgate")
    out = tmp_path / "out"
    first = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme),
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
        str(arcmage_theme),
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
def test_a_deck_holds_each_frame_once(tmp_path: Path, arcmage_theme: Path) -> None:
    library = one_card(tmp_path, "courier", "iron-legionnaire")  # two Empire creatures
    out = tmp_path / "out"
    done = run(
        "build",
        str(library),
        "--theme",
        str(arcmage_theme),
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
def test_symbols_take_the_text_colour_in_the_theme_only(arcmage_theme: Path) -> None:
    theme = arcmage_theme
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


# ------------------------------------------------ Aminduna JSON: translator import arcmage
# (the rest of the Aminduna import and export tests are in test_cards.py)


def aminduna(name: str, guid: str, lang: str = "en", **extra: object) -> dict[str, object]:
    """An Aminduna card as its API gives it (the keys an import reads)."""
    card: dict[str, object] = {
        "name": name,
        "firstName": name,
        "type": {"name": "Event"},
        "faction": {"name": "Gaian"},
        "status": {"name": "Draft"},
        "cost": "1",
        "markdownText": "Draw a card.",
        "language": {"name": lang, "languageCode": lang},
        "guid": guid,
    }
    card.update(extra)
    return card


def import_arcmage(tmp_path: Path, document: object, into: str) -> tuple[int, str, str]:
    """``translator import arcmage`` of one JSON file into ``tmp_path/cards/INTO``:
    (exit code, standard output, standard error)."""
    import contextlib
    import io

    from translator.cli import main

    path = tmp_path / "in" / f"{into}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", "arcmage", str(path), "--into", str(tmp_path / "cards" / into)], out)
    return code, out.getvalue(), err.getvalue()


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


GUIDS = [f"11111111-1111-4111-8111-{n:012d}" for n in range(1, 6)]


def test_an_import_says_which_cards_it_renamed_and_why(tmp_path: Path) -> None:
    code, out, err = import_arcmage(
        tmp_path,
        [aminduna("Sudden Bloom", GUIDS[0]), aminduna("Sudden Bloom!", GUIDS[1])],
        "gaian",
    )
    assert code == 0, err
    source = tmp_path / "in" / "gaian.json"
    assert (
        f"renamed 'Sudden Bloom!' ({source}) to sudden-bloom-2: the slug sudden-bloom is taken "
        f"by 'Sudden Bloom' of this import ({source})\n"
    ) in out
    assert out.count("renamed ") == 1
    # A slug another deck's card has: renamed, naming that card's file.
    code, out, err = import_arcmage(tmp_path, [aminduna("Sudden Bloom", GUIDS[2])], "other")
    assert code == 0, err
    taken = tmp_path / "cards" / "gaian" / "sudden-bloom.en.md"
    assert f"to sudden-bloom-3: the slug sudden-bloom is taken by {taken}\n" in out
    assert (tmp_path / "cards" / "other" / "sudden-bloom-3.en.md").is_file()
    # Re-importing a card (same guid) renames nothing.
    code, out, err = import_arcmage(tmp_path, [aminduna("Sudden Bloom", GUIDS[0])], "gaian")
    assert code == 0 and "renamed" not in out, err


def test_a_card_of_another_deck_is_refused_and_nothing_written(tmp_path: Path) -> None:
    code, _, err = import_arcmage(tmp_path, [aminduna("Sudden Bloom", GUIDS[0])], "gaian")
    assert code == 0, err
    before = files_under(tmp_path / "cards")
    code, out, err = import_arcmage(
        tmp_path,
        {
            "name": "Mixed",
            "deckCards": [
                {"quantity": 2, "card": aminduna("Sudden Bloom", GUIDS[0], cost="2")},
                {"quantity": 1, "card": aminduna("Fresh Card", GUIDS[1])},
            ],
        },
        "mixed",
    )
    assert code == 2 and out == ""
    lines = err.splitlines()
    problem = next(line for line in lines if "already in the library" in line)
    path = tmp_path / "cards" / "gaian" / "sudden-bloom.en.md"
    assert f"'Sudden Bloom' (guid {GUIDS[0]}) is already in the library, in deck 'gaian'" in problem
    assert f"({path})" in problem
    assert f"import it into that deck (--into {path.parent})" in problem
    assert problem.startswith(f"translator: {tmp_path / 'in' / 'mixed.json'}:")
    assert ":0:" not in problem  # the line of the card in the JSON file
    assert lines[-1] == "translator: nothing was imported; the library is unchanged"
    assert files_under(tmp_path / "cards") == before
    assert not (tmp_path / "cards" / "mixed").exists()


def test_a_translation_of_another_decks_card_writes_no_empty_deck_file(tmp_path: Path) -> None:
    code, _, err = import_arcmage(tmp_path, [aminduna("Sudden Bloom", GUIDS[0])], "gaian")
    assert code == 0, err
    translation = aminduna(
        "Floraison soudaine", GUIDS[1], "fr", masterCard={"guid": GUIDS[0]}, markdownText="Pioche."
    )
    code, out, err = import_arcmage(tmp_path, [translation], "other")
    assert code == 0, err
    assert f"created {tmp_path / 'cards' / 'gaian' / 'sudden-bloom.fr.md'}\n" in out
    assert "1 created, 0 updated" in out
    assert not (tmp_path / "cards" / "other").exists()


def test_export_creator_is_the_decks_or_the_reviewers_never_invented(tmp_path: Path) -> None:
    from translator import cards

    code, _, err = import_arcmage(
        tmp_path,
        {
            "name": "Blooms",
            "deckCards": [
                {"quantity": 1, "card": aminduna("Sudden Bloom", GUIDS[0])},
                {"quantity": 1, "card": aminduna("Late Bloom", GUIDS[1])},
            ],
        },
        "blooms",
    )
    assert code == 0, err
    directory = tmp_path / "cards" / "blooms"
    assert "creator" not in (directory / "deck.yaml").read_text("utf-8")

    def exported(lang: str) -> tuple[dict[str, object], str]:
        library, problems = cards.load_library([str(directory)])
        assert problems == []
        return cards.export_deck(library, "blooms", lang)

    # Nobody named: no creator, and deck.txt says no "by".
    data, deck_txt = exported("fr")
    assert "creator" not in data and deck_txt.splitlines()[0] == "# Blooms"
    assert "translator" not in deck_txt.splitlines()[0]
    # A translation's reviewer names one.
    (directory / "late-bloom.fr.md").write_text(
        "---\nname: Floraison tardive\nreviewed: '2026-11-30'\nreviewer: Ana\n---\nPioche.\n",
        "utf-8",
    )
    data, deck_txt = exported("fr")
    assert data["creator"] == {"name": "Ana"} and list(data)[-1] == "creator"
    assert deck_txt.splitlines()[0] == "# Blooms by Ana"
    assert "creator" not in exported("en")[0]  # the English has no reviewer
    # The deck file's creator comes first.
    deck_file = directory / "deck.yaml"
    deck_file.write_text(
        deck_file.read_text("utf-8").replace("name: Blooms\n", "name: Blooms\ncreator: Bo\n"),
        "utf-8",
    )
    data, deck_txt = exported("fr")
    assert data["creator"] == {"name": "Bo"} and deck_txt.startswith("# Blooms by Bo\n")


def test_import_keeps_the_creator_aminduna_gives(tmp_path: Path) -> None:
    document = {
        "name": "Blooms",
        "deckCards": [{"quantity": 1, "card": aminduna("Sudden Bloom", GUIDS[0])}],
        "creator": {"name": "Some One", "guid": GUIDS[4]},
    }
    code, _, err = import_arcmage(tmp_path, document, "blooms")
    assert code == 0, err
    deck_yaml = yaml.safe_load((tmp_path / "cards" / "blooms" / "deck.yaml").read_text("utf-8"))
    assert deck_yaml["creator"] == "Some One"
