"""A local stand-in for Aminduna, the Arcmage card database, for the tests of
``translator pull`` / ``translator push``.

Why a server and not a mock: the real one (ASP.NET Core on SQL Server, with Hangfire and
Inkscape behind it) cannot run here, and a mocked httpx would not exercise the client's real
sockets, time-outs, keep-alive connections and half-read answers. So this is a small HTTP
server on 127.0.0.1 that follows the routes and rules of the real one, as read from its code
(``wtactics/arcmage``: ``Arcmage.Server.Api/Controllers``, ``Assembler``, ``Arcmage.Model``,
``Arcmage.DAL/Repository.cs``) and from ``/work/shared/reference/aminduna-api.md``. Where the
two disagree the code wins, and the place says so.

Three things of the real server are copied on purpose because a client must cope with them:

* **What an answer leaves out depends on what Entity Framework happened to load.** The
  assemblers write a reference (type, faction, status, creator...) only when its navigation
  property is set, and EF sets it either because the query loaded it (``Include``,
  ``Reference().Load``) or because the same row is *tracked* by the request's context
  anyway (relationship fix-up; not in ``AsNoTracking`` queries). ``_tracked`` and
  ``_included`` model the two, per route, so the shapes match: a deck's cards have a type
  and a faction but no status, a search result has no artwork licence, a PATCH answer has
  no master card when the body did not send one.
* **Where the real server throws, it answers 500** (an empty body: there is no developer
  exception page in production): a PATCH body without ``serie``, a search with
  ``pageNumber`` 0, a POST without a card type (after saving the card!).
* **No concurrency check**: PATCH is last writer wins, whatever ``lastModifiedTime`` says.

Differences from the real server that are the brief's choice (``StandIn.real_errors = True``
turns them into what the code does, to test a client against both): a PATCH or upload of an
unknown card answers 404 (the real one dereferences null: 500); ``Forbid("Card is marked as
final")`` answers 403 with that text (ASP.NET Core takes the string as an authentication
scheme name and throws: 500); a malformed JSON body answers 400 (these controllers have no
``[ApiController]``, so the action runs with a null body and mostly throws: 500); ``GET
api/Cards`` answers the list (two unconstrained ``[HttpGet]`` actions share that route, which
endpoint routing refuses with an AmbiguousMatchException: 500).

Run by hand: ``python -m tests.aminduna_standin --port 8765 [--seed FILE.json] [--db FILE]``.
Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import hmac
import json
import re
import secrets
import signal
import socket
import socketserver
import sqlite3
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qsl, unquote, urlsplit

__all__ = ["FAULTS", "STATUS_GUIDS", "Logged", "StandIn", "load_seed", "main", "predefined_guid"]

# --------------------------------------------------------------------------------------
# Deterministic guids (Arcmage.Model/GuidUtility.cs, PredefinedGuids.cs)

#: GuidUtility.ArcmageDomainGuid, the namespace of every predefined guid.
ARCMAGE_NAMESPACE = uuid.UUID("c934dc24-9056-50a6-8151-6f15f7df9467")


def predefined_guid(*names: str) -> str:
    """``GuidUtility.Create`` chained: ``predefined_guid("Status", "Draft")`` is
    ``Create(Create("Status"), "Draft")``.

    GuidUtility is RFC 4122 §4.3 with SHA-1: it swaps .NET's mixed-endian Guid bytes to
    network order before hashing and back afterwards, so the guid's text is exactly what
    ``uuid.uuid5`` gives; the server's own code confirms it (its match bot hard-codes
    Creature as bc752e51-034a-56fa-a9b6-a4cb86049ec3, the web client Release Candidate as
    7dedc883-5dd2-5f17-b2a4-eaf04f7ad464)."""
    guid = ARCMAGE_NAMESPACE
    for name in names:
        guid = uuid.uuid5(guid, name)
    return str(guid)


#: (displayed name, PredefinedGuids key) of the rows Repository.FillPredefinedData makes.
_PREDEFINED: dict[str, tuple[tuple[str, str], ...]] = {
    "status": (("Draft", "Draft"), ("Release Candidate", "ReleaseCandidate"), ("Final", "Final")),
    "cardType": (
        ("None", "NoCardType"),
        ("Creature", "Creature"),
        ("Event", "Event"),
        ("Equipment", "Equipment"),
        ("Magic", "Magic"),
        ("Enchantment", "Enchantment"),
        ("City", "City"),
    ),
    "faction": (
        ("None", "NoFaction"),
        ("Gaian", "Gaian"),
        ("Dark Legion", "DarkLegion"),
        ("Red Banner", "RedBanner"),
        ("House of Nobles", "HouseOfNobles"),
        ("The Empire", "Empire"),
    ),
    "serie": (
        ("None", "NoSerie"),
        ("Rebirth", "Rebirth"),
        ("Enchanted Realm", "EnchantedRealm"),
        ("New Horizons", "NewHorizons"),
        ("Shadow Waves", "ShadowWaves"),
    ),
    "ruleSet": (("All", "AllRuleSets"), ("Awesome Rules Concept", "AwesomeRulesConcept")),
    # Licences are not predefined on the real server (an administrator adds them, with random
    # guids); the stand-in has the one Arcmage uses, with a guid of its own making.
    "license": (("CC BY-SA 4.0", "CC BY-SA 4.0"),),
}
#: The GuidUtility root of each kind ("License" is the stand-in's own).
_KIND_ROOT = {
    "status": "Status",
    "cardType": "CardType",
    "faction": "Faction",
    "serie": "Serie",
    "ruleSet": "RuleSet",
    "license": "License",
}
_LICENSE_TEXT = {
    "CC BY-SA 4.0": (
        "Creative Commons Attribution-ShareAlike 4.0 International",
        "https://creativecommons.org/licenses/by-sa/4.0/",
    ),
    "CC BY 4.0": (
        "Creative Commons Attribution 4.0 International",
        "https://creativecommons.org/licenses/by/4.0/",
    ),
    "CC0 1.0": (
        "Creative Commons Zero 1.0 Universal",
        "https://creativecommons.org/publicdomain/zero/1.0/",
    ),
}

STATUS_GUIDS: dict[str, str] = {
    name: predefined_guid("Status", key) for name, key in _PREDEFINED["status"]
}
FINAL_GUID = STATUS_GUIDS["Final"]
EMPTY_GUID = "00000000-0000-0000-0000-000000000000"

#: Card JSON key -> reference kind.
_CARD_REFS = {
    "type": "cardType",
    "faction": "faction",
    "serie": "serie",
    "ruleSet": "ruleSet",
    "status": "status",
    "artworkLicense": "license",
}
#: Where Repository.CreateCard starts a new card (before the body is patched in).
_CREATE_DEFAULTS = {
    "type": predefined_guid("CardType", "NoCardType"),
    "faction": predefined_guid("Faction", "NoFaction"),
    "serie": predefined_guid("Serie", "NoSerie"),
    "ruleSet": predefined_guid("RuleSet", "AllRuleSets"),
    "status": STATUS_GUIDS["Draft"],
}
JOIN_US = "arcmage.org - join us!"

#: The Card properties that CardAssembler.Patch copies as they come (missing -> null).
_CARD_STRINGS = (
    "name",
    "firstName",
    "lastName",
    "artist",
    "artworkLicensor",
    "ruleText",
    "flavorText",
    "subType",
    "cost",
    "attack",
    "defense",
    "info",
    "markdownText",
)
#: The references CardsController.Patch dereferences (``card.Serie.Guid``...).
_REQUIRED_REFS = ("serie", "faction", "type", "status", "ruleSet")
#: The fields whose change makes CardsController.Patch regenerate the card.
_LAYOUT_FIELDS = (
    "name",
    "firstName",
    "lastName",
    "artist",
    "subType",
    "cost",
    "loyalty",
    "attack",
    "defense",
    "info",
    "markdownText",
)

#: Rights (Arcmage.Model/Rights.cs) of each role, limited to the ones these routes check.
_RIGHTS: dict[str, frozenset[str]] = {
    "Administrator": frozenset(
        {
            "CreateCard",
            "EditCard",
            "AllowCardStatusChange",
            "AllowOthersCardEdit",
            "CreateDeck",
            "EditDeck",
            "AllowOthersDeckEdit",
        }
    ),
    "Developer": frozenset(
        {"CreateCard", "EditCard", "AllowOthersCardEdit", "CreateDeck", "EditDeck"}
        | {"AllowOthersDeckEdit"}
    ),
    "Contributer": frozenset({"CreateCard", "EditCard", "CreateDeck", "EditDeck"}),
    "Guest": frozenset(),  # no role: Rights.DefaultRights, which only view
}
_RIGHTS["ServiceUser"] = _RIGHTS["Administrator"]

#: Languages.GetLanguage: .NET's neutral cultures (NativeName); the real server knows all
#: of them, the stand-in a few. Unknown codes are shown as English (and stored as sent).
LANGUAGES = {
    "en": "English",
    "fr": "français",
    "eo": "Esperanto",
    "nl": "Nederlands",
    "de": "Deutsch",
    "es": "español",
    "it": "italiano",
}

#: Request bodies above this are refused with 413 (Kestrel's own limit is 30 MB, and the
#: real FileUpload route has none; the brief asks for a small one the tests can reach).
MAX_BODY = 5 * 1024 * 1024
#: The fault kinds ``StandIn.inject`` knows.
FAULTS = frozenset({"timeout", "500", "503", "close", "close-before", "malformed"})
#: The real JwtBearer handler allows five minutes of clock skew; the stand-in none, so that a
#: test can see a token expire within a second (``token_days`` tiny).
CLOCK_SKEW_SECONDS = 0.0
#: The PNG is made by a Hangfire job one minute after a layout change.
_GENERATION_DELAY_TICKS = 60 * 10_000_000

# --------------------------------------------------------------------------------------
# .NET time


_EPOCH_TICKS = 621_355_968_000_000_000  # DateTime(1970, 1, 1).Ticks


def _now_ticks() -> int:
    """DateTime.UtcNow.Ticks: 100 ns units since 0001-01-01."""
    return time.time_ns() // 100 + _EPOCH_TICKS


def net_datetime(ticks: int) -> str:
    """A DateTime as the server's Newtonsoft writes it: ISO 8601 without a zone (EF reads the
    column back with an unspecified kind) and ``.FFFFFFF`` fractions. The brief says seven
    digits; the code (Newtonsoft's default format) drops trailing zeros, and a deck dump of
    the real server shows it: "2016-08-17T17:29:55.26", "2016-04-22T16:11:48.583". A client
    must not assume a fixed width."""
    seconds, fraction = divmod(ticks, 10_000_000)
    moment = datetime(1, 1, 1) + timedelta(seconds=seconds)
    digits = f"{fraction:07d}".rstrip("0")
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{text}.{digits}" if digits else text


# --------------------------------------------------------------------------------------
# The request log and faults


@dataclass
class Logged:
    """One request as the stand-in received it; never a token or a password."""

    method: str
    path: str
    query: dict[str, str]
    body: Any  # parsed JSON, raw bytes, or None
    status: int  # 0 while unanswered, or when the connection was closed instead
    user: str | None  # the e-mail of the authenticated user
    fault: str | None
    authorization: bool  # whether an Authorization header was sent


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    kind: str
    times: int
    seconds: float


# --------------------------------------------------------------------------------------
# Answers and requests


class _Reply(Exception):
    """An HTTP answer. Routes return it, or raise it from deep inside (a 401, 403, or the
    500 where the real server would throw) as ASP.NET unwinds to its error status."""

    def __init__(
        self,
        status: int,
        body: bytes = b"",
        content_type: str | None = None,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.content_type = content_type
        self.headers = headers

    @classmethod
    def json(cls, value: Any, status: int = 200) -> _Reply:
        """Newtonsoft's compact output (Formatting.None; non-ASCII kept as is)."""
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return cls(status, body, "application/json; charset=utf-8")

    @classmethod
    def text(cls, status: int, text: str) -> _Reply:
        return cls(status, text.encode("utf-8"), "text/plain; charset=utf-8")


def _crash() -> _Reply:
    """What the real server answers where its code throws."""
    return _Reply(500)


@dataclass(frozen=True)
class _Auth:
    """What the JwtBearer handler made of the Authorization header."""

    valid: bool  # a token that the handler accepts
    user: dict[str, Any] | None  # its user (None: anonymous, or a token of an unknown user)
    challenge: str  # the WWW-Authenticate value of a 401 on an [Authorize] route


@dataclass
class _Call:
    method: str
    path: str
    query: dict[str, str]
    headers: Message
    body: bytes
    auth: _Auth


class _Closed(Exception):
    """The stand-in was stopped while a request was in flight."""


# --------------------------------------------------------------------------------------
# Model binding (Newtonsoft into the Card and CardSearchOptions classes)


class _BindError(Exception):
    """A value Newtonsoft cannot convert: ASP.NET then binds the whole body as null."""


_MISSING: Any = object()


def _field(obj: dict[str, Any], key: str) -> Any:
    """Newtonsoft matches property names exactly first, then ignoring case."""
    if key in obj:
        return obj[key]
    lowered = key.lower()
    return next((value for name, value in obj.items() if name.lower() == lowered), _MISSING)


def _as_string(value: Any) -> str | None:
    if value is _MISSING or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int | float):
        return str(value)
    raise _BindError


def _as_int(value: Any, default: int) -> int:
    if value is _MISSING:
        return default
    number = _as_optional_int(value)
    if number is None:
        raise _BindError  # null into a non-nullable int
    return number


def _as_optional_int(value: Any) -> int | None:
    if value is _MISSING or value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _BindError


def _as_bool(value: Any) -> bool:
    if value is _MISSING:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, int):
        return value != 0
    raise _BindError


def _parse_guid(value: Any) -> str | None:
    """Guid.Parse's forms (hyphens, braces, 32 digits) to the lower-case hyphenated one."""
    if not isinstance(value, str):
        return None
    try:
        return str(uuid.UUID(value.strip()))
    except ValueError:
        return None


def _as_guid(value: Any) -> str:
    if value is _MISSING:
        return EMPTY_GUID  # default(Guid): matches no row
    guid = _parse_guid(value)
    if guid is None:
        raise _BindError
    return guid


def _as_object(value: Any) -> dict[str, Any] | None:
    if value is _MISSING or value is None:
        return None
    if isinstance(value, dict):
        return value
    raise _BindError


def _bound_ref(value: Any) -> dict[str, Any] | None:
    """A reference object (``{"guid": ...}``) as bound: id, name and guid, or None."""
    obj = _as_object(value)
    if obj is None:
        return None
    return {
        "id": _as_int(_field(obj, "id"), 0),
        "name": _as_string(_field(obj, "name")),
        "guid": _as_guid(_field(obj, "guid")),
    }


@dataclass
class _BoundCard:
    """A Card body: the scalars CardAssembler.Patch copies, and the guids of the references
    it looks up (None where the body has no such object)."""

    fields: dict[str, Any]
    refs: dict[str, str | None]
    master: str | None


def _bind_card(data: Any) -> _BoundCard | None:
    if not isinstance(data, dict):
        return None
    try:
        fields: dict[str, Any] = {key: _as_string(_field(data, key)) for key in _CARD_STRINGS}
        fields["loyalty"] = _as_int(_field(data, "loyalty"), 0)
        language = _as_object(_field(data, "language"))
        code = _as_string(_field(language, "languageCode")) if language else None
        fields["languageCode"] = "en" if code is None else code  # LanguageCode ?? "en"
        refs = {}
        for key in _CARD_REFS:
            ref = _bound_ref(_field(data, key))
            refs[key] = None if ref is None else ref["guid"]
        master = _bound_ref(_field(data, "masterCard"))
    except _BindError:
        return None
    return _BoundCard(fields, refs, None if master is None else master["guid"])


@dataclass
class _SearchOptions:
    refs: dict[str, dict[str, Any]]  # cardType, faction, serie, ruleSet, status, masterCard
    language: dict[str, Any] | None
    cost: str | None = None
    loyalty: int | None = None
    search_name_only: bool = False
    search: str | None = None
    page_size: int = 0
    page_number: int = 0
    order_by: str | None = None
    reverse_order: bool = False

    def echo(self) -> dict[str, Any]:
        """The options as the answer's ``searchOptions`` (CardSearchOptions, base keys last)."""
        out: dict[str, Any] = {}
        if self.cost is not None:
            out["cost"] = self.cost
        for key in ("cardType", "faction", "serie", "ruleSet", "status"):
            if key in self.refs:
                out[key] = _echo_ref(key, self.refs[key])
        if self.language is not None:
            out["language"] = {k: v for k, v in self.language.items() if v is not None}
        if "masterCard" in self.refs:
            out["masterCard"] = _echo_ref("masterCard", self.refs["masterCard"])
        if self.loyalty is not None:
            out["loyalty"] = self.loyalty
        out["searchNameOnly"] = self.search_name_only
        if self.search is not None:
            out["search"] = self.search
        out.update(pageSize=self.page_size, pageNumber=self.page_number)
        if self.order_by is not None:
            out["orderBy"] = self.order_by
        out["reverseOrder"] = self.reverse_order
        return out


def _echo_ref(key: str, ref: dict[str, Any]) -> dict[str, Any]:
    """A bound reference re-serialized: its class's non-null defaults included (a Serie has
    an empty ``cards`` list, a Card ``loyalty`` 0 and ``isGenerated`` false)."""
    out: dict[str, Any] = {"id": ref["id"]}
    if ref["name"] is not None:
        out["name"] = ref["name"]
    if key == "serie":
        out["cards"] = []
    if key == "masterCard":
        out.update(loyalty=0, isGenerated=False)
    out["guid"] = ref["guid"]
    return out


def _bind_search(data: Any) -> _SearchOptions | None:
    if not isinstance(data, dict):
        return None
    try:
        refs = {}
        for key in ("cardType", "faction", "serie", "ruleSet", "status", "masterCard"):
            ref = _bound_ref(_field(data, key))
            if ref is not None:
                refs[key] = ref
        language = _as_object(_field(data, "language"))
        return _SearchOptions(
            refs=refs,
            language=None
            if language is None
            else {
                "name": _as_string(_field(language, "name")),
                "languageCode": _as_string(_field(language, "languageCode")),
            },
            cost=_as_string(_field(data, "cost")),
            loyalty=_as_optional_int(_field(data, "loyalty")),
            search_name_only=_as_bool(_field(data, "searchNameOnly")),
            search=_as_string(_field(data, "search")),
            page_size=_as_int(_field(data, "pageSize"), 0),
            page_number=_as_int(_field(data, "pageNumber"), 0),
            order_by=_as_string(_field(data, "orderBy")),
            reverse_order=_as_bool(_field(data, "reverseOrder")),
        )
    except _BindError:
        return None


# --------------------------------------------------------------------------------------
# What EF loaded: which references an answer carries

#: (kind, row id) -> whether the navigation property is set. Kinds: the reference kinds,
#: "user" (creator, lastModifiedBy) and "card" (masterCard).
_Shown = Callable[[str, int | None], bool]


def _nothing(kind: str, rid: int | None) -> bool:
    """A no-tracking query's second level: nothing loaded beyond its Includes."""
    return False


def _included(*kinds: str) -> _Shown:
    """An ``AsNoTracking`` query with ``Include``s: those navigations, whatever their row."""
    wanted = frozenset(kinds)
    return lambda kind, rid: rid is not None and kind in wanted


def _tracked(pairs: Iterable[tuple[str, int | None]]) -> _Shown:
    """A tracking context: a navigation is set when its row is tracked, whichever way it got
    there (a Reference().Load, a FindByGuid of the body's guid, the requesting user, another
    entity's Include), because EF fixes up relationships between tracked entities."""
    rows = frozenset((kind, rid) for kind, rid in pairs if rid is not None)
    return lambda kind, rid: (kind, rid) in rows


def _text_key(value: str | None) -> tuple[bool, str]:
    """SQL Server's case-insensitive collation, nulls first."""
    return (value is not None, (value or "").casefold())


def _culture_key(value: str | None) -> tuple[bool, str, str]:
    """LINQ to Objects' culture comparison (a deck's cards are sorted in memory): case
    folded, then lower case before upper case."""
    return (value is not None, (value or "").casefold(), (value or "").swapcase())


#: CardModel properties that CardSearch can order by (QueryHelper: string, int, DateTime
#: ones; a name that is not a property, or of another type, leaves the order alone).
_ORDER_STRINGS = {name.lower(): name for name in (*_CARD_STRINGS, "languageCode")}
_ORDER_NULL_STRINGS = frozenset({"layouttext", "layoutxml", "pngcreationjobid"})
_ORDER_NUMBERS = {
    "cardid": "id",
    "loyalty": "loyalty",
    "creatorid": "creator",
    "lastmodifiedbyid": "lastModifiedBy",
    "createtime": "createTime",
    "lastmodifiedtime": "lastModifiedTime",
}
_ORDER_NAMED = {
    "type": "cardType",
    "faction": "faction",
    "serie": "serie",
    "ruleset": "ruleSet",
    "status": "status",
    "artworklicense": "license",
}
_CARD_COLUMNS = (
    "id, guid, name, firstName, lastName, artist, artworkLicensor, ruleText, flavorText, "
    "subType, cost, loyalty, attack, defense, info, markdownText, languageCode, type, faction, "
    "serie, ruleSet, status, artworkLicense, masterCard, creator, lastModifiedBy, createTime, "
    "lastModifiedTime, generatedAt"
)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, guid TEXT UNIQUE NOT NULL, email TEXT NOT NULL, name TEXT,
    passwordMd5 TEXT NOT NULL, role TEXT NOT NULL, disabled INTEGER NOT NULL,
    verified INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS refs (
    kind TEXT NOT NULL, id INTEGER NOT NULL, guid TEXT NOT NULL, name TEXT, description TEXT,
    url TEXT, status INTEGER, PRIMARY KEY (kind, id), UNIQUE (kind, guid));
CREATE TABLE IF NOT EXISTS cards (
    id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, name TEXT,
    firstName TEXT, lastName TEXT, artist TEXT, artworkLicensor TEXT, ruleText TEXT,
    flavorText TEXT, subType TEXT, cost TEXT, loyalty INTEGER NOT NULL DEFAULT 0, attack TEXT,
    defense TEXT, info TEXT, markdownText TEXT, languageCode TEXT, type INTEGER,
    faction INTEGER, serie INTEGER, ruleSet INTEGER, status INTEGER, artworkLicense INTEGER,
    masterCard INTEGER, creator INTEGER, lastModifiedBy INTEGER, createTime INTEGER NOT NULL,
    lastModifiedTime INTEGER NOT NULL, generatedAt INTEGER NOT NULL DEFAULT 0, artwork BLOB);
CREATE TABLE IF NOT EXISTS decks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, name TEXT,
    languageCode TEXT, status INTEGER, creator INTEGER, lastModifiedBy INTEGER,
    createTime INTEGER NOT NULL, lastModifiedTime INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deckCards (
    id INTEGER PRIMARY KEY AUTOINCREMENT, deck INTEGER NOT NULL, card INTEGER NOT NULL,
    quantity INTEGER NOT NULL, guid TEXT NOT NULL);
"""

#: TemplateInfo (Repository.FillPredefinedCartTypes): the flags each type turns off.
_TEMPLATE_FLAGS = (
    "showName",
    "showType",
    "showGoldCost",
    "showLoyalty",
    "showText",
    "showAttack",
    "showDefense",
    "showDiscipline",
    "showArt",
    "showInfo",
)
_TEMPLATE_OFF = {
    "Creature": {"showDiscipline"},
    "City": {"showDiscipline", "showAttack"},
    "None": set(_TEMPLATE_FLAGS) - {"showName", "showType"},
}
_TEMPLATE_OFF_DEFAULT = {"showDiscipline", "showAttack", "showDefense"}  # events, magic...

_ROUTES: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (method, re.compile(pattern, re.IGNORECASE), name)
    for method, pattern, name in (
        ("POST", r"/api/Login", "_login"),
        ("GET", r"/api/Cards", "_list_cards"),
        ("POST", r"/api/Cards", "_create_card"),
        ("GET", r"/api/Cards/([^/]+)", "_get_card"),
        ("PATCH", r"/api/Cards/([^/]+)", "_patch_card"),
        ("GET", r"/api/Cards/([^/]+)/export", "_export"),
        ("POST", r"/api/CardSearch", "_search"),
        ("GET", r"/api/Decks/([^/]+)", "_get_deck"),
        ("GET", r"/api/Statuses", "_statuses"),
        ("POST", r"/api/FileUpload/([^/]+)", "_upload"),
    )
)
_LOGIN_PATH = re.compile(r"/api/Login/?", re.IGNORECASE)
#: ExportFormat's members in order (an enum binds from its name or its number).
_EXPORT_FORMATS: tuple[str, ...] = ("art", "png", "jpeg", "svg", "webp", "backpng", "backjpeg")
_EXPORT_FORMATS += ("backwebp", "backpdf", "backsvg", "pdf", "backgroundpng", "overlaysvg")
_EXPORT_FORMATS += ("zip", "tiles")


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _md5(text: str) -> str:
    """What the web and C# clients send as the password (Repository.GetMd5Hash)."""
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def _invariant_time(epoch: float) -> str:
    """DateTime.ToString(CultureInfo.InvariantCulture), as in JwtBearer's error text."""
    return datetime.fromtimestamp(epoch, UTC).strftime("%m/%d/%Y %H:%M:%S")


def _lifetime_problem(exp: Any, nbf: Any) -> str:
    """JwtBearer's description of a token out of its lifetime, or ""."""
    now = time.time()
    if not isinstance(exp, int | float):
        return "The token has no expiration"
    if exp + CLOCK_SKEW_SECONDS < now:
        return f"The token expired at '{_invariant_time(exp)}'"
    if isinstance(nbf, int | float) and nbf - CLOCK_SKEW_SECONDS > now:
        return f"The token is not valid before '{_invariant_time(nbf)}'"
    return ""


def _language(code: str | None) -> dict[str, str]:
    known = code if code in LANGUAGES else "en"
    return {"name": LANGUAGES[known], "languageCode": known}


def _loggable(path: str, body: bytes) -> Any:
    """A body for the log: parsed JSON, else the bytes; a login's password masked (and a
    login body that is not JSON not kept at all, as it may hold one)."""
    if not body:
        return None
    try:
        value: Any = json.loads(body)
    except (ValueError, RecursionError):
        value = body
    if not _LOGIN_PATH.fullmatch(path):
        return value
    if isinstance(value, dict):
        return {k: ("***" if k.lower() == "password" else v) for k, v in value.items()}
    return "***"


def _cut(body: bytes) -> bytes:
    """A body that is certainly not JSON: the real one cut in half."""
    half = body[: len(body) // 2]
    try:
        json.loads(half)
    except (ValueError, RecursionError):
        return half
    return b"{" + half


# --------------------------------------------------------------------------------------
# The stand-in


class StandIn:
    """An Aminduna stand-in on 127.0.0.1 with a random free port; state in SQLite."""

    def __init__(self, db: Path | None = None, *, token_days: float = 7.0, port: int = 0) -> None:
        #: "http://127.0.0.1:PORT/", set by start().
        self.url = ""
        #: Every HTTP request received, in the order received (appended before answering).
        self.requests: list[Logged] = []
        #: Answer 500 where the real server's code throws although the brief asks otherwise
        #: (see the module's docstring).
        self.real_errors = False
        self._token_days = token_days
        self._port = port
        self._key = secrets.token_bytes(32)  # per server: its tokens die with it
        self._lock = threading.RLock()  # around SQLite and the caches
        self._log_lock = threading.Lock()
        self._faults: list[_Fault] = []
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._refs: dict[tuple[str, int], dict[str, Any]] = {}
        self._users: dict[int, dict[str, Any]] = {}
        self._last_ticks = 0
        self._db: sqlite3.Connection | None = sqlite3.connect(
            str(db) if db else ":memory:", check_same_thread=False
        )
        self._db.row_factory = sqlite3.Row
        self._open()

    # ---- life cycle ------------------------------------------------------------------

    def start(self) -> StandIn:
        """Serve in a daemon thread."""
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.stand_in = self
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}/"
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},  # stop() waits for the loop to notice
            name="aminduna-standin",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close the listening socket, every open connection, and the database."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        with self._log_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- seeding and inspecting --------------------------------------------------------

    def add_user(
        self,
        email: str,
        password: str,
        *,
        name: str,
        role: str = "Contributer",
        disabled: bool = False,
        verified: bool = True,
    ) -> str:
        """A user (the password kept as the md5 hex the clients send); returns its guid."""
        if role not in _RIGHTS:
            raise ValueError(f"unknown role {role!r}: use one of {', '.join(sorted(_RIGHTS))}")
        with self._lock:
            if self._user_by_email(email) is not None:
                raise ValueError(f"a user with the e-mail {email!r} exists already")
            guid = str(uuid.uuid4())
            self._write(
                "INSERT INTO users (guid, email, name, passwordMd5, role, disabled, verified) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guid, email, name, _md5(password), role, int(disabled), int(verified)),
            )
            self._load_users()
        return guid

    def add_card(self, card: dict[str, Any], *, creator: str) -> dict[str, Any]:
        """A card already on the server (generated long ago). References are resolved by
        guid or by name (series, rule sets, licences, types and factions not known yet are
        added); the guid is kept when given. Returns the card as GET api/Cards/{guid}."""
        with self._lock:
            user = self._require_user(creator)
            guid = _parse_guid(card.get("guid")) or str(uuid.uuid4())
            if self._card_by_guid(guid) is not None:
                raise ValueError(f"a card with the guid {guid} exists already")
            refs = {
                key: self._resolve(kind, card.get(key), key) for key, kind in _CARD_REFS.items()
            }
            body = {**card, **{key: {"guid": g} for key, g in refs.items() if g}}
            if isinstance(card.get("language"), str):
                body["language"] = {"languageCode": card["language"]}
            bound = _bind_card(body)
            if bound is None:
                raise ValueError(f"the card {card.get('name')!r} has a field of the wrong type")
            master = self._master_id(card.get("masterCard"))
            ticks = self._bump()
            columns = {
                **bound.fields,
                **{key: self._ref_id(kind, refs[key]) for key, kind in _CARD_REFS.items()},
                "guid": guid,
                "masterCard": master,
                "creator": user["id"],
                "lastModifiedBy": user["id"],
                "createTime": ticks,
                "lastModifiedTime": ticks,
            }
            self._insert("cards", columns)
        return self.card(guid)

    def add_deck(
        self,
        name: str,
        cards: list[tuple[str, int]],
        *,
        creator: str,
        language: str = "en",
        guid: str | None = None,
    ) -> str:
        """A deck of (card guid, quantity); returns its guid."""
        with self._lock:
            user = self._require_user(creator)
            deck_guid = _parse_guid(guid) or str(uuid.uuid4())
            rows = [(self._require_card(card_guid), quantity) for card_guid, quantity in cards]
            ticks = self._bump()
            deck_id = self._insert(
                "decks",
                {
                    "guid": deck_guid,
                    "name": name,
                    "languageCode": language,
                    "creator": user["id"],
                    "lastModifiedBy": user["id"],
                    "createTime": ticks,
                    "lastModifiedTime": ticks,
                },
            )
            for row, quantity in rows:
                self._insert(
                    "deckCards",
                    {
                        "deck": deck_id,
                        "card": row["id"],
                        "quantity": quantity,
                        "guid": str(uuid.uuid4()),
                    },
                )
        return deck_guid

    def card(self, guid: str) -> dict[str, Any]:
        """The card as GET api/Cards/{guid} returns it (KeyError when there is none)."""
        with self._lock:
            return self._card_answer(self._require_card(guid))

    def cards(self) -> list[dict[str, Any]]:
        """Every card as GET api/Cards/{guid} returns it, in creation order."""
        with self._lock:
            return [self._card_answer(row) for row in self._all_cards()]

    def edit_card(self, guid: str, changes: dict[str, Any], *, by: str) -> dict[str, Any]:
        """Another user's edit on the server, as that user's PATCH would make it: ``changes``
        (camelCase keys; references by guid or name) merged into the current card; rights
        are not checked and nothing is logged."""
        with self._lock:
            user = self._require_user(by)
            row = self._require_card(guid)
            merged = {**self._card_answer(row), **changes}
            for key, kind in _CARD_REFS.items():
                if key in changes and changes[key] is not None:
                    merged[key] = {"guid": self._resolve(kind, changes[key], key)}
            bound = _bind_card(merged)
            if bound is None:
                raise ValueError("a change has a value of the wrong type for its field")
            missing = [key for key in _REQUIRED_REFS if bound.refs[key] is None]
            if missing:
                raise ValueError(f"a PATCH without {', '.join(missing)} crashes the real server")
            self._apply_patch(row, bound, user, force=False)
            return self._card_answer(self._require_card(guid))

    def set_artwork(self, guid: str, data: bytes) -> None:
        """The card's uploaded artwork (art.png), as FileUpload stores it."""
        with self._lock:
            row = self._require_card(guid)
            self._write("UPDATE cards SET artwork = ? WHERE id = ?", (data, row["id"]))

    def clear_log(self) -> None:
        with self._log_lock:
            self.requests.clear()

    def clear_faults(self) -> None:
        """Forget the faults still to come: the server works again."""
        with self._log_lock:
            self._faults.clear()

    def inject(
        self, method: str, path: str, fault: str, *, times: int = 1, seconds: float = 5.0
    ) -> None:
        """Make the next ``times`` requests of ``method`` whose path (without the query)
        fully matches the regular expression ``path`` fail:

        * "timeout": wait ``seconds``, then do the work and answer (to a client long gone);
        * "500", "503": answer that status with a short text, and do nothing;
        * "close": do the work, send the headers (the full Content-Length) and half the
          body, then hang up: the change is made but the client cannot know it;
        * "close-before": hang up without answering, and do nothing;
        * "malformed": do the work, answer 200 "application/json" with half the body.

        Faults are logged like any request, with ``Logged.fault`` set."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}: use one of {', '.join(sorted(FAULTS))}")
        with self._log_lock:
            self._faults.append(_Fault(method.upper(), re.compile(path), fault, times, seconds))

    # ---- the database ----------------------------------------------------------------

    def _open(self) -> None:
        """The schema and the predefined rows (kept when the database file has them)."""
        with self._lock:
            db = self._require_db()
            db.executescript(_SCHEMA)
            self._load_refs()
            for kind, rows in _PREDEFINED.items():
                for name, key in rows:
                    self._ensure_ref(kind, name, predefined_guid(_KIND_ROOT[kind], key))
            self._load_users()
            latest = db.execute(
                "SELECT MAX(t) FROM (SELECT MAX(lastModifiedTime) AS t FROM cards "
                "UNION ALL SELECT MAX(lastModifiedTime) FROM decks)"
            ).fetchone()[0]
            self._last_ticks = latest or 0

    def _require_db(self) -> sqlite3.Connection:
        if self._db is None:
            raise _Closed
        return self._db

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return [dict(row) for row in self._require_db().execute(sql, params)]

    def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        db = self._require_db()
        cursor = db.execute(sql, params)
        db.commit()
        return cursor.lastrowid or 0

    def _insert(self, table: str, columns: dict[str, Any]) -> int:
        """An INSERT of ``columns`` (names are this module's constants, never input)."""
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        return self._write(
            f"INSERT INTO {table} ({names}) VALUES ({marks})", list(columns.values())
        )

    def _load_refs(self) -> None:
        self._refs = {(row["kind"], row["id"]): row for row in self._rows("SELECT * FROM refs")}

    def _load_users(self) -> None:
        self._users = {row["id"]: row for row in self._rows("SELECT * FROM users")}

    def _ensure_ref(self, kind: str, name: str, guid: str) -> int:
        """The row of ``kind`` with this guid, made if missing (series and rule sets are
        created with the Draft status, as Repository.CreateSeries/CreateRuleSet do)."""
        existing = self._ref_id(kind, guid)
        if existing is not None:
            return existing
        rid = 1 + max((r for k, r in self._refs if k == kind), default=0)
        status = (
            self._ref_id("status", STATUS_GUIDS["Draft"]) if kind in ("serie", "ruleSet") else None
        )
        description, url = (
            _LICENSE_TEXT.get(name, (None, None)) if kind == "license" else (None, None)
        )
        self._insert(
            "refs",
            {
                "kind": kind,
                "id": rid,
                "guid": guid,
                "name": name,
                "description": description,
                "url": url,
                "status": status,
            },
        )
        self._load_refs()
        return rid

    def _ref_id(self, kind: str, guid: str | None) -> int | None:
        """FindByGuidAsync: the row id, or None (a null or unknown guid)."""
        if guid is None:
            return None
        return next(
            (r for (k, r), row in self._refs.items() if k == kind and row["guid"] == guid), None
        )

    def _resolve(self, kind: str, value: Any, key: str) -> str | None:
        """A seeding reference (a name, ``{"name"}`` or ``{"guid"}``) to a guid; unknown
        names are added, except statuses (only three exist, and Final has rules)."""
        if value is None:
            return _CREATE_DEFAULTS.get(key)
        if not isinstance(value, str | dict):
            raise ValueError(f"the {key} {value!r} is neither a name nor an object")
        name = value if isinstance(value, str) else value.get("name")
        guid = None if isinstance(value, str) else _parse_guid(value.get("guid"))
        if guid is not None:
            if self._ref_id(kind, guid) is None:
                raise ValueError(f"no {kind} with the guid {guid}")
            return guid
        if not isinstance(name, str):
            raise ValueError(f"the {key} {value!r} has neither a guid nor a name")
        rows = [row for (k, _), row in self._refs.items() if k == kind]
        found = next((r for r in rows if r["name"] == name), None) or next(
            (r for r in rows if (r["name"] or "").casefold() == name.casefold()), None
        )
        if found is not None:
            return str(found["guid"])
        if kind == "status":
            raise ValueError(f"unknown status {name!r}: use one of {', '.join(STATUS_GUIDS)}")
        guid = predefined_guid(_KIND_ROOT[kind], name)
        self._ensure_ref(kind, name, guid)
        return guid

    def _master_id(self, value: Any) -> int | None:
        if value is None:
            return None
        guid = value.get("guid") if isinstance(value, dict) else value
        return int(self._require_card(str(guid))["id"])

    def _user_by_email(self, email: str | None) -> dict[str, Any] | None:
        """SQL Server's case-insensitive collation: e-mails match whatever their case."""
        if email is None:
            return None
        wanted = email.casefold()
        return next((u for u in self._users.values() if u["email"].casefold() == wanted), None)

    def _user_by_guid(self, guid: str | None) -> dict[str, Any] | None:
        wanted = _parse_guid(guid)
        return next((u for u in self._users.values() if u["guid"] == wanted), None)

    def _require_user(self, email: str) -> dict[str, Any]:
        user = self._user_by_email(email)
        if user is None:
            raise ValueError(f"no user with the e-mail {email!r}: add_user it first")
        return user

    def _card_by_guid(self, guid: str | None) -> dict[str, Any] | None:
        normal = _parse_guid(guid)
        if normal is None:
            return None
        rows = self._rows(f"SELECT {_CARD_COLUMNS} FROM cards WHERE guid = ?", (normal,))
        return rows[0] if rows else None

    def _card_by_id(self, card_id: int) -> dict[str, Any]:
        return self._rows(f"SELECT {_CARD_COLUMNS} FROM cards WHERE id = ?", (card_id,))[0]

    def _require_card(self, guid: str) -> dict[str, Any]:
        row = self._card_by_guid(guid)
        if row is None:
            raise KeyError(f"no card with the guid {guid!r}")
        return row

    def _all_cards(self) -> list[dict[str, Any]]:
        return self._rows(f"SELECT {_CARD_COLUMNS} FROM cards ORDER BY id")

    def _bump(self) -> int:
        """DateTime.UtcNow for a write, strictly later than every earlier write."""
        self._last_ticks = max(_now_ticks(), self._last_ticks + 1)
        return self._last_ticks

    # ---- JSON as the assemblers build it ------------------------------------------------

    def _user_json(self, user_id: int) -> dict[str, Any]:
        """UserAssembler.FromDal. The real one also writes id, email (!), isVerified,
        isDisabled, createTime, lastLoginTime and empty cards/decks/rights lists, even to
        anonymous callers; the stand-in keeps to guid and name so that no test (and no card
        library) comes to depend on anyone's e-mail address."""
        user = self._users[user_id]
        out: dict[str, Any] = {"guid": user["guid"]}
        if user["name"] is not None:
            out["name"] = user["name"]
        return out

    def _ref_json(
        self, kind: str, rid: int, nested: _Shown, *, template: bool = False
    ) -> dict[str, Any]:
        """Status/Faction/CardType/Serie/RuleSet/License FromDal: id, name, extras, guid."""
        row = self._refs[(kind, rid)]
        out: dict[str, Any] = {"id": rid}
        if row["name"] is not None:
            out["name"] = row["name"]
        if kind == "cardType" and template:
            out["templateInfo"] = self._template_info(rid)
        if kind == "license":
            out.update({k: row[k] for k in ("description", "url") if row[k] is not None})
        if kind == "serie":
            out["cards"] = []  # Serie's constructor makes the list; Newtonsoft writes it
        if kind in ("serie", "ruleSet") and row["status"] and nested("status", row["status"]):
            out["status"] = self._ref_json("status", row["status"], _nothing)
        out["guid"] = row["guid"]
        return out

    def _template_info(self, type_id: int) -> dict[str, Any]:
        name = self._refs[("cardType", type_id)]["name"]
        off = _TEMPLATE_OFF.get(name, _TEMPLATE_OFF_DEFAULT)
        out: dict[str, Any] = {"id": type_id}
        out.update({flag: flag not in off for flag in _TEMPLATE_FLAGS})
        out.update(maxTextBoxWidth=190.0, maxTextBoxHeight=105.0)
        out["guid"] = predefined_guid("TemplateInfo", name)  # random on the real server
        return out

    def _put_base(self, out: dict[str, Any], row: dict[str, Any], shown: _Shown) -> None:
        """Base's keys, last (Newtonsoft writes a base class's properties after the derived
        class's): guid, creator, createTime, lastModifiedBy, lastModifiedTime."""
        out["guid"] = row["guid"]
        if shown("user", row["creator"]):
            out["creator"] = self._user_json(row["creator"])
        out["createTime"] = net_datetime(row["createTime"])
        if shown("user", row["lastModifiedBy"]):
            out["lastModifiedBy"] = self._user_json(row["lastModifiedBy"])
        out["lastModifiedTime"] = net_datetime(row["lastModifiedTime"])

    def _card_json(
        self,
        card: dict[str, Any],
        shown: _Shown,
        *,
        master: bool,
        nested: _Shown,
        template: bool = False,
    ) -> dict[str, Any]:
        """CardAssembler.FromDal(includeMasterCard): Card.cs's keys in order, nulls left out;
        a reference only where ``shown`` says EF set it."""
        guid, ticks = card["guid"], card["lastModifiedTime"]
        export = f"/api/Cards/{guid}/export?format="
        out: dict[str, Any] = {"id": card["id"]}

        def put(*keys: str) -> None:
            out.update({key: card[key] for key in keys if card[key] is not None})

        def ref(*keys: str) -> None:
            for key in keys:
                kind, rid = _CARD_REFS[key], card[key]
                if rid is not None and shown(kind, rid):
                    out[key] = self._ref_json(kind, rid, nested, template=template)

        put("name", "firstName", "lastName", "artist", "artworkLicensor")
        ref("artworkLicense")
        put("ruleText", "flavorText", "subType")
        ref("type", "faction", "status")
        put("cost", "loyalty", "attack", "defense", "info")
        ref("serie", "ruleSet")
        out["artwork"] = f"{export}Art&modified={ticks}"
        put("markdownText")
        out.update(
            svg=f"{export}Svg&modified={ticks}",
            png=f"{export}Png&modified={ticks}",
            jpeg=f"/arcmage/Cards/{guid}/card.jpg",
            pdf=f"{export}Pdf&modified={ticks}",
            webp=f"/arcmage/Cards/{guid}/card.webp",
        )
        out.update({f"back{part}": f"{export}Back{part}" for part in ("Svg", "Png", "Jpeg")})
        out.update({f"back{part}": f"{export}Back{part}" for part in ("Pdf", "Webp")})
        out["isGenerated"] = card["generatedAt"] <= _now_ticks()
        if "faction" in out and "type" in out:
            out["backgroundPng"] = (
                f"{export}BackgroundPng&faction={out['faction']['guid']}&type={out['type']['guid']}"
            )
        out["overlaySvg"] = f"{export}OverlaySvg&modified={ticks}"
        out["language"] = _language(card["languageCode"])
        if master and card["masterCard"] is not None and shown("card", card["masterCard"]):
            master_row = self._card_by_id(card["masterCard"])
            out["masterCard"] = self._card_json(master_row, nested, master=False, nested=nested)
        self._put_base(out, card, shown)
        return out

    def _card_answer(self, card: dict[str, Any]) -> dict[str, Any]:
        """GET api/Cards/{id}: FindByGuid, then Reference().Load of each navigation, in one
        tracking context; the master card's own references show where they are the same rows
        as the card's (a translation shares its faction, type and serie...)."""
        loaded = [(kind, card[key]) for key, kind in _CARD_REFS.items()]
        loaded += [("card", card["masterCard"]), ("user", card["creator"])]
        loaded.append(("user", card["lastModifiedBy"]))
        shown = _tracked(loaded)
        return self._card_json(card, shown, master=True, nested=shown)

    # ---- authentication ---------------------------------------------------------------

    def _token(self, user_guid: str) -> str:
        """TokenGenerator.CreateToken: HS256, ClaimTypes.Name written as ``unique_name``."""
        now = int(time.time())
        header = {"alg": "HS256", "typ": "JWT"}
        payload = {
            "unique_name": user_guid,
            "nbf": now,
            "exp": int(time.time() + self._token_days * 86400),
            "iat": now,
        }
        signing = ".".join(
            _b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, payload)
        )
        signature = hmac.new(self._key, signing.encode("ascii"), hashlib.sha256).digest()
        return f"{signing}.{_b64url(signature)}"

    def _check_token(self, token: str) -> tuple[str | None, str]:
        """(the user guid, "") for a valid token, else (None, the 401's WWW-Authenticate),
        with JwtBearer's error descriptions."""
        invalid = 'Bearer error="invalid_token"'
        decoded = self._decode_token(token)
        if decoded is None:
            return None, invalid
        header, payload, signed = decoded
        if header.get("alg") != "HS256" or not signed:
            return None, f'{invalid}, error_description="The signature is invalid"'
        problem = _lifetime_problem(payload.get("exp"), payload.get("nbf"))
        if problem:
            return None, f'{invalid}, error_description="{problem}"'
        guid = payload.get("unique_name")
        return (guid, "") if isinstance(guid, str) else (None, invalid)

    def _decode_token(self, token: str) -> tuple[dict[str, Any], dict[str, Any], bool] | None:
        """(header, payload, whether the signature is this server's), or None: not a JWS."""
        parts = token.split(".")
        if len(parts) != 3:
            return None
        try:
            header, payload = (json.loads(_unb64url(part)) for part in parts[:2])
            signature = _unb64url(parts[2])
        except ValueError:
            return None
        if not isinstance(header, dict) or not isinstance(payload, dict):
            return None
        signing = f"{parts[0]}.{parts[1]}".encode("ascii", "replace")
        expected = hmac.new(self._key, signing, hashlib.sha256).digest()
        return header, payload, hmac.compare_digest(signature, expected)

    def _authenticate(self, headers: Message) -> _Auth:
        """The JwtBearer handler: no "Bearer" header is anonymous; a bad token is anonymous
        too on [AllowAnonymous] routes and a 401 on [Authorize] ones."""
        value = headers.get("Authorization") or ""
        token = value[7:].strip() if value[:7].lower() == "bearer " else ""
        if not token:
            return _Auth(False, None, "Bearer")
        guid, challenge = self._check_token(token)
        if guid is None:
            return _Auth(False, None, challenge)
        with self._lock:
            return _Auth(True, self._user_by_guid(guid), "Bearer")

    @staticmethod
    def _authorize(call: _Call) -> dict[str, Any] | None:
        """[Authorize]: the user, or None for a valid token of an unknown user (who then has
        only the default rights)."""
        if not call.auth.valid:
            raise _Reply(401, headers=(("WWW-Authenticate", call.auth.challenge),))
        return call.auth.user

    @staticmethod
    def _rights(user: dict[str, Any] | None) -> frozenset[str]:
        return _RIGHTS[user["role"]] if user else _RIGHTS["Guest"]

    def _forbid(self, message: str) -> _Reply:
        """``return Forbid("...")`` (see the module's docstring)."""
        return _crash() if self.real_errors else _Reply.text(403, message)

    def _unknown_card(self) -> _Reply:
        """A PATCH or upload of a guid with no card: the real code dereferences null."""
        return _crash() if self.real_errors else _Reply(404)

    def _json_body(self, call: _Call, *, null_when_bad: bool = False) -> Any:
        """[FromBody]: the parsed body, None when empty; 415 for a type Newtonsoft's input
        formatter does not read; 400 when not JSON (the real server binds null instead:
        ``null_when_bad`` or ``real_errors``)."""
        if not call.body.strip():
            return None
        media = (call.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if media not in ("application/json", "text/json") and not (
            media.startswith("application/") and media.endswith("+json")
        ):
            raise _Reply(415)
        try:
            return json.loads(call.body)
        except (ValueError, RecursionError):
            if null_when_bad or self.real_errors:
                return None
            raise _Reply.text(400, "The request body is not valid JSON.") from None

    # ---- the routes -------------------------------------------------------------------

    def _dispatch(self, call: _Call) -> _Reply:
        path = call.path.rstrip("/") or "/"
        for method, pattern, name in _ROUTES:
            match = pattern.fullmatch(path)
            if match and method == call.method:
                try:
                    with self._lock:
                        result: _Reply = getattr(self, name)(call, *match.groups())
                        return result
                except _Reply as reply:
                    return reply
        return _Reply(404)

    def _login(self, call: _Call) -> _Reply:
        """LoginController.Post. The stored password is the md5 hex the clients send; a
        plain password is accepted too (the real server accepts one only when it was stored
        plain, and then hashes it; here it lets curl and a browser log in by hand)."""
        data = self._json_body(call, null_when_bad=True)
        try:
            login = (
                None
                if not isinstance(data, dict)
                else (_as_string(_field(data, "email")), _as_string(_field(data, "password")))
            )
        except _BindError:
            login = None
        if login is None:
            return _Reply.json("No login info", 400)
        email, password = login
        incorrect = _Reply.json({"message": "Username or password is incorrect"}, 400)
        user = self._user_by_email(email)
        if user is None:
            return incorrect
        if user["disabled"] or not user["verified"]:
            return _Reply.json({"message": "Login failed"}, 400)
        stored = user["passwordMd5"]
        sent = password or ""
        if not (hmac.compare_digest(sent, stored) or hmac.compare_digest(_md5(sent), stored)):
            return incorrect
        return _Reply.json(self._token(user["guid"]))

    def _list_cards(self, call: _Call) -> _Reply:
        """GET api/Cards?search=: the 100 last modified (name or creator name containing
        ``search``), AsNoTracking with every navigation Included (so the master card comes
        bare: no references of its own)."""
        if self.real_errors:
            return _crash()  # AmbiguousMatchException: Get(search) and GetForUser(userId)
        search = call.query.get("search")
        cards = self._all_cards()
        if search is not None and search.strip():
            needle = search.casefold()
            cards = [
                c
                for c in cards
                if needle in (c["name"] or "").casefold()
                or needle in (self._users[c["creator"]]["name"] or "").casefold()
            ]
        cards.sort(key=lambda c: c["lastModifiedTime"], reverse=True)
        shown = _included(*_CARD_REFS.values(), "card", "user")
        items = [self._card_json(c, shown, master=True, nested=_nothing) for c in cards[:100]]
        return _Reply.json({"items": items, "totalItems": len(items)})

    def _get_card(self, call: _Call, guid: str) -> _Reply:
        card = self._card_by_guid(guid)
        if card is None:
            return _Reply(404)
        return _Reply.json(self._card_answer(card))

    def _statuses(self, call: _Call) -> _Reply:
        ids = sorted(r for k, r in self._refs if k == "status")
        items = [self._ref_json("status", rid, _nothing) for rid in ids]
        return _Reply.json({"items": items, "totalItems": len(items)})

    def _search(self, call: _Call) -> _Reply:
        """CardSearchController.Post: filters, count, order, then the clamped page; FromDal
        without the master card, and without the artwork licence (not Included)."""
        options = _bind_search(self._json_body(call))
        if options is None:
            return _crash()
        cards = [card for card in self._all_cards() if self._search_matches(card, options)]
        total = len(cards)
        order_by = options.order_by if options.order_by and options.order_by.strip() else "Name"
        order_by = "LanguageCode" if order_by == "Language" else order_by
        options.order_by = order_by  # echoed as changed
        key = self._order_key(order_by)
        if key is not None:
            cards.sort(key=key, reverse=options.reverse_order)  # stable: ties by id
        options.page_size = max(10, min(50, options.page_size))
        if options.page_number < 1:
            return _crash()  # Skip() of a negative count: SQL Server refuses the OFFSET
        start = (options.page_number - 1) * options.page_size
        shown = _included("ruleSet", "serie", "card", "faction", "status", "cardType", "user")
        items = [
            self._card_json(card, shown, master=False, nested=_nothing)
            for card in cards[start : start + options.page_size]
        ]
        return _Reply.json({"items": items, "totalItems": total, "searchOptions": options.echo()})

    def _guid_of(self, card: dict[str, Any], key: str) -> str | None:
        """The guid of the card's reference ``key`` (a CardSearchOptions key)."""
        column = "type" if key == "cardType" else key
        rid = card[column]
        if rid is None:
            return None
        if key == "masterCard":
            return str(self._card_by_id(rid)["guid"])
        return str(self._refs[(_CARD_REFS[column], rid)]["guid"])

    def _search_matches(self, card: dict[str, Any], options: _SearchOptions) -> bool:
        if any(self._guid_of(card, key) != ref["guid"] for key, ref in options.refs.items()):
            return False
        cost = options.cost
        if cost is not None and (card["cost"] or "\0").lower() != cost.lower():
            return False
        if options.loyalty is not None and card["loyalty"] != options.loyalty:
            return False
        if (
            options.language is not None
            and card["languageCode"] != options.language["languageCode"]
        ):
            return False
        return self._search_text_matches(card, options)

    def _search_text_matches(self, card: dict[str, Any], options: _SearchOptions) -> bool:
        search = options.search
        if search is None or not search.strip():
            return True
        fields = [card["name"]]
        if not options.search_name_only:
            fields += [self._users[card["creator"]]["name"], card["subType"], card["ruleText"]]
        needle = search.casefold()
        return any(needle in value.casefold() for value in fields if value is not None)

    def _order_key(self, order_by: str) -> Callable[[dict[str, Any]], Any] | None:
        """QueryHelper: a CardModel property (case-insensitive, "Faction.Name" paths)."""
        name = order_by.lower()
        if name in _ORDER_STRINGS:
            column = _ORDER_STRINGS[name]
            return lambda card: _text_key(card[column])
        if name in _ORDER_NULL_STRINGS:
            return lambda card: _text_key(None)  # LayoutText...: never set by the stand-in
        if name in _ORDER_NUMBERS:
            number = _ORDER_NUMBERS[name]
            return lambda card: card[number]
        head, _, tail = name.partition(".")
        return self._order_key_name(head) if tail == "name" else None

    def _order_key_name(self, head: str) -> Callable[[dict[str, Any]], Any] | None:
        """Ordering by a reference's name ("Faction.Name", "Creator.Name"...)."""
        if head in _ORDER_NAMED:
            kind = _ORDER_NAMED[head]
            column = (
                "type" if kind == "cardType" else "artworkLicense" if kind == "license" else kind
            )
            return lambda card: _text_key(
                None if card[column] is None else self._refs[(kind, card[column])]["name"]
            )
        if head in ("creator", "lastmodifiedby"):
            column = "creator" if head == "creator" else "lastModifiedBy"
            return lambda card: _text_key(self._users[card[column]]["name"])
        return None

    def _get_deck(self, call: _Call, guid: str) -> _Reply:
        """DecksController.Get(id), in a tracking context that loaded every faction and card
        type (so the deck's cards carry those two), the deck's creator and status, the
        requesting user and the cards (ThenInclude(Card), without their references). A card
        shows its status, creator or last modifier only when that row is one of those
        already tracked; never its serie, rule set, licence (not loaded) nor its master card
        (DeckCardAssembler calls FromDal() without includeMasterCard)."""
        normal = _parse_guid(guid)
        decks = self._rows("SELECT * FROM decks WHERE guid = ?", (normal,)) if normal else []
        if not decks:
            return _Reply(404)
        deck = decks[0]
        requester = call.auth.user if call.auth.valid else None
        links = self._rows("SELECT * FROM deckCards WHERE deck = ? ORDER BY id", (deck["id"],))
        cards = {link["card"]: self._card_by_id(link["card"]) for link in links}
        loaded: list[tuple[str, int | None]] = [
            key for key in self._refs if key[0] in ("faction", "cardType")
        ]
        loaded += [("user", deck["creator"]), ("status", deck["status"])]
        loaded += [("user", None if requester is None else requester["id"])]
        loaded += [("card", card_id) for card_id in cards]
        shown = _tracked(loaded)
        links.sort(key=lambda link: _culture_key(cards[link["card"]]["name"]))
        deck_cards = [
            {
                "id": 0,  # DeckCardAssembler never sets it (the server's own dumps show 0)
                "quantity": link["quantity"],
                "card": self._card_json(cards[link["card"]], shown, master=False, nested=shown),
                "guid": link["guid"],
            }
            for link in links
        ]
        return _Reply.json(self._deck_json(deck, deck_cards, requester, shown))

    def _deck_json(
        self,
        deck: dict[str, Any],
        deck_cards: list[dict[str, Any]],
        requester: dict[str, Any] | None,
        shown: _Shown,
    ) -> dict[str, Any]:
        guid, ticks = deck["guid"], deck["lastModifiedTime"]
        mine = requester is not None and requester["id"] == deck["creator"]
        rights = self._rights(requester)
        out: dict[str, Any] = {"id": deck["id"]}
        if deck["name"] is not None:
            out["name"] = deck["name"]
        out.update(
            language=_language(deck["languageCode"]),
            zip=f"/api/Decks/{guid}/export?format=Zip&modified={ticks}",
            txt=f"/arcmage/Decks/{guid}/deck.txt",
            exportTiles=False,
            generatePdf=False,
            isAvailable=False,
            isEditable=("EditDeck" if mine else "AllowOthersDeckEdit") in rights,
            isGenerated=False,
        )
        if deck["status"] is not None:
            out["status"] = self._ref_json("status", deck["status"], _nothing)
        out["deckCards"] = deck_cards
        out["totalCards"] = sum(entry["quantity"] for entry in deck_cards)
        self._put_base(out, deck, shown)
        return out

    def _create_card(self, call: _Call) -> _Reply:
        """CardsController.Post: Repository.CreateCard's defaults (no serie, All rules,
        Draft, no faction, no type, the join-us footer) under a new guid, then the body
        patched in. A body without a card type is saved and then answered 500 (the real code
        loads the type's TemplateInfo through a null)."""
        user = self._authorize(call)
        data = self._json_body(call)
        if "CreateCard" not in self._rights(user) or user is None:
            return _Reply(403)
        bound = _bind_card(data)
        if bound is None:
            return _crash()
        ticks = self._bump()
        defaults = {
            key: self._ref_id(_CARD_REFS[key], guid) for key, guid in _CREATE_DEFAULTS.items()
        }
        card_id = self._insert(
            "cards",
            {
                "guid": str(uuid.uuid4()),
                "name": bound.fields["name"],
                "info": JOIN_US,
                **defaults,
                "creator": user["id"],
                "lastModifiedBy": user["id"],
                "createTime": ticks,
                "lastModifiedTime": ticks,
            },
        )
        loaded = self._apply_patch(self._card_by_id(card_id), bound, user, force=True)
        if self._ref_id("cardType", bound.refs["type"]) is None:
            return _crash()
        shown = _tracked([*loaded, *((_CARD_REFS[k], rid) for k, rid in defaults.items())])
        card = self._card_by_id(card_id)
        return _Reply.json(self._card_json(card, shown, master=True, nested=shown, template=True))

    def _editable_card(
        self, user: dict[str, Any] | None, guid: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The checks PATCH and FileUpload share: the EditCard right (else 403, empty), the
        card, Final (unless AllowCardStatusChange), then ownership (unless
        AllowOthersCardEdit). Returns (user, card) or raises the answer."""
        rights = self._rights(user)
        if "EditCard" not in rights or user is None:
            raise _Reply(403)
        card = self._card_by_guid(guid)
        if card is None:
            raise self._unknown_card()
        final = self._refs[("status", card["status"])]["guid"] == FINAL_GUID
        if final and "AllowCardStatusChange" not in rights:
            raise self._forbid("Card is marked as final")
        if card["creator"] != user["id"] and "AllowOthersCardEdit" not in rights:
            raise self._forbid("This is not your card")
        return user, card

    def _patch_card(self, call: _Call, guid: str) -> _Reply:
        """CardsController.Patch: rights, Final, ownership, then the whole body patched in
        (see _apply_patch); no concurrency check."""
        user = self._authorize(call)
        data = self._json_body(call)
        user, card = self._editable_card(user, guid)
        bound = _bind_card(data)
        if bound is None or any(bound.refs[key] is None for key in _REQUIRED_REFS):
            return _crash()  # card.Serie.Guid... of a null
        force = call.query.get("forceGeneration", "").strip().lower() == "true"
        loaded = self._apply_patch(card, bound, user, force=force)
        if self._ref_id("cardType", bound.refs["type"]) is None:
            return _crash()  # saved, then TemplateInfo loaded through a null
        shown = _tracked(loaded)
        card = self._card_by_id(card["id"])
        return _Reply.json(self._card_json(card, shown, master=True, nested=shown))

    def _apply_patch(
        self, card: dict[str, Any], bound: _BoundCard, user: dict[str, Any], *, force: bool
    ) -> list[tuple[str, int | None]]:
        """CardAssembler.Patch and PatchBase: every scalar replaced by the body's (missing:
        null, loyalty 0, language "en"); a reference replaced only when the body's guid finds
        a row, so a missing or unknown licence or master card keeps the old one (and one
        cannot be removed). Returns the rows the request's context tracks afterwards."""
        found = {key: self._ref_id(kind, bound.refs[key]) for key, kind in _CARD_REFS.items()}
        master_row = self._card_by_guid(bound.master) if bound.master else None
        master = None if master_row is None else master_row["id"]
        layout = force or self._layout_changed(card, bound)
        columns = {**bound.fields, **{k: rid for k, rid in found.items() if rid is not None}}
        if master is not None:
            columns["masterCard"] = master
        columns.update(lastModifiedTime=self._bump(), lastModifiedBy=user["id"])
        if layout:
            columns["generatedAt"] = _now_ticks() + _GENERATION_DELAY_TICKS
        assignments = ", ".join(f"{name} = ?" for name in columns)
        self._write(f"UPDATE cards SET {assignments} WHERE id = ?", [*columns.values(), card["id"]])
        # Patch loads status, creator, faction, serie, type and licence (not the rule set,
        # not the master card), then finds the body's rows by guid.
        loaded: list[tuple[str, int | None]] = [("user", user["id"]), ("user", card["creator"])]
        loaded += [(kind, card[key]) for key, kind in _CARD_REFS.items() if key != "ruleSet"]
        loaded += [(kind, found[key]) for key, kind in _CARD_REFS.items()]
        loaded.append(("card", master))
        return loaded

    def _layout_changed(self, card: dict[str, Any], bound: _BoundCard) -> bool:
        if any(bound.fields[key] != card[key] for key in _LAYOUT_FIELDS):
            return True
        return any(
            bound.refs[key] != self._refs[(_CARD_REFS[key], card[key])]["guid"]
            for key in ("faction", "type")
        )

    def _export(self, call: _Call, guid: str) -> _Reply:
        """CardsController.Export. Only the artwork exists here (the stand-in renders
        nothing): other formats answer as a missing file does. ``format`` binds like an enum
        (any case, or its number); a missing or unknown one is Art, default(ExportFormat)."""
        value = call.query.get("format", "").strip().lower()
        index = int(value) if value.isdigit() else None
        fmt = (
            _EXPORT_FORMATS[index] if index is not None and index < len(_EXPORT_FORMATS) else value
        )
        card = self._card_by_guid(guid)
        art = None
        if card is not None and fmt not in _EXPORT_FORMATS[1:]:
            rows = self._rows("SELECT artwork FROM cards WHERE id = ?", (card["id"],))
            art = rows[0]["artwork"]
        if art is None:
            return _Reply.text(404, "The card with the specified id does not exist")
        disposition = "attachment; filename=art.png; filename*=UTF-8''art.png"
        return _Reply(200, bytes(art), "image/png", (("Content-Disposition", disposition),))

    def _upload(self, call: _Call, guid: str) -> _Reply:
        """FileUploadController.Upload: the same checks as a PATCH, then Request.Form.Files[0]
        saved as the card's art.png. The card's lastModifiedTime is not touched, so its
        ``artwork`` URL (``&modified=``) stays the same after an upload."""
        user = self._authorize(call)
        user, card = self._editable_card(user, guid)
        data = _first_file(call.headers.get("Content-Type") or "", call.body)
        if data is None:
            return _Reply.text(500, "Internal server error: no file in a multipart/form-data body")
        self._write("UPDATE cards SET artwork = ? WHERE id = ?", (data, card["id"]))
        return _Reply(200)

    # ---- serving helpers --------------------------------------------------------------

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        with self._log_lock:
            for fault in self._faults:
                if fault.method == method and fault.pattern.fullmatch(path):
                    fault.times -= 1
                    if fault.times <= 0:
                        self._faults.remove(fault)
                    return fault
        return None

    def _record(self, call: _Call) -> Logged:
        user = call.auth.user if call.auth.valid else None
        query = {
            k: ("***" if re.search("password|token", k, re.I) else v) for k, v in call.query.items()
        }
        entry = Logged(
            method=call.method,
            path=call.path,
            query=query,
            body=_loggable(call.path, call.body),
            status=0,
            user=None if user is None else user["email"],
            fault=None,
            authorization="Authorization" in call.headers,
        )
        with self._log_lock:
            self.requests.append(entry)
        return entry

    def _connection(self, connection: socket.socket, *, opened: bool) -> None:
        with self._log_lock:
            if opened:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)


def _header_param(name: str, value: str, param: str) -> str | None:
    header = Message()
    header[name] = value
    found = header.get_param(param, header=name)
    return found if isinstance(found, str) else None


def _first_file(content_type: str, body: bytes) -> bytes | None:
    """Request.Form.Files[0]: the first multipart part that has a file name. Split by hand
    on the boundary, so that binary content comes back byte for byte."""
    if not content_type.lower().startswith("multipart/form-data"):
        return None
    boundary = _header_param("Content-Type", content_type, "boundary")
    if not boundary:
        return None
    for part in (b"\r\n" + body).split(b"\r\n--" + boundary.encode("latin-1"))[1:]:
        if part.startswith(b"--"):
            break  # the closing delimiter
        head, separator, content = part.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")[1:]  # after the delimiter's line
        for line in lines if separator else []:
            name, _, value = line.partition(":")
            if (
                name.strip().lower() == "content-disposition"
                and _header_param("Content-Disposition", value.strip(), "filename") is not None
            ):
                return content
    return None


# --------------------------------------------------------------------------------------
# HTTP


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler asleep in a "timeout" fault must not hold up stop()
    stand_in: StandIn

    def server_bind(self) -> None:
        """HTTPServer's, without its reverse DNS look-up of 127.0.0.1 (slow on some hosts)."""
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive, like Kestrel, so that a client's connection pool, and the
    faults that break a connection in the middle of it, are real."""

    protocol_version = "HTTP/1.1"
    #: Headers and body leave in two writes: with Nagle's algorithm on, the body waits
    #: for the client's delayed ACK of the headers (40 ms a request on Linux), which a
    #: server sending each answer in one segment (Kestrel) does not make its clients wait.
    disable_nagle_algorithm = True
    server: _Server
    _CHUNK: ClassVar[int] = 64 * 1024

    def version_string(self) -> str:
        return "Kestrel"

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the stand-in keeps its own log (StandIn.requests)."""

    def setup(self) -> None:
        super().setup()
        self.server.stand_in._connection(self.connection, opened=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.stand_in._connection(self.connection, opened=False)

    def do_GET(self) -> None:
        try:
            self._serve()
        except (OSError, _Closed):
            self.close_connection = True

    do_POST = do_PATCH = do_PUT = do_DELETE = do_GET

    def _serve(self) -> None:
        stand_in = self.server.stand_in
        split = urlsplit(self.path)
        path = unquote(split.path)
        query = dict(parse_qsl(split.query, keep_blank_values=True))
        try:
            body, too_large = self._read_body()
        except ValueError:
            self.close_connection = True
            self._send(_Reply(400), None)
            return
        auth = stand_in._authenticate(self.headers)
        call = _Call(self.command, path, query, self.headers, body, auth)
        entry = stand_in._record(call)
        if too_large:
            entry.status = 413
            self._send(_Reply(413), None)
            return
        fault = stand_in._take_fault(self.command, path)
        kind = None if fault is None else fault.kind
        entry.fault = kind
        if kind == "close-before":
            self.close_connection = True
            return
        if kind in ("500", "503"):
            entry.status = int(kind)
            self._send(_Reply.text(int(kind), f"injected {kind} (aminduna stand-in)"), None)
            return
        if fault is not None and kind == "timeout" and stand_in._stopping.wait(fault.seconds):
            self.close_connection = True
            return
        reply = self._dispatch(stand_in, call)
        entry.status = 200 if kind == "malformed" else reply.status
        self._send(reply, kind)

    @staticmethod
    def _dispatch(stand_in: StandIn, call: _Call) -> _Reply:
        try:
            return stand_in._dispatch(call)
        except _Closed:
            raise
        except Exception:
            traceback.print_exc()  # a bug of the stand-in: show it, answer as ASP.NET would
            return _Reply(500)

    def _read_body(self) -> tuple[bytes, bool]:
        """(the body, whether it was over MAX_BODY and thrown away unread)."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked()
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0:
            raise ValueError("negative Content-Length")
        if length <= MAX_BODY:
            return self.rfile.read(length), False
        if length > 20 * MAX_BODY:
            self.close_connection = True  # not worth draining: answer and hang up
            return b"", True
        while length > 0:  # drained, so that the client reads the 413 instead of a reset
            data = self.rfile.read(min(length, self._CHUNK))
            if not data:
                break
            length -= len(data)
        return b"", True

    def _read_chunked(self) -> tuple[bytes, bool]:
        parts: list[bytes] = []
        size = 0
        while True:
            line = self.rfile.readline(1024)
            chunk = int(line.split(b";")[0].strip() or b"x", 16)
            if chunk == 0:
                while self.rfile.readline(1024).strip():
                    pass  # trailers
                break
            data = self.rfile.read(chunk)
            self.rfile.readline(8)
            size += len(data)
            if size <= MAX_BODY:
                parts.append(data)
        return (b"", True) if size > MAX_BODY else (b"".join(parts), False)

    def _send(self, reply: _Reply, fault: str | None) -> None:
        """The answer; a "close" fault sends half the body and hangs up, "malformed" sends
        200 and a body that is not JSON."""
        status, body, content_type = reply.status, reply.body, reply.content_type
        if fault == "malformed":
            status, body, content_type = 200, _cut(body), "application/json; charset=utf-8"
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        for name, value in reply.headers:
            self.send_header(name, value)
        if fault == "close":
            # An empty body has no half to send: claim one byte, so the answer still breaks.
            self.send_header("Content-Length", str(max(len(body), 1)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


# --------------------------------------------------------------------------------------
# A manual session

DEFAULT_USERS = (
    ("tester@example.org", "tester-password", "Tester", "Contributer"),
    ("admin@example.org", "admin-password", "Admin", "Administrator"),
)


def load_seed(stand_in: StandIn, seed: dict[str, Any], *, default_creator: str) -> None:
    """Users, cards and decks from a seed: ``{"users": [{"email", "password", "name",
    "role"?}], "cards": [card objects as add_card takes them, each with an optional "by":
    the creator's e-mail; masters before their translations], "decks": [{"name", "cards":
    [[guid, quantity]...], "by"?, "language"?, "guid"?}]}``, or a deck file's shape
    (tests/data/aminduna/deck-30.json: ``{"users", "deck", "cards": [{"creator",
    "quantity"?, "card"}]}``)."""
    if "deck" in seed:
        seed = _from_deck_file(seed)
    for user in seed.get("users", []):
        if stand_in._user_by_email(user["email"]) is None:
            stand_in.add_user(
                user["email"],
                user["password"],
                name=user.get("name", user["email"]),
                role=user.get("role", "Contributer"),
            )
    for card in seed.get("cards", []):
        if stand_in._card_by_guid(card.get("guid")) is None:  # kept in a --db from last time
            stand_in.add_card(card, creator=card.get("by", default_creator))
    for deck in seed.get("decks", []):
        if deck.get("guid") and stand_in._rows(
            "SELECT id FROM decks WHERE guid = ?", (deck["guid"],)
        ):
            continue
        stand_in.add_deck(
            deck["name"],
            [(g, int(q)) for g, q in deck["cards"]],
            creator=deck.get("by", default_creator),
            language=deck.get("language", "en"),
            guid=deck.get("guid"),
        )


def _from_deck_file(data: dict[str, Any]) -> dict[str, Any]:
    """A deck file (one deck, its English cards with quantities, their translations)
    as a seed: masters first, each card with its creator."""

    def english(entry: dict[str, Any]) -> bool:
        language = entry["card"].get("language") or {}
        return str(language.get("languageCode") or "en") == "en"

    entries = sorted(data["cards"], key=lambda entry: not english(entry))
    deck = data["deck"]
    return {
        "users": data.get("users", []),
        "cards": [{**entry["card"], "by": entry["creator"]} for entry in entries],
        "decks": [
            {
                "name": deck["name"],
                "guid": deck.get("guid"),
                "by": deck.get("creator"),
                "language": deck.get("language", "en"),
                "cards": [
                    [entry["card"]["guid"], entry["quantity"]]
                    for entry in entries
                    if "quantity" in entry
                ],
            }
        ],
    }


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.aminduna_standin",
        description="A local stand-in for the Aminduna card database, for trying pull/push.",
    )
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free one")
    parser.add_argument("--seed", type=Path, help="a JSON file of users, cards and decks")
    parser.add_argument("--db", type=Path, help="keep the state in this SQLite file")
    args = parser.parse_args(argv)
    stand_in = StandIn(args.db, port=args.port)
    seed = json.loads(args.seed.read_text("utf-8")) if args.seed else {}
    # The seed's users first: a default user of the same e-mail must not replace one.
    users = [
        (u["email"], u["password"], u.get("name", u["email"]), u.get("role", "Contributer"))
        for u in seed.get("users", [])
    ]
    users += [u for u in DEFAULT_USERS if u[0] not in {email for email, *_ in users}]
    for email_address, password, name, role in users:
        if stand_in._user_by_email(email_address) is None:
            stand_in.add_user(email_address, password, name=name, role=role)
    if seed:
        load_seed(stand_in, seed, default_creator=DEFAULT_USERS[0][0])
    stand_in.start()
    print(f"Aminduna stand-in at {stand_in.url}", flush=True)
    for email_address, password, _, role in users:
        print(f"  {role}: {email_address}  password: {password}", flush=True)
    print("Ctrl-C stops it.", flush=True)
    signal.signal(signal.SIGTERM, _interrupt)  # a clean stop (the --db file closed) on kill
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        stand_in.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
