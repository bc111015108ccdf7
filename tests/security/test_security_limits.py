"""Denial of service: inputs that could make a command hang, eat the memory, or take
quadratic time.  Every case runs ``python -m translator.cli`` in a subprocess with a
timeout (a hang fails, it does not block the run) and 2 GB of address space; the answer
must be exit code 2, a clear one-line message, and a bounded output."""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from tests.lintkit import SAMPLE

MEMORY = 2 * 1024**3
MAX_OUTPUT = 10_000
MAX_LINE = 1000


# --------------------------------------------------------------------------------------
# Helpers


@dataclass
class Run:
    args: tuple[str, ...]
    code: int
    out: str
    err: str
    seconds: float
    cpu: float = 0.0  # user time of the process (and the children it waited for)

    @property
    def text(self) -> str:
        return self.out + self.err

    def show(self) -> str:
        args = " ".join(a if len(a) < 80 else a[:77] + "..." for a in self.args)
        return (
            f"translator {args} -> exit {self.code} in {self.seconds:.1f} s\n"
            f"--- stdout ({len(self.out)} chars) ---\n{self.out[:2000]}\n"
            f"--- stderr ({len(self.err)} chars) ---\n{self.err[:3000]}"
        )


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def children_cpu() -> float:
    """User time of the finished children: what translator's own code does.  System
    time is left out: creating ten thousand files costs the kernel (the file system's
    journal) more per file when the disk is busy, which no code of ours decides."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime


def start(*args: str, cwd: Path) -> tuple[subprocess.Popen, float]:
    """``python -m translator.cli ARGS`` started in ``cwd``, in a session of its own,
    with at most 2 GB of address space."""
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "translator.cli", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory,  # noqa: PLW1509
        start_new_session=True,
    )
    return proc, time.monotonic()


def finish(proc: subprocess.Popen, started: float, args: tuple[str, ...], timeout: float) -> Run:
    """The run's result; a run longer than ``timeout`` (from its start) is killed with
    its children, and fails the test as a hang."""
    hung = False
    try:
        out, err = proc.communicate(timeout=max(0.1, started + timeout - time.monotonic()))
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    finally:
        with contextlib.suppress(ProcessLookupError):  # workers that outlived the command
            os.killpg(proc.pid, signal.SIGKILL)
    if hung:
        pytest.fail(
            f"translator {' '.join(args)[:200]} did not finish in {timeout} s "
            f"(a hang); output so far: {len(out)} bytes out, {len(err)} bytes err: "
            f"{err[-500:].decode('utf-8', 'replace')}",
            pytrace=False,
        )
    return Run(
        tuple(args),
        proc.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        time.monotonic() - started,
    )


def run(*args: str, cwd: Path, timeout: float = 20) -> Run:
    """The command's result; ``cpu`` is its processor time (the tests run one command
    at a time, so the children reaped meanwhile are this one)."""
    before = children_cpu()
    proc, started = start(*args, cwd=cwd)
    result = finish(proc, started, args, timeout)
    result.cpu = children_cpu() - before
    return result


def assert_refused(
    result: Run,
    name: str,
    *,
    pattern: str | None = None,
    codes: tuple[int, ...] = (2,),
    seconds: float | None = None,
) -> str:
    """Exit code in ``codes``, no traceback or MemoryError, output under 10 KB, a line
    naming ``name`` no longer than a line should be (matching ``pattern``), in time."""
    assert "Traceback" not in result.err, result.show()
    assert "MemoryError" not in result.text, result.show()
    assert result.code in codes, f"exit code {result.code}, expected {codes}\n{result.show()}"
    size = len(result.out.encode()) + len(result.err.encode())
    assert size < MAX_OUTPUT, f"{size} bytes of output\n{result.show()}"
    if seconds is not None:
        assert result.seconds < seconds, f"took {result.seconds:.1f} s\n{result.show()}"
    found = [line for line in result.text.splitlines() if name in line]
    assert found, f"no message naming {name!r}\n{result.show()}"
    if pattern is not None:
        found = [line for line in found if re.search(pattern, line, re.IGNORECASE)]
        assert found, f"no message naming {name!r} matches /{pattern}/\n{result.show()}"
    short = [line for line in found if len(line) <= MAX_LINE]
    assert short, f"the message is {len(found[0])} characters long\n{result.show()}"
    return short[0]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """``tmp_path/cards/sample``, a copy of the sample; commands run in ``tmp_path``."""
    deck = tmp_path / "cards" / "sample"
    shutil.copytree(SAMPLE, deck)
    return deck


@pytest.fixture(scope="module")
def startup(tmp_path_factory: pytest.TempPathFactory) -> float:
    """The time of ``cards check`` on the untouched sample, in a subprocess: the start of
    the process, which the time limits below come on top of (the machine may be busy)."""
    root = tmp_path_factory.mktemp("startup")
    shutil.copytree(SAMPLE, root / "cards" / "sample")
    result = run("cards", "check", "cards", cwd=root)
    assert result.code == 0, result.show()
    return result.seconds


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --------------------------------------------------------------------------------------
# YAML alias bombs (billion laughs)

X9 = ",".join(['"x"'] * 9)
LEVELS = "abcdefghi"


def bomb_keys() -> list[str]:
    """``a: &a [...]`` ... ``i: &i [*h x 9]``: 9**9 strings once expanded."""
    lines = [f"a: &a [{X9}]"]
    lines += [f"{b}: &{b} [{','.join(['*' + a] * 9)}]" for a, b in pairwise(LEVELS)]
    return lines


def bomb_value(indent: str = "  ") -> str:
    """The same chain as the value of one key: a list of the nine levels."""
    items = [f"&a [{X9}]"]
    items += [f"&{b} [{','.join(['*' + a] * 9)}]" for a, b in pairwise(LEVELS)]
    return "\n" + "\n".join(f"{indent}- {item}" for item in items)


def test_bomb_is_a_bomb() -> None:
    text = "\n".join(bomb_keys())
    assert len(text) < 400
    assert "i: &i [*h" in text


ALIAS_MESSAGE = r"alias|anchor|too (large|big|deep|many|long)|size|limit|expan"

CARD_BOMBS = {
    "name-inline": lambda text: text.replace("name: Messager", "name:" + bomb_value(), 1),
    "name-via-keys": lambda text: text.replace(
        "name: Messager", "\n".join(bomb_keys()) + "\nname: *i", 1
    ),
    "info-inline": lambda text: text.replace(
        "name: Messager", "name: Messager\ninfo:" + bomb_value(), 1
    ),
    "lint-ignore-inline": lambda text: text.replace(
        "name: Messager", "name: Messager\nlint-ignore:" + bomb_value(), 1
    ),
}
LIBRARY_COMMANDS = {
    "cards check": ("cards", "check", "cards"),
    "cards list": ("cards", "list", "cards"),
    "lint": ("lint", "cards"),
}


#: every command for the first case, cards check for the others (each run costs the
#: start of a Python process)
CARD_BOMB_RUNS = [("name-inline", c) for c in LIBRARY_COMMANDS] + [
    (case, "cards check") for case in list(CARD_BOMBS)[1:]
]


@pytest.mark.parametrize(("case", "command"), CARD_BOMB_RUNS)
def test_alias_bomb_in_card(case: str, command: str, library: Path, startup: float) -> None:
    path = library / "courier.fr.md"
    path.write_text(CARD_BOMBS[case](path.read_text(encoding="utf-8")), encoding="utf-8")
    result = run(*LIBRARY_COMMANDS[command], cwd=library.parent.parent)
    assert_refused(result, "courier.fr.md", pattern=ALIAS_MESSAGE, seconds=startup + 5)


DECK_BOMBS = {
    "creator": lambda text: text.replace("creator: translator", "creator:" + bomb_value(), 1),
    "quantity": lambda text: text.replace("  courier: 2", "  courier:" + bomb_value("    "), 1),
    "keys": lambda text: "\n".join(bomb_keys()) + "\n" + text,
}


DECK_BOMB_RUNS = [("creator", c) for c in LIBRARY_COMMANDS] + [
    (case, "cards check") for case in list(DECK_BOMBS)[1:]
]


@pytest.mark.parametrize(("case", "command"), DECK_BOMB_RUNS)
def test_alias_bomb_in_deck(case: str, command: str, library: Path, startup: float) -> None:
    path = library / "deck.yaml"
    path.write_text(DECK_BOMBS[case](path.read_text(encoding="utf-8")), encoding="utf-8")
    result = run(*LIBRARY_COMMANDS[command], cwd=library.parent.parent)
    assert_refused(result, "deck.yaml", pattern=ALIAS_MESSAGE, seconds=startup + 5)


GLOSSARY_HEAD = "language: fr\nsource: test\n"
GLOSSARY_BOMBS = {
    "entries": GLOSSARY_HEAD + "entries:" + bomb_value(),
    "note": GLOSSARY_HEAD
    + "\n".join(bomb_keys())
    + """
entries:
  - id: saltmere-town
    en: Saltmere town
    section: other
    pos: noun
    note: *i
    terms:
      - term: ville de Salmère
        status: preferred
        gender: f
""",
}


@pytest.mark.parametrize(
    ("where", "case", "command"),
    [
        ("glossary/fr/bomb.yaml", "entries", "lint"),
        ("glossary/fr/bomb.yaml", "entries", "glossary check"),
        ("sample/glossary.fr.yaml", "note", "lint"),
    ],
)
def test_alias_bomb_in_glossary(
    where: str, case: str, command: str, library: Path, startup: float
) -> None:
    path = library.parent / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GLOSSARY_BOMBS[case], encoding="utf-8")
    args = ("lint", "cards") if command == "lint" else ("glossary", "check", "--library", "cards")
    result = run(*args, cwd=library.parent.parent)
    assert_refused(result, path.name, pattern=ALIAS_MESSAGE, seconds=startup + 5)


def test_alias_bomb_in_theme(library: Path, startup: float) -> None:
    """theme.yaml is YAML too (translator.toml is TOML, which has no aliases)."""
    theme = library.parent.parent / "theme"
    theme.mkdir()
    (theme / "theme.yaml").write_text(
        "name: bomb\n" + "\n".join(bomb_keys()) + "\nbackgrounds: {Gaian: *i}\n", encoding="utf-8"
    )
    result = run(
        "build",
        "cards/sample",
        "--lang",
        "en",
        "--card",
        "courier",
        "--out",
        "out",
        "--no-preflight",
        "--theme",
        "theme",
        cwd=library.parent.parent,
        timeout=30,
    )
    assert_refused(result, "theme.yaml", seconds=startup + 8)


# --------------------------------------------------------------------------------------
# Quantities


QUANTITIES = {"million": "1000000", "10**18": str(10**18), "4000-digits": "9" * 4000}


def limit_given(line: str, quantity: str) -> bool:
    """The message gives a limit: a number that is neither the line nor the quantity."""
    rest = line.replace(quantity, " ")
    rest = re.sub(r"deck\.yaml:\d+(:\d+)?", " ", rest)
    return bool(re.search(r"\d", rest))


@pytest.mark.parametrize("case", list(QUANTITIES))
def test_quantity_too_large(case: str, library: Path, startup: float) -> None:
    quantity = QUANTITIES[case]
    edit(library / "deck.yaml", "  courier: 2", f"  courier: {quantity}")
    result = run("cards", "check", "cards", cwd=library.parent.parent)
    line = assert_refused(result, "deck.yaml", seconds=startup + 5)
    assert limit_given(line, quantity), f"the message gives no limit: {line!r}"


@pytest.mark.parametrize("case", ["million", "10**18"])
def test_build_deck_refuses_a_huge_quantity(case: str, library: Path) -> None:
    edit(library / "deck.yaml", "  courier: 2", f"  courier: {QUANTITIES[case]}")
    root = library.parent.parent
    result = run(
        "build",
        "cards/sample",
        "--lang",
        "en",
        "--deck",
        "--out",
        "out",
        "--no-preflight",
        cwd=root,
        timeout=40,
    )
    assert_refused(result, "deck.yaml", seconds=20)
    pdfs = list((root / "out").rglob("*.pdf")) if (root / "out").exists() else []
    assert not pdfs, f"the build worked before refusing: {len(pdfs)} PDFs written"


# --------------------------------------------------------------------------------------
# FIFOs, directories and devices where files are expected


@pytest.fixture
def special(request: pytest.FixtureRequest, library: Path):
    """The sample with one special file: a FIFO named ``x.en.md``, a FIFO in place of
    ``deck.yaml``, or a directory named ``y.fr.md``; yields (its name, the card slug
    to show)."""
    kind = request.param
    if kind == "fifo-card":
        path, slug = library / "x.en.md", "x"
        os.mkfifo(path)
    elif kind == "fifo-deck":
        path, slug = library / "deck.yaml", "courier"
        path.unlink()
        os.mkfifo(path)
    else:
        path, slug = library / "y.fr.md", "y"
        path.mkdir()
    yield path, slug
    if path.is_dir():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)


SPECIAL_COMMANDS = {
    "cards check": lambda p, s: ("cards", "check", "cards"),
    "cards list": lambda p, s: ("cards", "list", "cards"),
    "lint": lambda p, s: ("lint", "cards"),
    "status": lambda p, s: ("status", "cards"),
    "cards show": lambda p, s: ("cards", "show", s),
    "export po": lambda p, s: ("export", "po", "cards/sample", "--lang", "fr", "-o", "f.po"),
    "markup check deck": lambda p, s: ("markup", "check", "cards/sample"),
    "markup check file": lambda p, s: ("markup", "check", str(p)),
}


@pytest.mark.parametrize("command", list(SPECIAL_COMMANDS))
@pytest.mark.parametrize("special", ["fifo-card", "fifo-deck", "dir-card"], indirect=True)
def test_special_file_in_library(special: tuple[Path, str], command: str, library: Path) -> None:
    path, slug = special
    if command.startswith("markup") and path.name == "deck.yaml":
        pytest.skip("markup check reads no deck.yaml")
    if command == "markup check file" and path.is_dir():
        pytest.skip("markup check reads a directory's *.md files")
    result = run(*SPECIAL_COMMANDS[command](path, slug), cwd=library.parent.parent)
    if command == "markup check deck":
        # a directory's *.md files: a FIFO or directory may be left out, but no hang
        assert "Traceback" not in result.err and result.code in (0, 1, 2), result.show()
        return
    assert_refused(result, path.name, codes=(0, 1, 2))


DEVICE_COMMANDS = {
    "markup check": ("markup", "check", "/dev/zero"),
    "preflight": ("preflight", "/dev/zero"),
    "build --icc": (
        "build",
        "cards/sample",
        "--lang",
        "en",
        "--card",
        "courier",
        "--out",
        "out",
        "--icc",
        "/dev/zero",
    ),
    "lint": ("lint", "/dev/zero"),
    "cards check": ("cards", "check", "/dev/zero"),
    "import po": ("import", "po", "/dev/zero"),
    "import xliff": ("import", "xliff", "/dev/zero"),
    "import arcmage": ("import", "arcmage", "/dev/zero", "--into", "cards/sample"),
    "build --theme": (
        "build",
        "cards/sample",
        "--lang",
        "en",
        "--card",
        "courier",
        "--out",
        "out",
        "--theme",
        "/dev/zero",
    ),
}


@pytest.mark.parametrize("command", list(DEVICE_COMMANDS))
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_dev_zero(command: str, library: Path) -> None:
    result = run(*DEVICE_COMMANDS[command], cwd=library.parent.parent, timeout=30)
    # the preflight reports an unreadable file as a file that fails (docs/printing.md)
    assert_refused(result, "/dev/zero", codes=(1, 2) if command == "preflight" else (2,))


@pytest.mark.parametrize("command", ["import arcmage", "lint --source", "import po"])
def test_dev_zero_behind_a_name(command: str, library: Path) -> None:
    """/dev/zero under the name of the file a command expects (a JSON or PO file)."""
    root = library.parent.parent
    name = "zero.po" if command == "import po" else "zero.json"
    (root / name).symlink_to("/dev/zero")
    args = {
        "import arcmage": ("import", "arcmage", name, "--into", "cards/sample"),
        "lint --source": ("lint", name, "--source", name),
        "import po": ("import", "po", name),
    }[command]
    result = run(*args, cwd=root, timeout=30)
    assert_refused(result, name)


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_dev_zero_as_theme_yaml(library: Path) -> None:
    theme = library.parent.parent / "theme"
    theme.mkdir()
    (theme / "theme.yaml").symlink_to("/dev/zero")
    result = run(
        "build",
        "cards/sample",
        "--lang",
        "en",
        "--card",
        "courier",
        "--out",
        "out",
        "--theme",
        "theme",
        cwd=library.parent.parent,
        timeout=30,
    )
    assert_refused(result, "theme.yaml")


def test_card_file_symlinked_to_dev_zero(library: Path) -> None:
    (library / "zero.en.md").symlink_to("/dev/zero")
    result = run("cards", "check", "cards", cwd=library.parent.parent)
    assert_refused(result, "zero.en.md")


# --------------------------------------------------------------------------------------
# Sizes


@pytest.mark.parametrize("where", ["body", "front-matter"])
def test_card_file_of_5_mb(where: str, library: Path, startup: float) -> None:
    path = library / "courier.en.md"
    text = path.read_text(encoding="utf-8")
    if where == "body":
        text += "Filler words for a card too large to be one. " * 120_000
    else:
        text = text.replace("name: Courier", "# " + "x" * 5_000_000 + "\nname: Courier", 1)
    path.write_text(text, encoding="utf-8")
    assert path.stat().st_size > 5_000_000
    result = run("cards", "check", "cards", cwd=library.parent.parent)
    assert_refused(result, "courier.en.md", seconds=startup + 8)


def minimal_card(name: str, text: str = "I cannot attack.") -> dict:
    return {
        "name": name,
        "firstName": name,
        "type": {"name": "Creature"},
        "faction": {"name": "Gaian"},
        "cost": "1",
        "loyalty": 1,
        "attack": "1",
        "defense": "1",
        "markdownText": text,
        "language": {"name": "English", "languageCode": "en"},
    }


def test_minimal_card_imports(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text(json.dumps([minimal_card("Goblin")]), encoding="utf-8")
    (tmp_path / "cards" / "new").mkdir(parents=True)
    result = run("import", "arcmage", "c.json", "--into", "cards/new", cwd=tmp_path)
    assert result.code == 0, result.show()


def test_import_card_text_too_long(tmp_path: Path, startup: float) -> None:
    cards = [minimal_card("Goblin", "a" * 200_001), minimal_card("Orc")]
    (tmp_path / "c.json").write_text(json.dumps(cards, indent=1), encoding="utf-8")
    target = tmp_path / "cards" / "new"
    target.mkdir(parents=True)
    result = run("import", "arcmage", "c.json", "--into", "cards/new", cwd=tmp_path)
    assert_refused(result, "c.json", seconds=startup + 8)
    assert not any(target.iterdir()), "a refused import wrote files"


# --------------------------------------------------------------------------------------
# Scaling: twice the input, at most about twice the time

SCALE_TIMEOUT = 120
#: The two sizes compared: large enough that start-up (about 1.5 s) does not hide a
#: quadratic step, small enough for CI.
SMALL, LARGE = 5_000, 10_000
SCALING_REFUSAL = r"(at most|limit|maximum|too many|more than)\D*\d"


def timed_or_refused(result: Run, name: str) -> Run | None:
    """The run, or None when it refused with a clear message naming a limit."""
    if result.code == 2 and re.search(SCALING_REFUSAL, result.text, re.IGNORECASE):
        assert_refused(result, name)
        return None
    assert result.code in (0, 1), result.show()
    return result


def assert_linear(runs: dict[int, Run]) -> None:
    """Twice the input takes less than three times the processor time (processor time,
    not the wall clock: the machine may be busy with other work)."""
    small, large = runs[SMALL], runs[LARGE]
    print(
        f"{' '.join(small.args[:2])}: {SMALL:,} in {small.seconds:.1f} s ({small.cpu:.1f} s "
        f"processor), {LARGE:,} in {large.seconds:.1f} s ({large.cpu:.1f} s)"
    )
    assert large.cpu < 3 * max(small.cpu, 1.0), (
        f"not linear: {small.cpu:.1f} s of processor time ({small.seconds:.1f} s) for "
        f"{SMALL:,}, {large.cpu:.1f} s ({large.seconds:.1f} s) for {LARGE:,}"
    )


def goblins(count: int, same_name: bool) -> list[dict]:
    return [minimal_card("Goblin" if same_name else f"Goblin {i:05d}") for i in range(count)]


@pytest.mark.parametrize("same_name", [False, True], ids=["distinct-names", "same-name"])
@pytest.mark.slow
def test_import_arcmage_scales(same_name: bool, tmp_path: Path) -> None:
    """SMALL then LARGE cards, with distinct names, or all named "Goblin" (slugs
    goblin, goblin-2, ...)."""
    runs: dict[int, Run] = {}
    for count in (SMALL, LARGE):
        root = tmp_path / str(count)
        (root / "cards" / "new").mkdir(parents=True)
        (root / "c.json").write_text(json.dumps(goblins(count, same_name)), encoding="utf-8")
        result = run(
            "import", "arcmage", "c.json", "--into", "cards/new", cwd=root, timeout=SCALE_TIMEOUT
        )
        if timed_or_refused(result, "c.json") is None:
            return
        runs[count] = result
        shutil.rmtree(root)
    assert_linear(runs)


def po_library(root: Path, entries: int) -> Path:
    """A deck ``big`` of copies of the sample's cards (English and French, under new
    slugs) and its French PO file of ``entries`` entries, made from the sample's own
    export; returns the PO file."""
    sample_po = root / "sample.po"
    result = run(
        "export", "po", str(SAMPLE), "--lang", "fr", "-o", str(sample_po), "--no-tbx", cwd=root
    )
    assert result.code == 0, result.show()
    header, _, body = sample_po.read_text(encoding="utf-8").partition("\n\n")
    units = body.strip("\n").split("\n\n")
    slugs = list(dict.fromkeys(re.findall(r'msgctxt "([a-z0-9-]+):', body)))
    deck = root / "cards" / "big"
    deck.mkdir(parents=True)
    shutil.copytree(SAMPLE / "art", deck / "art")
    originals = root / "originals"  # one copy of each file, hard-linked under new slugs
    originals.mkdir()
    for slug in slugs:
        for lang in ("en", "fr"):
            shutil.copy(SAMPLE / f"{slug}.{lang}.md", originals)
    out = [header.replace("X-Translator-Deck: sample", "X-Translator-Deck: big")]
    listed = ["name: Big", "cards:"]
    copy = 0
    while len(out) - 1 < entries:
        for slug in slugs:
            for lang in ("en", "fr"):
                os.link(originals / f"{slug}.{lang}.md", deck / f"{slug}-{copy}.{lang}.md")
            listed.append(f"  {slug}-{copy}: 1")
        for unit in units[: entries - (len(out) - 1)]:
            renamed = re.sub(r'msgctxt "([a-z0-9-]+):', rf'msgctxt "\1-{copy}:', unit)
            out.append(
                re.sub(
                    r"#: cards/sample/([a-z0-9-]+)\.en\.md",
                    rf"#: cards/big/\1-{copy}.en.md",
                    renamed,
                )
            )
        copy += 1
    (deck / "deck.yaml").write_text("\n".join(listed) + "\n", encoding="utf-8")
    po_path = root / "big.fr.po"
    po_path.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    return po_path


@pytest.mark.slow
def test_import_po_scales(tmp_path: Path) -> None:
    runs: dict[int, Run] = {}
    for count in (SMALL, LARGE):
        root = tmp_path / str(count)
        root.mkdir()
        po_path = po_library(root, count)
        result = run(
            "import", "po", po_path.name, "--library", "cards", cwd=root, timeout=SCALE_TIMEOUT
        )
        if timed_or_refused(result, po_path.name) is None:
            return
        runs[count] = result
        shutil.rmtree(root)
    assert_linear(runs)
