"""``translator build --watch``: the real command as a subprocess on a copy of the
sample, a change to a card file rebuilt and pictured, a broken file reported and its
fix rebuilt, the preview page reloading itself in Chromium (Playwright, Debian's
browser: the review sheet tests' fixture), and Ctrl-C / SIGTERM stopping it cleanly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.conftest import ROOT
from translator.watch import Page, Server, Shown

SAMPLE = ROOT / "cards" / "sample"
#: Eight cards: the first build forks the worker pool (eight or more cards, two jobs).
CARDS = [
    "veil-stalker",
    "courier",
    "bonefield-keep",
    "call-to-arms",
    "grave-lantern",
    "flame-lash",
    "mossgate",
    "harbor-lord",
]
#: Seconds a build (WeasyPrint's start included, on a loaded two-core machine) may take.
SLOW = 180.0


class Watching:
    """``translator build --watch`` running in ``cwd``: its output (stdout and stderr
    together), line by line, read by a thread."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "translator", "build", *args, "--watch"],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.read = 0  # lines looked at by expect()
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.arrived:
                self.lines.append(line.rstrip("\n"))
                self.arrived.notify_all()

    def expect(self, pattern: str, timeout: float = SLOW) -> re.Match[str]:
        """The next line (after those expected already) matching ``pattern``."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                while self.read < len(self.lines):
                    line = self.lines[self.read]
                    self.read += 1
                    found = re.search(pattern, line)
                    if found:
                        return found
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(
                        f"no line matching {pattern!r}; output:\n" + "\n".join(self.lines)
                    )
                self.arrived.wait(min(left, 0.5))

    def descendants(self) -> set[int]:
        """The processes under the watch (the build's workers, Ghostscript)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                parents[int(entry.name)] = int(fields[1])
        found, frontier = set(), {self.process.pid}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier}
            found |= frontier
        return found

    def stop(self, how: int) -> tuple[int, str]:
        self.process.send_signal(how)
        code = self.process.wait(timeout=60)
        time.sleep(0.2)  # the reader's last lines
        return code, "\n".join(self.lines)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def library(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "cards" / "sample")
    return tmp_path


@pytest.fixture
def watching(library: Path) -> Iterator[Watching]:
    cards = [arg for slug in CARDS for arg in ("--card", slug)]
    run = Watching(library, "cards/sample", "--lang", "fr", *cards, "--jobs", "2", "--out", "out")
    yield run
    run.kill()


def pixels(path: Path) -> bytes:
    with Image.open(path) as image:
        return image.convert("RGB").tobytes()


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
def test_watch_rebuilds_previews_and_reloads_the_page(
    watching: Watching,
    library: Path,
    browser: Any,
) -> None:
    card = library / "cards" / "sample" / "veil-stalker.fr.md"
    png = library / "out" / "preview" / "veil-stalker.fr.png"
    watching.expect(r"^veil-stalker\.fr: fits, no lint findings$")
    port = int(watching.expect(r"previews at http://127\.0\.0\.1:(\d+)/")[1])
    workers = watching.descendants()
    assert len(workers) >= 2, "eight cards on two jobs: the build's worker pool"
    before = pixels(png)

    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    version = page.eval_on_selector("body", "body => body.dataset.version")
    assert (
        page.eval_on_selector(
            'figure[data-card="veil-stalker.fr"] img', "img => img.complete && img.naturalWidth"
        )
        == Image.open(png).width
    )

    # A change to the French card: rebuilt, said, pictured, and the page reloads.
    card.write_text(card.read_text("utf-8").replace("Rôdeur", "Rôdeuse"), "utf-8")
    watching.expect(r"^veil-stalker\.fr: fits, no lint findings$", 60)
    assert pixels(png) != before
    page.wait_for_function(f"() => document.body.dataset.version !== {json.dumps(version)}")
    version = page.eval_on_selector("body", "body => body.dataset.version")

    # A lost minus sign: the line says what the linter finds.
    card.write_text(card.read_text("utf-8").replace("-1/-1", "1/-1"), "utf-8")
    watching.expect(r"^veil-stalker\.fr: fits, 1 error \(TR101\)$", 60)

    # Broken YAML: said with the file and line, shown on the page; the watch goes on.
    saved = card.read_text("utf-8")
    card.write_text(saved.replace("subtype: Ombre", "subtype: [Ombre"), "utf-8")
    watching.expect(r"^translator: cards/sample/veil-stalker\.fr\.md:4:7: malformed YAML", 60)
    watching.expect(r"^translator: still watching: fix it and save$", 10)
    page.wait_for_function(
        "() => document.querySelector('.notice') && "
        "document.querySelector('.notice').textContent.includes('malformed YAML')"
    )
    # Fixed: the card is said again (its print was up to date).
    card.write_text(saved.replace("1/-1", "-1/-1"), "utf-8")
    watching.expect(r"^veil-stalker\.fr: fits, no lint findings$", 60)
    page.wait_for_function("() => !document.querySelector('.notice')")
    assert errors == [], errors  # its own script, allowed by its policy, and no other
    page.close()

    code, output = watching.stop(signal.SIGINT)
    assert code == 0, output
    assert "Traceback" not in output and output.endswith("translator: stopped")
    assert not [pid for pid in workers if alive(pid)], "the workers are stopped"
    leftovers = [p for p in (library / "out").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.slow
def test_sigterm_stops_it_and_a_file_page_reloads_itself(library: Path, browser: Any) -> None:
    """SIGTERM is Ctrl-C; the page opened from disk (file://) reloads on a timer."""
    run = Watching(library, "cards/sample", "--lang", "fr", "--card", "courier", "--out", "out")
    try:
        run.expect(r"^courier\.fr: shrunk to \d+ %, no lint findings$")
        run.expect(r"previews at http://127\.0\.0\.1:\d+/")
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        index = library / "out" / "preview" / "index.html"
        page.goto(index.as_uri())
        assert page.eval_on_selector("img", "img => img.complete && img.naturalWidth") > 0
        with page.expect_navigation(timeout=10000):
            pass  # the timer's reload
        assert errors == [], errors
        page.close()
        code, output = run.stop(signal.SIGTERM)
        assert code == 0, output
        assert "Traceback" not in output and output.endswith("translator: stopped")
    finally:
        run.kill()


def test_a_usage_error_stops_it_at_once(library: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "translator", "build", "cards/sample", "--lang", "xx", "--watch"],
        cwd=library,
        capture_output=True,
        text=True,
        timeout=SLOW,
        check=False,
    )
    assert done.returncode == 2 and "--lang xx" in done.stderr
    assert not (library / "out" / "preview").exists()


def test_port_without_watch(library: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "translator", "build", "cards/sample", "--port", "8000"],
        cwd=library,
        capture_output=True,
        text=True,
        timeout=SLOW,
        check=False,
    )
    assert done.returncode == 2 and "--port goes with --watch" in done.stderr


# --------------------------------------------------------------------------------------
# the page and its server, without a build


def test_the_page_escapes_card_text(tmp_path: Path) -> None:
    page = Page(tmp_path)
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    page.update([Shown("imp.fr", "fits", "no lint findings", None, [hostile])], [hostile], "", None)
    written = (tmp_path / "index.html").read_text("utf-8")
    assert hostile not in written and "&lt;script&gt;alert(&quot;x&quot;)" in written
    assert written.count("<script>") == 1  # the page's own


def get(url: str, host: str | None = None) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, b"", {}


def test_the_server_serves_the_previews_only(tmp_path: Path) -> None:
    folder = tmp_path / "out" / "preview"
    folder.mkdir(parents=True)
    (folder / "imp.fr.png").write_bytes(b"\x89PNG picture")
    (folder / "notes.txt").write_text("not served", "utf-8")
    (tmp_path / "secret.md").write_text("not served", "utf-8")
    page = Page(folder)
    page.update([], [], "", None)
    server = Server(page, 0)
    base = f"http://127.0.0.1:{server.port}"
    try:
        status, body, headers = get(f"{base}/")
        assert status == 200 and b"Card previews" in body
        assert "script-src 'sha256-" in headers["Content-Security-Policy"]
        assert get(f"{base}/imp.fr.png")[:2] == (200, b"\x89PNG picture")
        for path in ("/notes.txt", "/../secret.md", "/%2e%2e/secret.md", "/.cache/x.jpg"):
            assert get(base + path)[0] == 404, path
        assert get(f"{base}/", host="attacker.example:80")[0] == 421
        assert json.loads(get(f"{base}/version")[1]) == {"version": 1}
    finally:
        server.stop()
    assert os.path.exists(folder / "index.html")
