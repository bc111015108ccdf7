"""``translator push``: reviewed translations from the library back to Aminduna.

A push sends what the library changed since the pull, and nothing else: each card
object sent is the one pulled (its record), changed only in the fields the translator
changed, so that what Aminduna holds and the library does not know (the rule set, the
licence, the artwork) goes back as it came.  New translations are created, linked to
their English card as Aminduna's own deck translator links them.

Nothing is overwritten blindly: Aminduna does no concurrency check (the last writer
wins), so before each write the card is fetched again; if it changed since the pull,
that card is a conflict, shown field by field, and is not sent.  A card the server
refuses (a Final card, another user's card) is reported with the server's reason and
the push goes on; any other failure stops it, with every card sent so far recorded.
English cards are never sent, and rendered cards never uploaded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import markup
from ..atomic import write_file
from ..cards.edit import edit_card
from ..cards.library import load_library
from ..cards.model import (
    DEFAULT_FOOTERS,
    LANGUAGE_NAMES,
    SOURCE_LANGUAGE,
    TRANSLATION_FIELDS,
    Card,
    CardFile,
    Library,
)
from ..errors import LibraryProblems, UsageError
from ..limits import MAX_CARD_FILE_BYTES
from ..textio import read_text
from ..workflow.states import CardState, card_state
from .client import Client, Forbidden, ServerError, Uncertain
from .conflicts import TEXT, Conflict, FieldVersions, project, read_version, who_changed
from .records import Record, check_folder, read_record, server_hash, write_record

#: The translation's fields a push sends (the body is ``text``).
SENT_FIELDS = ("name", "name2", "subtype", "info", "status", "wip")
#: What a new translation copies from its English card, as Aminduna's deck translator does.
COPIED_KEYS = (
    "serie",
    "ruleSet",
    "faction",
    "type",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "artist",
    "artworkLicensor",
    "artworkLicense",
)
#: Tries of a create that the server may or may not have done, each after looking first.
CREATE_TRIES = 3


@dataclass
class Change:
    """One field of the card object sent: its Aminduna key, before and after."""

    key: str
    old: Any
    new: Any

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.key, "old": self.old, "new": self.new}


@dataclass
class Outgoing:
    """A translation to send: created (POST) or patched (PATCH, the whole object)."""

    card: Card
    lang: str
    version: CardFile
    action: str  # "create" or "patch"
    body: dict[str, Any]
    changes: list[Change]
    record: Record | None
    #: The English card's record: a create copies from it, and links to its guid
    #: (None only for a translation that cannot be sent, which is skipped).
    source: Record | None

    @property
    def label(self) -> str:
        return f"{self.card.slug}.{self.lang}"

    @property
    def path(self) -> str:
        return self.version.path

    @property
    def guid(self) -> str | None:
        return self.record.guid if self.record is not None else None

    @property
    def route(self) -> str:
        return f"PATCH api/Cards/{self.guid}" if self.action == "patch" else "POST api/Cards"

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.label,
            "path": self.path,
            "action": self.action,
            "route": self.route,
            "guid": self.guid,
            "changes": [c.to_dict() for c in self.changes],
            "body": self.body,
        }


@dataclass
class Skipped:
    """A translation not sent, and why (not reviewed, never pulled, ...)."""

    label: str
    path: str
    reason: str
    #: Whether it fails the push (exit 1): the server holds a translation this push
    #: would have duplicated, which needs the translator; not reviewed is a choice.
    fails: bool = False


@dataclass
class Sent:
    """A translation the server now holds."""

    label: str
    action: str  # "created", "patched" or "adopted" (created by an earlier, cut-off push)
    guid: str
    fields: list[str]
    notes: list[str] = field(default_factory=list)


@dataclass
class Refused:
    """A translation the server refused (403), with its reason."""

    label: str
    error: ServerError


@dataclass
class PushResult:
    """What a push did, or would do (``dry_run``)."""

    server: str
    lang: str
    dry_run: bool
    outgoing: list[Outgoing] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    #: Lint errors on the cards to send (they stop the push unless forced).
    lint_errors: list[Any] = field(default_factory=list)
    forced: bool = False
    #: The failure that stopped the push (after the cards in ``sent``).
    stopped: ServerError | None = None
    requests: int = 0

    @property
    def blocked(self) -> bool:
        """Nothing was sent because of lint errors."""
        return bool(self.lint_errors) and not self.forced

    @property
    def failed(self) -> bool:
        return bool(
            self.conflicts
            or self.refused
            or self.blocked
            or self.stopped
            or any(skipped.fails for skipped in self.skipped)
        )


def _value(value: Any) -> Any:
    return None if value in ("", None) else value


def _inner(value: Any, key: str) -> Any:
    """``value[key]`` of an object a server sent (a reference such as a status), None
    when it is not an object: a server's answer is not trusted to have a shape."""
    return value.get(key) if isinstance(value, dict) else None


def _fields(version: CardFile | None) -> dict[str, Any]:
    if version is None:
        return {}
    values = {key: _value(version.fields.get(key)) for key in SENT_FIELDS}
    values[TEXT] = _value(version.body.strip("\n"))
    return values


def card_text(body: str) -> str:
    """A card file's body as Aminduna's ``markdownText``: what the import reads back
    to the same file (line ends LF, no blank lines around)."""
    return body.replace("\r\n", "\n").strip("\n")


def apply(
    card: dict[str, Any], changed: set[str], local: CardFile, source: Card, lang: str
) -> dict[str, Any]:
    """``card`` changed in the Aminduna fields that the library's ``changed`` fields map to."""
    body = dict(card)
    values = _fields(local)
    if changed & {"name", "name2", "wip"}:
        body["firstName"] = values["name"]
        body["lastName"] = values["name2"]
        lines = [values["name"], values["name2"]]
        body["name"] = (
            f"{source.name(SOURCE_LANGUAGE)} ({lang} wip)"
            if values["wip"]
            else " ".join(str(line) for line in lines if line)
        )
    if "subtype" in changed:
        body["subType"] = values["subtype"]
    if "info" in changed:
        body["info"] = values["info"] or DEFAULT_FOOTERS.get(lang)
    if "status" in changed:
        body["status"] = {"name": values["status"] or "Draft"}
    if TEXT in changed:
        text = card_text(local.body)
        derived = markup.rule_and_flavor(
            markup.parse(text).document, lang if lang in markup.LANGUAGES else SOURCE_LANGUAGE
        )
        body["markdownText"] = text
        body["ruleText"] = derived["ruleText"]
        body["flavorText"] = derived["flavorText"]
    return {k: v for k, v in body.items() if v is not None}


def new_translation(source: dict[str, Any], local: CardFile, card: Card, lang: str) -> dict:
    """A new translation's card object: what it translates from the library, the
    rest from its English card (the deck translator's choice), linked by masterCard."""
    body: dict[str, Any] = {key: source[key] for key in COPIED_KEYS if key in source}
    body["status"] = {"name": "Draft"}
    body["language"] = {"name": LANGUAGE_NAMES.get(lang, lang), "languageCode": lang}
    body["masterCard"] = {"guid": source.get("guid")}
    body["info"] = DEFAULT_FOOTERS.get(lang)
    return apply(body, {*SENT_FIELDS, TEXT}, local, card, lang)


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    keys = [*new, *(k for k in old if k not in new)]
    return [Change(k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)]


@dataclass
class _Planner:
    """Which translations of a deck a push sends, and what it sends for each."""

    library: Library
    deck_dir: Path
    lang: str
    server: str
    include_unreviewed: bool
    skipped: list[Skipped] = field(default_factory=list)

    def plan(self, cards: list[Card]) -> list[Outgoing]:
        outgoing = []
        for card in cards:
            version = card.translations.get(self.lang)
            if version is None or card.source is None:
                continue
            item = self._one(card, version)
            if item is not None:
                outgoing.append(item)
        return outgoing

    def _skip(self, card: Card, version: CardFile, reason: str) -> None:
        self.skipped.append(Skipped(f"{card.slug}.{self.lang}", version.path, reason))

    def _one(self, card: Card, version: CardFile) -> Outgoing | None:
        """What to send for one translation: None when it did not change since its
        pull, or when it cannot or may not be sent (then said in ``skipped``)."""
        assert card.source is not None
        record = read_record(version.path)
        source = read_record(card.source.path)
        item = self._outgoing(card, version, record, source)
        if item is None:
            return None
        reason = self._unsendable(version, record, source)
        if reason is not None:
            self._skip(card, version, reason)
            return None
        if not item.changes:
            return item  # only the artwork copy is left to do: review is not needed
        state = card_state(card, self.lang)
        if state.state != "reviewed" and not self.include_unreviewed:
            self._skip(card, version, _why_not_reviewed(state))
            return None
        return item

    def _outgoing(
        self, card: Card, version: CardFile, record: Record | None, source: Record | None
    ) -> Outgoing | None:
        """The object to send (None when nothing changed since the pull)."""
        if record is None:
            if source is None or version.fields.get("guid"):
                # Cannot be sent: _unsendable says why.
                return Outgoing(card, self.lang, version, "create", {}, [], None, source)
            body = new_translation(source.card, version, card, self.lang)
            changes = _changes({}, body)
            return Outgoing(card, self.lang, version, "create", body, changes, None, source)
        base = project([record.card], self.deck_dir, self.library).get(version.path)
        pulled = _fields(read_version(version.path, card.deck, base or ""))
        now = _fields(version)
        changed = {key for key in now if now[key] != pulled.get(key)}
        if not changed and "artwork" not in record.pending:
            return None
        body = apply(record.card, changed, version, card, self.lang)
        changes = _changes(record.card, body)
        return Outgoing(card, self.lang, version, "patch", body, changes, record, source)

    def _unsendable(
        self, version: CardFile, record: Record | None, source: Record | None
    ) -> str | None:
        """Why a translation cannot be pushed to this server at all, if it cannot."""
        for found in (record, source):
            if found is not None and found.server != self.server:
                return f"pulled from {found.server}: push it there (--server)"
        if record is None and version.fields.get("guid"):
            return (
                "it has an Aminduna guid but no pull record (imported by hand): pull it "
                "first, so that a push knows what the server held"
            )
        if source is None:
            return (
                "its English card was never pulled from this server (no record): "
                "pull the deck first"
            )
        return None


def _why_not_reviewed(state: CardState) -> str:
    """Why a translation is not sent: its state (:mod:`translator.cards.state`) is not
    *reviewed*: what is sent is only a text a review vouched for."""
    if state.state == "draft":
        return "a work in progress (wip: true): finish it and review it (translator review)"
    if state.state == "stale":
        fields = ", ".join(state.changed) or "its fields"
        return f"stale: the English card changed since its review ({fields}); review it again"
    if state.edited:
        return (
            f"not reviewed as it is: {state.why}; review it again (translator review), "
            "or --include-unreviewed"
        )
    return "not reviewed: review it first (translator review), or --include-unreviewed"


def check_language(lang: str) -> None:
    """A push sends translations: English cards are never changed."""
    if lang == SOURCE_LANGUAGE:
        raise UsageError(
            "push sends translations; English cards are never changed by translator: "
            "give --lang fr or --lang eo"
        )


def plan_push(
    deck: str,
    lang: str,
    server: str,
    *,
    only: Sequence[str] = (),
    include_unreviewed: bool = False,
    library_root: str | None = None,
) -> tuple[PushResult, Library]:
    """What a push of the deck directory ``deck`` in ``lang`` would send."""
    check_language(lang)
    deck_dir = Path(deck)
    check_folder(deck_dir)  # records are read and written in the deck's own folder only
    root = Path(library_root) if library_root else deck_dir.parent
    library, problems = load_library([str(root)])
    if problems:
        raise LibraryProblems(problems)
    name = deck_dir.name
    if name not in library.decks or Path(library.decks[name].directory).resolve() != (
        deck_dir.resolve()
    ):
        raise UsageError(f"{deck} is not a deck directory of the library (it has no deck.yaml)")
    cards = library.deck_cards(name)
    if only:
        cards = _only(library, name, cards, only)
    planner = _Planner(library, deck_dir, lang, server, include_unreviewed)
    result = PushResult(server, lang, dry_run=True)
    result.outgoing = planner.plan(cards)
    result.skipped = planner.skipped
    return result, library


def _only(library: Library, deck: str, cards: list[Card], only: Sequence[str]) -> list[Card]:
    chosen: dict[str, Card] = {}
    for reference in only:
        found = [c for c in library.find(reference) if c.deck == deck]
        if not found and "." in reference:  # slug.lang, as a push names the cards it sends
            found = [c for c in library.find(reference.rsplit(".", 1)[0]) if c.deck == deck]
        if not found:
            raise UsageError(
                f"--only {reference}: no card of deck {deck} (give a slug, deck/slug, guid or path)"
            )
        for card in found:
            chosen[card.slug] = card
    return [card for card in cards if card.slug in chosen]


class _Sender:
    """The writes of one push, card after card."""

    def __init__(
        self,
        client: Client,
        result: PushResult,
        deck_dir: Path,
        library: Library,
        user: str | None = None,
    ) -> None:
        self.client = client
        self.user = user
        self.result = result
        self.deck_dir = deck_dir
        self.library = library
        self._statuses: dict[str, dict[str, Any]] | None = None

    def statuses(self) -> dict[str, dict[str, Any]]:
        if self._statuses is None:
            self._statuses = {
                str(s.get("name")): {"name": s.get("name"), "guid": s.get("guid")}
                for s in self.client.statuses()
                if isinstance(s, dict)
            }
        return self._statuses

    def resolved(self, body: dict[str, Any]) -> dict[str, Any]:
        """The body with its status named by guid, as the server looks it up."""
        status = body.get("status")
        if isinstance(status, dict) and not status.get("guid"):
            known = self.statuses()
            name = str(status.get("name"))
            if name not in known:
                raise ServerError(
                    self.client.host,
                    None,
                    f"the server has no status '{name}' ({', '.join(known)})",
                )
            body = {**body, "status": known[name]}
        return body

    def send(self, item: Outgoing) -> None:
        try:
            if item.action == "patch":
                self._patch(item)
            else:
                self._create(item)
        except Forbidden as error:
            self.result.refused.append(Refused(item.label, error.about(item.label)))

    def _conflict(self, item: Outgoing, fresh: dict[str, Any]) -> None:
        assert item.record is not None
        path = item.path
        pulled = project([item.record.card], self.deck_dir, self.library).get(path, "")
        server = project([fresh], self.deck_dir, self.library).get(path, "")
        keys = tuple(k for k in TRANSLATION_FIELDS if k in SENT_FIELDS)
        conflict = Conflict.of(path, item.record, fresh, (pulled, server), item.version, keys)
        self.result.conflicts.append(conflict)

    def _patch(self, item: Outgoing) -> None:
        assert item.record is not None and item.guid is not None
        fresh = self.client.card(item.guid)
        if server_hash(fresh) != item.record.hash:
            self._conflict(item, fresh)
            return
        notes: list[str] = []
        if item.changes:
            body = self.resolved(item.body)
            try:
                self.client.patch_card(item.guid, body)
            except ServerError as error:
                raise self._refusal(error, fresh) from None
            after = self._check(item, body)
        else:
            after = fresh
        pending = item.record.pending
        if "artwork" in pending:
            after, pending = self._artwork(item, item.guid, after, notes)
        write_record(item.path, Record(self.result.server, after, pending))
        self.result.sent.append(
            Sent(item.label, "patched", item.guid, [c.key for c in item.changes], notes)
        )

    def _refusal(self, error: ServerError, card: dict[str, Any]) -> ServerError:
        """A server error that is a refusal in disguise: Aminduna's code answers a
        change of a Final card, or of another user's card, by a 500, not the 403 it
        means (its ``Forbid(reason)`` names an authentication scheme, which fails)."""
        if error.status is None or error.status < 500:
            return error
        status = _inner(card.get("status"), "name")
        creator = str(_inner(card.get("creator"), "guid") or "").lower()
        if status == "Final":
            reason = "Card is marked as final"
        elif self.user and creator and creator != self.user:
            reason = "This is not your card"
        else:
            return error
        return Forbidden(
            error.host,
            error.status,
            f"{reason} (the server answered {error.status}, which is how this Aminduna "
            "version refuses it)",
        )

    def _check(self, item: Outgoing, body: dict[str, Any]) -> dict[str, Any]:
        """The card as the server holds it after a write, which must be what was sent."""
        guid = str(body.get("guid") or item.guid)
        after = self.client.card(guid)
        for change in item.changes:
            sent, held = body.get(change.key), after.get(change.key)
            if change.key == "status":  # a reference: the server adds its id
                sent, held = _inner(sent, "name"), _inner(held, "name")
            if _value(sent) != _value(held):
                raise ServerError(
                    self.client.host,
                    None,
                    f"the server did not keep the {change.key} sent; nothing more was sent",
                    item.label,
                )
        return after

    def _existing(self, item: Outgoing) -> dict[str, Any] | None:
        """The server's translation of the card into the push's language, if any."""
        assert item.source is not None
        master = item.source.guid
        found = self.client.search(
            {"masterCard": {"guid": master}, "language": {"languageCode": item.lang}}
        )
        found = [c for c in found if isinstance(c, dict) and c.get("guid")]
        if not found:
            return None
        found.sort(key=lambda c: str(c.get("lastModifiedTime") or ""), reverse=True)
        return self.client.card(str(found[0]["guid"]))

    def _create(self, item: Outgoing) -> None:
        existing = self._existing(item)
        action = "adopted"
        if existing is not None and not _same(existing, item.body):
            by = who_changed(existing) or "someone"
            self.result.skipped.append(
                Skipped(
                    item.label,
                    item.path,
                    f"the server already holds a {item.lang} translation of this card "
                    f"({existing.get('guid')}, by {by}): pull it, merge, and push again",
                    fails=True,
                )
            )
            return
        created = existing
        if created is None:
            created, action = self._post(item), "created"
        guid = str(created["guid"])
        self._link(item, created)
        notes: list[str] = []
        write_record(item.path, Record(self.result.server, created, ("artwork",)))
        after, pending = self._artwork(item, guid, self.client.card(guid), notes)
        write_record(item.path, Record(self.result.server, after, pending))
        fields = [c.key for c in item.changes]
        self.result.sent.append(Sent(item.label, action, guid, fields, notes))

    def _post(self, item: Outgoing) -> dict[str, Any]:
        """Create the card.  When the server may have made it without saying so, look
        for it before trying again, so that a cut connection never makes two cards; a
        server that gave no answer at all may still be making it: stop, and let the
        next push (which looks first) link it."""
        body = self.resolved(item.body)
        delays = self.client.retry_delays
        for attempt in range(CREATE_TRIES):
            try:
                return self.client.create_card(body)
            except Uncertain as error:
                if not error.finished:
                    raise ServerError(
                        self.client.host,
                        error.status,
                        f"{error.reason.split(';')[0]}: the server may still be creating "
                        "the card; push again in a while (a push looks for it first, "
                        "and links it rather than making another)",
                        item.label,
                    ) from None
                found = self._existing(item)
                if found is not None and _same(found, body):
                    return found
                if found is not None or attempt == CREATE_TRIES - 1:
                    raise error.about(item.label) from None
                self.client.pause(delays[min(attempt, len(delays) - 1)] if delays else 0)
        raise AssertionError("unreachable")

    def _link(self, item: Outgoing, created: dict[str, Any]) -> None:
        """Write the new card's guid into the translation file, and the status the
        server gave it when the file says none: then the file reads as a pull of the
        card would write it (only those lines change)."""
        path = Path(item.path)
        changes: dict[str, Any] = {"guid": str(created["guid"])}
        status = created.get("status")
        if not item.version.fields.get("status") and isinstance(status, dict):
            changes["status"] = status.get("name")
        content = read_text(path, MAX_CARD_FILE_BYTES, "card file")
        content = content.replace("\r\n", "\n").replace("\r", "\n")  # as a text file reads
        new = edit_card(item.version, content, changes).encode("utf-8")
        write_file(path, new, within=path.parent)

    def _artwork(
        self, item: Outgoing, guid: str, card: dict[str, Any], notes: list[str]
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Give a created translation its English card's artwork, as Aminduna's deck
        translator does (the artwork, never a rendered card), and have the server
        generate the card with it.  A failure leaves it pending for the next push."""
        assert item.source is not None
        try:
            data = self.client.artwork(item.source.guid)
            if data is None:
                notes.append("its English card has no artwork on the server to copy")
                return card, ()
            self.client.upload_artwork(guid, data)
            self.client.patch_card(guid, card, force_generation=True)
            return self.client.card(guid), ()
        except Forbidden:
            raise
        except ServerError as error:
            notes.append(f"artwork not copied yet ({error.reason}): the next push tries again")
            return card, ("artwork",)


def _same(server: dict[str, Any], body: dict[str, Any]) -> bool:
    """Whether the server's translation is the one this push sends (made by an earlier
    push that was cut off before it heard back)."""
    keys = ("firstName", "lastName", "subType", "info", "markdownText")
    return all(_value(server.get(k)) == _value(body.get(k)) for k in keys)


def push(
    client: Client | None,
    deck: str,
    lang: str,
    *,
    only: Sequence[str] = (),
    dry_run: bool = False,
    force: bool = False,
    include_unreviewed: bool = False,
    library_root: str | None = None,
    lint: Callable[[str, str, list[str]], list[Any]] | None = None,
    on_card: Callable[[Outgoing, int, int], None] | None = None,
    server: str | None = None,
    user: str | None = None,
) -> PushResult:
    """Push the translations of ``deck`` in ``lang``: plan, lint, then send card after
        card (nothing at all with ``dry_run``, which needs no client), telling ``on_card``
    each card as it starts (with how many were done before it, out of how many).  ``lint`` returns
        the lint errors of the files given (default: :func:`lint_errors`); ``user`` the
        guid of the user the client's token is for (to tell a refusal the server reports
        as an error)."""
    address = client.server if client is not None else server
    if address is None:
        raise UsageError("push needs a server")
    result, library = plan_push(
        deck,
        lang,
        address,
        only=only,
        include_unreviewed=include_unreviewed,
        library_root=library_root,
    )
    result.dry_run = dry_run
    result.forced = force
    if result.outgoing:
        check = lint or lint_errors
        result.lint_errors = check(deck, lang, [item.path for item in result.outgoing])
    if dry_run or result.blocked or not result.outgoing:
        return result
    assert client is not None
    sender = _Sender(client, result, Path(deck), library, user)
    for number, item in enumerate(result.outgoing):
        if on_card is not None:
            on_card(item, number, len(result.outgoing))
        try:
            sender.send(item)
        except ServerError as error:
            result.stopped = error if error.card else error.about(item.label)
            break
    result.requests = client.requests_sent
    return result


def lint_errors(deck: str, lang: str, paths: list[str]) -> list[Any]:
    """The lint errors (not warnings) on the files a push would send: the deck is
    linted whole, since some rules compare a card with the others."""
    from ..diagnostics import Severity  # noqa: PLC0415
    from ..lint.run import lint_paths  # noqa: PLC0415 - heavy; a dry run without cards skips it
    from ..typeset.overflow import overflowing  # noqa: PLC0415 - cheap: PR101's measure

    wanted = {str(Path(p).resolve()) for p in paths}
    result = lint_paths(deck, languages=[lang], fit=overflowing)
    return [
        f
        for f in result.findings
        if f.severity is Severity.ERROR and str(Path(f.path).resolve()) in wanted
    ]


__all__ = [
    "Change",
    "FieldVersions",
    "Outgoing",
    "PushResult",
    "Refused",
    "Sent",
    "Skipped",
    "apply",
    "check_language",
    "lint_errors",
    "new_translation",
    "plan_push",
    "push",
]
