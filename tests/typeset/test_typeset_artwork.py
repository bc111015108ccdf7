"""Artwork for print: CMYK conversion through the real Ghostscript profile, the cache,
effective resolution, placeholders and profile lookup (translator.typeset.artwork)."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from pathlib import Path

import pytest
from PIL import Image, ImageCms

from translator.pdf import profiles
from translator.pdf.profiles import Profile, ProfileError, find_profile
from translator.typeset import artwork
from translator.typeset.artwork import PRINT_PPI, Artwork, effective_ppi, prepare

GS_DIR = Path("/usr/share/color/icc/ghostscript")
SWOP = GS_DIR / "default_cmyk.icc"
OTHER_CMYK = GS_DIR / "ps_cmyk.icc"  # "Artifex PS CMYK Profile", same package
SAMPLE_ART = Path(__file__).resolve().parents[2] / "cards" / "sample" / "art"
BOX = (64.0, 45.0)

needs_swop = pytest.mark.skipif(
    not SWOP.is_file(),
    reason=f"{SWOP} absent: apt-get install ghostscript (libgs-common ships the profile)",
)

pytestmark = needs_swop


@pytest.fixture
def profile(monkeypatch: pytest.MonkeyPatch) -> Profile:
    monkeypatch.delenv(profiles.ENV_VAR, raising=False)
    return find_profile(str(SWOP))


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def save(image: Image.Image, path: Path, **options: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, **options)
    return path


def stripes(
    *colours: tuple[int, ...], mode: str = "RGB", width: int = 40, height: int = 40
) -> Image.Image:
    """Vertical stripes of flat colour, wide enough for JPEG blocks to stay flat."""
    image = Image.new(mode, (width * len(colours), height))
    for i, colour in enumerate(colours):
        image.paste(colour, (i * width, 0, (i + 1) * width, height))
    return image


def pixel(art: Artwork, stripe: int, width: int = 40) -> tuple[int, ...]:
    assert art.path is not None
    with Image.open(art.path) as out:
        assert out.mode == "CMYK"
        return out.getpixel((stripe * width + width // 2, out.height // 2))


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 4) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- conversion


def test_srgb_becomes_plausible_cmyk(tmp_path: Path, profile: Profile, cache: Path) -> None:
    src = save(stripes((255, 0, 0), (255, 255, 255), (0, 0, 0)), tmp_path / "rgb.png")
    art = prepare(src, profile, cache, box_mm=BOX, card="Red")
    assert art.path is not None and art.path.parent == cache
    assert art.path.name == art.path.stem + ".jpg" and len(art.path.stem) == 64
    c, m, y, k = pixel(art, 0)
    assert m > 230 and y > 230 and c < 10 and k < 10, (c, m, y, k)  # pure red: M + Y
    assert max(pixel(art, 1)) <= 3  # white: no ink
    c, m, y, k = pixel(art, 2)
    assert k > 200 and c + m + y + k > 600, (c, m, y, k)  # SWOP's rich black, ~300 % TAC


def test_output_is_jpeg_without_icc_profile(tmp_path: Path, profile: Profile, cache: Path) -> None:
    tagged = stripes((10, 120, 200))
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    src = save(tagged, tmp_path / "tagged.jpg", icc_profile=srgb, exif=Image.Exif())
    art = prepare(src, profile, cache, box_mm=BOX, card="C")
    assert art.path is not None
    data = art.path.read_bytes()
    assert b"ICC_PROFILE" not in data and b"Exif" not in data
    with Image.open(art.path) as out:
        assert out.format == "JPEG" and out.mode == "CMYK"
        assert "icc_profile" not in out.info


def test_transparency_is_flattened_on_white(tmp_path: Path, profile: Profile, cache: Path) -> None:
    rgba = stripes((255, 0, 0, 0), (255, 0, 0, 255), (0, 0, 0, 0), mode="RGBA")
    art = prepare(save(rgba, tmp_path / "a.png"), profile, cache, box_mm=BOX, card="A")
    assert max(pixel(art, 0)) <= 3  # transparent red: the white card
    c, m, y, _ = pixel(art, 1)
    assert m > 230 and y > 230 and c < 10
    assert max(pixel(art, 2)) <= 3

    la = stripes((0, 0), (0, 255), mode="LA")
    art = prepare(save(la, tmp_path / "la.png"), profile, cache, box_mm=BOX, card="LA")
    assert max(pixel(art, 0)) <= 3 and pixel(art, 1)[3] > 200

    palette = stripes((0, 0, 0), (255, 0, 0)).convert("P")
    black = palette.getpixel((5, 5))
    art = prepare(
        save(palette, tmp_path / "p.png", transparency=black), profile, cache, box_mm=BOX, card="P"
    )
    assert max(pixel(art, 0)) <= 3  # the transparent palette entry is white
    assert pixel(art, 1)[1] > 230


def test_half_transparent_black_is_mid_grey(tmp_path: Path, profile: Profile, cache: Path) -> None:
    half = prepare(
        save(stripes((0, 0, 0, 128), mode="RGBA"), tmp_path / "h.png"),
        profile,
        cache,
        box_mm=BOX,
        card="H",
    )
    grey = prepare(
        save(stripes((127, 127, 127)), tmp_path / "g.png"), profile, cache, box_mm=BOX, card="G"
    )
    assert close(pixel(half, 0), pixel(grey, 0))


def test_grayscale_goes_through_the_profile_as_srgb_grey(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    grey = prepare(
        save(stripes((0,), (128,), (255,), mode="L"), tmp_path / "l.png"),
        profile,
        cache,
        box_mm=BOX,
        card="L",
    )
    rgb = prepare(
        save(stripes((0, 0, 0), (128, 128, 128), (255, 255, 255)), tmp_path / "rgb.png"),
        profile,
        cache,
        box_mm=BOX,
        card="RGB",
    )
    for i in range(3):
        assert close(pixel(grey, i), pixel(rgb, i))
    assert pixel(grey, 0)[3] > 200 and max(pixel(grey, 2)) <= 3


def test_sixteen_bit_grey_is_scaled_not_clipped(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    row = [65535] * 40 + [32896] * 40  # white, then 128 * 257: the grey of 8-bit 128
    data = b"".join(v.to_bytes(2, "little") for v in row) * 40
    image = Image.frombytes("I;16", (80, 40), data)
    art = prepare(save(image, tmp_path / "16.png"), profile, cache, box_mm=BOX, card="16")
    mid = prepare(
        save(stripes((128, 128, 128)), tmp_path / "mid.png"), profile, cache, box_mm=BOX, card="M"
    )
    assert max(pixel(art, 0)) <= 3
    assert close(pixel(art, 1), pixel(mid, 0))


def test_cmyk_is_reencoded_without_transform(tmp_path: Path, profile: Profile, cache: Path) -> None:
    colours = ((10, 200, 30, 40), (0, 0, 0, 255), (200, 150, 100, 200))  # all <= 290 %
    for name, options in (("c.tif", {}), ("c.jpg", {"quality": 100})):
        src = save(stripes(*colours, mode="CMYK"), tmp_path / name, **options)
        art = prepare(src, profile, cache, box_mm=BOX, card="CMYK")
        for i, colour in enumerate(colours):
            assert close(pixel(art, i), colour, 3), (name, pixel(art, i), colour)


def test_total_ink_is_kept_under_the_limit(tmp_path: Path, profile: Profile, cache: Path) -> None:
    """400 % (a 'rich black' of every ink) comes out under the limit less the headroom
    JPEG needs, black kept, the other inks lowered alike; the limit is a setting."""
    src = save(stripes((255, 255, 255, 255), (40, 30, 20, 10), mode="CMYK"), tmp_path / "rich.tif")
    for limit in (300, 260):
        art = prepare(src, profile, cache, box_mm=BOX, card="ink", ink_limit=limit)
        c, m, y, k = pixel(art, 0)
        assert k >= 252 and abs(c - m) <= 3 and abs(m - y) <= 3
        assert (c + m + y + k) / 2.55 <= limit - artwork.INK_HEADROOM + 3
        assert close(pixel(art, 1), (40, 30, 20, 10), 3)  # light colours untouched


def test_embedded_rgb_profile_is_honoured(tmp_path: Path, profile: Profile, cache: Path) -> None:
    adobe = GS_DIR / "a98.icc"
    if not adobe.is_file():
        pytest.skip(f"{adobe} absent")
    green = stripes((0, 255, 0))
    plain = prepare(save(green, tmp_path / "plain.png"), profile, cache, box_mm=BOX, card="P")
    wide = prepare(
        save(green, tmp_path / "wide.png", icc_profile=adobe.read_bytes()),
        profile,
        cache,
        box_mm=BOX,
        card="W",
    )
    broken = prepare(
        save(green, tmp_path / "broken.png", icc_profile=b"not a profile"),
        profile,
        cache,
        box_mm=BOX,
        card="B",
    )
    assert not close(pixel(plain, 0), pixel(wide, 0), 6)  # Adobe RGB green is greener
    assert close(pixel(plain, 0), pixel(broken, 0))  # an unusable tag means sRGB


def test_exif_orientation_is_applied(tmp_path: Path, profile: Profile, cache: Path) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 degrees clockwise to display
    src = save(Image.new("RGB", (1600, 900), (200, 30, 30)), tmp_path / "cam.jpg", exif=exif)
    art = prepare(src, profile, cache, box_mm=BOX, card="Cam")
    assert (art.width_px, art.height_px) == (900, 1600)
    with Image.open(art.path) as out:
        assert out.size == (900, 1600)


# --------------------------------------------------------------------------- cache


def test_cache_hit_reuses_the_file_without_converting(
    tmp_path: Path, profile: Profile, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    first = prepare(src, profile, cache, box_mm=BOX, card="A")
    assert first.path is not None
    os.utime(first.path, (1_000_000_000, 1_000_000_000))

    def no_decoding(_: bytes) -> object:
        raise AssertionError("a cache hit must not decode the source")

    monkeypatch.setattr(artwork, "_decode", no_decoding)
    second = prepare(src, profile, cache, box_mm=BOX, card="A")
    assert second == first
    assert first.path.stat().st_mtime == 1_000_000_000
    # no temporary files: the image and its seal (translator.cache.mac)
    assert sorted(p.name for p in cache.iterdir()) == [first.path.name, f"{first.path.name}.seal"]


def test_cache_depends_on_content_not_name(tmp_path: Path, profile: Profile, cache: Path) -> None:
    one = save(stripes((20, 140, 60)), tmp_path / "one.png")
    same = tmp_path / "copy.png"
    same.write_bytes(one.read_bytes())
    other = save(stripes((21, 140, 60)), tmp_path / "other.png")
    a = prepare(one, profile, cache, box_mm=BOX, card="A")
    assert prepare(same, profile, cache, box_mm=BOX, card="B").path == a.path
    assert prepare(other, profile, cache, box_mm=BOX, card="C").path != a.path


def test_another_profile_gives_another_cache_file(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    if not OTHER_CMYK.is_file():
        pytest.skip(f"{OTHER_CMYK} absent")
    other = find_profile(str(OTHER_CMYK))
    assert other.sha256 != profile.sha256
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    assert (
        prepare(src, profile, cache, box_mm=BOX, card="A").path
        != prepare(src, other, cache, box_mm=BOX, card="A").path
    )


def test_a_damaged_cache_file_is_converted_again(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    first = prepare(src, profile, cache, box_mm=BOX, card="A")
    assert first.path is not None
    first.path.write_bytes(b"garbage")
    again = prepare(src, profile, cache, box_mm=BOX, card="A")
    assert again == first
    with Image.open(first.path) as out:
        assert out.mode == "CMYK"


# ------------------------------------------------------- the user's store of conversions


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The store's folder in a cache folder of the test's own."""
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / artwork.STORE_FOLDER


def no_decoding(_: bytes) -> object:
    raise AssertionError("the image must not be converted again")


def test_a_build_into_another_folder_takes_the_conversion_from_the_store(
    tmp_path: Path, profile: Profile, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    first = prepare(src, profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card="A")
    assert first.path is not None
    assert (store / first.path.name).read_bytes() == first.path.read_bytes()
    assert oct((store / first.path.name).stat().st_mode & 0o777) == "0o600"
    monkeypatch.setattr(artwork, "_decode", no_decoding)
    second = prepare(src, profile, tmp_path / "out-2" / ".cache", box_mm=BOX, card="A")
    assert second.path is not None and second.path.parent == tmp_path / "out-2" / ".cache"
    assert second.path.read_bytes() == first.path.read_bytes()
    assert (second.width_px, second.height_px) == (first.width_px, first.height_px)
    # the copy is a cache entry like any: found again in that folder without the store
    (store / first.path.name).unlink()
    assert prepare(src, profile, second.path.parent, box_mm=BOX, card="A") == second


@pytest.mark.parametrize("seal", ["kept", "made anew", "removed"])
def test_an_image_forged_in_the_store_is_converted_again(
    tmp_path: Path, profile: Profile, store: Path, seal: str
) -> None:
    """An image swapped into the store (another image's bytes, with its own seal,
    with a seal made for it without the user's key, or none) is never printed."""
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    other = save(stripes((200, 10, 60)), tmp_path / "other.png")
    first = prepare(src, profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card="A")
    wrong = prepare(other, profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card="B")
    assert first.path is not None and wrong.path is not None
    name = first.path.name
    (store / name).write_bytes(wrong.path.read_bytes())
    if seal == "made anew":
        (store / f"{name}.seal").write_bytes(hashlib.sha256(wrong.path.read_bytes()).digest())
    elif seal == "removed":
        (store / f"{name}.seal").unlink()
    second = prepare(src, profile, tmp_path / "out-2" / ".cache", box_mm=BOX, card="A")
    assert second.path is not None
    assert second.path.read_bytes() == first.path.read_bytes()


def test_without_a_cache_folder_nothing_is_kept_for_other_folders(
    tmp_path: Path, profile: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    src = save(stripes((20, 140, 60)), tmp_path / "art.png")
    prepare(src, profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card="A")
    decoded = []
    real_decode = artwork._decode
    monkeypatch.setattr(artwork, "_decode", lambda data: decoded.append(1) or real_decode(data))
    prepare(src, profile, tmp_path / "out-2" / ".cache", box_mm=BOX, card="A")
    assert decoded == [1]


def test_the_store_keeps_the_images_used_last(
    tmp_path: Path, profile: Profile, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its size, the store loses the images used longest ago (and their seals),
    down to three quarters of it; an image taken from it counts as used."""
    sources = [save(stripes((20 * i, 140, 60)), tmp_path / f"art-{i}.png") for i in range(4)]
    made = [
        prepare(src, profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card=str(i))
        for i, src in enumerate(sources[:3])
    ]
    names = [art.path.name for art in made if art.path is not None]
    for age, name in enumerate(names):  # made in that order, a second apart
        os.utime(store / name, (1_000_000_000 + age, 1_000_000_000 + age))
    prepare(sources[0], profile, tmp_path / "out-2" / ".cache", box_mm=BOX, card="0")  # used
    sizes = [(store / name).stat().st_size for name in names]
    monkeypatch.setattr(artwork, "STORE_BYTES", sum(sizes) + 10)
    newest = prepare(sources[3], profile, tmp_path / "out-1" / ".cache", box_mm=BOX, card="3")
    assert newest.path is not None
    left = sorted(path.name for path in store.iterdir())
    assert names[1] not in left and f"{names[1]}.seal" not in left  # used longest ago
    assert names[0] in left and newest.path.name in left and f"{newest.path.name}.seal" in left
    total = sum((store / name).stat().st_size for name in left if name.endswith(".jpg"))
    assert total <= artwork.STORE_BYTES


# --------------------------------------------------------------------------- resolution


def test_effective_ppi_uses_cover_semantics() -> None:
    # 600 x 600 px covering 64 x 45 mm: the width needs the most enlargement.
    assert effective_ppi(600, 600, (64, 45)) == pytest.approx(600 / (64 / 25.4))
    assert effective_ppi(600, 600, (64, 45)) == pytest.approx(238.125)
    # A wide panorama is limited by its height instead.
    assert effective_ppi(3000, 400, (64, 45)) == pytest.approx(400 / (45 / 25.4))
    # Sizing the same way is symmetric in the two axes.
    assert effective_ppi(400, 3000, (45, 64)) == pytest.approx(400 / (45 / 25.4))
    with pytest.raises(ValueError, match="positive"):
        effective_ppi(100, 100, (0, 45))


def test_low_resolution_warning_names_the_card(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    src = save(Image.new("RGB", (600, 600), (90, 90, 200)), tmp_path / "small.png")
    art = prepare(src, profile, cache, box_mm=(64, 45), card="Harbor Lord")
    assert art.ppi == pytest.approx(238.125)
    assert art.warnings == ("Harbor Lord: artwork small.png is 238 ppi at print size (300 wanted)",)
    assert art.path is not None  # still printed


def test_enough_resolution_gives_no_warning(tmp_path: Path, profile: Profile, cache: Path) -> None:
    # 756 px over 64 mm is 300.04 ppi; 755 px is 299.6 ppi.
    ok = prepare(
        save(Image.new("RGB", (756, 600)), tmp_path / "ok.png"),
        profile,
        cache,
        box_mm=(64, 45),
        card="Ok",
    )
    assert ok.ppi >= PRINT_PPI and ok.warnings == ()
    low = prepare(
        save(Image.new("RGB", (755, 600)), tmp_path / "low.png"),
        profile,
        cache,
        box_mm=(64, 45),
        card="Low",
    )
    assert len(low.warnings) == 1


def test_low_resolution_warning_on_a_cache_hit_too(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    src = save(Image.new("RGB", (600, 600)), tmp_path / "small.png")
    first = prepare(src, profile, cache, box_mm=(64, 45), card="A")
    assert prepare(src, profile, cache, box_mm=(64, 45), card="A").warnings == first.warnings
    assert prepare(src, profile, cache, box_mm=(40, 40), card="A").warnings == ()


# --------------------------------------------------------------------------- placeholders


def test_missing_artwork_is_a_placeholder(tmp_path: Path, profile: Profile, cache: Path) -> None:
    gone = tmp_path / "art" / "gone.jpg"
    art = prepare(gone, profile, cache, box_mm=BOX, card="Courier")
    assert art == Artwork(
        None, 0, 0, 0.0, (f"Courier: artwork {gone} not found: a placeholder is printed",)
    )
    assert art.placeholder


def test_no_artwork_at_all_is_a_placeholder(profile: Profile, cache: Path) -> None:
    art = prepare(None, profile, cache, box_mm=BOX, card="Courier")
    assert art.placeholder
    assert art.warnings == ("Courier: no artwork given: a placeholder is printed",)


def test_a_file_that_is_no_image_is_a_placeholder(
    tmp_path: Path, profile: Profile, cache: Path
) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("this is not a picture\n")
    art = prepare(bad, profile, cache, box_mm=BOX, card="Courier")
    assert art.placeholder
    assert art.warnings == (
        f"Courier: artwork {bad} cannot be read (not an image file "
        "Pillow can read): a placeholder is printed",
    )
    assert not cache.exists() or not any(cache.iterdir())


@pytest.mark.parametrize("lenient", [False, True])
def test_a_truncated_image_is_a_placeholder(
    tmp_path: Path, profile: Profile, cache: Path, monkeypatch: pytest.MonkeyPatch, lenient: bool
) -> None:
    # Importing WeasyPrint sets LOAD_TRUNCATED_IMAGES: a cut-off file must still fail.
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", lenient)
    buffer = io.BytesIO()
    Image.effect_noise((400, 300), 60).convert("RGB").save(buffer, "JPEG")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(buffer.getvalue()[: len(buffer.getvalue()) // 2])
    art = prepare(cut, profile, cache, box_mm=BOX, card="Courier")
    assert art.placeholder and len(art.warnings) == 1
    message = art.warnings[0]
    assert message.startswith(f"Courier: artwork {cut} cannot be read (")
    assert "truncated" in message
    assert message.endswith("): a placeholder is printed")
    assert ImageFile.LOAD_TRUNCATED_IMAGES is lenient  # restored


def test_a_directory_is_a_placeholder(tmp_path: Path, profile: Profile, cache: Path) -> None:
    art = prepare(tmp_path, profile, cache, box_mm=BOX, card="Courier")
    assert art.placeholder
    assert art.warnings[0].startswith(f"Courier: artwork {tmp_path} cannot be read (")


# --------------------------------------------------------------------------- profiles


def test_find_profile_with_an_explicit_path(profile: Profile) -> None:
    assert profile.path == SWOP.resolve()
    assert profile.description == "Artifex CMYK SWOP Profile"
    assert profile.sha256 == hashlib.sha256(SWOP.read_bytes()).hexdigest()
    assert profile.icc_bytes() == SWOP.read_bytes()
    cms = profile.cms_profile()
    assert cms is profile.cms_profile()  # parsed once
    assert cms.profile.xcolor_space.strip() == "CMYK"


def test_profile_is_a_plain_value(profile: Profile) -> None:
    copy = pickle.loads(pickle.dumps(profile))  # worker processes get it pickled
    assert copy == profile and hash(copy) == hash(profile)
    assert copy.cms_profile() is not None


def test_find_profile_searches_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(profiles.ENV_VAR, raising=False)
    assert profiles.SYSTEM_PROFILES[0] == str(SWOP)
    assert find_profile().path == SWOP.resolve()


def test_find_profile_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "press.icc"
    copy.write_bytes(SWOP.read_bytes())
    monkeypatch.setenv("TRANSLATOR_ICC", str(copy))
    assert find_profile().path == copy.resolve()
    assert find_profile(str(SWOP)).path == SWOP.resolve()  # --icc wins


def test_a_missing_profile_in_the_environment_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone.icc"
    monkeypatch.setenv("TRANSLATOR_ICC", str(gone))
    with pytest.raises(ProfileError) as error:
        find_profile()
    message = str(error.value)
    assert str(gone) in message and "TRANSLATOR_ICC" in message
    assert "apt-get install ghostscript" in message and "--icc FILE" in message


def test_a_missing_profile_is_a_clear_error(tmp_path: Path) -> None:
    gone = tmp_path / "press.icc"
    with pytest.raises(ProfileError) as error:
        find_profile(str(gone))
    assert str(error.value) == (
        f"ICC profile {gone} (given with --icc) not found: install one "
        "(apt-get install ghostscript) or give one with --icc FILE"
    )


def test_a_file_that_is_no_profile_is_a_clear_error(tmp_path: Path) -> None:
    fake = tmp_path / "press.icc"
    fake.write_bytes(b"\x00" * 300)
    with pytest.raises(ProfileError) as error:
        find_profile(str(fake))
    assert str(error.value) == (
        f"{fake} (given with --icc) is not an ICC profile: give a "
        "CMYK printer profile (.icc) with --icc FILE"
    )


def test_an_rgb_profile_is_refused(tmp_path: Path) -> None:
    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(ProfileError, match=r"is a profile for RGB, not CMYK: .*--icc FILE"):
        find_profile(str(rgb))


def test_no_profile_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(profiles.ENV_VAR, raising=False)
    monkeypatch.setattr(
        profiles, "SYSTEM_PROFILES", (str(tmp_path / "none.icc"), str(tmp_path / "*" / "x.icc"))
    )
    with pytest.raises(
        ProfileError,
        match=r"no CMYK ICC profile found .*apt-get install "
        r"ghostscript.*--icc FILE.*TRANSLATOR_ICC",
    ):
        find_profile()


# --------------------------------------------------------------------------- the sample


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_sample_artwork_converts_at_print_resolution(profile: Profile, cache: Path) -> None:
    images = sorted(SAMPLE_ART.glob("*.jpg"))
    assert len(images) >= 20
    for image in images:
        art = prepare(image, profile, cache, box_mm=(64, 45), card=image.stem)
        assert art.warnings == (), art.warnings
        # generate.py draws 1200 x 992 px; covering 64 x 45 mm, the width decides.
        assert (art.width_px, art.height_px) == (1200, 992)
        assert art.ppi == pytest.approx(1200 / (64 / 25.4)) == pytest.approx(476.25)
        with Image.open(art.path) as out:
            assert out.mode == "CMYK" and "icc_profile" not in out.info


def test_embedded_grey_profile_is_honoured(tmp_path: Path, profile: Profile, cache: Path) -> None:
    sgray = GS_DIR / "sgray.icc"
    if not sgray.is_file():
        pytest.skip(f"{sgray} absent")
    grey = stripes((0,), (255,), mode="L")
    art = prepare(
        save(grey, tmp_path / "g.png", icc_profile=sgray.read_bytes()),
        profile,
        cache,
        box_mm=BOX,
        card="G",
    )
    assert pixel(art, 0)[3] > 200 and max(pixel(art, 1)) <= 3


def test_too_many_pixels_is_a_placeholder(
    tmp_path: Path, profile: Profile, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = save(Image.new("RGB", (100, 100)), tmp_path / "huge.png")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # errors above twice this
    art = prepare(src, profile, cache, box_mm=BOX, card="Huge")
    assert art.warnings == (
        f"Huge: artwork {src} cannot be read (too many pixels): a placeholder is printed",
    )
