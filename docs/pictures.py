"""Make the pictures of docs/printing.md from real builds (run from the repository).

    .venv/bin/python docs/pictures.py

- ``fit-shrunk.png``: cards of the stress library whose name or type line was shrunk
  to fit its box, beside a card with a short name;
- ``fit-refused.png``: a card refused (its name too wide at 80 %), as it would print
  cut with ``--allow-overflow``, its name's box outlined, with the build's message;
- ``sheet-a4.fr.png``: a print-and-play sheet of the French sample with the printer's
  unprintable margin (5 mm) shaded;
- ``official-look.png`` (when the official template set is next to the checkout,
  ``../shared/arcmage-official``): a French card in the default theme and in the
  official look, beside the official template it is printed on, and a spell likewise.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
STRESS = ROOT / "tests" / "data" / "stress-library"
TRANSLATOR = [sys.executable, "-m", "translator"]
DPI = 150
FONT = "/usr/share/fonts/truetype/gentiumplus/GentiumBookPlus-Regular.ttf"


def build(*args: str) -> dict:
    done = subprocess.run(
        [*TRANSLATOR, "build", *args, "--format", "json", "--jobs", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return json.loads(done.stdout)


def page_image(pdf: str | Path, dpi: float = DPI) -> Image.Image:
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def side_by_side(images: list[Image.Image], captions: list[str], gap: int = 16) -> Image.Image:
    font = ImageFont.truetype(FONT, 22)
    width = sum(i.width for i in images) + gap * (len(images) + 1)
    height = max(i.height for i in images) + 3 * gap + 30
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    x = gap
    for image, caption in zip(images, captions, strict=True):
        sheet.paste(image, (x, gap))
        draw.text((x, image.height + 2 * gap), caption, fill=(40, 40, 40), font=font)
        x += image.width + gap
    return sheet


def shrunk(out: Path) -> None:
    report = build(
        str(STRESS),
        "--lang",
        "all",
        "--out",
        str(out),
        "--card",
        "imp",
        "--card",
        "hollow-choir-herald",
        "--card",
        "seventh-legion-vexillary",
        "--card",
        "grave-marshal",
    )
    by_card = {(r["card"], r["lang"]): r for r in report["cards"]}
    images, captions = [], []
    for slug, lang, what in (
        ("imp", "en", "name"),
        ("hollow-choir-herald", "en", "name"),
        ("seventh-legion-vexillary", "eo", "name"),
        ("grave-marshal", "en", "type"),
    ):
        result = by_card[slug, lang]
        images.append(page_image(result["pdf"]))
        captions.append(f"{slug}.{lang}: {what} at {result['elements'][what]['size_pt']:.1f} pt")
    side_by_side(images, captions).save(DOCS / "fit-shrunk.png", optimize=True)


def refused(out: Path) -> None:
    report = build(
        str(STRESS),
        "--lang",
        "en",
        "--out",
        str(out),
        "--card",
        "moss-grove-warden",
        "--allow-overflow",
    )
    [result] = report["cards"]
    image = page_image(result["pdf"])
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = (v / 25.4 * DPI for v in result["elements"]["name"]["box"])
    draw.rectangle((x0, y0, x1, y1), outline=(220, 30, 30), width=4)
    message = next(w for w in result["warnings"] if "too wide" in w)
    message = message.split(": ", 1)[1].split(" (printed cut")[0]
    font = ImageFont.truetype(FONT, 20)
    lines = ["refused (shown cut, as --allow-overflow prints it):", *_wrap(message, 44)]
    width = image.width + 520
    sheet = Image.new("RGB", (width, image.height + 32), (255, 255, 255))
    sheet.paste(image, (16, 16))
    text = ImageDraw.Draw(sheet)
    for number, line in enumerate(lines):
        text.text((image.width + 36, 40 + 30 * number), line, fill=(150, 20, 20), font=font)
    sheet.save(DOCS / "fit-refused.png", optimize=True)


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def sheet(out: Path) -> None:
    report = build(
        str(ROOT / "cards" / "sample"),
        "--lang",
        "fr",
        "--out",
        str(out),
        "--sheets",
        "a4",
        "--no-preflight",
    )
    path = next(f for f in report["files"] if f.endswith(".sheets-a4.pdf"))
    dpi = 60
    image = page_image(path, dpi)
    margin = round(5 / 25.4 * dpi)
    shade = Image.new("RGB", image.size, (255, 190, 190))
    mask = Image.new("L", image.size, 110)
    ImageDraw.Draw(mask).rectangle(
        (margin, margin, image.width - margin - 1, image.height - margin - 1), fill=0
    )
    image = Image.composite(shade, image, mask)
    ImageDraw.Draw(image).rectangle(
        (margin, margin, image.width - margin - 1, image.height - margin - 1), outline=(200, 40, 40)
    )
    image.save(DOCS / "sheet-a4.fr.png", optimize=True)


def official_look(out: Path) -> None:
    """Two cards of the French sample in both themes, beside the official templates."""
    templates = ROOT.parent / "shared" / "arcmage-official"
    if not (templates / "CardTemplates").is_dir():
        print(f"no {templates}: official-look.png not made")
        return
    theme = out / "arcmage"
    subprocess.run(
        [
            *TRANSLATOR,
            "theme",
            "import-arcmage",
            str(templates),
            "--out",
            str(theme),
            "--no-progress",
        ],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    cards = {"thornback-hydra": "gaian/creature.png", "flame-lash": "red_banner/magic.png"}
    library = out / "library"
    library.mkdir()
    (library / "art").mkdir()
    sample = ROOT / "cards" / "sample"
    for slug in cards:
        for path in [*sample.glob(f"{slug}.*.md"), *(sample / "art").glob(f"{slug}.*")]:
            target = library / path.relative_to(sample)
            target.write_bytes(path.read_bytes())
    (library / "deck.yaml").write_text(
        "name: Pictures\ncards:\n" + "".join(f"  {slug}: 1\n" for slug in cards), "utf-8"
    )
    build(str(library), "--lang", "fr", "--no-preflight", "--out", str(out / "default"))
    build(
        str(library),
        "--lang",
        "fr",
        "--no-preflight",
        "--theme",
        str(theme),
        "--out",
        str(out / "official"),
    )
    dpi = 110
    images, captions = [], []
    for slug, template in cards.items():
        default = page_image(out / "default" / f"{slug}.fr.pdf", dpi)
        official = page_image(out / "official" / f"{slug}.fr.pdf", dpi)
        # The template page (65 x 92 mm) where the theme prints it: 1.5 mm, 1 mm in.
        page = Image.new("RGB", official.size, (255, 255, 255))
        drawn = Image.open(templates / "CardTemplates" / template).convert("RGBA")
        size = (round(65 / 25.4 * dpi), round(92 / 25.4 * dpi))
        page.paste(
            drawn.resize(size, Image.Resampling.LANCZOS),
            (round(1.5 / 25.4 * dpi), round(1.0 / 25.4 * dpi)),
            drawn.resize(size, Image.Resampling.LANCZOS),
        )
        images += [default, official, page]
        captions += ["default theme", "official look", "official template"]
    side_by_side(images, captions).save(DOCS / "official-look.png", optimize=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        out = Path(temporary)
        shrunk(out / "shrunk")
        refused(out / "refused")
        sheet(out / "sheet")
        official_look(out / "official-look")


if __name__ == "__main__":
    main()
