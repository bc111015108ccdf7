"""``translator theme import-arcmage``: a theme made from the official template set.

The official cards are drawn by Aminduna from a template set (``CardTemplates/`` and
``Fonts/`` of ``wwwroot/arcmage``).  The import turns one (a folder or a server, see
:mod:`.source`) into a theme directory that ``translator build --theme DIR`` prints
with, whose templates are translator's own (``templates/arcmage``, ``base: arcmage``)
and whose data comes from the set:

``frames/<faction>/<type>.png``
    each template over its faction's print border, flattened (:mod:`.raster`): one
    image per distinct template (several types share one), converted to CMYK by the
    build through the output profile, once, cached like artwork.
``back.png``
    the official back over the generic border (its own pixels unchanged).
``theme.yaml``
    the frames, the back, and the layout of every faction x type read from the SVG
    templates (:mod:`.layout`), in mm from the trim's corner with the colours in CMYK.
``symbols/<code>.svg``
    the card symbols drawn from the official symbol font (:mod:`.glyphs`), when the set
    has it; else the default theme's drawings print.
``LICENSES/``, ``source.json``
    the set's licence files, and where each file came from (its sha256).

The directory is written beside its final place and renamed into it, so that an
interrupted import leaves the previous theme whole; a directory that is not an
imported theme is never replaced.  The work folder (``.NAME.PID.XXXXXXXX.tmp``) and
the previous theme moved aside (``.NAME-old.PID.XXXXXXXX.tmp``) are named as
:func:`translator.atomic.sweep` knows them: an import killed outright (``kill -9``)
leaves them to the next import (or any other writer there), which puts a theme moved
aside back when its replacement never came (:func:`_recover`) and removes the rest,
never the folders of an import still running.

What the import composes, parses and copies is the template set's verified bytes
only: :meth:`.source.TemplateSet.stage` copies them into a private folder inside the
work folder (read again without following links, each compared with its verified
sha256), removed before the theme is put in place.  Every file the import writes lies
inside the work folder (links followed, :func:`translator.atomic.replacing`) and is
0644 at most.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from ... import __version__
from ...atomic import SUFFIX, abandoned, sweep, write_file
from ...errors import UserError
from ...pdf.profiles import Profile, find_profile
from ...textio import InputError
from ...typeset.artwork import solid_cmyk
from ...typeset.theme import FACTION_KEYS, TYPE_SLUGS, cmyk, faction_slug, load_theme, themes_home
from . import glyphs, raster
from .layout import (
    Layout,
    faction_slugs,
    hex_rgb,
    layouts,
    loyalty_svg,
    template_svg,
    templates_dir,
)
from .source import TemplateSet, open_source

#: The name of the theme in the user's themes folder (``--theme arcmage``).
THEME_NAME = "arcmage"
#: The file that marks a directory as an imported theme (and says what it holds).
MARKER = "source.json"
#: Where the template page's top-left corner is from the trim's (mm): the 65 x 92 mm
#: template page is centred on the 64 x 90 mm card.
TEMPLATE_OFFSET = (-0.5, -1.0)
#: A text colour this dark prints in black ink only: small text in four inks
#: misregisters, and a near-black in four inks is 290 % of ink for nothing.
BLACK_TEXT_K = 80.0
#: The symbol font, the licence files and the folders in a template set.
SYMBOL_FONT = "Fonts/WTactics Symbols.ttf"
LICENCE_FILES = ("Fonts/README", "Lic/README.txt", "Lic/CC_BY_SA_4_LIC.txt")
#: The folder of the work folder the template set is staged in (removed before the
#: theme is put in place).
STAGED = ".template-set"
#: What a theme moved aside is called after the theme's name: ``.NAME-old.PID.X.tmp``.
OLD = "-old"


class ThemeImportError(InputError):
    """The theme cannot be written where asked (a user error: exit 2)."""


@dataclass
class ImportReport:
    """What an import made."""

    theme: Path
    origin: str
    frames: int
    layouts_from_svg: int
    layouts_from_defaults: int
    symbols: list[str]
    missing_optional: list[str]
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "theme": str(self.theme),
            "origin": self.origin,
            "frames": self.frames,
            "layouts": {"svg": self.layouts_from_svg, "defaults": self.layouts_from_defaults},
            "symbols": self.symbols,
            "missing_optional": self.missing_optional,
            "notes": self.notes,
            "seconds": round(self.seconds, 2),
        }


def import_arcmage(
    source: str,
    out: str | Path | None = None,
    *,
    cache_dir: Path | None = None,
    progress: bool | None = None,
    icc: str | None = None,
) -> ImportReport:
    """Import the template set ``source`` as a theme into ``out`` (default: the user's
    themes folder, ``arcmage``); the written theme is loaded once to prove it usable.
    ``icc``: the CMYK profile the layout's colours are converted with (default: the
    build's default)."""
    started = time.perf_counter()
    target = Path(out) if out is not None else themes_home() / THEME_NAME
    _recover(target)
    sweep(target.parent)  # what killed imports (and other writers) left there
    _check_target(target)
    templates = open_source(source, cache_dir=cache_dir, progress=progress)
    profile = find_profile(icc)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(
        tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=SUFFIX, dir=target.parent)
    )
    try:
        staged = templates.stage(work / STAGED)
        try:
            frames, found, symbols, marks = _compose(staged, work, profile)
        except UserError as error:  # said of the source's file, not of its copy
            raise UserError(_renamed(str(error), staged.root, templates.root)) from None
        shutil.rmtree(staged.root)
        _write_theme(work, templates, frames, found, profile, marks)
        from_svg = sum(
            1
            for types in found.values()
            for layout in types.values()
            if layout.source.endswith(".svg")
        )
        report = ImportReport(
            target.resolve(),
            templates.origin,
            len(set(frames.values())),
            from_svg,
            sum(len(t) for t in found.values()) - from_svg,
            symbols,
            templates.missing_optional,
            list(templates.notes),
        )
        _write_marker(work, templates, report, profile)
        load_theme(work)  # a theme that does not load is never put in place
        _replace(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    report.seconds = time.perf_counter() - started
    return report


def _compose(
    staged: TemplateSet, work: Path, profile: Profile
) -> tuple[dict[tuple[str, str], Path], dict[str, dict[str, Layout]], list[str], set[str]]:
    """The theme's images, layouts, symbols, licences and loyalty marks, made in
    ``work`` from the staged set: (frames, layouts, symbol codes, factions marked)."""
    frames = _frames(staged, work)
    raster.compose_back(
        staged.path("CardTemplates/back.png"),
        staged.path("CardTemplates/border.png"),
        work / "back.png",
        within=work,
    )
    found = layouts(staged.root)
    symbols: list[str] = []
    if staged.has(SYMBOL_FONT):
        _folder(work / "symbols", work)
        symbols = glyphs.write_symbols(staged.path(SYMBOL_FONT), work / "symbols")
    _licences(staged, work)
    marks = _loyalty_marks(staged, work, profile)
    return frames, found, symbols, marks


def _renamed(message: str, staged: Path, root: Path) -> str:
    """``message`` about a staged file, naming the source's file instead (the copy's
    path means nothing to the user, and is gone once the import stops)."""
    return message.replace(f"{staged}{os.sep}", f"{root}{os.sep}").replace(str(staged), str(root))


def _write(target: Path, content: str | bytes, work: Path) -> None:
    """Write one file of the theme: inside ``work`` (links followed), atomically,
    0644 at most (never more open, whatever the source's files were)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    _folder(target.parent, work)
    write_file(target, data, 0o644, sync_directory=False, within=work)


def _folder(path: Path, work: Path) -> None:
    """``path`` (a folder of the theme in ``work``) and the folders between, made
    0755 at most whatever the umask: the theme is never more open than that."""
    for folder in [*reversed(path.relative_to(work).parents), path.relative_to(work)]:
        with contextlib.suppress(FileExistsError):
            (work / folder).mkdir(mode=0o755)


def _check_target(target: Path) -> None:
    """Refuse to replace a directory that is not an imported theme (nothing is lost)."""
    if target.exists() and not (target.is_dir() and (target / MARKER).is_file()):
        what = "a directory" if target.is_dir() else "a file"
        if target.is_dir() and not any(target.iterdir()):
            return
        raise ThemeImportError(
            str(target),
            f"{what} that is not an imported theme (no {MARKER}): give "
            "--out a new or empty directory, or the directory of an earlier import",
        )


def _frames(templates: TemplateSet, work: Path) -> dict[tuple[str, str], Path]:
    """Every faction x card type's frame, by (faction key, card type): one file per
    distinct template image (the set repeats one image for several types)."""
    made: dict[tuple[str, str], Path] = {}
    folder = {faction_slug(key): key for key in FACTION_KEYS}
    for slug, name in faction_slugs().items():
        done: dict[str, Path] = {}
        border = templates.path(f"CardTemplates/{name}/border.png")
        for card_type in TYPE_SLUGS:
            relative = f"CardTemplates/{name}/{card_type}.png"
            digest = templates.files[relative]
            path = done.get(digest)
            if path is None:
                path = work / "frames" / name / f"{card_type}.png"
                _folder(path.parent, work)
                raster.compose_frame(templates.path(relative), border, path, within=work)
                done[digest] = path
            made[(folder[slug], card_type)] = path
    return made


def _loyalty_marks(templates: TemplateSet, work: Path, profile: Profile) -> set[str]:
    """``loyalty/<faction>.svg``: each faction's loyalty mark (its ``L1``) from the
    first SVG template the set has for it, its colours in CMYK and its gradients made
    flat (WeasyPrint writes an SVG gradient in RGB); the factions that have one."""
    made = set()
    for slug in faction_slugs():
        for card_type in TYPE_SLUGS:
            svg = template_svg(templates_dir(templates.root), slug, card_type)
            if svg is None:
                continue
            drawing = loyalty_svg(
                svg,
                prefix=f"{slug}-",
                solid=True,
                recolour=lambda colour: cmyk(_cmyk(colour, profile, text=False)),
            )
            if drawing is not None:
                _write(work / "loyalty" / f"{slug}.svg", drawing, work)
                made.add(slug)
                break
    return made


def _licences(templates: TemplateSet, work: Path) -> None:
    """The set's licence files travel with its images (GPL-3 / CC BY-SA 4.0): their
    verified bytes (:meth:`.source.TemplateSet.read`), 0644."""
    for relative in LICENCE_FILES:
        if templates.has(relative):
            _write(work / "LICENSES" / relative.replace("/", "-"), templates.read(relative), work)


def _write_theme(
    work: Path,
    templates: TemplateSet,
    frames: dict[tuple[str, str], Path],
    found: dict[str, dict[str, Layout]],
    profile: Profile,
    marks: set[str],
) -> None:
    card_types = {slug: slug.capitalize() for slug in TYPE_SLUGS}
    backgrounds: dict[str, dict[str, str]] = {}
    for (faction, card_type), path in frames.items():
        backgrounds.setdefault(faction, {})[card_types[card_type]] = path.relative_to(
            work
        ).as_posix()
    data: dict[str, Any] = {  # theme.yaml, as yaml.dump writes it
        "name": "Arcmage official look",
        "base": "arcmage",
        "backgrounds": backgrounds,
        "back": "back.png",
        "layout": {
            faction: {
                card_type: trim_layout(layout, profile) for card_type, layout in types.items()
            }
            for faction, types in found.items()
        },
    }
    for faction in marks:
        for entry in data["layout"][faction].values():
            if "loyalty" in entry:
                entry["loyalty"]["drawing"] = "svg"
    header = (
        f"# Made by translator {__version__} (translator theme import-arcmage) from\n"
        f"# {templates.origin} on {datetime.now(UTC):%Y-%m-%d}: import again rather than\n"
        "# edit.  Lengths in mm from the trim's top-left corner (the card as cut), sizes\n"
        f"# in pt, colours in CMYK percentages of {profile.description}.\n"
    )
    text = header + yaml.dump(data, Dumper=_Plain, sort_keys=False, allow_unicode=True, width=100)
    _write(work / "theme.yaml", text, work)


class _Plain(yaml.SafeDumper):
    """YAML without aliases (a theme.yaml may not have them) and with short lists
    written inline (``colour: [9.8, 10.2, 40.4, 0.0]``)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _inline_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Plain.add_representer(list, _inline_list)


def trim_layout(layout: Layout, profile: Profile) -> dict[str, Any]:
    """A layout as theme.yaml holds it: moved from the template page's corner to the
    trim's, rounded, its colours converted to CMYK (text near black to black ink)."""
    dx, dy = TEMPLATE_OFFSET
    result: dict[str, Any] = {}
    for name, value in layout.to_dict().items():
        entry: dict[str, Any] = {}
        for key, number in value.items():
            if key in ("x",):
                entry[key] = round(number + dx, 2)
            elif key in ("y", "baseline"):
                entry[key] = round(number + dy, 2)
            elif key in ("width", "height", "size", "step"):
                entry[key] = round(number, 2)
            elif key in ("colour", "fill", "stroke"):
                entry[key] = list(_cmyk(number, profile, text=key == "colour"))
            elif key == "anchor":
                entry[key] = number
            # family, weight, style: the theme's CSS sets each element's font
        result[name] = entry
    return result


def _cmyk(colour: str, profile: Profile, text: bool) -> tuple[float, ...]:
    cmyk = solid_cmyk(hex_rgb(colour), profile)
    if text and cmyk[3] >= BLACK_TEXT_K:
        return (0.0, 0.0, 0.0, 100.0)
    return cmyk


def _write_marker(
    work: Path, templates: TemplateSet, report: ImportReport, profile: Profile
) -> None:
    record = {
        "made_by": f"translator {__version__}",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "origin": templates.origin,
        "profile": {"description": profile.description, "sha256": profile.sha256},
        "files": templates.files,
        "missing_optional": templates.missing_optional,
        "symbols": report.symbols,
        "layouts": {"svg": report.layouts_from_svg, "defaults": report.layouts_from_defaults},
    }
    _write(work / MARKER, json.dumps(record, indent=2, sort_keys=True) + "\n", work)


def _replace(work: Path, target: Path) -> None:
    """Put ``work`` at ``target``: the old theme (if any) is moved aside first and
    removed only once the new one is in place.  Killed between the two renames, the
    import leaves no theme at ``target`` and the old one aside, whose name
    (:func:`_aside`) tells the next import to put it back (:func:`_recover`)."""
    old = None
    if target.exists():
        old = _aside(target)
        os.replace(target, old)
    try:
        os.replace(work, target)
    except BaseException:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _aside(target: Path) -> Path:
    """A new name for ``target`` moved aside: ``.NAME-old.PID.XXXXXXXX.tmp`` beside it,
    which :func:`translator.atomic.sweep` removes once this process is gone."""
    return target.with_name(f".{target.name}{OLD}.{os.getpid()}.{os.urandom(4).hex()}{SUFFIX}")


def _recover(target: Path) -> None:
    """Put back the theme an import killed between its two renames moved aside
    (:func:`_replace`): when ``target`` is missing, the newest theme moved aside by a
    process that is gone (:func:`translator.atomic.abandoned`) becomes ``target``
    again, before the sweep would remove it; the new theme of that import, still in
    its work folder, is then removed by the sweep (the import is rolled back)."""
    if os.path.lexists(target) or not target.parent.is_dir():
        return
    aside = [
        path
        for path in target.parent.glob(f".{glob.escape(target.name)}{OLD}.*{SUFFIX}")
        if path.is_dir() and not path.is_symlink() and (path / MARKER).is_file() and abandoned(path)
    ]
    if aside:
        newest = max(aside, key=lambda path: path.stat().st_mtime_ns)
        os.replace(newest, target)
