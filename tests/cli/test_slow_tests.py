"""The quick loop's list of slow tests (tests/slow-tests.txt, tools/slow_tests.py): a
listed test still exists (a renamed one would silently come back into the quick loop
under its new name, and the old line would mark nothing), the tests the quick loop must
keep are not listed, and the tool lists by measure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.toolkit import tool

slow_tests = tool("slow_tests")
LISTED = slow_tests.listed((ROOT / "tests" / "slow-tests.txt").read_text(encoding="utf-8"))


def test_every_listed_test_is_a_test() -> None:
    missing = []
    for test in LISTED:
        file, _, name = test.partition("::")
        path = ROOT / file
        function = re.sub(r"\[.*\]$", "", name)
        if not path.is_file() or f"def {function}(" not in path.read_text(encoding="utf-8"):
            missing.append(test)
    assert missing == []


def test_what_the_quick_loop_keeps_is_not_listed() -> None:
    assert set(slow_tests.KEPT) & set(LISTED) == set()


def test_a_test_is_listed_by_its_setup_call_and_teardown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "quick.log"
    log.write_text(
        "0.30s setup    tests/a/test_x.py::test_one[1]\n"
        "0.25s call     tests/a/test_x.py::test_one[1]\n"
        "0.40s call     tests/a/test_x.py::test_two\n"
        f"2.00s call     {next(iter(slow_tests.KEPT))}\n",
        encoding="utf-8",
    )
    listing = tmp_path / "slow-tests.txt"
    listing.write_text(slow_tests.HEADER + "tests/a/test_x.py::test_old\n", encoding="utf-8")
    monkeypatch.setattr(slow_tests, "LIST", listing)
    monkeypatch.setattr(slow_tests, "ROOT", tmp_path)
    assert slow_tests.main([str(log)]) == 0
    assert slow_tests.listed(listing.read_text(encoding="utf-8")) == [
        "tests/a/test_x.py::test_old",
        "tests/a/test_x.py::test_one[1]",
    ]


def test_a_log_without_durations_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "quick.log"
    log.write_text("3 passed in 1.00s\n", encoding="utf-8")
    assert slow_tests.main([str(log)]) == 2
