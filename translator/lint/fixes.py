"""Applying safe fixes to card files: ``translator lint --fix`` and ``--diff``.

A fix is an :class:`~.model.Edit` of one field: characters of the card text (the
file's body), or of a front matter value.  Applying them changes nothing else byte for
byte: the body is edited in place; a front matter value is rewritten on its own line,
in its own quoting style, and the line's comment and every other line are kept.  A
file whose edits cannot be written that way (a value on several lines, a result that
does not read back as intended) is left alone.  English files are never changed: the
source language is the reference the translations are checked against.

Fixes are applied until nothing fixable is left (a fix may make another possible, two
may overlap), so that running ``--fix`` twice changes nothing the second time.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards.edit import set_line
from ..cards.files import parse_card_text
from ..cards.model import SOURCE_LANGUAGE, CardFile, Library
from ..diagnostics import apply_replacements
from .model import Edit, Finding

#: How many times findings are fixed and the library linted again, at most.
MAX_PASSES = 10


@dataclass
class FixResult:
    """What fixing did: the new content of each changed file, how many fixes, and
    what the linter still reports on the library as fixed."""

    contents: dict[str, str] = field(default_factory=dict)
    originals: dict[str, str] = field(default_factory=dict)
    applied: int = 0
    #: The findings of the last lint (of the fixed library): what remains, without
    #: linting it once more after the files are written.
    findings: list[Finding] = field(default_factory=list)

    def diff(self) -> str:
        """A unified diff of every changed file."""
        chunks: list[str] = []
        for path, new in sorted(self.contents.items()):
            old = self.originals[path]
            if old != new:
                chunks.extend(
                    difflib.unified_diff(
                        old.splitlines(keepends=True),
                        new.splitlines(keepends=True),
                        f"a/{path}",
                        f"b/{path}",
                    )
                )
        return "".join(chunks)

    @property
    def changed(self) -> list[str]:
        return sorted(p for p, text in self.contents.items() if text != self.originals[p])


def _edit_front_matter(
    front: str, file: CardFile, key: str, edits: list[Edit]
) -> tuple[str, int] | None:
    line_number = file.lines.get(key)
    value = file.fields.get(key)
    if line_number is None or not isinstance(value, str):
        return None
    lines = front.splitlines(keepends=True)
    if not 0 < line_number <= len(lines):
        return None
    new_value, applied = apply_replacements(value, edits)
    if not set_line(lines, line_number - 1, key, new_value):
        return None
    return "".join(lines), applied


def fix_file(file: CardFile, content: str, edits: list[Edit]) -> tuple[str, int] | None:
    """The file's new content with ``edits`` applied, and how many were; ``None`` when
    they cannot be applied safely (then the file is left as it is)."""
    front = file.front_matter
    if not content.startswith(front) or content[len(front) :] != file.body:
        return None
    body, applied = apply_replacements(file.body, [e for e in edits if e.key == "text"])
    by_key: dict[str, list[Edit]] = {}
    for edit in edits:
        if edit.key != "text":
            by_key.setdefault(edit.key, []).append(edit)
    expected: dict[str, str] = {}
    for key, key_edits in by_key.items():
        done = _edit_front_matter(front, file, key, key_edits)
        if done is None:
            continue
        front, count = done
        applied += count
        expected[key] = apply_replacements(str(file.fields[key]), key_edits)[0]
    new = front + body
    # Read it back: the fix must change only what it meant to, and break nothing.
    before: list = []
    parse_card_text(file.path, file.deck, content, before)
    after: list = []
    parsed = parse_card_text(file.path, file.deck, new, after)
    if (
        parsed is None
        or parsed.body != body
        or {p.message for p in after} - {p.message for p in before}
    ):
        return None
    unchanged = {k: v for k, v in file.fields.items() if k not in expected}
    if {k: v for k, v in parsed.fields.items() if k not in expected} != unchanged or any(
        parsed.fields.get(key) != value for key, value in expected.items()
    ):
        return None
    return new, applied


def fix_library(
    library: Library,
    lint_again: Callable[[Library], list[Finding]],
    findings: list[Finding],
    read: Callable[[str], str],
) -> FixResult:
    """Apply the fixes of ``findings``, lint again, and repeat while fixes remain.

    ``lint_again`` lints a library and returns what it reports; ``read`` gives a file's
    current content.  Nothing is written: the result holds the new contents, and the
    findings of the library as fixed (``findings`` itself when nothing was fixed).
    """
    result = FixResult()
    by_path = {
        version.path: version
        for card in library.cards.values()
        for version in (card.source, *card.translations.values())
        if version
    }
    for _ in range(MAX_PASSES):
        edits: dict[str, list[Edit]] = {}
        for finding in findings:
            version = by_path.get(finding.path)
            if finding.edit is None or version is None or version.lang == SOURCE_LANGUAGE:
                continue
            edits.setdefault(finding.path, []).append(finding.edit)
        applied_now = 0
        for path, file_edits in edits.items():
            version = by_path[path]
            if path not in result.originals:
                result.originals[path] = read(path)
            content = result.contents.get(path, result.originals[path])
            done = fix_file(
                version, content, sorted(set(file_edits), key=lambda e: (e.key, e.start))
            )
            if done is None or done[0] == content:
                continue
            new, count = done
            result.contents[path] = new
            parsed = parse_card_text(path, version.deck, new, [])
            assert parsed is not None
            library.add(parsed)
            by_path[path] = parsed
            applied_now += count
        if not applied_now:
            break
        result.applied += applied_now
        findings = lint_again(library)
    result.findings = findings
    return result
