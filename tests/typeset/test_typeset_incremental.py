"""Incremental builds: a rebuild renders only the cards whose inputs changed (the card,
its English source, its artwork, the theme, the settings) or whose PDF is no longer the
one built, never trusts a record an interrupted build could have left stale, and a
Ctrl-C leaves no half-written file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.lintkit import copy_sample, edit
from tests.printkit import cmyk_profile
from translator import __version__, cards
from translator.pdf.sizes import PRESETS
from translator.typeset import build as typeset
from translator.typeset import manifest, results
from translator.typeset.options import BuildOptions

cmyk_profile()
pytestmark = pytest.mark.slow  # every test builds cards, once or twice

SLUGS = ["courier", "flame-lash", "mossgate", "harbor-lord"]
#: Seconds a build may take to write its first PDF (start-up, artwork, the workers'
#: fonts) on a busy machine before the Ctrl-C test fails rather than signal too early.
READY_TIMEOUT = 300


def build(library_dir: Path, out: Path, **settings: object) -> dict[str, results.CardResult]:
    library, problems = cards.load_library([str(library_dir)])
    assert not problems
    force = bool(settings.pop("force", False))
    options = BuildOptions(PRESETS["arcmage"], jobs=1, cache_dir=out / ".cache", **settings)  # type: ignore[arg-type]
    results = typeset.build_cards(library, "fr", out, options, slugs=SLUGS, force=force)
    return {r.slug: r for r in results}


def rendered(results: dict[str, results.CardResult]) -> set[str]:
    return {slug for slug, r in results.items() if not r.reused}


@pytest.fixture
def sample(tmp_path: Path) -> tuple[Path, Path]:
    library_dir = copy_sample(tmp_path)
    out = tmp_path / "out"
    assert rendered(build(library_dir, out)) == set(SLUGS)
    return library_dir, out


def test_a_rebuild_without_change_renders_nothing(sample: tuple[Path, Path]) -> None:
    library_dir, out = sample
    times = {p.name: p.stat().st_mtime_ns for p in out.glob("*.pdf")}
    results = build(library_dir, out)
    assert rendered(results) == set()
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.pdf")} == times
    assert all(r.path and Path(r.path).is_file() for r in results.values())
    record = json.loads((out / manifest.MANIFEST).read_text("utf-8"))
    assert set(record["outputs"]) == {f"{slug}.fr.pdf" for slug in SLUGS}


def test_only_what_depends_on_a_change_is_rendered(sample: tuple[Path, Path]) -> None:
    library_dir, out = sample
    edit(library_dir / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    assert rendered(build(library_dir, out)) == {"courier"}
    # The English source of a card is an input of its translation.
    edit(library_dir / "flame-lash.en.md", "damage", "damage ")
    assert rendered(build(library_dir, out)) == {"flame-lash"}
    # A lost output is made again, alone.
    (out / "mossgate.fr.pdf").unlink()
    assert rendered(build(library_dir, out)) == {"mossgate"}


def test_a_pdf_that_is_not_what_was_built_is_rendered_again(sample: tuple[Path, Path]) -> None:
    """A card's PDF whose bytes are not those the record keeps (changed in place, its
    size and time kept) is rendered again, however unchanged its inputs; so is one
    replaced by a link to the PDF of another card."""
    library_dir, out = sample
    pdf = out / "courier.fr.pdf"
    info = pdf.stat()
    data = bytearray(pdf.read_bytes())
    data[len(data) // 2] ^= 0xFF
    pdf.write_bytes(bytes(data))
    os.utime(pdf, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert rendered(build(library_dir, out)) == {"courier"}
    assert manifest.read(out)[pdf.name]["output"] == manifest.file_digest(pdf)
    (out / "mossgate.fr.pdf").unlink()
    (out / "mossgate.fr.pdf").symlink_to(out / "flame-lash.fr.pdf")
    assert rendered(build(library_dir, out)) == {"mossgate"}
    assert not (out / "mossgate.fr.pdf").is_symlink()
    assert rendered(build(library_dir, out)) == set()


def test_settings_and_force_rebuild_everything(sample: tuple[Path, Path]) -> None:
    library_dir, out = sample
    assert rendered(build(library_dir, out, floor=0.6)) == set(SLUGS)
    assert rendered(build(library_dir, out, floor=0.6)) == set()
    assert rendered(build(library_dir, out, floor=0.6, force=True)) == set(SLUGS)


def test_a_theme_change_rebuilds_everything(sample: tuple[Path, Path], tmp_path: Path) -> None:
    library_dir, out = sample
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text("name: mine\n", encoding="utf-8")
    assert rendered(build(library_dir, out, theme_dir=str(theme))) == set(SLUGS)
    (theme / "card.css.j2").write_text("/* nothing new */\n", encoding="utf-8")
    assert rendered(build(library_dir, out, theme_dir=str(theme))) == set(SLUGS)


def test_a_language_data_change_rebuilds_everything(
    sample: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typography and hyphenation come from the language's data files: a change to
    one of them prints differently, so the build's record must notice it."""
    from translator import languages

    library_dir, out = sample
    data = tmp_path / "language.yaml"
    data.write_text("# one\n", encoding="utf-8")
    monkeypatch.setattr(type(languages.get("fr")), "data_files", lambda self: [data])
    assert rendered(build(library_dir, out)) == set(SLUGS)
    assert rendered(build(library_dir, out)) == set()
    data.write_text("# two\n", encoding="utf-8")
    assert rendered(build(library_dir, out)) == set(SLUGS)


def test_a_damaged_record_means_a_full_rebuild(sample: tuple[Path, Path]) -> None:
    library_dir, out = sample
    (out / manifest.MANIFEST).write_text("{not json", encoding="utf-8")
    assert rendered(build(library_dir, out)) == set(SLUGS)
    assert json.loads((out / manifest.MANIFEST).read_text("utf-8"))["format"] == manifest.FORMAT


def test_an_interrupted_build_does_not_vouch_for_what_it_wrote(sample: tuple[Path, Path]) -> None:
    """Change a card, stop the build right after its PDF is written, revert the change:
    the record must not say the new PDF is the old card's."""
    library_dir, out = sample
    card = library_dir / "courier.fr.md"
    original = card.read_text(encoding="utf-8")
    edit(card, "pioche une carte", "pioche deux cartes")
    library, _ = cards.load_library([str(library_dir)])
    options = BuildOptions(PRESETS["arcmage"], jobs=1, cache_dir=out / ".cache")

    calls = []

    def interrupt(count: int) -> None:  # first the 3 cards kept, then the one rendered
        calls.append(count)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        typeset.build_cards(library, "fr", out, options, slugs=SLUGS, progress=interrupt)
    assert calls == [3, 1]
    assert "courier.fr.pdf" not in manifest.read(out)
    card.write_text(original, encoding="utf-8")
    assert rendered(build(library_dir, out)) == {"courier"}


def test_warnings_survive_a_rebuild(sample: tuple[Path, Path]) -> None:
    library_dir, out = sample
    Image.new("RGB", (40, 30), (200, 120, 40)).save(library_dir / "art" / "mossgate.jpg")
    first = build(library_dir, out)["mossgate"]
    assert not first.reused and any("ppi" in w for w in first.warnings)
    again = build(library_dir, out)["mossgate"]
    assert again.reused and again.warnings == first.warnings


def test_ctrl_c_leaves_no_half_written_file(tmp_path: Path) -> None:
    """A real build, interrupted from the keyboard (SIGINT to the process group, as a
    terminal sends it) once the first PDFs exist."""
    library_dir = copy_sample(tmp_path)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "translator.cli",
            "build",
            str(library_dir),
            "--lang",
            "all",
            "--out",
            str(out),
            "--jobs",
            "2",
            "--no-preflight",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    # Ready: the first PDF is in place (written whole, then renamed), so the build runs
    # with its workers.  Never signalled earlier, however long a busy machine takes.
    deadline = time.monotonic() + READY_TIMEOUT
    while not list(out.glob("*.pdf")):
        assert process.poll() is None, process.communicate()[1].decode()
        assert time.monotonic() < deadline, f"no PDF after {READY_TIMEOUT} s"
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    assert b"interrupted" in stderr and b"Traceback" not in stderr
    leftovers = [
        p.name
        for p in out.iterdir()
        if p.name.startswith(".") and p.name not in (manifest.MANIFEST, ".cache")
    ]
    assert leftovers == []
    pdfs = list(out.glob("*.pdf"))
    assert 0 < len(pdfs) < 72  # interrupted mid-way
    for pdf in pdfs:
        with pikepdf.open(pdf) as document:  # each one complete
            assert len(document.pages) == 1
    recorded = manifest.read(out)
    assert set(recorded) <= {p.name for p in pdfs}
    # The next build finishes the job and keeps what was recorded.
    library, _ = cards.load_library([str(library_dir)])
    options = BuildOptions(PRESETS["arcmage"], jobs=2, cache_dir=out / ".cache")
    results = typeset.build_cards(library, "fr", out, options)
    assert all(r.path for r in results)
    assert {r.slug for r in results if r.reused} == {
        name.split(".")[0] for name in recorded if name.endswith(".fr.pdf")
    }


def test_other_code_rebuilds_everything(
    sample: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF made by another version of translator's code (or of WeasyPrint) is made
    again, released or not."""
    library_dir, out = sample
    ours, renderer, _ = manifest.code_digest().split()
    assert (ours, renderer) == (__version__, metadata.version("weasyprint"))
    monkeypatch.setattr(manifest, "code_digest", lambda: "translator of tomorrow")
    assert rendered(build(library_dir, out)) == set(SLUGS)
    assert rendered(build(library_dir, out)) == set()


def test_sweep_removes_only_what_killed_builds_left(tmp_path: Path) -> None:
    """A killed build's temporary files go; a running build's (another process writing
    into the same directory) and files that are not ours stay."""
    from translator import atomic

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    left = tmp_path / f".courier.fr.pdf.{dead}.k2x9q_ab.tmp"
    running = tmp_path / f".flame-lash.fr.pdf.{os.getppid()}.z81mmq0c.tmp"
    mine = tmp_path / ".notes.tmp"
    for path in (left, running, mine):
        path.write_bytes(b"%PDF-1.4 half")
    atomic.sweep(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, mine.name])
    with atomic.replacing(tmp_path / "card.pdf", within=tmp_path) as temporary:
        assert f".card.pdf.{os.getpid()}." in temporary.name
        temporary.write_bytes(b"%PDF-1.4 whole")
    assert (tmp_path / "card.pdf").read_bytes() == b"%PDF-1.4 whole"
