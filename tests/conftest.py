"""Shared test helpers: where the workplace's shared reference material lives; the
run's own home and XDG folders, so that no test reads or writes the user's (and a
guard that fails the run when something wrote into the checkout, or where a program
ignoring $XDG_* would write in the user's home); builds shared by the whole run, made
once even on several pytest-xdist workers.

Each stage's tests are in ``tests/<stage>/`` with a conftest.py for that stage's
fixtures; the fixtures shared by several stages are here."""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import configuration, settings

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def shared_dir() -> Path | None:
    """``../shared`` next to the checkout (or $TRANSLATOR_SHARED), if present."""
    candidates = [os.environ.get("TRANSLATOR_SHARED"), ROOT.parent / "shared", "/work/shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "conformance").is_dir():
            return Path(candidate)
    return None


#: Why a test of the official template set is skipped where it is absent.
NO_OFFICIAL_SET = (
    "../shared/arcmage-official is not next to this checkout (the official template set; "
    "set TRANSLATOR_SHARED)"
)


def official_template_set() -> Path | None:
    """The official template set (``arcmage-official`` in ``$TRANSLATOR_SHARED``, in
    ``../shared`` or in :func:`shared_dir`), or None: reference material next to a
    development checkout, never in the repository.  Every test that reads it finds it
    here (the ``official_templates`` fixture, the modules that skip as a whole)."""
    for candidate in (os.environ.get("TRANSLATOR_SHARED"), ROOT.parent / "shared", shared_dir()):
        folder = Path(candidate) / "arcmage-official" if candidate else None
        if folder is not None and (folder / "CardTemplates" / "back.png").is_file():
            return folder
    return None


def reference_cases() -> list[dict]:
    """Inputs run through a build of Aminduna's own converter (see data/README.md)."""
    return json.loads((DATA / "reference-cases.json").read_text("utf-8"))


# --------------------------------------------------------------------------------------
# The run's own folders, and the guard that nothing else is written

#: The environment variable naming the run's folder: set by the pytest process that
#: makes it, inherited by pytest-xdist's workers and by every command a test runs.
RUN_FOLDER = "TRANSLATOR_TEST_RUN"

#: The user's home and XDG folders, each pointed to a folder of the run's own (made
#: empty for the run, inherited by pytest-xdist's workers and every command a test
#: runs): the spelling cache and downloaded template sets (``$XDG_CACHE_HOME/translator``),
#: themes (``$XDG_DATA_HOME/translator/themes``), the login tokens
#: (``$XDG_CONFIG_HOME/translator/credentials.json``), Chromium's, pip's, pre-commit's
#: and git's files too.  The XDG folders are not inside the home: a program that writes
#: in ``~/.cache`` in spite of $XDG_CACHE_HOME is seen by the write guard.
USER_FOLDERS = {
    "HOME": "home",
    "XDG_CACHE_HOME": "cache",
    "XDG_DATA_HOME": "data",
    "XDG_CONFIG_HOME": "config",
}

#: In the run's home, where the user's own files would be written by a program that
#: ignored $XDG_CACHE_HOME, $XDG_CONFIG_HOME or $XDG_DATA_HOME: the write guard fails
#: the run when one is written.
HOME_WATCHED = (".cache", ".config", ".local")

#: Written in the checkout by the tools that run the tests, not by a test: Python's
#: bytecode, pytest's, ruff's and mypy's caches (the checkout's .gitignore lists them;
#: ``./dev test -m "not slow"`` in one terminal and mypy in another is no test's write).
TOOL_CACHES = frozenset(
    {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"}
)

_OWNED = pytest.StashKey[bool]()
_ENVIRONMENT = pytest.StashKey[dict[str, str | None]]()
_BEFORE = pytest.StashKey[dict[str, dict[str, tuple[int, int]]]]()


def run_folder() -> Path:
    """This run's folder (``run`` in pytest's base temporary folder, beside those of
    its xdist workers), shared by them: the caches, themes and shared builds of the
    run, never the user's.  pytest keeps the last three runs' folders, as it does
    ``tmp_path``."""
    return Path(os.environ[RUN_FOLDER])


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-write-guard",
        action="store_true",
        help="do not fail the run when the checkout (or the tests' own ~/.cache, "
        "~/.config, ~/.local) changed during it (for a checkout that someone edits "
        "while the tests run)",
    )


# Hypothesis derandomized (the same examples on every run: a failure is one every run
# sees) with no example database; ``--hypothesis-profile=explore`` draws new examples
# (a failure prints how to reproduce it).  Registered here, loaded by pytest_configure.
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, database=None, print_blob=True)


@pytest.hookimpl(trylast=True)  # after pytest's own, which makes its temporary folder
def pytest_configure(config: pytest.Config) -> None:
    """Point the user's home and XDG folders into the run's own, before any test
    module is imported and before pytest-xdist starts its workers (which inherit
    them, as does every command a test runs): a test that forgets its ``tmp_path``
    writes there, and nothing another program does in the user's folders meanwhile
    is seen by the tests."""
    if RUN_FOLDER not in os.environ:  # the first pytest process (xdist's controller)
        folder = config._tmp_path_factory.getbasetemp() / "run"  # beside the xdist workers' own
        folder.mkdir(exist_ok=True)
        for name in USER_FOLDERS.values():
            (folder / name).mkdir(exist_ok=True)
        os.environ[RUN_FOLDER] = str(folder)
        config.stash[_OWNED] = True
        config.stash[_ENVIRONMENT] = {
            variable: os.environ.get(variable)
            for variable in (*USER_FOLDERS, "TRANSLATOR_CACHE", "HYPOTHESIS_STORAGE_DIRECTORY")
        }
    folder = run_folder()
    for variable, name in USER_FOLDERS.items():
        os.environ[variable] = str(folder / name)
    os.environ.pop("TRANSLATOR_CACHE", None)  # a developer's own: $XDG_CACHE_HOME decides
    # Hypothesis's own files in the run's folder, not ``.hypothesis`` where it runs.
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(folder / "hypothesis")
    configuration.set_hypothesis_home_dir(folder / "hypothesis")
    settings.load_profile(config.getoption("hypothesis_profile", None) or "suite")


@pytest.fixture(scope="session", autouse=True)
def _away_from_the_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test runs in an empty folder of its own run, wherever pytest was started:
    a path that should have been from :data:`ROOT` fails on every machine, and a file
    written to the working directory lands there, not in the checkout."""
    previous = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(previous)


@pytest.fixture
def sample_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample at ``cards/sample`` in the working directory (``tmp_path``),
    for a test that names it as a user types it (the messages it checks say the path
    as given); returns that deck."""
    deck = tmp_path / "cards" / "sample"
    shutil.copytree(ROOT / "cards" / "sample", deck)
    monkeypatch.chdir(tmp_path)
    return deck


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_OWNED, False):  # the folder stays, as tmp_path's do
        del os.environ[RUN_FOLDER]
        for variable, value in config.stash[_ENVIRONMENT].items():  # pytest.main() in a script
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value


def watched_folders() -> dict[str, Path]:
    """What no test may write into: the checkout, and in the run's own home (never the
    user's: another program may write there during the run) ``~/.cache``, ``~/.config``
    and ``~/.local``, where only a program ignoring the XDG variables writes."""
    home = run_folder() / USER_FOLDERS["HOME"]
    return {"the checkout": ROOT} | {f"~/{name}": home / name for name in HOME_WATCHED}


def files_under(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` (the tools' caches left out): its size and mtime."""
    found: dict[str, tuple[int, int]] = {}
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in TOOL_CACHES]
        for name in names:
            path = Path(folder, name)
            try:
                stat = path.lstat()
            except OSError:  # gone while walked
                continue
            found[str(path.relative_to(root))] = (stat.st_size, stat.st_mtime_ns)
    return found


def changed_files(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list:
    """The files added, changed or removed between two :func:`files_under`."""
    return sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller watches for all
        session.config.stash[_BEFORE] = {
            label: files_under(root) for label, root in watched_folders().items()
        }


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run when a test wrote into the checkout or the run's ~/.cache,
    ~/.config or ~/.local, naming the files."""
    before = session.config.stash.get(_BEFORE, None)
    if before is None or session.config.getoption("--no-write-guard"):
        return
    written = {
        label: changed_files(before[label], files_under(root))
        for label, root in watched_folders().items()
    }
    written = {label: names for label, names in written.items() if names}
    if not written:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", "written outside the tests' temporary folders", red=True)
        for label, names in written.items():
            reporter.write_line(f"{label} ({watched_folders()[label]}): {', '.join(names[:20])}")
        reporter.write_line(
            "tests write into tmp_path or the run's folder: a file above was written by a "
            "test (or edited by someone during the run: then rerun, or --no-write-guard)"
        )
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --------------------------------------------------------------------------------------
# Builds shared by the whole run

#: The shared builds below: each takes seconds, so a test that reads one is ``slow``
#: (``-m "not slow"`` would otherwise make the build for the first quick test).
SLOW_FIXTURES = frozenset({"french_sample", "review_sheet"})


#: Tests measured slow on a run of the quick loop (tools/slow_tests.py writes it).
SLOW_TESTS = ROOT / "tests" / "slow-tests.txt"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    measured = {
        line.strip()
        for line in SLOW_TESTS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    for item in items:
        if item.nodeid in measured or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def shared_build(name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """The folder ``name`` made once for the whole run by ``make(folder)``, and what
    ``make`` returned (pickled for the other workers).  Under pytest-xdist a session
    fixture runs once per worker: the first to come makes the folder while the others
    wait on its lock, then read it.  Tests only read it (a test that changes cards
    works on its own copy)."""
    shared = run_folder() / "shared"
    shared.mkdir(exist_ok=True)
    folder, made = shared / name, shared / f"{name}.pickle"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)  # a process's lock: not its build's forked workers'
        if not made.is_file():
            shutil.rmtree(folder, ignore_errors=True)  # a worker that failed half-way
            folder.mkdir()
            made.write_bytes(pickle.dumps(make(folder)))
    return folder, pickle.loads(made.read_bytes())


# --------------------------------------------------------------------------------------
# Resources shared by several stages' tests


@pytest.fixture(scope="session")
def official_templates() -> Path:
    """The official template set (:func:`official_template_set`), or the test skipped."""
    folder = official_template_set()
    if folder is None:
        pytest.skip(NO_OFFICIAL_SET)
    return folder


@pytest.fixture(scope="session")
def arcmage_theme(official_templates: Path) -> Path:
    """The official look imported from :func:`official_templates` into the run's
    folder: once for the run, by the first of the xdist workers to need it (about
    10 s), read by the others (:func:`shared_build`)."""
    from translator.themes.arcmage.importer import import_arcmage

    def make(work: Path) -> None:
        import_arcmage(str(official_templates), work / "arcmage", progress=False)

    return shared_build("arcmage-theme", make)[0] / "arcmage"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (tests/browserkit.py): the
    review sheet's tests and the watch server's; skipped, saying why, without one."""
    from tests.browserkit import CHROMIUM_ARGS, chromium_path

    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (./dev test installs it)"
    )
    executable = chromium_path()
    if executable is None:
        pytest.skip(
            "no Chromium: ./dev test installs Debian's chromium package "
            "(or set CHROMIUM to a Chromium executable)"
        )
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Exception as error:
            pytest.skip(f"Chromium at {executable} does not start: {error}")
        yield launched
        launched.close()


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A running Aminduna stand-in (tests/aminduna_standin.py) with the 30-card deck
    (tests/synckit.py's :class:`Seeded`), and retries that do not wait: the sync tests'
    and the network attacks'.

    $TRANSLATOR_SERVER names the stand-in, as a CI job names its server: a push goes
    where the user says, never where its records say."""
    from tests.aminduna_standin import StandIn
    from tests.synckit import FAST_RETRIES, seed

    monkeypatch.setattr("translator.sync.client.RETRY_DELAYS", FAST_RETRIES)
    monkeypatch.delenv("TRANSLATOR_TOKEN", raising=False)
    monkeypatch.delenv("TRANSLATOR_SERVER", raising=False)
    with StandIn(tmp_path / "aminduna.sqlite3") as server:
        monkeypatch.setenv("TRANSLATOR_SERVER", server.url)
        yield seed(server)
