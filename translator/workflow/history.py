"""What an English card said when its translation was made: found in git.

A translation's ``source`` fingerprint holds one short hash per English field, not
the text itself, so it says *that* a field changed, not *from what*.  Card libraries
live in git, and the English file's history holds every text it had: the newest
revision whose field hashes to the translation's group is the text the translator
saw.  That old text is what ``translator status --diff`` compares with, and what a
PO file gives as the previous ``msgid`` of a fuzzy entry (Poedit and Weblate show
the difference).

Git is read, never written; without git, or for a file git does not know, the old
text is simply unknown (callers say so).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..cards.files import parse_card_text
from ..cards.model import TRANSLATED_FIELDS, CardFile, field_hash, same_group

#: How many revisions of an English file are searched, newest first.
MAX_REVISIONS = 500


@dataclass
class OldSource:
    """The English card's fields as a translation saw them."""

    #: Field -> the English card version that had it (the newest such revision).
    versions: dict[str, CardFile] = field(default_factory=dict)
    #: Field -> the revision (abbreviated commit id) it was found in.
    revisions: dict[str, str] = field(default_factory=dict)
    #: Fields whose old value was not found (no git, not in its history).
    unknown: list[str] = field(default_factory=list)


def _git(directory: Path, *args: str, data: bytes | None = None) -> bytes | None:
    if shutil.which("git") is None:
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(directory), *args],
            input=data,
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _revisions(path: Path) -> tuple[Path, list[str]] | None:
    """(repository root, commits touching ``path``, newest first) or None."""
    root = _git(path.parent, "rev-parse", "--show-toplevel")
    if root is None:
        return None
    top = Path(root.decode("utf-8").strip())
    try:
        relative = path.resolve().relative_to(top.resolve())
    except ValueError:
        return None
    log = _git(
        top,
        "log",
        f"--max-count={MAX_REVISIONS}",
        "--format=%H",
        "--follow",
        "--name-only",
        "--",
        relative.as_posix(),
    )
    if log is None:
        return None
    # --follow with --name-only: each commit is followed by the file's name then.
    commits: list[str] = []
    lines = [line for line in log.decode("utf-8", "replace").splitlines() if line]
    i = 0
    while i < len(lines):
        commit = lines[i]
        name = lines[i + 1] if i + 1 < len(lines) else relative.as_posix()
        commits.append(f"{commit}:{name}")
        i += 2
    return top, commits


def _blobs(top: Path, specs: list[str]) -> list[bytes | None]:
    """The contents of ``commit:path`` specs, read in one ``git cat-file --batch``."""
    output = _git(top, "cat-file", "--batch", data="".join(f"{s}\n" for s in specs).encode())
    if output is None:
        return [None] * len(specs)
    found: list[bytes | None] = []
    position = 0
    for _ in specs:
        end = output.index(b"\n", position)
        header = output[position:end].split()
        position = end + 1
        if len(header) < 3 or header[1] != b"blob":
            found.append(None)
            continue
        size = int(header[2])
        found.append(output[position : position + size])
        position += size + 1
    return found


def old_source(source: CardFile, fingerprint: str, wanted: list[str]) -> OldSource:
    """The English fields ``wanted`` as they were when ``fingerprint`` was taken.

    ``wanted`` are fields of :data:`~translator.cards.model.TRANSLATED_FIELDS` whose
    group in ``fingerprint`` no longer matches ``source``.
    """
    groups = dict(zip(TRANSLATED_FIELDS, fingerprint.split("-"), strict=False))
    result = OldSource()
    wanted = [key for key in wanted if key in groups]
    found = _revisions(Path(source.path)) if wanted else None
    if found is None:
        result.unknown = list(wanted)
        return result
    top, specs = found
    remaining = set(wanted)
    for spec, blob in zip(specs, _blobs(top, specs), strict=True):
        if not remaining:
            break
        if blob is None:
            continue
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            continue
        version = parse_card_text(source.path, source.deck, text, [])
        if version is None:
            continue
        for key in sorted(remaining):
            if same_group(groups[key], field_hash(version, key)):
                result.versions[key] = version
                result.revisions[key] = spec.split(":", 1)[0][:10]
                remaining.discard(key)
    result.unknown = [key for key in wanted if key in remaining]
    return result
