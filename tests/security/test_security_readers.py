"""Every file the package reads goes through the one reader, and no cache runs code:
the guarantees of ``textio.read_file`` (a regular file, within a limit, never a FIFO
or ``/dev/zero``) and ``jsonfile.read`` (depth, numbers, the line of a problem) hold
only if no module reads a file another way.  This test reads the package's own code
and fails on a new ``open()``, ``Path.read_text()``, ``Path.read_bytes()``,
``Path.open()``, ``os.open()``, ``os.fdopen()``, ``json.load(s)`` or import of
``pickle``/``marshal``/``shelve``, unless it is listed below with why it is not a
file someone else gave (package data, the kernel's, the reader itself, bytes in
memory, a PDF object).  A read of a file from a library, an output folder, a cache, a
server or an editor belongs in ``textio.read_file`` / ``jsonfile.read``, not in this
list."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "translator"

#: The calls that read a file (or parse what may have been read raw).
READERS = ("read_text", "read_bytes", "open", "fdopen", "load", "loads")
#: Modules whose loading can run code: never imported by the package.
CODE_LOADERS = ("pickle", "marshal", "shelve", "dill", "cloudpickle")

SHIPPED = "a data file shipped inside the package (read-only, installed with the code)"
PDF_OBJECT = "a stream of a PDF already opened by pikepdf (bytes in memory, not a file)"
IN_MEMORY = "bytes already in memory, read through textio.read_file or from a socket"

#: (module, the call as written) -> why it may read without the one reader.
ALLOWED: dict[tuple[str, str], str] = {
    # The readers and writers themselves.
    ("textio.py", "os.open"): "textio.read_file itself, and the BOM probe of a write",
    ("paths.py", "os.open"): "paths.open_beneath: the no-link opener under read_file",
    ("jsonfile.py", "json.loads"): "jsonfile.loads: the one JSON parser",
    ("cache.py", "json.loads"): "a kept value read by cache.read_private (read_file)",
    ("atomic.py", "os.open"): "making temporary files, syncing folders; the journal",
    ("atomic.py", "temporary.open"): "writing the temporary file replacing() made",
    ("atomic.py", "os.fdopen"): "writing a staged file; the journal, opened O_NOFOLLOW",
    ("atomic.py", "json.loads"): "a commit's journal: read with a limit, O_NOFOLLOW, "
    "checked; atomic is below textio, which imports it",
    ("atomic.py", "Path(f'/proc/{pid}/status').read_text"): "the kernel's own file",
    # Bytes in memory.
    ("editor/supervisor.py", "json.loads"): "a message the supervisor framed (bounded)",
    ("editor/supervisor.py", "os.open"): "/dev/null as the server's standard input",
    ("editor/server.py", "server.buffers.open"): "an editor buffer, not a file",
    ("sync/client.py", "json.loads"): IN_MEMORY + " (an answer read within its limit, "
    "its depth checked)",
    ("sync/auth.py", "json.loads"): IN_MEMORY + " (a token's claims)",
    ("sync/auth.py", "os.open"): "the configuration folder itself, locked with flock",
    ("typeset/artwork.py", "os.fdopen"): "a converted image opened by paths.open_beneath",
    ("typeset/artwork.py", "Image.open"): IN_MEMORY,
    ("themes/arcmage/raster.py", "Image.open"): IN_MEMORY,
    ("themes/arcmage/source.py", "Image.open"): IN_MEMORY,
    ("pdf/textcheck.py", "Image.open"): IN_MEMORY,
    ("pdf/preflight/bound.py", "Image.open"): IN_MEMORY,
    # Package data.
    ("editor/assist.py", "path.read_text"): SHIPPED,
    ("lint/context.py", "path.read_text"): SHIPPED,
    ("lint/examples.py", "(root / 'lint' / 'examples.yaml').read_text"): SHIPPED,
    ("lint/rules/esperanto_grammar.py", "grammar_file().read_text"): SHIPPED,
    ("pdf/pdfx.py", "path.read_text"): SHIPPED,
    ("lint/hunspell_files.py", "(package / name).read_bytes"): "spylls's own installed "
    "code, whose digest tells which reader it is",
    ("pdf/preflight/record.py", "path.read_bytes"): "the preflight's own code files "
    "(their digest keys the proofs)",
    # The system's dictionaries (Debian's hunspell packages, or $DICPATH).
    ("lint/hunspell_files.py", "path.open"): "a Hunspell .dic of the system",
    ("lint/spelling.py", "base.with_suffix('.aff').open"): "a Hunspell .aff of the system",
    ("lint/spelling.py", "base.with_suffix('.aff').read_bytes"): "a Hunspell .aff of the system",
    ("lint/spelling.py", "base.with_suffix('.dic').read_bytes"): "a Hunspell .dic of the system",
    # PDFs: opened by pikepdf (qpdf reads them), after their path is checked.
    ("typeset/assemble.py", "pikepdf.open"): "a card PDF this build wrote",
    ("typeset/batch.py", "pikepdf.open"): "a card PDF this build wrote",
    ("typeset/build.py", "pikepdf.open"): "a PDF WeasyPrint made, in memory",
    ("typeset/preview.py", "pikepdf.open"): "a PDF the build wrote",
    ("pdf/preflight/bound.py", "pikepdf.open"): "a PDF the preflight checked regular",
    ("pdf/preflight/report.py", "pikepdf.open"): "a PDF the preflight checked regular "
    "and within MAX_PDF_BYTES by its stat first",
    ("pdf/preflight/report.py", "Path(path).open"): "a probe of a PDF whose stat "
    "said regular and within MAX_PDF_BYTES",
    ("typeset/theme.py", "os.open"): "a theme's font, opened non-blocking and checked "
    "regular and within its limit by fstat",
    # PDF objects.
    ("pdf/pages.py", "contents.read_bytes"): PDF_OBJECT,
    ("pdf/pages.py", "s.read_bytes"): PDF_OBJECT,
    ("pdf/textcheck.py", "profile.read_bytes"): PDF_OBJECT,
    ("pdf/textcheck.py", "image.read_bytes"): PDF_OBJECT,
    ("pdf/pdfx.py", "pdf.Root.Metadata.read_bytes"): PDF_OBJECT,
    ("pdf/preflight/bound.py", "function.read_bytes"): PDF_OBJECT,
    ("pdf/preflight/bound.py", "table.read_bytes"): PDF_OBJECT,
    ("pdf/preflight/bound.py", "image.read_bytes"): PDF_OBJECT,
    ("pdf/preflight/extent.py", "stream.read_bytes"): PDF_OBJECT,
    ("pdf/preflight/extent.py", "glyph_map.read_bytes"): PDF_OBJECT,
}


def _reads() -> dict[tuple[str, str], list[int]]:
    """(module, call as written) -> the lines of each call of a reader in the package."""
    found: dict[tuple[str, str], list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "open":
                call = "open"
            elif isinstance(func, ast.Attribute) and func.attr in READERS:
                call = ast.unparse(func)
                if func.attr in ("load", "loads") and call not in ("json.load", "json.loads"):
                    continue  # yaml's safe_load of read text, plain.decode...
            else:
                continue
            found.setdefault((module, call), []).append(node.lineno)
    return found


def test_every_file_is_read_through_the_one_reader() -> None:
    unexplained = {
        f"translator/{module}:{lines[0]}: {call}(...)": lines
        for (module, call), lines in _reads().items()
        if (module, call) not in ALLOWED
    }
    assert not unexplained, (
        "files read without textio.read_file / jsonfile.read (use them, or add the call "
        "to ALLOWED with why it is no file from outside):\n" + "\n".join(unexplained)
    )


def test_the_list_of_exceptions_is_not_stale() -> None:
    """An entry whose call is gone goes too: the list says what the code does."""
    stale = sorted(set(ALLOWED) - set(_reads()))
    assert not stale, f"ALLOWED lists calls the package no longer makes: {stale}"


def test_no_module_loads_what_can_run_code() -> None:
    """A cache, a record, a worker's answer: nothing the package reads is a pickle
    (the glossary cache was one, and its payload ran code when replaced)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {name}"
                for name in names
                if name.split(".")[0] in CODE_LOADERS
            ]
    assert not found, found


def test_every_write_says_its_folder() -> None:
    """``atomic.replacing`` and ``atomic.write_file`` take the folder a file must lie
    in as a keyword without a default: a writer cannot forget it (mypy and this test
    say so); ``textio.atomic_write`` takes it too, None only for a file named on the
    command line."""
    import inspect

    from translator import atomic, textio

    for function in (atomic.replacing, atomic.write_file, textio.atomic_write):
        parameter = inspect.signature(function).parameters["within"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
        assert parameter.default is inspect.Parameter.empty, function
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute | ast.Name)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "atomic_write"
                and any(k.arg == "within" and _is_none(k.value) for k in node.keywords)
            ):
                calls.append(f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno}")
    # The files named with -o on the command line, and nothing else.
    assert all(call.startswith("cli/") for call in calls), calls


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def test_an_exception_names_a_real_call() -> None:
    assert all(Path(PACKAGE / module).is_file() for module, _ in ALLOWED)
