"""The translation memory out to TMX and back (``translator export tmx``, ``translator
import tmx``): a file translate-toolkit (Weblate's reader) reads unit for unit, that
imported into a fresh library gives the same memory; foreign files (OmegaT's TMX 1.1,
other languages) read sensibly; untrusted files refused before they are parsed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from translate.storage.tmx import tmxfile

from tests.lintkit import run
from translator import cards
from translator.workflow import tmx
from translator.workflow.memory import NAME, build_memory
from translator.workflow.stored import load_memory

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

#: A TMX file as OmegaT writes one (TMX 1.1: ``lang``, upper case, region), with a
#: TMX 1.4 unit (``xml:lang``), a unit of another language pair, and a unit with an
#: inline code.
OMEGAT = """\
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx11.dtd">
<tmx version="1.1">
  <header creationtool="OmegaT" o-tmf="OmegaT TMX" adminlang="EN-US" datatype="plaintext"
    creationtoolversion="6.0.0" segtype="sentence" srclang="EN-US"/>
  <body>
    <tu>
      <tuv lang="EN-US">
        <seg>Herald deals 2 damage to target creature.</seg>
      </tuv>
      <tuv lang="FR-FR">
        <seg>Le héraut inflige 2 blessures à la créature ciblée.</seg>
      </tuv>
    </tu>
    <tu>
      <tuv xml:lang="en-GB">
        <seg>At the end of your turn, draw one card. Then discard one card.</seg>
      </tuv>
      <tuv xml:lang="fr_CA">
        <seg>À la fin de ton tour, pioche une carte. Puis défausse une carte.</seg>
      </tuv>
    </tu>
    <tu>
      <tuv lang="EN-US"><seg>Draw two cards.</seg></tuv>
      <tuv lang="DE-DE"><seg>Ziehe zwei Karten.</seg></tuv>
    </tu>
    <tu>
      <tuv lang="EN-US">
        <seg>Press <bpt i="1">&lt;b&gt;</bpt>here<ept i="1">&lt;/b&gt;</ept></seg>
      </tuv>
      <tuv lang="FR-FR">
        <seg>Appuie <bpt i="1">&lt;b&gt;</bpt>ici<ept i="1">&lt;/b&gt;</ept></seg>
      </tuv>
    </tu>
  </body>
</tmx>
"""


def fresh_library(directory: Path) -> Path:
    """A library with one English deck (``new/herald-2``, a copy of the second deck's
    herald) and no translation."""
    root = directory / "fresh"
    (root / "new").mkdir(parents=True)
    (root / "new" / "deck.yaml").write_text("name: New\ncards:\n  herald-2: 1\n", "utf-8")
    herald = Path("cards/second/herald.en.md").read_text("utf-8")
    (root / "new" / "herald-2.en.md").write_text(herald, "utf-8")
    return root


def memory_rows(root: Path) -> list[tuple[str, str, str, str | None, str | None]]:
    library, problems = cards.load_library([str(root)])
    assert not problems
    return [
        (u.kind, u.english, u.target, u.name, u.target_name)
        for u in load_memory(library, "fr").units()
    ]


def write(path: Path, text: str) -> str:
    path.write_text(text, "utf-8")
    return str(path)


# --------------------------------------------------------------------------------------
# Export


def test_export_is_read_by_translate_toolkit_unit_for_unit(library: Path) -> None:
    code, _ = run("export", "tmx", "cards", "--lang", "fr", "-o", "out/memory.fr.tmx")
    assert code == 0
    store = tmxfile.parsefile("out/memory.fr.tmx")
    header = store.document.getroot().find("header")
    assert header is not None
    assert (header.get("srclang"), header.get("creationtool")) == ("en", "translator")
    found = store.units
    loaded, _ = cards.load_library(["cards"])
    units = build_memory(loaded, "fr").units()
    assert len(found) == len(units) > 5
    for tu, unit in zip(found, units, strict=True):
        assert (tu.source, tu.target) == (unit.english, unit.target)
        assert [n.get(XML_LANG) for n in tu.getlanguageNodes()] == ["en", "fr"]
        props = {p.get("type"): p.text for p in tu.xmlelement.iter("prop")}
        assert props["x-kind"] == unit.kind
        assert (props["x-origin"], props["x-state"]) == (unit.origin.where, unit.origin.state)
        assert unit.origin.where in ("first/courier", "first/omen")
    # A text that printed its card's name: written as the card wrote it, the names kept.
    named = [tu for tu in found if tu.source == "Courier deals 1 damage to target creature."]
    assert named and named[0].target == "Messager inflige 1 blessure à la créature ciblée."
    props = {p.get("type"): p.text for p in named[0].xmlelement.iter("prop")}
    assert (props["x-name"], props["x-target-name"]) == ("Courier", "Messager")
    text = Path("out/memory.fr.tmx").read_text("utf-8")
    assert NAME not in text and "\ufffc" not in text
    # The stale card's text is not in it; its name (unchanged) is.
    assert "Au début" not in text and "<seg>Présage</seg>" in text


def test_export_to_standard_output_and_json_summary(library: Path) -> None:
    code, out = run("export", "tmx", "--lang", "fr")
    assert code == 0 and out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    assert out == run("export", "tmx", "cards", "--lang", "fr", "-o", "-")[1]
    code, summary = run("export", "tmx", "--lang", "fr", "-o", "m.tmx", "--format", "json")
    assert code == 0
    data = json.loads(summary)
    assert data["units"] == len(tmxfile.parsefile("m.tmx").units)
    loaded, _ = cards.load_library(["cards"])
    units = build_memory(loaded, "fr").units()
    assert data["kinds"]["sentence"] == sum(1 for u in units if u.kind == "sentence") > 1
    # omen is translated, not reviewed; its name is still its English's.
    assert data["states"] == {"reviewed": data["units"] - 1, "translated": 1}
    assert run("export", "tmx", "--lang", "fr", "--format", "json")[0] == 2
    assert run("export", "tmx", "--lang", "en", "-o", "m.tmx")[0] == 2


# --------------------------------------------------------------------------------------
# Import


def test_our_export_into_a_fresh_library_is_the_same_memory(library: Path) -> None:
    run("export", "tmx", "--lang", "fr", "-o", "memory.fr.tmx")
    fresh = fresh_library(library.parent)
    assert memory_rows(fresh) == []
    code, out = run("import", "tmx", "memory.fr.tmx", "--lang", "fr", "--library", str(fresh))
    assert code == 0, out
    stored = fresh / "memory" / "fr.tmx"
    assert stored.is_file()
    assert memory_rows(fresh) == memory_rows(library)
    fresh_library_, _ = cards.load_library([str(fresh)])
    assert {u.origin.state for u in load_memory(fresh_library_, "fr").units()} == {"imported"}
    # What it brings to the card to translate, and where to look.
    assert "new/herald-2 (missing): 3 exact, 2 fuzzy" in out
    assert f"see them: translator suggest new/herald-2 {fresh} --lang fr" in out
    # Imported again: nothing new, the file unchanged.
    before = stored.read_bytes()
    code, out = run("import", "tmx", "memory.fr.tmx", "--lang", "fr", "--library", str(fresh))
    assert code == 0
    assert out.startswith(f"added 0 units to {stored} (")
    assert stored.read_bytes() == before
    # suggest names the TMX file, and the card the unit came from.
    _, text = run("suggest", "new/herald-2", str(fresh), "--lang", "fr")
    assert f"exact: {stored}, imported (from first/courier)" in text


def test_a_foreign_tmx(library: Path) -> None:
    path = write(library.parent / "omegat.tmx", OMEGAT)
    code, out = run("import", "tmx", path, "--lang", "fr", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    # Two units, and the second one's two sentences.
    assert data["imported"] == 4
    assert data["skipped"] == {
        "other_language": 1,
        "untranslated": 0,
        "inline_codes": 1,
        "duplicates": 0,
    }
    units = tmx.read_units(library / "memory" / "fr.tmx", "fr")
    kinds = {u.english: u.kind for u in units}
    # No x-kind: one sentence is a sentence, several a paragraph.
    assert kinds == {
        "Herald deals 2 damage to target creature.": "sentence",
        "At the end of your turn, draw one card. Then discard one card.": "paragraph",
        "At the end of your turn, draw one card.": "sentence",
        "Then discard one card.": "sentence",
    }
    assert {u.origin.where for u in units} == {"omegat.tmx"}
    # herald's sentence now has an exact match, from the TMX file.
    # herald's sentence and watcher's paragraph (one of the file's sentences): exact.
    assert data["cards"] == [
        {"card": "second/herald", "state": "missing", "exact": 1, "fuzzy": 0},
        {"card": "second/watcher", "state": "missing", "exact": 1, "fuzzy": 0},
    ]
    _, text = run("suggest", "herald", "--lang", "fr")
    assert (
        "paragraph 2, sentence 2\n    Herald deals 2 damage to target creature.\n"
        "  exact: cards/memory/fr.tmx, imported (from omegat.tmx)\n"
        "      Le héraut inflige 2 blessures à la créature ciblée."
    ) in text


def test_what_other_writers_put_in_a_tmx_file(library: Path) -> None:
    """A public identifier in the document type, TMX's ``*all*`` source language, a
    unit twice, a unit without a segment or with an empty one."""
    text = """\
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx PUBLIC "-//LISA OSCAR:1998//DTD for Translation Memory eXchange//EN" "tmx14.dtd" >
<tmx version="1.4"><header srclang="*all*" creationtool="x" segtype="sentence" o-tmf="x"
adminlang="en" datatype="plaintext"/><body>
<tu><tuv xml:lang="en"><seg>Draw a card.</seg></tuv>
<tuv xml:lang="fr"><seg>Pioche une carte.</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Draw a card.</seg></tuv>
<tuv xml:lang="fr"><seg>Pioche une carte.</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg> </seg></tuv><tuv xml:lang="fr"><seg>Rien.</seg></tuv></tu>
<tu><tuv xml:lang="en"></tuv><tuv xml:lang="fr"><seg>Rien.</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Draw.</seg></tuv><tuv xml:lang="fr"><seg>Draw.</seg></tuv></tu>
</body></tmx>
"""
    path = write(library.parent / "other.tmx", text)
    code, out = run("import", "tmx", path, "--lang", "fr", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["imported"] == 1
    assert data["skipped"] == {
        "other_language": 0,
        "untranslated": 3,
        "inline_codes": 0,
        "duplicates": 1,
    }


def test_units_of_another_language_are_skipped(library: Path) -> None:
    path = write(library.parent / "omegat.tmx", OMEGAT)
    code, out = run("import", "tmx", path, "--lang", "eo")
    assert code == 0
    assert out.startswith("added 0 units to cards/memory/eo.tmx (0 in all); 0 already there, ")
    assert "skipped: 4 of another language\n" in out
    assert not (library / "memory").exists()


def test_the_source_language_must_be_english(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(library.parent / "de.tmx", OMEGAT.replace('srclang="EN-US"', 'srclang="de"'))
    assert run("import", "tmx", path, "--lang", "fr")[0] == 2
    err = capsys.readouterr().err
    assert f"{path}:5: the source language (the header's srclang) is 'de'" in err


def test_refused_translations_are_listed_and_the_others_imported(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = OMEGAT.replace("Le héraut inflige", "Le héraut\u200e inflige").replace(
        "Puis défausse", "Puis ~~défausse~~"
    )
    path = write(library.parent / "bad.tmx", text)
    code, out = run("import", "tmx", path, "--lang", "fr", "--dry-run")
    assert code == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"translator: refused {path}:7: 'Herald deals 2 damage")
    assert "U+200E LEFT-TO-RIGHT MARK" in err[0]
    assert err[1].startswith(f"translator: refused {path}:15: 'At the end of your turn")
    assert "breaks the card markup: MK205 strike-through (~~...~~) is not printed" in err[1]
    assert out.startswith("would add 0 units")
    assert not (library / "memory").exists()  # --dry-run


def test_the_dry_run_writes_nothing(library: Path) -> None:
    path = write(library.parent / "omegat.tmx", OMEGAT)
    code, out = run("import", "tmx", path, "--lang", "fr", "--dry-run")
    assert code == 0
    assert out.startswith("would add 4 units to cards/memory/fr.tmx (4 in all)")
    assert not (library / "memory").exists()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("<tmx><body><tu></body></tmx>", 1, "not a valid TMX file: "),
        (
            '<?xml version="1.0"?>\n<!DOCTYPE tmx [\n<!ENTITY a "aaaaaaaaaa">\n]>\n<tmx/>',
            2,
            "declares entities or a document type of its own",
        ),
        (
            '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<!ENTITY b SYSTEM "file:///etc/passwd">\n<tmx/>',
            2,
            "declares entities",
        ),
        (
            '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx><body><tu><tuv xml:lang="en">'
            "<seg>&b;</seg></tuv></tu></body></tmx>",
            2,
            "it uses the entity '&b;'",
        ),
        ('<?xml version="1.0"?>\n<xliff version="1.2"/>', 2, "its root element is 'xliff'"),
    ],
)
def test_untrusted_files_are_refused_before_anything_is_read(
    library: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, message: str
) -> None:
    path = write(library.parent / "bad.tmx", text)
    assert run("import", "tmx", path, "--lang", "fr")[0] == 2
    err = capsys.readouterr().err
    assert err.startswith(f"translator: {path}:{line}: ") and message in err, err
    assert len(err.splitlines()) == 1
    assert not (library / "memory").exists()


def test_too_big(
    library: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(library.parent / "omegat.tmx", OMEGAT)
    monkeypatch.setattr(tmx, "MAX_EXCHANGE_ENTRIES", 3)
    assert run("import", "tmx", path, "--lang", "fr")[0] == 2
    fourth = [n for n, line in enumerate(OMEGAT.splitlines(), 1) if "<tu>" in line][3]
    assert f"{path}:{fourth}: more than 3 units" in capsys.readouterr().err
    monkeypatch.setattr(tmx, "MAX_EXCHANGE_BYTES", 1000)
    assert run("import", "tmx", path, "--lang", "fr")[0] == 2
    assert "a TMX file is at most 1,000 bytes" in capsys.readouterr().err
    assert run("import", "tmx", "/dev/zero", "--lang", "fr")[0] == 2
    assert not (library / "memory").exists()


def test_the_memory_stays_inside_the_library(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, library / "memory")
    path = write(tmp_path / "omegat.tmx", OMEGAT)
    assert run("import", "tmx", path, "--lang", "fr")[0] == 2
    assert "leads out of the library" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_one_library_root(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fresh = fresh_library(library.parent)
    path = write(library.parent / "omegat.tmx", OMEGAT)
    args = ("import", "tmx", path, "--lang", "fr", "--library", "cards")
    assert run(*args, "--library", str(fresh / "new"))[0] == 2
    assert "give --library with the one whose memory this is" in capsys.readouterr().err
