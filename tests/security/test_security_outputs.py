"""A build's outputs and its records, attacked (issue 35): a file in the output folder
that is not what was built is made again, never vouched for; the build record, the
preflight's proofs, the images' maxima and the converted artwork are read as untrusted
input (a FIFO, a link to ``/dev/zero``, JSON nested 100,000 deep, a value of the wrong
type: rebuilt, never a hang or a traceback); nothing the build writes leaves the
output folder through a link.

The attacks that could hang run the real command line in a process of its own, with
a time-out: a hang fails the test instead of stopping the run."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from tests.lintkit import copy_sample, run
from tests.printkit import cmyk_profile
from translator.cache import sealed
from translator.pdf.preflight import bound
from translator.pdf.preflight.record import RECORD_NAME, ProofRecord, valid_findings
from translator.pdf.sizes import PRESETS
from translator.typeset import batch, build, manifest
from translator.typeset.options import BuildOptions

cmyk_profile()

#: Two cards of the sample (2 copies each in its deck), their deck, previews and back.
CARDS = ("courier", "flame-lash")
SELECT = [arg for slug in CARDS for arg in ("--card", slug)]
EVERYTHING = (*SELECT, "--lang", "fr", "--deck", "--png", "--dpi", "48", "--jobs", "1")
#: One card, its preflight: the smallest build that writes every record.
ONE_CARD = ("--card", "courier", "--lang", "fr", "--jobs", "1")
#: Seconds a build of a card or two may take on a busy machine: more is a hang.
HANG = 240
RECORDS = {
    "build record": manifest.MANIFEST,
    "proofs": f".cache/{RECORD_NAME}",
    "images' maxima": f".cache/{bound.STATS_FILE}",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copied(out: Path, tmp_path: Path) -> Path:
    """A copy of a build's output folder (links kept as links), to attack."""
    copy = tmp_path / "out"
    shutil.copytree(out, copy, symlinks=True)
    return copy


def record(out: Path) -> dict[str, dict]:
    """The build record as written (read as plain JSON, not by the code under test)."""
    return json.loads((out / manifest.MANIFEST).read_text("utf-8"))["outputs"]


def label(pdf: Path) -> str:
    with pikepdf.open(pdf) as document:
        return str(document.pages[0].label)


def proof_key(path: Path, how: str) -> str:
    """The key a build's preflight keeps ``path``'s findings under, for its bytes now
    (the command line's settings: Arcmage size, 300 % ink, as argparse gives it)."""
    options = BuildOptions(PRESETS["arcmage"], ink_limit=300)
    return batch._proof_key(path, sha256(path), options, True, how)


def cli(library: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``translator build`` in a process of its own; a hang fails the test."""
    command = [sys.executable, "-m", "translator.cli", "build", str(library), "--out", str(out)]
    try:
        return subprocess.run(
            [*command, *args], capture_output=True, text=True, timeout=HANG, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the build hung (more than {HANG} s)")


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr


def unproved(out: Path) -> None:
    """Make the next build check its files again: the build record's findings are
    dropped, and the proofs too (when they are a file), so that the preflight reads
    (and then writes) the proofs and the images' maxima."""
    path = out / manifest.MANIFEST
    document = json.loads(path.read_text("utf-8"))
    for entry in document["outputs"].values():
        entry.pop("checked", None)
    path.write_text(json.dumps(sealed(document)), "utf-8")
    proofs = out / RECORDS["proofs"]
    if proofs.is_file() and not proofs.is_symlink():
        proofs.unlink()


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two cards built with their deck, back and previews (the library, the output)."""
    base = tmp_path_factory.mktemp("outputs")
    library = copy_sample(base)
    out = base / "out"
    done = cli(library, out, *EVERYTHING)
    assert done.returncode == 0, done.stderr
    return library, out


@pytest.fixture(scope="module")
def one_card(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One card built and checked: its build record, proofs and images' maxima (in a
    process of its own, which measures every image: this one may know them)."""
    base = tmp_path_factory.mktemp("one-card")
    library = copy_sample(base)
    out = base / "out"
    done = cli(library, out, *ONE_CARD)
    assert done.returncode == 0, done.stderr
    for name in RECORDS.values():
        assert (out / name).is_file(), name
    return library, out


# --------------------------------------------------------------------------------------
# 1. A file that is not what was built is made again


def test_a_digest_is_of_the_file_not_of_its_size_and_time(tmp_path: Path) -> None:
    """Within one process (the watch server, a bench), a file rewritten with the same
    size and its time put back is read again: the change time and inode say it is
    another file, which no one can set."""
    path = tmp_path / "card.pdf"
    path.write_bytes(b"%PDF built")
    info = path.stat()
    assert manifest.file_digest(path) == hashlib.sha256(b"%PDF built").hexdigest()
    path.write_bytes(b"%PDF other")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size
    assert path.stat().st_mtime_ns == info.st_mtime_ns
    assert manifest.file_digest(path) == hashlib.sha256(b"%PDF other").hexdigest()


def _swap_in(target: Path, data: bytes, keep_time: bool) -> None:
    """Write ``data`` over ``target`` (in place, as ``cp`` does), its time put back."""
    info = target.stat()
    target.write_bytes(data)
    if keep_time:
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.slow
@pytest.mark.parametrize("how", ["copied", "cp -p", "same size and time"])
def test_another_cards_pdf_over_a_card_is_made_again(
    everything: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    """Attack: a PDF of another card copied over a card's PDF passed the next build as
    "up to date, preflight: every file passes".  Now the card is rendered again, and
    its preflight is of the bytes made."""
    library, built = everything
    out = copied(built, tmp_path)
    # Built once in this process first: it knows the files' digests (the watch server's
    # case), which must not outlive the swap.
    assert run("build", str(library), "--out", str(out), *EVERYTHING)[0] == 0
    pdfs = {slug: out / f"{slug}.fr.pdf" for slug in CARDS}
    if how == "copied":
        victim, source = "courier", "flame-lash"
        shutil.copyfile(pdfs[source], pdfs[victim])
    elif how == "cp -p":  # the source's time, as cp -p keeps it
        victim, source = "courier", "flame-lash"
        shutil.copy2(pdfs[source], pdfs[victim])
    else:  # the smaller card's PDF padded to the larger's size, its time put back
        victim, source = sorted(CARDS, key=lambda slug: pdfs[slug].stat().st_size)[::-1]
        data, size = pdfs[source].read_bytes(), pdfs[victim].stat().st_size
        assert size - len(data) > 2
        _swap_in(pdfs[victim], data + b"\n%" + b"x" * (size - len(data) - 2), keep_time=True)
        assert pdfs[victim].stat().st_size == size
    assert label(pdfs[victim]) == f"{source}.fr"
    code, text = run("build", str(library), "--out", str(out), *EVERYTHING)
    assert code == 0, text
    assert "(1 rendered, 1 up to date)" in text
    assert label(pdfs[victim]) == f"{victim}.fr"  # its own card again
    entry = record(out)[pdfs[victim].name]
    assert entry["output"] == sha256(pdfs[victim])
    assert entry["checked"]["key"] == proof_key(pdfs[victim], "all")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "source", "how"),
    [
        ("sample.fr.deck.pdf", "courier.fr.pdf", "file"),  # a deck swapped for one card
        ("png/courier.fr.png", "png/flame-lash.fr.png", None),  # another card's picture
    ],
)
def test_a_deck_or_preview_swapped_is_made_again(
    everything: tuple[Path, Path], tmp_path: Path, name: str, source: str, how: str | None
) -> None:
    """Attack: a deck PDF or a preview replaced by another file (its time put back)
    was kept as up to date.  Now it is made again (the cards are not), and a deck's
    preflight is of the bytes made."""
    library, built = everything
    out = copied(built, tmp_path)
    assert run("build", str(library), "--out", str(out), *EVERYTHING)[0] == 0  # as above
    target = out / name
    _swap_in(target, (out / source).read_bytes(), keep_time=True)
    swapped = target.read_bytes()
    code, text = run("build", str(library), "--out", str(out), *EVERYTHING, "--format", "json")
    assert code == 0, text
    report = json.loads(text)
    assert report["summary"]["made"] == 1  # that file alone
    assert all(card["reused"] for card in report["cards"])
    assert target.read_bytes() != swapped
    entry = record(out)[name]
    assert entry["output"] == sha256(target)
    if how is not None:
        with pikepdf.open(target) as deck:
            assert len(deck.pages) == 8  # 2 cards x 2 copies, each with its back
        assert entry["checked"]["key"] == proof_key(target, how)
    else:
        with Image.open(target) as picture, Image.open(out / source) as other:
            assert picture.size == other.size and picture.tobytes() != other.tobytes()


# --------------------------------------------------------------------------------------
# 2. Records read as untrusted input


def test_entries_of_the_wrong_type_are_entries_missing(tmp_path: Path) -> None:
    """Attack: a build record whose entries have values of the wrong type (a scale as
    text, a digest as a number, warnings not a list) was a TypeError or ValueError
    traceback.  Now such an entry is one missing (its file is made again)."""
    good = {"digest": "d", "output": "o", "scale": 0.9, "warnings": ["w"], "min_size": 7.5}
    outputs = {
        "good.fr.pdf": good,
        "scale.fr.pdf": {**good, "scale": "big"},
        "zero.fr.pdf": {**good, "scale": 0},
        "true.fr.pdf": {**good, "scale": True},
        "digest.fr.pdf": {**good, "digest": 5},
        "output.fr.pdf": {**good, "output": None},
        "no-output.fr.pdf": {"digest": "d"},  # an older record's
        "warnings.fr.pdf": {**good, "warnings": "not a list"},
        "warning.fr.pdf": {**good, "warnings": [["nested"]]},
        "overflow.fr.pdf": {**good, "overflow": "1 mm"},
        "min-size.fr.pdf": {**good, "min_size": -1},
        "checked.fr.pdf": {**good, "checked": []},
        "list.fr.pdf": ["not", "an", "entry"],
        "../outside.pdf": good,
        "png/deep/x.png": good,
        "png/x.png": {"digest": "d", "output": "o"},
    }
    (tmp_path / manifest.MANIFEST).write_text(
        json.dumps(sealed({"format": manifest.FORMAT, "outputs": outputs})), "utf-8"
    )
    assert sorted(manifest.read(tmp_path)) == ["good.fr.pdf", "png/x.png"]


def test_findings_and_maxima_of_the_wrong_shape_are_not_trusted(tmp_path: Path) -> None:
    """Attack: proofs and images' maxima of the wrong type.  A finding that is not a
    problem of known fields, types and severity is a proof missing (the file is
    checked again); maxima that are not six levels in range (``"nan"`` would pass any
    ink) are an image not measured yet."""
    problem = {
        "path": "a.pdf",
        "page": 1,
        "card": "a.fr",
        "code": "ink",
        "severity": "error",
        "message": "too much ink",
    }
    assert valid_findings([]) and valid_findings([problem])
    for wrong in (
        None,
        "[]",
        [[1, 2]],
        [{**problem, "page": "1"}],
        [{**problem, "page": True}],
        [{**problem, "severity": "fine"}],
        [{**problem, "extra": 1}],
        [{k: v for k, v in problem.items() if k != "message"}],
    ):
        assert not valid_findings(wrong), wrong
    images = {
        "good": [800, 600, 255, 200, 100, 245],
        "text": ["nan", 0, 0, 0, 0, 0],
        "negative": [-1, 0, 0, 0, 0, 0],
        "too much": [2000, 0, 0, 0, 0, 0],
        "short": [1, 2, 3],
        "true": [True, 0, 0, 0, 0, 0],
        "scalar": 5,
    }
    (tmp_path / bound.STATS_FILE).write_text(
        json.dumps(sealed({"version": bound.STATS_VERSION, "images": images})), "utf-8"
    )
    stats = bound.ImageStats(tmp_path)
    stats._load()
    assert set(stats._known) == {"good"}
    assert stats._known["good"].total == 800.0


#: Any JSON value: scalars of every type, lists and objects nested a few levels.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
#: Keys a record's entries have, so that values of every type reach the code using them.
ENTRY_KEYS = ("digest", "output", "scale", "overflow", "warnings", "min_size", "checked")
FINDING_KEYS = ("key", "problems", "path", "page", "card", "code", "severity", "message")
ENTRY = st.dictionaries(st.sampled_from(ENTRY_KEYS + FINDING_KEYS), JSON, max_size=8)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    outputs=st.dictionaries(st.sampled_from(["a.fr.pdf", "png/a.fr.png", "../b"]), ENTRY | JSON),
    proofs=st.dictionaries(st.text(max_size=4), st.lists(ENTRY | JSON, max_size=3) | JSON),
    images=st.dictionaries(st.text(max_size=4), st.lists(JSON, max_size=7) | JSON),
)
def test_any_json_in_the_records_is_read_without_an_exception(
    outputs: dict, proofs: dict, images: dict
) -> None:
    """Fuzz: any JSON in the build record's entries, the proofs and the images' maxima
    (of the right format, so that every entry is looked at) is read without an
    exception; what is kept is what the build then uses without one (a card reused,
    findings made problems, maxima made numbers)."""
    with tempfile.TemporaryDirectory() as folder:  # one per example
        out = Path(folder)
        documents = {
            manifest.MANIFEST: {"format": manifest.FORMAT, "outputs": outputs},
            RECORD_NAME: {"format": 1, "proofs": proofs},
            bound.STATS_FILE: {"version": bound.STATS_VERSION, "images": images},
        }
        for name, document in documents.items():
            (out / name).write_text(json.dumps(sealed(document)), "utf-8")
        for name, entry in manifest.read(out).items():
            assert isinstance(entry["digest"], str) and isinstance(entry["output"], str)
            build._reused("a", "fr", out / name, entry)
            checked = entry.get("checked", {})
            batch._kept(checked.get("problems"), out / name)
        for found in ProofRecord(out).entries.values():
            assert valid_findings(found)
            batch._kept(found, out / "a.fr.pdf")
        stats = bound.ImageStats(out)
        stats._load()
        for maxima in stats._known.values():
            assert 0 <= maxima.total <= 1020 and all(0 <= c <= 255 for c in maxima.channels)


def _deep(path: Path) -> None:
    path.write_text("[" * 100_000, "ascii")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _not_utf8(path: Path) -> None:
    path.write_bytes(b'{"format": 2, "outputs": {"\xff\xfe": 1}}')


#: What is put in place of every record at once (the build record's damage makes the
#: build make every file again, so the proofs and maxima are read and written too).
DAMAGES: dict[str, Callable[[Path], None]] = {
    "JSON nested 100,000 deep": _deep,
    "a FIFO": _fifo,
    "a link to /dev/zero": _dev_zero,
    "not UTF-8": _not_utf8,
}


def _check_records(out: Path) -> None:
    """Every record is a regular file again, valid, with what this build made."""
    for name in RECORDS.values():
        path = out / name
        assert path.is_file() and not path.is_symlink(), name
    outputs = manifest.read(out)
    assert {"courier.fr.pdf"} <= set(outputs)
    assert outputs["courier.fr.pdf"]["output"] == sha256(out / "courier.fr.pdf")
    proofs = json.loads((out / RECORDS["proofs"]).read_text("utf-8"))["proofs"]
    assert proofs and all(valid_findings(found) for found in proofs.values())
    images = json.loads((out / RECORDS["images' maxima"]).read_text("utf-8"))["images"]
    assert images and all(bound._valid_maxima(value) for value in images.values())


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_damaged_records_are_made_again(
    one_card: tuple[Path, Path], tmp_path: Path, damage: str
) -> None:
    """Attack: JSON nested 100,000 deep in the build record or the proofs was a
    RecursionError traceback; a record that is a FIFO hangs a reader, one linked to
    /dev/zero reads without end; bytes that are not UTF-8.  Now each record is a
    record missing: the build runs, exits 0, and writes every record anew (a
    regular file in place of the FIFO or the link)."""
    library, built = one_card
    out = copied(built, tmp_path)
    for name in RECORDS.values():
        (out / name).unlink()
        DAMAGES[damage](out / name)
    done = cli(library, out, *ONE_CARD)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "(1 rendered, 0 up to date)" in done.stdout
    assert "preflight: every file passes." in done.stdout
    _check_records(out)


@pytest.mark.slow
def test_a_record_linked_out_of_the_folder_is_replaced_not_followed(
    one_card: tuple[Path, Path], tmp_path: Path
) -> None:
    """Attack: each record a link to a file outside the output folder.  It is read as a
    record of another kind (nothing of it trusted) and replaced by a record of its
    own; the file it led to is neither written nor removed."""
    library, built = one_card
    out = copied(built, tmp_path)
    victim = tmp_path / "victim.json"
    victim.write_text('{"format": 2, "outputs": {}, "version": 1}\n', "utf-8")
    before = victim.read_bytes()
    for name in RECORDS.values():
        (out / name).unlink()
        (out / name).symlink_to(victim)
    done = cli(library, out, *ONE_CARD)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == before
    _check_records(out)


@pytest.mark.slow
@pytest.mark.parametrize("which", list(RECORDS))
def test_a_folder_in_place_of_a_record(
    one_card: tuple[Path, Path], tmp_path: Path, which: str
) -> None:
    """Attack: a folder where a record goes.  The build record must be written: the
    build stops before any work, in one line naming it (exit 2).  A folder in place of
    the proofs or the maxima only means nothing is kept there: the build passes."""
    library, built = one_card
    out = copied(built, tmp_path)
    if which != "build record":
        unproved(out)  # the files checked again: the record's write is tried
    path = out / RECORDS[which]
    path.unlink(missing_ok=True)
    path.mkdir()
    (path / "mine.txt").write_text("kept\n", "utf-8")
    done = cli(library, out, *ONE_CARD)
    no_traceback(done)
    if which == "build record":
        assert done.returncode == 2
        assert f"cannot write {out / manifest.MANIFEST}: Is a directory" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert "preflight: every file passes." in done.stdout
    assert (path / "mine.txt").read_text("utf-8") == "kept\n"


@pytest.mark.slow
def test_a_build_record_with_entries_of_the_wrong_type(
    everything: tuple[Path, Path], tmp_path: Path
) -> None:
    """Attack: the build record's entries given values of the wrong type (a card's
    scale as text, another's digest a number, the deck's own digest a number, a
    preview's warnings a string, the back's preflight a list).  Each such file is
    made again, no traceback, and the record written whole again."""
    library, built = everything
    out = copied(built, tmp_path)
    path = out / manifest.MANIFEST
    document = json.loads(path.read_text("utf-8"))
    outputs = document["outputs"]
    outputs["courier.fr.pdf"]["scale"] = "big"
    outputs["flame-lash.fr.pdf"]["digest"] = 5
    outputs["sample.fr.deck.pdf"]["output"] = 7
    outputs["png/courier.fr.png"]["warnings"] = "x"
    [back] = [name for name in outputs if name.startswith(".back.")]
    outputs[back]["checked"] = []
    path.write_text(json.dumps(sealed(document)), "utf-8")
    done = cli(library, out, *EVERYTHING)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "(2 rendered, 0 up to date)" in done.stdout
    assert "preflight: every file passes." in done.stdout
    again = manifest.read(out)
    assert set(again) == set(outputs)
    for name, entry in again.items():
        assert entry["output"] == sha256(out / name), name


@pytest.mark.slow
def test_proofs_and_maxima_of_the_wrong_type_are_checked_again(
    one_card: tuple[Path, Path], tmp_path: Path
) -> None:
    """Attack: the proofs kept under the right keys but of the wrong shape (a number,
    a list of lists, a finding of an unknown severity), the images' maxima as text,
    negative or out of range.  The files are checked again (the maxima measured
    again): the same verdict as the first build, and both records valid again."""
    library, built = one_card
    out = copied(built, tmp_path)
    assert cli(library, out, *ONE_CARD).returncode == 0  # the records of this code, now
    proofs_path = out / RECORDS["proofs"]
    proofs = json.loads(proofs_path.read_text("utf-8"))
    unproved(out)  # the preflight must look at the proofs (written again below)
    wrong: list[object] = [5, [[1, 2]], [{"severity": "fine"}], "[]"]
    for index, key in enumerate(proofs["proofs"]):
        proofs["proofs"][key] = wrong[index % len(wrong)]
    proofs_path.write_text(json.dumps(sealed(proofs)), "utf-8")
    maxima_path = out / RECORDS["images' maxima"]
    maxima = json.loads(maxima_path.read_text("utf-8"))
    spoiled: list[object] = [["nan", 0, 0, 0, 0, 0], [-1] * 6, "x", [5000] * 6]
    for index, key in enumerate(maxima["images"]):
        maxima["images"][key] = spoiled[index % len(spoiled)]
    maxima_path.write_text(json.dumps(sealed(maxima)), "utf-8")
    done = cli(library, out, *ONE_CARD)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "(0 rendered, 1 up to date)" in done.stdout
    assert "preflight: every file passes." in done.stdout
    _check_records(out)
    assert set(json.loads(proofs_path.read_text("utf-8"))["proofs"]) >= set(proofs["proofs"])


def _outside_jpeg(path: Path) -> Path:
    """A CMYK JPEG outside the output folder (what a link in the cache would print)."""
    target = path.parent.parent.parent / "outside.jpg"
    Image.new("CMYK", (64, 64), (0, 255, 0, 0)).save(target, "JPEG")
    return target


def _link_outside(path: Path) -> None:
    path.symlink_to(_outside_jpeg(path))


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "x.jpg").write_bytes(b"x")


def _not_jpeg(path: Path) -> None:
    path.write_bytes(b"\xff\xd8 not a JPEG")


#: What is put in place of a converted image of the artwork cache.
ARTWORK_DAMAGES: dict[str, Callable[[Path], None]] = {
    "a FIFO": _fifo,
    "a link to /dev/zero": _dev_zero,
    "a link to a JPEG outside": _link_outside,
    "a folder": _folder,
    "not a JPEG": _not_jpeg,
}


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(ARTWORK_DAMAGES))
def test_a_damaged_converted_image_is_converted_again(
    one_card: tuple[Path, Path], tmp_path: Path, damage: str
) -> None:
    """Attack: a converted image of the artwork cache (``OUT/.cache/KEY.jpg``) that is a
    FIFO (a reader waits for ever), a link (to /dev/zero, or to a picture outside the
    folder, which the card would print), a folder or not a JPEG.  It is never read
    through: the image is converted again and written in its place."""
    library, built = one_card
    out = copied(built, tmp_path)
    [cached] = (out / ".cache").glob("*.jpg")
    cached.unlink()
    ARTWORK_DAMAGES[damage](cached)
    outside = tmp_path / "outside.jpg"  # made by the damage that links to it
    before = outside.read_bytes() if outside.exists() else None
    done = cli(library, out, *ONE_CARD, "--force")
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "preflight: every file passes." in done.stdout
    assert cached.is_file() and not cached.is_symlink()
    with Image.open(cached) as image:
        assert (image.format, image.mode) == ("JPEG", "CMYK")
        assert image.size != (64, 64)
    if before is not None:
        assert outside.read_bytes() == before


# --------------------------------------------------------------------------------------
# 3. What the build writes stays in the output folder


def test_a_cache_folder_linked_out_of_the_output_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Attack: ``OUT/.cache`` a link to a folder outside (a downloaded or shared output
    folder): the converted artwork, the proofs and the maxima would be written (and
    read) there.  Refused before any work, in one line naming the link."""
    library = copy_sample(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / ".cache").symlink_to(elsewhere)
    code, _ = run("build", str(library), "--out", str(out), *ONE_CARD)
    error = capsys.readouterr().err
    assert code == 2
    assert f"{out.resolve() / '.cache'}: leads out of {out.resolve()}" in error
    assert "(remove the link)" in error and "Traceback" not in error
    assert list(elsewhere.iterdir()) == []
    assert not list(out.glob("*.pdf"))


@pytest.mark.slow
def test_a_folder_of_previews_linked_out_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Attack: ``OUT/png`` a link to a folder outside: the previews were written there
    (each checked against its own folder only).  Now every preview must lie inside
    the output folder: the build stops, naming the file, and writes nothing there."""
    library = copy_sample(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "png").symlink_to(elsewhere)
    code, _ = run("build", str(library), "--out", str(out), *ONE_CARD, "--png", "--dpi", "48")
    error = capsys.readouterr().err
    assert code == 2
    assert "png/courier.fr.png: leads out of its folder through a link" in error
    assert "Traceback" not in error
    assert list(elsewhere.iterdir()) == []


@pytest.mark.slow
def test_a_card_pdf_linked_out_is_refused_by_the_worker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Attack: a card's PDF a link to a file outside the output folder, the card
    rendered by a worker process.  The worker refuses to write through it, and the
    refusal reaches the build as itself (one line, exit 2), not as a broken pool; the
    file the link leads to is untouched."""
    library = copy_sample(tmp_path)
    victim = tmp_path / "victim.pdf"
    victim.write_bytes(b"not yours\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "courier.fr.pdf").symlink_to(victim)
    eight = ["courier", "flame-lash", "mossgate", "harbor-lord", "saltmere", "soul-drain"]
    eight += ["tide-warden", "sudden-bloom"]
    selected = [arg for slug in eight for arg in ("--card", slug)]
    code, _ = run(
        "build", str(library), "--out", str(out), *selected, "--lang", "fr", "--jobs", "2"
    )
    error = capsys.readouterr().err
    assert code == 2
    assert "courier.fr.pdf: leads out of its folder through a link" in error
    assert "Traceback" not in error and "BrokenProcessPool" not in error
    assert victim.read_bytes() == b"not yours\n"


# --------------------------------------------------------------------------------------
# Records and converted images written by another hand (issue 35, found by an
# independent attack): an output folder restored from a CI cache, or committed, may
# hold records edited to vouch for files nobody checked.  Each is sealed with a key of
# this user's own cache folder (translator.cache.sealed, mac): an edit without it is a
# record missing, and the files are made and checked again.


@pytest.mark.slow
def test_a_record_edited_to_clear_a_preflight_failure_is_not_believed(
    everything: tuple[Path, Path], tmp_path: Path
) -> None:
    """The attack: a card PDF replaced by one with too much ink, its digest and
    ``checked.problems = []`` written into the build record (plain JSON, no key), the
    proofs removed.  Before: "0 rendered ... preflight: every file passes", exit 0."""
    library, built = everything
    out = copied(built, tmp_path)
    swapped = out / "courier.fr.pdf"
    shutil.copyfile(out / "flame-lash.fr.pdf", swapped)  # a file nobody checked as this
    path = out / manifest.MANIFEST
    document = json.loads(path.read_text("utf-8"))
    entry = document["outputs"]["courier.fr.pdf"]
    entry["output"] = sha256(swapped)  # its digest, as the record would hold it
    entry["checked"] = {"key": proof_key(swapped, "all"), "problems": []}
    path.write_text(json.dumps(document), "utf-8")  # what anyone can write: no key
    assert manifest.read(out) == {}
    done = cli(library, out, *EVERYTHING)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "(2 rendered, 0 up to date)" in done.stdout  # made and checked again
    assert label(swapped) == "courier.fr"  # its own card again
    assert set(manifest.read(out)) == set(document["outputs"])


@pytest.mark.slow
def test_converted_images_swapped_or_forged_are_converted_again(
    one_card: tuple[Path, Path], tmp_path: Path
) -> None:
    """The attack: the artwork cache's JPEGs swapped between two cards (each printed
    with the other's artwork, "every file passes"), or one replaced by another image.
    An image whose seal does not match its bytes is converted again from the card's
    own artwork."""
    library, built = one_card
    out = copied(built, tmp_path)
    cache = out / ".cache"
    [image] = list(cache.glob("*.jpg"))
    original = image.read_bytes()
    from PIL import Image

    Image.new("CMYK", (64, 90), (0, 0, 0, 255)).save(image, "JPEG")  # a forged image
    done = cli(library, out, *ONE_CARD, "--force")
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert image.read_bytes() == original  # the card's own artwork, converted again
    # Another image with its own seal, put in this one's place (two cards' images
    # swapped with their seals): the seal binds the name too.
    other = image.with_name("f" * 64 + ".jpg")
    Image.new("CMYK", (64, 90), (0, 0, 0, 255)).save(other, "JPEG")
    from translator.typeset import artwork

    other_seal = cache / f"{other.name}.seal"
    other_seal.write_bytes(artwork._seal(other.name, other.read_bytes()))
    assert artwork._sealed(cache, other.name, other.read_bytes())
    image.write_bytes(other.read_bytes())
    (cache / f"{image.name}.seal").write_bytes(other_seal.read_bytes())
    assert not artwork._sealed(cache, image.name, image.read_bytes())
    done = cli(library, out, *ONE_CARD, "--force")
    assert done.returncode == 0, done.stderr
    assert image.read_bytes() == original
    seal = cache / f"{image.name}.seal"
    seal.write_text("0" * 64, encoding="ascii")  # a seal another hand wrote
    image.write_bytes(b"\xff\xd8 not the image")
    done = cli(library, out, *ONE_CARD, "--force")
    assert done.returncode == 0, done.stderr
    assert image.read_bytes() == original


@pytest.mark.slow
def test_poisoned_maxima_do_not_let_too_much_ink_pass(
    one_card: tuple[Path, Path], tmp_path: Path
) -> None:
    """The attack: the images' maxima record edited (no key) to say an image holds
    little ink, so that the ink check skips it.  Unsealed, the record is not read: the
    image is measured again."""
    library, built = one_card
    out = copied(built, tmp_path)
    path = out / RECORDS["images' maxima"]
    document = json.loads(path.read_text("utf-8"))
    for key in document["images"]:
        document["images"][key] = [1, 1, 1, 1, 1, 4]
    path.write_text(json.dumps(document), "utf-8")
    (out / RECORDS["proofs"]).unlink()
    stats = bound.ImageStats(out / ".cache")
    stats._load()
    assert stats._known == {}  # what another hand wrote is no record
    done = cli(library, out, *ONE_CARD, "--force")
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    again = json.loads(path.read_text("utf-8"))
    assert again["images"] != document["images"]  # measured again, sealed anew


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_what_a_killed_build_left_in_its_cache_is_swept(
    one_card: tuple[Path, Path], tmp_path: Path
) -> None:
    """A build killed while it wrote a converted image or its seal leaves a temporary
    file in ``OUT/.cache``: the next build removes it (not only a build interrupted by
    Ctrl-C, which sweeps its own), never one of a writer still running."""
    library, built = one_card
    out = copied(built, tmp_path)
    gone = subprocess.Popen(["true"])
    gone.wait()
    left = out / ".cache" / f".abc.jpg.seal.{gone.pid}.0a1b2c3d.tmp"
    left.write_bytes(b"half a seal")
    mine = out / ".cache" / f".abc.jpg.{os.getppid()}.0a1b2c3d.tmp"  # a live writer's
    mine.write_bytes(b"being written")
    done = cli(library, out, *ONE_CARD)
    assert done.returncode == 0, done.stderr
    assert not left.exists() and mine.exists()
