"""``translator pull``, ``push``, ``login`` and ``logout``: cards between the library and
Aminduna (:mod:`translator.sync`), and the token a push writes with.

The password is asked without echo, or read from standard input (``--password-stdin``,
for scripts): never an argument, which any user of the computer could read in the
process list.  Only the token is stored (:mod:`translator.sync.auth`).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any, TextIO

from . import output
from .common import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    UsageError,
    add_format,
    api,
    command_help,
)
from .output import plural


def cmd_login(args: argparse.Namespace, out: TextIO) -> int:
    """Log in to the server, store the token, say until when it holds."""
    if args.password_stdin and args.email is None:
        raise UsageError("--password-stdin needs --email (standard input holds the password)")
    target = api.login_target(args.server, timeout=args.timeout, deadline=args.deadline)
    host = target.host
    if target.origin == "config":  # a file of the library chose where the password goes
        print(f"translator: note: logging in to {host}, named by {target.source}", file=sys.stderr)
    email = args.email if args.email is not None else _ask_email()
    email = email.strip()
    if not email:
        raise UsageError("the e-mail address is empty")
    password = _read_password() if args.password_stdin else _ask_password()
    if not password:
        raise UsageError("the password is empty")
    login = api.login(email, password, target)
    if args.format == "json":
        output.dump_json(
            {
                "version": 1,
                "server": login.server,
                "host": host,
                "email": email,
                "expires": login.expires.isoformat() if login.expires else None,
                "credentials": str(login.credentials),
            },
            out,
        )
        return EXIT_OK
    until = f" until {login.until}" if login.expires else ""
    out.write(f"logged in to {host} as {email}{until} ({login.credentials})\n")
    return EXIT_OK


def cmd_logout(args: argparse.Namespace, out: TextIO) -> int:
    """Forget the stored token of the server; say whether there was one."""
    done = api.logout(args.server)
    if done.forgotten:
        out.write(f"logged out of {done.host} (its token is deleted from {done.credentials})\n")
    else:
        out.write(f"not logged in to {done.host}: there was no token to forget\n")
    if done.token_variable:
        out.write(f"note: ${done.token_variable} is set: commands still send its token\n")
    return EXIT_OK


def _ask_email() -> str:
    """The e-mail address, asked on the terminal (on stderr: stdout may be JSON)."""
    print("E-mail: ", end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line:
        raise UsageError("no e-mail address: give it with --email")
    return line


def _ask_password() -> str:
    """The password, asked without echo."""
    try:
        return getpass.getpass("Password: ")
    except EOFError:
        raise UsageError(
            "no password: there is no terminal to ask it on; pipe it with --password-stdin"
        ) from None


def _read_password() -> str:
    """One line of standard input, its line break dropped (spaces are the password's)."""
    line = sys.stdin.readline()
    if not line:
        raise UsageError("--password-stdin: standard input is empty")
    return line.rstrip("\r\n")


#: Where a command's server comes from when ``--server`` is not given.
SERVER_DEFAULTS = (
    "$TRANSLATOR_SERVER, [aminduna] server in translator.toml, else https://aminduna.arcmage.org/"
)


def _add_server(parser: argparse.ArgumentParser) -> None:
    """``--server URL``, as every command talking to Aminduna takes it."""
    parser.add_argument(
        "--server", metavar="URL", help=f"the Aminduna server (default: {SERVER_DEFAULTS})"
    )


def register(commands: argparse._SubParsersAction) -> None:
    """``translator pull``, ``push``, ``login`` and ``logout``."""
    register_pull_push(commands)
    p = commands.add_parser(
        "login",
        help="log in to an Aminduna server (for push)",
        **command_help(
            "Log in to an Aminduna server and keep the token it gives (valid about a week) "
            "in $XDG_CONFIG_HOME/translator/credentials.json, readable by you alone.  The "
            "password is asked without echo, or read from standard input with "
            "--password-stdin; it is never stored, and never an argument.  In CI, set "
            "TRANSLATOR_TOKEN instead.  Exit 0: logged in; 2: the server refused the login.",
            "translator login --server https://aminduna.arcmage.org/ --email me@example.org",
        ),
    )
    _add_server(p)
    _add_bounds(p)
    p.add_argument("--email", metavar="EMAIL", help="the account's e-mail (default: asked)")
    p.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input (one line), for scripts",
    )
    add_format(p)
    p.set_defaults(run=cmd_login)

    p = commands.add_parser(
        "logout",
        help="forget the token of an Aminduna server",
        **command_help(
            "Delete the token translator login stored for the server.  It says whether "
            "there was one; exit 0 either way.",
            "translator logout --server https://aminduna.arcmage.org/",
        ),
    )
    _add_server(p)
    p.set_defaults(run=cmd_logout)


# --------------------------------------------------------------------------------------
# pull and push


def _languages(values: list[str] | None) -> list[str]:
    """``--lang fr,eo`` (repeatable; default every translation language)."""
    from .. import languages  # noqa: PLC0415

    given = [v.strip() for value in values or [] for v in value.split(",") if v.strip()]
    chosen = [*languages.codes()] if not given or "all" in given else given
    return [lang for lang in dict.fromkeys(chosen) if lang != "en"]


def cmd_pull(args: argparse.Namespace, out: TextIO) -> int:
    """``pull``: cards from Aminduna into a deck directory, with their records."""
    if not args.refs and not args.search:
        raise UsageError("give a deck or card (address or guid), or --search TEXT")
    with output.Progress(not args.no_progress, 1) as bar:

        def progress(what: str, done: int, total: int) -> None:
            if bar.bar is not None:
                bar.stage(what)
                bar.bar.update(bar.task, completed=done, total=total)

        try:
            result = api.pull(
                args.refs,
                args.into,
                server=args.server,
                languages=_languages(args.lang),
                search=args.search,
                library=args.library,
                keep_local=args.keep_local,
                take_server=args.take_server,
                timeout=args.timeout,
                deadline=args.deadline,
                on_progress=progress,
            )
        except api.ImportError_ as error:
            for problem in error.problems:
                print(f"translator: {problem}", file=sys.stderr)
            print("translator: nothing was pulled; the library is unchanged", file=sys.stderr)
            return EXIT_ERROR
    if args.format == "json":
        output.dump_json(_pull_json(result), out)
    else:
        _pull_text(result, out, output.use_color(out))
    return EXIT_FINDINGS if result.conflicts else EXIT_OK


def _pull_json(result: Any) -> dict[str, Any]:
    plan = result.plan
    return {
        "server": result.server,
        "created": plan.created,
        "updated": plan.updated,
        "unchanged": plan.unchanged,
        "renamed": plan.renamed,
        "kept": [{"path": k.path, "reason": k.reason} for k in result.kept],
        "conflicts": [c.to_dict() for c in result.conflicts],
        "records": result.records,
        "notes": result.notes,
        "requests": result.requests,
    }


def _pull_text(result: Any, out: TextIO, color: bool) -> None:
    plan = result.plan
    for note in result.notes:
        out.write(f"note: {note}\n")
    for rename in plan.renamed:
        out.write(f"renamed {rename}\n")
    for label, paths in (("created", plan.created), ("updated", plan.updated)):
        for path in paths:
            out.write(f"{label} {path}\n")
    for kept in result.kept:
        out.write(f"kept {kept.path}: {kept.reason}\n")
    for conflict in result.conflicts:
        write_conflict(conflict, out, color)
    out.write(
        f"{len(plan.created)} created, {len(plan.updated)} updated, "
        f"{len(plan.unchanged)} unchanged, {len(result.kept)} kept, "
        f"{plural(len(result.conflicts), 'conflict')} "
        f"({plural(result.requests, 'request')} to {_host(result.server)})\n"
    )
    if result.conflicts:
        out.write(
            "conflicts: merge the server's changes into the file by hand, then "
            "`translator pull ... --keep-local` records the server's version as the "
            "base (a push then sends your file); or `--take-server` takes the server's\n"
        )


def _host(server: str) -> str:
    return api.host_of(server)


def write_conflict(conflict: Any, out: TextIO, color: bool) -> None:
    """A conflict: the card, when and by whom the server changed, and each field in
    the three versions (word differences from the pulled version)."""
    by = f" by {conflict.by}" if conflict.by else ""
    out.write(
        f"conflict {conflict.path}: changed on the server since the pull "
        f"({conflict.pulled_at} -> {conflict.server_at}{by}) and in the library; "
        "nothing was written over either; each field as the server and the library "
        "changed it since the pull:\n"
    )
    for versions in conflict.fields:
        out.write(f"  {versions.key}:\n")
        pulled = _shown(versions.pulled)
        for label, value in (("server", versions.server), ("local", versions.local)):
            text = _shown(value)
            if text == pulled:
                out.write(f"    {label:<6}  (as pulled)\n")
                continue
            diff = output.word_diff_text(api.word_diff(pulled, text), color)
            out.write(f"    {label:<6}  " + diff.replace("\n", "\n            ") + "\n")


def _shown(value: Any) -> str:
    return "" if value is None else str(value)


def cmd_push(args: argparse.Namespace, out: TextIO) -> int:
    """``push``: a deck's changed, reviewed translations to Aminduna."""
    with output.Progress(not args.no_progress and not args.dry_run, 1) as bar:

        def on_card(item: Any, done: int, total: int) -> None:
            if bar.bar is not None:
                bar.stage(item.label)
                bar.bar.update(bar.task, completed=done, total=total)

        result = api.push(
            args.deck,
            args.lang,
            server=args.server,
            only=args.only or (),
            dry_run=args.dry_run,
            force=args.force,
            include_unreviewed=args.include_unreviewed,
            library=args.library,
            timeout=args.timeout,
            deadline=args.deadline,
            on_card=on_card,
        )
    if args.format == "json":
        output.dump_json(_push_json(result), out)
    else:
        _push_text(result, out, output.use_color(out))
    if result.stopped is not None:
        print(f"translator: {result.stopped}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_FINDINGS if result.failed else EXIT_OK


def _push_json(result: Any) -> dict[str, Any]:
    return {
        "server": result.server,
        "lang": result.lang,
        "dry_run": result.dry_run,
        "outgoing": [item.to_dict() for item in result.outgoing],
        "sent": [vars(s) for s in result.sent],
        "skipped": [vars(s) for s in result.skipped],
        "refused": [{"card": r.label, "error": str(r.error)} for r in result.refused],
        "conflicts": [c.to_dict() for c in result.conflicts],
        "lint_errors": [f.as_dict() for f in result.lint_errors],
        "blocked": result.blocked,
        "stopped": None if result.stopped is None else str(result.stopped),
        "requests": result.requests,
    }


def _push_text(result: Any, out: TextIO, color: bool) -> None:
    for skipped in result.skipped:
        out.write(f"skipped {skipped.label}: {skipped.reason}\n")
    for finding in result.lint_errors:
        out.write(f"{finding.path}:{finding.line}: {finding.code} {finding.message}\n")
    if result.blocked:
        out.write(
            f"not pushed: {plural(len(result.lint_errors), 'lint error')} in the cards "
            "to send; fix them (translator lint), or --force to push anyway\n"
        )
    elif result.dry_run:
        _dry_run_text(result, out)
    else:
        _sent_text(result, out, color)


def _dry_run_text(result: Any, out: TextIO) -> None:
    """Each request a push would make, and each field it would send (as JSON)."""
    import json  # noqa: PLC0415

    def shown(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    for item in result.outgoing:
        out.write(f"would {item.route} ({item.label}, {item.path})\n")
        for change in item.changes:
            before = "" if item.action == "create" else f"{shown(change.old)} -> "
            out.write(f"  {change.key}: {before}{shown(change.new)}\n")
    out.write(
        f"dry run: {plural(len(result.outgoing), 'card')} would be sent to "
        f"{_host(result.server)}; nothing was sent\n"
    )


def _sent_text(result: Any, out: TextIO, color: bool) -> None:
    for sent in result.sent:
        fields = f": {', '.join(sent.fields)}" if sent.fields and sent.action == "patched" else ""
        out.write(f"{sent.action} {sent.label} ({sent.guid}){fields}\n")
        for note in sent.notes:
            out.write(f"  note: {note}\n")
    for refused in result.refused:
        out.write(f"refused {refused.label}: {refused.error}\n")
    for conflict in result.conflicts:
        write_conflict(conflict, out, color)
    if not (result.outgoing or result.skipped):
        out.write("nothing to push: no translation changed since the pull\n")
        return
    out.write(
        f"{len(result.sent)} sent, {len(result.refused)} refused, "
        f"{plural(len(result.conflicts), 'conflict')}, {len(result.skipped)} skipped "
        f"({plural(result.requests, 'request')} to {_host(result.server)})\n"
    )
    if result.conflicts:
        out.write(
            "conflicts: `translator pull` the deck (it keeps your files), merge the "
            "server's changes into them, then `translator pull ... --keep-local` and push "
            "again\n"
        )


def _add_bounds(parser: argparse.ArgumentParser) -> None:
    """``--timeout`` (one answer) and ``--deadline`` (the whole command)."""
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long one answer may take in all (connecting, the headers, the body) "
        "before it is tried again (default: [aminduna] timeout in translator.toml, else 30)",
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long the whole command may take, every request and retry included "
        "(default: [aminduna] deadline in translator.toml, else 900)",
    )


def _add_connection(parser: argparse.ArgumentParser) -> None:
    """``--server``, ``--timeout``, ``--deadline``, ``--no-progress`` and ``--format``."""
    _add_server(parser)
    _add_bounds(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_format(parser)


def register_pull_push(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "pull",
        help="pull decks and cards from Aminduna into the library",
        **command_help(
            "Pull a deck, cards or a search from Aminduna, with their translations, into a "
            "deck directory (all or nothing).  Each card file gets a pull record in "
            ".aminduna/ beside it (commit it: push needs it).  A file changed in the "
            "library since its pull is kept; changed on both sides, it is a conflict "
            "(exit 1), shown field by field.  Exit 0 ok, 1 conflicts, 2 errors.",
            "translator pull https://aminduna.arcmage.org/#/decks/GUID --into cards/rebirth",
        ),
    )
    p.add_argument("refs", nargs="*", metavar="URL|GUID", help="deck or card addresses, or guids")
    p.add_argument("--into", required=True, metavar="DIR", help="the deck directory (cards/DECK)")
    p.add_argument("--search", metavar="TEXT", help="also every card a search finds (all pages)")
    p.add_argument(
        "--lang",
        action="append",
        metavar="LANG",
        help="translations to pull: fr, eo (comma-separated or repeated; default all)",
    )
    p.add_argument("--library", metavar="ROOT", help="the library (default: above --into)")
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--keep-local",
        action="store_true",
        help="keep the library's changed files, and record the server's versions as their base",
    )
    which.add_argument(
        "--take-server",
        action="store_true",
        help="replace changed files with the server's versions (local changes are lost)",
    )
    _add_connection(p)
    p.set_defaults(run=cmd_pull)

    p = commands.add_parser(
        "push",
        help="push a deck's reviewed translations to Aminduna",
        **command_help(
            "Send every translation of the deck in LANG that changed since its pull: "
            "created (POST) or patched (the whole pulled object, changed only where the "
            "library changed).  Only reviewed cards, after translator lint finds no error "
            "in them.  Each card is fetched again first: changed on the server since the "
            "pull, it is a conflict and is not sent.  Needs translator login (or "
            "$TRANSLATOR_TOKEN), except --dry-run, which sends nothing.  The server is "
            "never chosen by a pull record: a record naming another server is an error; "
            "$TRANSLATOR_TOKEN goes only to a server --server or $TRANSLATOR_SERVER names, "
            "or the public one.  Exit 0 ok, 1 conflicts, refusals or lint errors, 2 errors.",
            "translator push cards/rebirth --lang fr --dry-run",
        ),
    )
    p.add_argument("deck", metavar="DECK_DIR", help="the deck directory (cards/DECK)")
    p.add_argument("--lang", required=True, metavar="LANG", help="the translations to send")
    p.add_argument(
        "--only",
        action="append",
        metavar="CARD",
        help="only these cards (slug, deck/slug, guid or path; repeatable)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print what would be sent, field by field"
    )
    p.add_argument("--force", action="store_true", help="push despite lint errors")
    p.add_argument(
        "--include-unreviewed",
        action="store_true",
        help="also translations not reviewed (or stale, or work in progress)",
    )
    p.add_argument("--library", metavar="ROOT", help="the library (default: above DECK_DIR)")
    _add_connection(p)
    p.set_defaults(run=cmd_push)
