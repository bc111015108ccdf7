"""The official template set from a folder or a server (translator/themes/arcmage/source.py).

The set itself is reference material next to the checkout (``../shared/arcmage-official``,
82 MB), never copied into the repository: the module is skipped without it.  Broken sets
are trees of hard links to it (copies where the system refuses a hard link) with one
file changed: a symbolic link in a set is refused (test_security_theme.py); the server
is Python's own ``http.server`` on 127.0.0.1 in a thread.  The full set is downloaded
once per module.
"""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import io
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import NO_OFFICIAL_SET, official_template_set
from translator.themes.arcmage import source
from translator.themes.arcmage.source import SourceError, TemplateSet, open_source

SHARED = official_template_set()


def need_shared() -> None:
    """Skip the calling test (or fixture) without the reference set; the tests of single
    files and addresses run anyway."""
    if SHARED is None:
        pytest.skip(NO_OFFICIAL_SET)


def link_tree(
    source_dir: Path,
    target: Path,
    *,
    skip: tuple[str, ...] = (),
    only: tuple[str, ...] | None = None,
) -> Path:
    """``target`` as a copy of ``source_dir`` made of hard links (real folders; a copy
    of a file the system will not link), without the relative paths in ``skip``, or
    with only those in ``only``.  A test changes a file by removing it and writing a
    new one, never by writing into a linked file (which is the reference's)."""
    for path in sorted(source_dir.rglob("*")):
        relative = path.relative_to(source_dir).as_posix()
        if path.is_dir() or relative in skip or (only is not None and relative not in only):
            continue
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, target / relative)
        except OSError:  # another file system, or protected hard links
            shutil.copyfile(path, target / relative)
    return target


def png_bytes(size: tuple[int, int], mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size).save(buffer, "PNG")
    return buffer.getvalue()


# -- a local server ----------------------------------------------------------------------


class Server:
    """A static file server on 127.0.0.1 that records the status of every answer, can
    answer 500 a number of times for a path, redirect a path, and gives ETags."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.log: list[tuple[str, int]] = []
        self.fail: dict[str, int] = {}
        self.redirect: dict[str, str] = {}
        self.etags = False
        #: Answer an unknown path with a web page, as a web application does.
        self.fallback_page = False
        #: The If-None-Match header of each request.
        self.seen: list[str | None] = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, directory=str(server.directory), **kwargs)

            def do_GET(self) -> None:
                server.seen.append(self.headers.get("If-None-Match"))
                if server.fail.get(self.path, 0) > 0:
                    server.fail[self.path] -= 1
                    self.send_error(500)
                    return
                if self.path in server.redirect:
                    self.send_response(302)
                    self.send_header("Location", server.redirect[self.path])
                    self.end_headers()
                    return
                if server.fallback_page and not Path(self.translate_path(self.path)).exists():
                    page = b"<!DOCTYPE html><html><body>Aminduna</body></html>"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                    return
                etag = self._etag()
                if etag is not None and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                super().do_GET()

            def _etag(self) -> str | None:
                if not server.etags:
                    return None
                path = Path(self.translate_path(self.path))
                return f'"{path.stat().st_size}"' if path.is_file() else None

            def send_header(self, keyword: str, value: str) -> None:
                super().send_header(keyword, value)
                etag = self._etag() if keyword == "Last-Modified" else None
                if etag is not None:
                    super().send_header("ETag", etag)

            def send_response(self, code: int, message: str | None = None) -> None:
                server.log.append((self.path, code))
                super().send_response(code, message)

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def statuses(self, suffix: str = "") -> list[int]:
        return [code for path, code in self.log if path.endswith(suffix)]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator:
    servers: list[Server] = []

    def start(directory: Path) -> Server:
        servers.append(Server(directory))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "RETRY_DELAYS", (0.01, 0.01, 0.01))


@pytest.fixture(scope="module")
def folder_set() -> TemplateSet:
    need_shared()
    return open_source(str(SHARED), progress=False)


@pytest.fixture(scope="module")
def full_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The whole set served under /arcmage/ (as Aminduna does) of a server root."""
    need_shared()
    root = tmp_path_factory.mktemp("www")
    (root / "arcmage").symlink_to(SHARED, target_is_directory=True)
    server = Server(root)
    yield server
    server.close()


@pytest.fixture(scope="module")
def downloaded(
    full_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> tuple[TemplateSet, Path, list[tuple[str, int]]]:
    """The set downloaded once from the server's root: (set, cache folder, answers)."""
    cache = tmp_path_factory.mktemp("cache")
    result = open_source(full_server.url, cache_dir=cache, progress=False)
    log = list(full_server.log)
    full_server.log.clear()
    return result, cache, log


SMALL = (
    "CardTemplates/back.png",
    "CardTemplates/border.png",
    "CardTemplates/gaian/creature_overlay_plain.svg",
    "CardTemplates/the_empire/creature_overlay_plain.svg",
    "Fonts/WTactics Symbols.ttf",
    "Lic/README.txt",
)


@pytest.fixture
def small_catalogue(monkeypatch: pytest.MonkeyPatch) -> source.Catalogue:
    """The catalogue cut down to two required and four optional files (one absent from
    the reference set), so that a test verifies a few files instead of 60."""
    full = source.catalogue()
    small = dataclasses.replace(full, files=tuple(e for e in full.files if e.path in SMALL))
    monkeypatch.setattr(source, "catalogue", lambda: small)
    return small


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- the catalogue -------------------------------------------------------------------------


def test_catalogue_lists_every_faction_and_type():
    entries = source.catalogue()
    assert entries.files[0].path == entries.probe == "CardTemplates/back.png"
    required = [entry.path for entry in entries.files if entry.required]
    assert len(required) == 2 + 6 + 6 * 6
    assert "CardTemplates/the_empire/equipment.png" in required
    assert "CardTemplates/house_of_nobles/border.png" in required
    optional = [entry.path for entry in entries.files if not entry.required]
    assert "CardTemplates/gaian/creature_overlay_plain.svg" in optional
    assert "Fonts/WTactics Symbols.ttf" in optional
    assert len(set(required + optional)) == len(entries.files)
    # every file the catalogue names is a file of the reference set's shape
    need_shared()
    for name in required:
        assert (SHARED / name).is_file(), name
    for name in ("Fonts/README", "Lic/README.txt", "Lic/CC_BY_SA_4_LIC.txt"):
        assert name in optional


def test_every_licence_file_of_the_reference_is_listed():
    need_shared()
    optional = {entry.path for entry in source.catalogue().files}
    for path in (SHARED / "Lic").iterdir():
        assert f"Lic/{path.name}" in optional


# -- checks of one file --------------------------------------------------------------------


def _kind(name: str) -> source.Kind:
    return next(e.kind for e in source.catalogue().files if e.kind.name == name)


@pytest.mark.parametrize(
    ("data", "kind", "expected"),
    [
        (b"not a png at all", "template", "not a PNG image"),
        (png_bytes((100, 100)), "template", "is 100 x 100 pixels"),
        (png_bytes((1535, 2173), "L"), "template", "is a L image"),
        (png_bytes((1535, 2173), "P"), "template", "is a P image"),
        (png_bytes((768, 1087)), "template", None),  # 300 dpi
        (png_bytes((2173, 1535)), "template", "not 65 x 92 mm"),  # landscape
        (png_bytes((1512, 2126), "RGBA"), "back", None),
        (png_bytes((1512, 2126))[:-200], "back", "not a PNG image"),  # cut short
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><g id='overlaylayer'/></svg>",
            "template-svg",
            None,
        ),
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><g id='other'/></svg>",
            "template-svg",
            'no <g id="overlaylayer">',
        ),
        (b"<html><g id='overlaylayer'/></html>", "template-svg", "not an SVG image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><g", "template-svg", "not well-formed"),
        (
            b"<!DOCTYPE svg [<!ENTITY a 'aaaa'>]><svg xmlns='http://www.w3.org/2000/svg'>"
            b"<g id='overlaylayer'>&a;</g></svg>",
            "template-svg",
            "declares an XML entity",
        ),
        (b"\x00\x01\x00\x00rest", "font", None),
        (b"<html>", "font", "not a font file"),
        (b"licence \xe2\x80\x94 text", "text", None),
        (b"\xff\xfe", "text", "not UTF-8"),
    ],
)
def test_check_file(data: bytes, kind: str, expected: str | None):
    problem = source.check_file(data, _kind(kind))
    if expected is None:
        assert problem is None
    else:
        assert problem is not None and expected in problem


@pytest.fixture
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache"


def test_an_image_found_fine_is_not_decoded_again(
    user_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verifying decodes each template; the very bytes found fine before (for the same
    kind, catalogue and Pillow) are not decoded again, in this process or the next."""
    good = png_bytes((768, 1087))
    decoded = []
    real = source._decoded_png_problem
    monkeypatch.setattr(
        source, "_decoded_png_problem", lambda *args: decoded.append(1) or real(*args)
    )
    assert source.check_file(good, _kind("template")) is None
    assert source.check_file(good, _kind("template")) is None
    assert decoded == [1]
    source._keep_verified()  # what open_source does once a set is read
    source._verified_list.cache_clear()  # the next process: from the cache folder
    assert source.check_file(good, _kind("template")) is None
    assert decoded == [1]
    # other bytes, or the same bytes as another kind, are decoded
    assert source.check_file(png_bytes((769, 1087)), _kind("template")) is None
    source.check_file(good, _kind("back"))
    assert decoded == [1, 1, 1]
    # a problem is never remembered as fine
    assert source.check_file(png_bytes((100, 100)), _kind("template")) is not None
    assert source.check_file(png_bytes((100, 100)), _kind("template")) is not None
    assert len(decoded) == 5


def test_a_set_read_writes_its_list_of_images_found_fine_once(
    tmp_path: Path, user_cache: Path, small_catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list is written once for the whole set, not once per image; the next
    process reads the same set without decoding or writing anything."""
    need_shared()
    folder = link_tree(SHARED, tmp_path / "set")
    writes: list[Path] = []
    real_write = source.write_private
    monkeypatch.setattr(
        source, "write_private", lambda path, data: writes.append(path) or real_write(path, data)
    )
    open_source(str(folder), progress=False)
    assert writes == [user_cache / source.VERIFIED_FILE]
    pngs = {e.path for e in small_catalogue.files if e.kind.format == "png"}
    assert len(pngs) == 2
    assert len((user_cache / source.VERIFIED_FILE).read_text("ascii").split()) == 1 + 2
    source._verified_list.cache_clear()  # the next process
    monkeypatch.setattr(source, "_decoded_png_problem", lambda *_: pytest.fail("decoded"))
    open_source(str(folder), progress=False)
    assert writes == [user_cache / source.VERIFIED_FILE]


def test_the_images_found_fine_are_kept_when_a_later_file_stops_the_set(
    tmp_path: Path, user_cache: Path, small_catalogue
) -> None:
    need_shared()
    folder = link_tree(SHARED, tmp_path / "set", skip=("Fonts/WTactics Symbols.ttf",))
    (folder / "Fonts/WTactics Symbols.ttf").write_bytes(b"<html>not found</html>")
    with pytest.raises(SourceError):
        open_source(str(folder), progress=False)
    assert len((user_cache / source.VERIFIED_FILE).read_text("ascii").split()) == 1 + 2


@pytest.mark.parametrize("damage", ["a key added", "cut short", "a folder"])
def test_a_damaged_list_of_images_found_fine_lists_none(
    user_cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    good = png_bytes((768, 1087))
    assert source.check_file(good, _kind("template")) is None
    source._keep_verified()
    listed = user_cache / source.VERIFIED_FILE
    if damage == "a key added":
        listed.write_bytes(listed.read_bytes() + b"\n" + b"0" * 64)
    elif damage == "cut short":
        listed.write_bytes(listed.read_bytes()[:-10])
    else:
        listed.unlink()
        listed.mkdir()
    source._verified_list.cache_clear()
    decoded = []
    real = source._decoded_png_problem
    monkeypatch.setattr(
        source, "_decoded_png_problem", lambda *args: decoded.append(1) or real(*args)
    )
    assert source.check_file(good, _kind("template")) is None
    assert decoded == [1]


# -- a folder ------------------------------------------------------------------------------


@pytest.mark.slow
def test_folder_source_is_read_in_place(folder_set: TemplateSet):
    need_shared()
    assert folder_set.root == SHARED
    assert folder_set.origin == str(SHARED)
    entries = source.catalogue()
    assert all(entry.path in folder_set.files for entry in entries.files if entry.required)
    back = folder_set.path("CardTemplates/back.png")
    assert (
        folder_set.files["CardTemplates/back.png"] == hashlib.sha256(back.read_bytes()).hexdigest()
    )
    # two factions have SVG templates in the reference set: the rest are missing
    assert folder_set.has("CardTemplates/gaian/creature_overlay_plain.svg")
    assert "CardTemplates/the_empire/creature_overlay_plain.svg" in folder_set.missing_optional
    assert folder_set.has("Fonts/WTactics Symbols.ttf")
    assert not set(folder_set.files) & set(folder_set.missing_optional)
    assert len(folder_set.files) + len(folder_set.missing_optional) == len(entries.files)
    assert folder_set.notes == []


@pytest.mark.slow
def test_clone_layout(tmp_path: Path, folder_set: TemplateSet, small_catalogue):
    need_shared()
    inner = link_tree(SHARED, tmp_path / "arcmage" / "Arcmage.Server.Api" / "wwwroot" / "arcmage")
    result = open_source(str(tmp_path / "arcmage"), progress=False)
    assert result.root == inner
    assert result.files == {
        name: folder_set.files[name] for name in SMALL if name in folder_set.files
    }
    assert result.missing_optional == ["CardTemplates/the_empire/creature_overlay_plain.svg"]
    # the other ways in: part of the clone's path, the CardTemplates folder
    for given in (
        tmp_path / "arcmage" / "Arcmage.Server.Api",
        inner.parent,
        inner,
        inner / "CardTemplates",
    ):
        assert source.locate_folder(str(given)) == inner


def test_not_a_template_set(tmp_path: Path):
    (tmp_path / "CardTemplates").mkdir()
    with pytest.raises(SourceError, match="not an Arcmage template set"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="no such folder"):
        open_source(str(tmp_path / "nowhere"))
    (tmp_path / "file").write_text("x")
    with pytest.raises(SourceError, match="is a file, not a folder"):
        open_source(str(tmp_path / "file"))


def test_missing_required_file(tmp_path: Path):
    need_shared()
    link_tree(SHARED, tmp_path, skip=("CardTemplates/gaian/creature.png",))
    with pytest.raises(SourceError) as error:
        open_source(str(tmp_path), progress=False)
    assert error.value.path == str(tmp_path / "CardTemplates/gaian/creature.png")
    assert str(error.value).startswith(f"{tmp_path}/CardTemplates/gaian/creature.png: missing")
    assert "\n" not in str(error.value)


def test_several_missing_required_files(tmp_path: Path):
    need_shared()
    link_tree(
        SHARED, tmp_path, skip=("CardTemplates/gaian/creature.png", "CardTemplates/none/border.png")
    )
    with pytest.raises(SourceError, match=r"missing \(and 1 more required files\)"):
        open_source(str(tmp_path), progress=False)


def test_corrupt_png(tmp_path: Path, small_catalogue):
    need_shared()
    link_tree(SHARED, tmp_path, skip=("CardTemplates/border.png",))
    (tmp_path / "CardTemplates/border.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    with pytest.raises(SourceError) as error:
        open_source(str(tmp_path), progress=False)
    assert error.value.path == str(tmp_path / "CardTemplates/border.png")
    assert "not a PNG image" in error.value.message
    assert "replace it" in error.value.message


def test_optional_file_invalid_is_an_error(tmp_path: Path, small_catalogue):
    need_shared()
    link_tree(SHARED, tmp_path, skip=("Fonts/WTactics Symbols.ttf",))
    (tmp_path / "Fonts/WTactics Symbols.ttf").write_bytes(b"<html>not found</html>")
    with pytest.raises(SourceError, match="not a font file"):
        open_source(str(tmp_path), progress=False)


# -- an address ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("http://aminduna.arcmage.org/arcmage/", "plain http:// is refused"),
        ("http://192.168.1.10/arcmage/", "plain http:// is refused"),
        ("ftp://127.0.0.1/arcmage/", "ftp:// addresses are not supported"),
        ("https:///arcmage/", "names no server"),
        ("https://user:secret@aminduna.arcmage.org/arcmage/", "user name"),
        ("https://aminduna.arcmage.org/arcmage/?x=1", "no ?query"),
        ("https://aminduna.arcmage.org/a/../arcmage/", "'..'"),
        ("https://aminduna.arcmage.org:99999/", "not a valid address"),
    ],
)
def test_refused_addresses(address: str, expected: str, tmp_path: Path):
    with pytest.raises(SourceError, match=expected.replace("?", r"\?").replace(".", r"\.")):
        open_source(address, cache_dir=tmp_path)


def test_loopback_http_and_https_addresses_are_accepted():
    assert source.parse_address("http://127.0.0.1:8000/arcmage") == "http://127.0.0.1:8000/arcmage/"
    assert source.parse_address("http://[::1]:8000/") == "http://[::1]:8000/"
    assert source.parse_address("HTTP://LOCALHOST/arcmage/") == "http://localhost/arcmage/"
    assert source.parse_address("https://aminduna.arcmage.org") == "https://aminduna.arcmage.org/"


def test_default_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.delenv("TRANSLATOR_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert (
        source.default_cache_dir("https://aminduna.arcmage.org/arcmage/")
        == tmp_path / "translator" / "arcmage" / "aminduna.arcmage.org"
    )
    assert (
        source.default_cache_dir("http://127.0.0.1:8123/")
        == tmp_path / "translator" / "arcmage" / "127.0.0.1_8123"
    )
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    with pytest.raises(SourceError, match="need a cache folder"):
        source.default_cache_dir("https://aminduna.arcmage.org/arcmage/")


@pytest.mark.slow
def test_download_from_the_server_root(downloaded, folder_set: TemplateSet):
    result, cache, log = downloaded
    assert result.root == cache / "arcmage"
    assert result.files == folder_set.files  # the same bytes as the folder's
    assert result.missing_optional == folder_set.missing_optional
    assert any(
        "under http://127.0.0.1" in note and note.endswith("/arcmage/") for note in result.notes
    )
    for relative, digest in result.files.items():
        assert hashlib.sha256(result.path(relative).read_bytes()).hexdigest() == digest
    statuses = [code for _, code in log]
    # the root has no back.png (404), then every file once
    assert log[0] == ("/CardTemplates/back.png", 404)
    assert statuses.count(200) == len(result.files)
    assert statuses.count(404) == 1 + len(result.missing_optional)
    assert (result.root / source.INDEX_NAME).is_file()
    assert not list(result.root.rglob("*.tmp"))


@pytest.mark.slow
def test_second_run_asks_only_for_changes(downloaded, full_server: Server):
    result, cache, _ = downloaded
    full_server.log.clear()
    again = open_source(full_server.url + "arcmage/", cache_dir=cache, progress=False)
    assert again.files == result.files
    assert again.root == result.root
    statuses = full_server.statuses()
    assert statuses.count(304) == len(result.files)
    assert statuses.count(200) == 0
    assert statuses.count(404) == len(result.missing_optional)
    assert again.notes == []


@pytest.mark.slow
def test_a_500_is_retried(downloaded, full_server: Server):
    result, cache, _ = downloaded
    full_server.log.clear()
    full_server.fail["/arcmage/CardTemplates/gaian/border.png"] = 2
    again = open_source(full_server.url + "arcmage/", cache_dir=cache, progress=False)
    assert again.files == result.files
    assert full_server.statuses("/gaian/border.png") == [500, 500, 304]


@pytest.mark.slow
def test_offline_from_the_cache(downloaded):
    result, cache, _ = downloaded
    address = f"http://127.0.0.1:{closed_port()}/"
    offline = open_source(address, cache_dir=cache, progress=False)
    assert offline.root == result.root
    assert offline.files == result.files
    assert offline.missing_optional == result.missing_optional
    assert len(offline.notes) == 1
    assert "cannot be reached" in offline.notes[0]
    assert "cached in" in offline.notes[0]


@pytest.mark.slow
def test_offline_needs_every_required_file_cached(downloaded, tmp_path: Path):
    _, cache, _ = downloaded
    address = f"http://127.0.0.1:{closed_port()}/arcmage/"
    with pytest.raises(SourceError, match=r"cannot be reached .* holds no complete copy"):
        open_source(address, cache_dir=tmp_path, progress=False)
    # a cached file changed since it was fetched is not cached
    partial = tmp_path / "partial"
    link_tree(cache, partial)
    (partial / "arcmage/CardTemplates/back.png").unlink()
    (partial / "arcmage/CardTemplates/back.png").write_bytes(b"changed")
    with pytest.raises(SourceError, match="holds no complete copy"):
        open_source(address, cache_dir=partial, progress=False)


def test_404_on_a_required_file(tmp_path: Path, serve):
    need_shared()
    first_two = ("CardTemplates/back.png", "CardTemplates/border.png")
    server = serve(link_tree(SHARED, tmp_path / "www", only=first_two))
    with pytest.raises(SourceError) as error:
        open_source(server.url, cache_dir=tmp_path / "cache", progress=True)
    assert error.value.path == server.url + "CardTemplates/gaian/border.png"
    assert "not found (HTTP 404)" in error.value.message
    assert server.statuses() == [200, 200, 404]
    # what was fetched is recorded: the next run asks with the server's validators
    server.log.clear()
    with pytest.raises(SourceError):
        open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert server.statuses() == [304, 304, 404]  # If-Modified-Since


def test_etags_are_sent_back(tmp_path: Path, serve):
    need_shared()
    server = serve(link_tree(SHARED, tmp_path / "www", only=("CardTemplates/back.png",)))
    server.etags = True
    for _ in range(2):
        with pytest.raises(SourceError, match=r"border\.png: not found"):
            open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert server.statuses() == [200, 404, 304, 404]
    size = (SHARED / "CardTemplates/back.png").stat().st_size
    assert server.seen == [None, None, f'"{size}"', None]


def test_not_a_template_server(tmp_path: Path, serve):
    (tmp_path / "www").mkdir()
    server = serve(tmp_path / "www")
    with pytest.raises(SourceError, match=r"not found \(HTTP 404\), nor under .*/arcmage/"):
        open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert server.statuses() == [404, 404]


def test_a_web_page_is_no_file(tmp_path: Path, serve, small_catalogue):
    need_shared()
    only = ("CardTemplates/back.png", "CardTemplates/border.png", "Lic/README.txt")
    root = tmp_path / "www"
    link_tree(SHARED, root / "arcmage", only=only)
    server = serve(root)
    server.fallback_page = True
    result = open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert sorted(result.files) == sorted(only)
    assert result.missing_optional == [
        "CardTemplates/gaian/creature_overlay_plain.svg",
        "CardTemplates/the_empire/creature_overlay_plain.svg",
        "Fonts/WTactics Symbols.ttf",
    ]
    assert server.log[0] == ("/CardTemplates/back.png", 200)  # the page, not the file
    (root / "arcmage" / "CardTemplates" / "border.png").unlink()
    with pytest.raises(SourceError, match="answered with a web page"):
        open_source(server.url + "arcmage/", cache_dir=tmp_path / "cache", progress=False)


def test_a_server_that_keeps_failing_is_unreachable(tmp_path: Path, serve):
    need_shared()
    server = serve(link_tree(SHARED, tmp_path / "www", only=("CardTemplates/back.png",)))
    server.fail["/CardTemplates/back.png"] = 10
    with pytest.raises(SourceError, match=r"cannot be reached \(HTTP 500 .*4 tries\)"):
        open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert server.statuses() == [500] * 4


def test_a_wrong_file_on_the_server_is_refused_and_not_cached(tmp_path: Path, serve):
    www = tmp_path / "www"
    (www / "CardTemplates").mkdir(parents=True)
    (www / "CardTemplates/back.png").write_bytes(png_bytes((100, 100)))
    server = serve(www)
    with pytest.raises(SourceError, match="is 100 x 100 pixels") as error:
        open_source(server.url, cache_dir=tmp_path / "cache", progress=False)
    assert error.value.path == server.url + "CardTemplates/back.png"
    assert not (tmp_path / "cache" / "CardTemplates" / "back.png").exists()
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def test_no_redirect_to_another_host(tmp_path: Path, serve):
    (tmp_path / "www").mkdir()
    server = serve(tmp_path / "www")
    # localhost is another host name than 127.0.0.1, as far as the address goes
    server.redirect["/CardTemplates/back.png"] = server.url.replace("127.0.0.1", "localhost")
    with pytest.raises(SourceError, match="redirects to http://localhost"):
        open_source(server.url, cache_dir=tmp_path / "cache", progress=False)


def test_a_redirect_on_the_same_host_is_followed(tmp_path: Path, serve):
    need_shared()
    server = serve(
        link_tree(
            SHARED, tmp_path / "www", only=("CardTemplates/back.png", "CardTemplates/border.png")
        )
    )
    server.redirect["/moved/CardTemplates/back.png"] = "/CardTemplates/back.png"
    with pytest.raises(SourceError, match=r"moved/CardTemplates/border\.png: not found"):
        open_source(server.url + "moved/", cache_dir=tmp_path / "cache", progress=False)
    assert server.log[:2] == [
        ("/moved/CardTemplates/back.png", 302),
        ("/CardTemplates/back.png", 200),
    ]
