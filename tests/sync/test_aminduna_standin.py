"""The Aminduna stand-in follows the real server (routes, rights, shapes, faults), so that the
pull/push tests that use it test the client against Aminduna's behaviour and not the
stand-in's. Plain httpx over real sockets, as the client does."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.aminduna_standin import (
    _EPOCH_TICKS,
    STATUS_GUIDS,
    StandIn,
    net_datetime,
    predefined_guid,
)

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB, ROOT_USER = "alice@example.org", "bob@example.org", "root@example.org"
PASSWORD = "correct horse"
BASE_KEYS = ["guid", "creator", "createTime", "lastModifiedBy", "lastModifiedTime"]
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?")


def md5(text: str) -> str:
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def card_body(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": {"name": "Creature"},
        "faction": {"name": "Gaian"},
        "serie": {"name": "Rebirth"},
        "cost": "3",
        "loyalty": 1,
        "markdownText": f"{name} text",
        **extra,
    }


@pytest.fixture
def server() -> Iterator[StandIn]:
    with StandIn() as stand_in:
        stand_in.add_user(ALICE, PASSWORD, name="Alice")
        stand_in.add_user(BOB, PASSWORD, name="Bob")
        stand_in.add_user(ROOT_USER, PASSWORD, name="Root", role="Administrator")
        yield stand_in


@pytest.fixture
def client(server: StandIn) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=5) as http:
        yield http


def login(client: httpx.Client, email: str = ALICE) -> dict[str, str]:
    answer = client.post("api/Login", json={"email": email, "password": md5(PASSWORD)})
    assert answer.status_code == 200
    return {"Authorization": f"Bearer {answer.json()}"}


def token_payload(token: str) -> dict[str, Any]:
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


# ---- guids and times -----------------------------------------------------------------


def test_predefined_guids_are_the_servers() -> None:
    # Values hard-coded in the server's own code (match bot, web client).
    assert predefined_guid("CardType", "Creature") == "bc752e51-034a-56fa-a9b6-a4cb86049ec3"
    assert predefined_guid("CardType", "City") == "c38a9cda-e669-54e2-9c91-db0a4a763460"
    assert STATUS_GUIDS["Release Candidate"] == "7dedc883-5dd2-5f17-b2a4-eaf04f7ad464"
    assert STATUS_GUIDS["Draft"] == predefined_guid("Status", "Draft")
    assert predefined_guid("Status", "Draft") == "2a5b7639-627f-5b91-a52f-f72d326d0ea3"
    assert set(STATUS_GUIDS) == {"Draft", "Release Candidate", "Final"}


def test_times_are_written_as_newtonsoft_does() -> None:
    second = _EPOCH_TICKS + 1_795_000_000 * 10_000_000
    assert net_datetime(second + 1_234_567) == "2026-11-18T11:06:40.1234567"
    assert net_datetime(second + 2_600_000) == "2026-11-18T11:06:40.26"
    assert net_datetime(second) == "2026-11-18T11:06:40"


# ---- login and tokens ------------------------------------------------------------------


def test_login_returns_a_jwt_for_the_md5_or_the_plain_password(
    server: StandIn, client: httpx.Client
) -> None:
    answer = client.post("api/Login", json={"email": ALICE, "password": md5(PASSWORD)})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    token = answer.json()
    header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert header == {"alg": "HS256", "typ": "JWT"}
    payload = token_payload(token)
    assert payload["unique_name"] == next(iter(server._users.values()))["guid"]
    assert 7 * 86400 - 5 <= payload["exp"] - time.time() <= 7 * 86400
    plain = client.post("api/Login", json={"Email": ALICE.upper(), "Password": PASSWORD})
    assert plain.status_code == 200


def test_login_failures(server: StandIn, client: httpx.Client) -> None:
    server.add_user("off@example.org", PASSWORD, name="Off", disabled=True)
    server.add_user("new@example.org", PASSWORD, name="New", verified=False)
    incorrect = {"message": "Username or password is incorrect"}
    for email, password in ((ALICE, md5("wrong")), ("nobody@example.org", md5(PASSWORD))):
        answer = client.post("api/Login", json={"email": email, "password": password})
        assert (answer.status_code, answer.json()) == (400, incorrect)
    for email in ("off@example.org", "new@example.org"):
        answer = client.post("api/Login", json={"email": email, "password": md5(PASSWORD)})
        assert (answer.status_code, answer.json()) == (400, {"message": "Login failed"})
    bad = client.post("api/Login", content=b"{", headers={"Content-Type": "application/json"})
    assert (bad.status_code, bad.json()) == (400, "No login info")


def test_401_shapes(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    url = f"api/Cards/{card['guid']}"
    answer = client.patch(url, json=card)
    assert (answer.status_code, answer.headers["www-authenticate"]) == (401, "Bearer")
    assert answer.content == b""
    garbage = client.patch(url, json=card, headers={"Authorization": "Bearer not-a-token"})
    assert garbage.status_code == 401
    assert garbage.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    token = login(client)["Authorization"].split()[1]
    head, _, signature = token.split(".")
    forged = base64.urlsafe_b64encode(json.dumps({"unique_name": "x", "exp": 2**40}).encode())
    tampered = f"{head}.{forged.decode().rstrip('=')}.{signature}"
    answer = client.patch(url, json=card, headers={"Authorization": f"Bearer {tampered}"})
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == (
        'Bearer error="invalid_token", error_description="The signature is invalid"'
    )
    # An anonymous route ignores a bad token, as [AllowAnonymous] does.
    assert client.get(url, headers={"Authorization": f"Bearer {tampered}"}).status_code == 200


def test_an_expired_token_is_refused_with_its_expiry() -> None:
    with StandIn(token_days=1e-6) as server, httpx.Client(base_url=server.url) as client:
        server.add_user(ALICE, PASSWORD, name="Alice")
        card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
        token = client.post("api/Login", json={"email": ALICE, "password": md5(PASSWORD)}).json()
        exp = token_payload(token)["exp"]
        time.sleep(max(0.0, exp - time.time()) + 0.05)
        answer = client.patch(
            f"api/Cards/{card['guid']}", json=card, headers={"Authorization": f"Bearer {token}"}
        )
    when = datetime.fromtimestamp(exp, UTC).strftime("%m/%d/%Y %H:%M:%S")
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == (
        f'Bearer error="invalid_token", error_description="The token expired at \'{when}\'"'
    )


# ---- reading cards --------------------------------------------------------------------------


def test_get_card_with_its_master_card(server: StandIn, client: httpx.Client) -> None:
    english = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    french = server.add_card(
        card_body("Gardien des addax", language={"languageCode": "fr"}, masterCard=english),
        creator=BOB,
    )
    answer = client.get(f"api/Cards/{french['guid']}")
    assert answer.status_code == 200
    card = answer.json()
    assert card == french == server.card(french["guid"])
    assert list(card)[-5:] == BASE_KEYS  # Newtonsoft: the base class's properties last
    assert card["creator"] == {"guid": card["creator"]["guid"], "name": "Bob"}
    assert card["language"] == {"name": "français", "languageCode": "fr"}
    assert card["status"] == {"id": 1, "name": "Draft", "guid": STATUS_GUIDS["Draft"]}
    assert card["type"]["guid"] == predefined_guid("CardType", "Creature")
    assert card["serie"]["name"] == "Rebirth"
    assert TIME.fullmatch(card["lastModifiedTime"])
    master = card["masterCard"]
    assert (master["guid"], master["name"]) == (english["guid"], "Addax Keeper")
    assert master["language"]["languageCode"] == "en"
    assert "masterCard" not in master
    assert "creator" not in master  # Alice's row is not tracked by this request
    assert None not in card.values()
    assert card["artwork"].endswith("&modified=" + re.sub(r"\D", "", card["png"].split("=")[-1]))
    other = english["guid"][:-1] + ("1" if english["guid"].endswith("0") else "0")
    assert client.get(f"api/Cards/{other}").status_code == 404  # a guid one digit off
    assert client.get("api/Cards/not-a-guid").status_code == 404


def test_list_cards_newest_first_with_master_cards(server: StandIn, client: httpx.Client) -> None:
    english = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    server.add_card(card_body("Gardien", masterCard={"guid": english["guid"]}), creator=ALICE)
    items = client.get("api/Cards", params={"search": ""}).json()["items"]
    assert [item["name"] for item in items] == ["Gardien", "Addax Keeper"]
    assert items[0]["masterCard"]["guid"] == english["guid"]
    assert "faction" not in items[0]["masterCard"]  # AsNoTracking: nothing beyond Includes
    found = client.get("api/Cards", params={"search": "addax"}).json()
    assert [item["name"] for item in found["items"]] == ["Addax Keeper"]
    assert found["totalItems"] == 1


def test_search_paging_clamping_and_order(server: StandIn, client: httpx.Client) -> None:
    for number in range(23):
        server.add_card(card_body(f"Card {number:02d}"), creator=ALICE)

    def search(**options: Any) -> dict[str, Any]:
        answer = client.post("api/CardSearch", json={"pageNumber": 1, **options})
        assert answer.status_code == 200
        return answer.json()

    small = search(pageSize=5)
    assert (len(small["items"]), small["totalItems"]) == (10, 23)
    assert small["searchOptions"]["pageSize"] == 10
    assert small["searchOptions"]["orderBy"] == "Name"
    assert [item["name"] for item in small["items"]][:2] == ["Card 00", "Card 01"]
    big = search(pageSize=500)
    assert (len(big["items"]), big["searchOptions"]["pageSize"]) == (23, 50)
    last = search(pageSize=10, pageNumber=3, reverseOrder=True)
    assert [item["name"] for item in last["items"]] == ["Card 02", "Card 01", "Card 00"]
    newest = search(orderBy="LastModifiedTime", reverseOrder=True)
    assert newest["items"][0]["name"] == "Card 22"
    assert "masterCard" not in small["items"][0] and "artworkLicense" not in small["items"][0]
    assert client.post("api/CardSearch", json={"pageSize": 10}).status_code == 500  # page 0


def test_search_by_master_card_and_language(server: StandIn, client: httpx.Client) -> None:
    english = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    other = server.add_card(card_body("Other"), creator=ALICE)
    french = server.add_card(
        card_body("Gardien", language="fr", masterCard={"guid": english["guid"]}), creator=ALICE
    )
    server.add_card(card_body("Hoeder", language="nl", masterCard=english), creator=ALICE)
    server.add_card(card_body("Autre", language="fr", masterCard=other), creator=ALICE)
    options = {"pageNumber": 1, "pageSize": 10, "masterCard": {"guid": english["guid"]}}
    both = client.post("api/CardSearch", json=options).json()
    assert sorted(item["name"] for item in both["items"]) == ["Gardien", "Hoeder"]
    options["language"] = {"languageCode": "fr"}
    answer = client.post("api/CardSearch", json=options).json()
    assert [item["guid"] for item in answer["items"]] == [french["guid"]]
    assert answer["searchOptions"]["masterCard"]["guid"] == english["guid"]
    assert answer["searchOptions"]["language"] == {"languageCode": "fr"}
    status = {"status": {"guid": STATUS_GUIDS["Final"]}, "pageNumber": 1}
    assert client.post("api/CardSearch", json=status).json()["totalItems"] == 0


def test_deck_shape_and_order(server: StandIn, client: httpx.Client) -> None:
    zebra = server.add_card(card_body("Zebra", status={"name": "Final"}), creator=ALICE)
    addax = server.add_card(card_body("addax"), creator=BOB)
    mid = server.add_card(card_body("Mid", masterCard=addax), creator=ALICE)
    guid = server.add_deck(
        "Gaian deck", [(zebra["guid"], 1), (addax["guid"], 3), (mid["guid"], 2)], creator=ALICE
    )
    deck = client.get(f"api/Decks/{guid}").json()
    assert [entry["card"]["name"] for entry in deck["deckCards"]] == ["addax", "Mid", "Zebra"]
    assert [entry["quantity"] for entry in deck["deckCards"]] == [3, 2, 1]
    assert deck["totalCards"] == 6 and deck["name"] == "Gaian deck" and deck["guid"] == guid
    assert deck["isEditable"] is False
    for entry in deck["deckCards"]:
        assert entry["id"] == 0 and "guid" in entry
        card = entry["card"]
        assert card["type"]["name"] == "Creature" and card["faction"]["name"] == "Gaian"
        for key in ("status", "serie", "ruleSet", "artworkLicense", "masterCard"):
            assert key not in card
    # Rows already tracked by the request show: the deck's creator (Alice) on her cards.
    addax_card, mid_card = (entry["card"] for entry in deck["deckCards"][:2])
    assert "creator" in mid_card and "creator" not in addax_card
    mine = client.get(f"api/Decks/{guid}", headers=login(client)).json()
    assert mine["isEditable"] is True
    assert client.get(f"api/Decks/{zebra['guid']}").status_code == 404


def test_statuses(client: httpx.Client) -> None:
    answer = client.get("api/Statuses").json()
    assert [(s["name"], s["guid"]) for s in answer["items"]] == list(STATUS_GUIDS.items())
    assert answer["totalItems"] == 3


# ---- writing cards --------------------------------------------------------------------------


def test_post_creates_a_draft_under_a_new_guid(server: StandIn, client: httpx.Client) -> None:
    existing = server.add_card(card_body("Addax Keeper"), creator=BOB)
    body = {**existing, "name": "New card", "status": None}
    answer = client.post("api/Cards", json=body, headers=login(client))
    assert answer.status_code == 200
    card = answer.json()
    assert card["guid"] != existing["guid"]
    assert card["status"]["guid"] == STATUS_GUIDS["Draft"]
    assert card["creator"]["name"] == "Alice" and card["name"] == "New card"
    assert card["type"]["templateInfo"]["showAttack"] is True
    assert card["isGenerated"] is False
    assert [c["name"] for c in server.cards()] == ["Addax Keeper", "New card"]
    assert client.post("api/Cards", json=body).status_code == 401
    server.add_user("guest@example.org", PASSWORD, name="Guest", role="Guest")
    guest = client.post("api/Cards", json=body, headers=login(client, "guest@example.org"))
    assert (guest.status_code, guest.content) == (403, b"")


def test_post_without_a_type_saves_the_card_and_answers_500(
    server: StandIn, client: httpx.Client
) -> None:
    answer = client.post("api/Cards", json={"name": "Typeless"}, headers=login(client))
    assert answer.status_code == 500
    assert server.cards()[0]["type"]["name"] == "None"  # saved before the crash


def test_patch_is_last_writer_wins(server: StandIn, client: httpx.Client) -> None:
    pulled = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    times = [pulled["lastModifiedTime"]]
    theirs = server.edit_card(pulled["guid"], {"cost": "5"}, by=ROOT_USER)
    times.append(theirs["lastModifiedTime"])
    assert theirs["lastModifiedBy"]["name"] == "Root" and server.requests == []
    mine = {**pulled, "markdownText": "my text"}
    answer = client.patch(f"api/Cards/{pulled['guid']}", json=mine, headers=login(client))
    assert answer.status_code == 200  # no concurrency check: the stale lastModifiedTime is ignored
    times.append(answer.json()["lastModifiedTime"])
    now = server.card(pulled["guid"])
    assert (now["cost"], now["markdownText"]) == ("3", "my text")  # Root's edit is lost
    assert now["lastModifiedBy"]["name"] == "Alice"
    again = client.patch(f"api/Cards/{pulled['guid']}", json=mine, headers=login(client))
    times.append(again.json()["lastModifiedTime"])
    parsed = [datetime.fromisoformat(t.ljust(27, "0")[:26]) for t in times]
    assert parsed == sorted(parsed) and len(set(times)) == 4


def test_final_cards_need_the_status_change_right(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Final card", status={"name": "Final"}), creator=ALICE)
    url = f"api/Cards/{card['guid']}"
    refused = client.patch(url, json=card, headers=login(client))
    assert (refused.status_code, refused.text) == (403, "Card is marked as final")
    assert refused.headers["content-type"].startswith("text/plain")
    allowed = client.patch(url, json=card, headers=login(client, ROOT_USER))
    assert allowed.status_code == 200
    server.real_errors = True  # Forbid("...") takes the text for a scheme name and throws
    assert client.patch(url, json=card, headers=login(client)).status_code == 500


def test_others_cards_need_the_others_edit_right(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Alice's card"), creator=ALICE)
    url = f"api/Cards/{card['guid']}"
    refused = client.patch(url, json=card, headers=login(client, BOB))
    assert (refused.status_code, refused.text) == (403, "This is not your card")
    assert client.patch(url, json=card, headers=login(client, ROOT_USER)).status_code == 200
    unknown = f"api/Cards/{predefined_guid('nothing')}"
    assert client.patch(unknown, json=card, headers=login(client)).status_code == 404
    server.real_errors = True
    assert client.patch(unknown, json=card, headers=login(client)).status_code == 500


def test_patch_without_a_serie_answers_500_and_changes_nothing(
    server: StandIn, client: httpx.Client
) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    body = {key: value for key, value in card.items() if key != "serie"}
    body["cost"] = "9"
    answer = client.patch(f"api/Cards/{card['guid']}", json=body, headers=login(client))
    assert (answer.status_code, answer.content) == (500, b"")
    assert server.card(card["guid"]) == card


def test_patch_keeps_what_it_cannot_clear(server: StandIn, client: httpx.Client) -> None:
    english = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    card = server.add_card(
        card_body("Gardien", flavorText="« Vieux »", artworkLicense={"name": "CC BY-SA 4.0"}),
        creator=ALICE,
    )
    server.edit_card(card["guid"], {"masterCard": {"guid": english["guid"]}}, by=ALICE)
    body = dict(server.card(card["guid"]))
    for key in ("artworkLicense", "masterCard", "flavorText", "loyalty"):
        del body[key]
    answer = client.patch(f"api/Cards/{card['guid']}", json=body, headers=login(client))
    assert answer.status_code == 200
    assert "masterCard" not in answer.json()  # not loaded by this request: left out
    now = server.card(card["guid"])
    assert now["artworkLicense"]["name"] == "CC BY-SA 4.0"  # kept
    assert now["masterCard"]["guid"] == english["guid"]  # kept
    assert "flavorText" not in now and now["loyalty"] == 0  # scalars: replaced by null / 0


def test_malformed_and_oversized_bodies(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = {**login(client), "Content-Type": "application/json"}
    url = f"api/Cards/{card['guid']}"
    assert client.patch(url, content=b'{"name": ', headers=headers).status_code == 400
    assert client.post("api/CardSearch", content=b"[", headers=headers).status_code == 400
    big = b" " * (5 * 1024 * 1024 + 1)
    assert client.post("api/CardSearch", content=big, headers=headers).status_code == 413
    assert client.get("api/Nothing").status_code == 404
    assert client.delete(url, headers=headers).status_code == 404


# ---- artwork --------------------------------------------------------------------------------


def test_artwork_upload_and_export(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    export = f"api/Cards/{card['guid']}/export"
    assert client.get(export, params={"format": "Art"}).status_code == 404
    art = bytes(range(256)) + b"\r\n--\r\n\r\n"
    upload = client.post(
        f"api/FileUpload/{card['guid']}",
        files={"file": ("art.png", art, "image/png")},
        headers=login(client),
    )
    assert (upload.status_code, upload.content) == (200, b"")
    answer = client.get(export, params={"format": "Art"})
    assert (answer.status_code, answer.content) == (200, art)
    assert answer.headers["content-type"] == "image/png"
    assert server.card(card["guid"])["lastModifiedTime"] == card["lastModifiedTime"]
    server.set_artwork(card["guid"], b"other")
    assert client.get(export, params={"format": "art"}).content == b"other"
    assert client.get(export, params={"format": "Png"}).status_code == 404
    refused = client.post(
        f"api/FileUpload/{card['guid']}", files={"file": ("a.png", art)}, headers=login(client, BOB)
    )
    assert (refused.status_code, refused.text) == (403, "This is not your card")


# ---- faults ------------------------------------------------------------------------------------


def test_fault_timeout(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    server.inject("GET", r"/api/Cards/[^/]+", "timeout", seconds=2.0)
    with pytest.raises(httpx.TimeoutException):
        client.get(f"api/Cards/{card['guid']}", timeout=0.2)
    assert client.get(f"api/Cards/{card['guid']}").status_code == 200  # once only
    assert [entry.fault for entry in server.requests] == ["timeout", None]


@pytest.mark.parametrize("status", [500, 503])
def test_fault_status_changes_nothing(server: StandIn, client: httpx.Client, status: int) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = login(client)
    server.inject("PATCH", r"/api/Cards/.*", str(status), times=2)
    changed = {**card, "cost": "7"}
    for _ in range(2):
        answer = client.patch(f"api/Cards/{card['guid']}", json=changed, headers=headers)
        assert answer.status_code == status and answer.text
    assert server.card(card["guid"]) == card
    assert [entry.status for entry in server.requests[-2:]] == [status, status]


def test_fault_close_mid_body_after_the_work(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = login(client)
    server.inject("PATCH", r"/api/Cards/[^/]+", "close")
    with pytest.raises(httpx.RemoteProtocolError):
        client.patch(f"api/Cards/{card['guid']}", json={**card, "cost": "7"}, headers=headers)
    assert server.card(card["guid"])["cost"] == "7"
    assert server.requests[-1].fault == "close"


def test_fault_close_before_the_work(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = login(client)
    server.inject("PATCH", r"/api/Cards/[^/]+", "close-before")
    with pytest.raises(httpx.RemoteProtocolError):
        client.patch(f"api/Cards/{card['guid']}", json={**card, "cost": "7"}, headers=headers)
    assert server.card(card["guid"]) == card
    assert client.get(f"api/Cards/{card['guid']}").status_code == 200  # a new connection


def test_fault_malformed_answer_after_the_work(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = login(client)
    server.inject("PATCH", r"/api/Cards/[^/]+", "malformed")
    answer = client.patch(f"api/Cards/{card['guid']}", json={**card, "cost": "7"}, headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    with pytest.raises(json.JSONDecodeError):
        answer.json()
    assert server.card(card["guid"])["cost"] == "7"


def test_inject_refuses_unknown_faults(server: StandIn) -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        server.inject("GET", ".*", "explode")


# ---- the log ----------------------------------------------------------------------------------


def test_request_log_keeps_no_secret(server: StandIn, client: httpx.Client) -> None:
    card = server.add_card(card_body("Addax Keeper"), creator=ALICE)
    headers = login(client)
    client.get(f"api/Cards/{card['guid']}", params={"x": "1"}, headers=headers)
    client.post("api/Login", content=b"password=" + PASSWORD.encode())
    first, second, third = server.requests
    assert (first.method, first.path, first.status, first.user) == ("POST", "/api/Login", 200, None)
    assert first.body == {"email": ALICE, "password": "***"} and not first.authorization
    assert (second.user, second.authorization, second.query) == (ALICE, True, {"x": "1"})
    assert third.body == "***" and third.status == 415
    token = headers["Authorization"].split()[1]
    text = repr(server.requests)
    assert token not in text and md5(PASSWORD) not in text and PASSWORD not in text
    server.clear_log()
    assert server.requests == []


# ---- a manual session ------------------------------------------------------------------------


def test_runs_as_a_module_and_prints_its_url_and_a_user() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.aminduna_standin", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        user = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert url, first
        email, password = re.search(r"(\S+@\S+)\s+password: (\S+)", user).groups()  # type: ignore[union-attr]
        with httpx.Client(base_url=url.group(0), timeout=5) as client:
            answer = client.post("api/Login", json={"email": email, "password": md5(password)})
            assert answer.status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=5)
