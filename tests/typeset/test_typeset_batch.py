"""translator build as a production run, from the command line: several languages,
deck files, sheets, previews and the preflight of everything written; rebuilds that
remake only what a change touches; translator preflight."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.lintkit import SAMPLE, copy_sample, edit, run
from tests.printkit import cmyk_profile
from translator.cards import load_library
from translator.pdf import preflight
from translator.pdf.sizes import PRESETS
from translator.typeset import batch, manifest
from translator.typeset.build import build_cards
from translator.typeset.options import BuildOptions

cmyk_profile()
pytestmark = pytest.mark.slow  # builds every output in every language

CARDS = ["courier", "harbor-lord", "flame-lash"]  # 2 copies each in the sample deck
SELECT = [arg for slug in CARDS for arg in ("--card", slug)]
#: Every output, previews at a small size.
EVERYTHING = (
    "--lang",
    "all",
    "--deck",
    "--sheets",
    "a4",
    "--sheet-backs",
    "--png",
    "--webp",
    "--dpi",
    "48",
)
#: 64 x 90 mm (the trim) at 48 dpi.
PREVIEW = (round(64 / 25.4 * 48), round(90 / 25.4 * 48))


def build(library: Path, out: Path, *extra: str) -> tuple[int, str]:
    return run("build", str(library), "--out", str(out), *SELECT, *extra)


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int, str]:
    """Three cards in every language with every output, built once."""
    base = tmp_path_factory.mktemp("batch")
    library = copy_sample(base)
    out = base / "out"
    code, text = build(library, out, *EVERYTHING)
    return library, out, code, text


def copied(out: Path, tmp_path: Path) -> Path:
    """A copy of a build's output directory, to build into again."""
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    return copy


def mtimes(out: Path) -> dict[str, int]:
    return {
        str(p.relative_to(out)): p.stat().st_mtime_ns
        for p in out.rglob("*")
        if p.is_file() and ".cache" not in p.parts
    }


def test_every_output_in_every_language(produced: tuple[Path, Path, int, str]) -> None:
    _, out, code, text = produced
    assert code == 0, text
    for lang in ("en", "fr", "eo"):
        for slug in CARDS:
            assert (out / f"{slug}.{lang}.pdf").is_file()
            for kind in ("png", "webp"):
                with Image.open(out / kind / f"{slug}.{lang}.{kind}") as image:
                    assert image.size == PREVIEW  # cut at the trim, at the chosen dpi
        assert (out / f"sample.{lang}.deck.pdf").is_file()
        assert (out / f"sample.{lang}.sheets-a4.pdf").is_file()
    assert text.startswith(
        "9 cards in 3 languages (9 rendered, 0 up to date); 15 print files and 18 previews, "
    )
    assert text.rstrip().endswith("0 warnings; preflight: every file passes.")
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_the_deck_file_holds_each_card_by_its_quantity(
    produced: tuple[Path, Path, int, str],
) -> None:
    _, out, _, _ = produced
    with pikepdf.open(out / "sample.fr.deck.pdf") as deck:
        labels = [page.label for page in deck.pages]
        assert len(labels) == 12  # 3 cards x 2 copies, each followed by its back
        assert labels[:4] == [
            "harbor-lord.fr",
            "harbor-lord.fr back",
            "harbor-lord.fr",
            "harbor-lord.fr back",
        ]
        assert sorted(set(labels[::2])) == sorted(f"{slug}.fr" for slug in CARDS)
        assert deck.Root.OutputIntents[0].DestOutputProfile.N == 4
    with pikepdf.open(out / "sample.fr.sheets-a4.pdf") as sheets:
        assert [page.label for page in sheets.pages] == ["sheet 1", "sheet 1 back"]


def test_a_rebuild_without_change_writes_nothing(
    produced: tuple[Path, Path, int, str], tmp_path: Path
) -> None:
    library, out, _, _ = produced
    copy = copied(out, tmp_path)
    before = mtimes(copy)
    code, text = build(library, copy, *EVERYTHING)
    assert code == 0
    assert "(0 rendered, 9 up to date)" in text
    assert mtimes(copy) == before


def test_one_changed_card_remakes_only_what_holds_it(
    produced: tuple[Path, Path, int, str], tmp_path: Path
) -> None:
    library, out, _, _ = produced
    copy = copied(out, tmp_path)
    before = mtimes(copy)
    edit(library / "courier.fr.md", "pioche une carte", "pioche deux cartes")
    try:
        code, text = build(library, copy, *EVERYTHING)
    finally:
        edit(library / "courier.fr.md", "pioche deux cartes", "pioche une carte")
    assert code == 0 and "(1 rendered, 8 up to date)" in text
    after = mtimes(copy)
    changed = {name for name in before if after[name] != before[name]}
    assert changed == {
        "courier.fr.pdf",
        "png/courier.fr.png",
        "webp/courier.fr.webp",
        "sample.fr.deck.pdf",
        "sample.fr.sheets-a4.pdf",
        ".translator-build.json",
    }


def test_json_report(produced: tuple[Path, Path, int, str], tmp_path: Path) -> None:
    library, out, _, _ = produced
    copy = copied(out, tmp_path)
    code, text = build(library, copy, "--lang", "fr", "--deck", "--format", "json")
    data = json.loads(text)
    assert code == 0
    assert data["summary"]["cards"] == 3 and data["summary"]["preflight_errors"] == 0
    assert data["summary"]["pages"] == 3 + 12
    assert {c["card"] for c in data["cards"]} == set(CARDS)
    assert all(c["reused"] for c in data["cards"]) and data["summary"]["made"] == 0
    assert any(f.endswith("sample.fr.deck.pdf") for f in data["files"])


def test_the_preflight_fails_the_build_and_names_the_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = copy_sample(tmp_path)
    Image.new("RGB", (60, 40), (90, 140, 60)).save(library / "art" / "courier.jpg")
    code, text = run(
        "build", str(library), "--out", str(tmp_path / "out"), "--card", "courier", "--lang", "fr"
    )
    errors = capsys.readouterr().err
    assert code == 1
    assert "preflight: 1 error in 1 file." in text
    assert "courier.fr.pdf:1 (courier.fr): resolution:" in errors
    assert "ppi at print size (300 wanted)" in errors  # the build's own warning too


def _checked_here(paths: list[Path]) -> list[list[tuple[str, int]]]:
    """A stand-in check of each file: its name and the process that checked it."""
    return [[(path.name, os.getpid())] for path in paths]


def test_many_files_are_preflighted_by_the_workers_in_their_order() -> None:
    """The preflight of many files goes to the build's worker processes (not this
    one), every file once, the results in the order of the files; a few files are
    checked here."""
    paths = [Path(f"card-{index}.pdf") for index in range(batch.SHARED_PREFLIGHT * 2)]
    found = batch._shared(_checked_here, paths, 2)
    assert [name for [(name, _)] in found] == [path.name for path in paths]
    # Worker processes (which of the two takes each share is theirs to decide).
    assert os.getpid() not in {pid for [(_, pid)] in found}
    few = batch._shared(_checked_here, paths[:3], 2)
    assert {pid for [(_, pid)] in few} == {os.getpid()}


def test_a_preflight_shared_by_the_workers_finds_what_one_process_finds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """24 card PDFs are checked by the two worker processes that wrote them (each its
    own batches, build_cards' check): the same problems, on the same card, in the same
    order as one process finds."""
    library = copy_sample(tmp_path)
    Image.new("RGB", (60, 40), (90, 140, 60)).save(library / "art" / "courier.jpg")
    found = []
    for jobs in ("2", "1"):
        out = tmp_path / f"out-{jobs}"
        code, _ = run("build", str(library), "--out", str(out), "--lang", "fr", "--jobs", jobs)
        errors = capsys.readouterr().err
        assert code == 1
        found.append([line.replace(str(out), "OUT") for line in errors.splitlines()])
    assert found[0] == found[1]
    assert any("courier.fr.pdf:1 (courier.fr): resolution:" in line for line in found[0])


def _found_once(paths: list[Path]) -> list[list[preflight.Problem]]:
    """A stand-in check that finds one problem in each file, named by its process."""
    return [
        [preflight.Problem(str(path), 1, path.stem, "ink", "error", f"checked by {os.getpid()}")]
        for path in paths
    ]


def test_a_card_pdf_checked_by_its_worker_keeps_the_digest_of_its_bytes(tmp_path: Path) -> None:
    """build_cards' check runs in the worker that wrote the PDFs, and each result keeps
    the digest of the bytes that were checked, with what the check found."""
    library, _ = load_library([str(copy_sample(tmp_path))])
    options = BuildOptions(PRESETS["arcmage"], jobs=2, cache_dir=tmp_path / "cache")
    results = build_cards(library, "fr", tmp_path / "out", options, check=_found_once)
    assert len(results) == 24
    for result in results:
        assert result.checked is not None and result.path is not None
        stamp, [problem] = result.checked
        assert stamp == manifest.stamped(Path(result.path))
        assert stamp.digest == hashlib.sha256(Path(result.path).read_bytes()).hexdigest()
        assert problem.path == result.path
        assert problem.message != f"checked by {os.getpid()}"  # a worker's


def test_a_digest_vouched_for_holds_while_the_file_keeps_its_size_and_time(
    tmp_path: Path,
) -> None:
    """The build takes a worker's digest of a PDF it wrote (manifest.vouch) instead of
    reading the file again, as long as its size and time are those the worker saw."""
    path = tmp_path / "card.pdf"
    path.write_bytes(b"first")
    stamp = manifest.stamped(path)
    manifest.vouch(replace(stamp, digest="vouched"))
    assert manifest.file_digest(path) == "vouched"
    os.utime(path, ns=(stamp.mtime_ns + 10**9, stamp.mtime_ns + 10**9))  # touched
    assert manifest.file_digest(path) == hashlib.sha256(b"first").hexdigest()


def test_a_workers_check_counts_only_for_the_bytes_it_checked(tmp_path: Path) -> None:
    """The build takes a worker's findings for a card PDF whose bytes still have the
    digest checked; a file changed since (another digest) is checked again."""
    library = copy_sample(tmp_path)
    out = tmp_path / "out"
    code, _ = run("build", str(library), "--out", str(out), "--card", "courier", "--lang", "fr")
    assert code == 0
    path = out / "courier.fr.pdf"
    options = BuildOptions(PRESETS["arcmage"], cache_dir=tmp_path / "cache")
    request = batch.Request(["fr"], out, options, check=True)
    record = batch._Record(out.resolve(), force=False)
    record.outputs.pop(path.name)  # no build record of its check
    checks = [(path, True, "all")]
    fake = preflight.Problem(str(path), 1, "courier.fr", "ink", "error", "found by the worker")
    assert batch._preflight(record, checks, request, {path: ("other bytes", [fake])}) == []
    digest = manifest.file_digest(path)
    assert batch._preflight(record, checks, request, {path: (digest, [fake])}) == [fake]


def test_preflight_command(
    produced: tuple[Path, Path, int, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _, _ = produced
    deck = str(out / "sample.fr.deck.pdf")
    code, text = run("preflight", deck, "--size", "arcmage")
    assert code == 0, text
    code, text = run("preflight", deck, "--size", "poker")
    assert code == 1 and "(harbor-lord.fr): boxes:" in text
    garbage = tmp_path / "not.pdf"
    garbage.write_bytes(b"%PDF-1.4 nothing else")
    code, text = run("preflight", deck, str(garbage), "--format", "json")
    data = json.loads(text)
    assert code == 1
    assert [f["ok"] for f in data["files"]] == [True, False]
    assert data["files"][1]["problems"][0]["code"] == "unreadable"
    assert run("preflight", deck, "--ink-limit", "50")[0] == 2
    assert run("preflight", deck, "--size", "huge")[0] == 2
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sheet-backs"], "--sheet-backs goes with --sheets"),
        (["--lang", "de"], "--lang de: unknown language (known: en, fr, eo)"),
        (["--dpi", "5", "--png"], "--dpi is between"),
        (["--sheets", "a3"], "invalid choice"),
        (
            ["--card", "courrier"],
            "--card courrier: no such card in cards/sample (did you mean courier?)",
        ),
    ],
)
@pytest.mark.usefixtures("sample_here")  # the message names the deck as given
def test_usage_errors(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("build", "cards/sample", "--out", str(tmp_path / "out"), *args)
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_size_too_large_for_sheets_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(
        "build",
        str(SAMPLE),
        "--out",
        str(tmp_path / "out"),
        "--card",
        "courier",
        "--size",
        "90x120+3",
        "--sheets",
        "a4",
    )
    assert code == 2
    error = capsys.readouterr().err
    assert "translator: " in error and "Traceback" not in error


def test_a_card_not_translated_is_not_printed_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A French build with an untranslated card does not print it in English (a paid
    misprint) unless asked: --fallback en prints the English card and the summary
    says so.  (The deck files: tests/workflow/test_workflow_states_cli.py.)"""
    library = copy_sample(tmp_path)
    (library / "courier.fr.md").unlink()
    build = ["build", str(library), "--out", str(tmp_path / "out"), "--card", "courier"]
    code, text = run(*build, "--lang", "fr", "--no-preflight")
    assert code == 1 and "1 not printed: missing: courier (fr)" in text, text
    assert "courier (fr): no fr translation: not printed" in capsys.readouterr().err
    assert not (tmp_path / "out" / "courier.fr.pdf").exists()
    code, text = run(*build, "--lang", "fr", "--no-preflight", "--fallback", "en")
    assert code == 0 and "1 printed in English: no translation (courier (fr))" in text, text
    assert (tmp_path / "out" / "courier.fr.pdf").is_file()


def test_an_output_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a directory\n", encoding="utf-8")
    code, _ = run("build", str(SAMPLE), "--card", "courier", "--out", str(taken))
    error = capsys.readouterr().err
    assert code == 2
    assert f"cannot write {taken}" in error and "Traceback" not in error
    assert taken.read_text(encoding="utf-8") == "not a directory\n"
