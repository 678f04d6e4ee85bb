"""The owner's door against a hostile guest: a page on another port of the same host cannot post
to the owner's routes (a real second server, a real Chromium); wrong PINs lock out the client that
sent them, never the owner; a huge body is refused before it is read; the start form refuses
control characters, duplicate names and more seats than the table has zones for."""

from __future__ import annotations

import http.server
import socket
import threading

import httpx2
import pytest
from hypothesis import given, strategies as st

from cardtable.table.owner_requests import ENDED, seat_names
from engine.errors import InvalidInput
from engine.decks import get_deck
from engine.table_events import TableEvent
from web_helpers import TOKEN_HEADER, owner_client, wait_until
from waiting import patience

EVIL = """<!doctype html><html><body>
<form id="f" method="post" action="{url}/owner/end" enctype="text/plain">
<input name='{{"x":"' value='"}}'></form>
<script>
fetch("{url}/owner/undo", {{method: "POST", mode: "no-cors", credentials: "include",
                           headers: {{"Content-Type": "text/plain"}}, body: "{{}}"}})
  .finally(() => {{ document.title = "sent"; document.getElementById("f").submit(); }});
</script></body></html>"""


@pytest.fixture
def evil_site():
    """A second web server on another port of 127.0.0.1, serving a page that posts to the table."""
    box = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = EVIL.format(url=box["target"]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    box["url"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield box
    server.shutdown()
    server.server_close()


@pytest.mark.slow
def test_a_page_on_another_port_of_the_same_host_cannot_end_the_game(table, evil_site, browser):
    page, session, items = table
    evil_site["target"] = page.url
    context = browser.new_context(bypass_csp=True)
    try:
        tab = context.new_page()
        tab.goto(page.url + "/owner")
        tab.fill("input[name=pin]", "2468")
        tab.click("button[type=submit]")
        tab.wait_for_selector("#undo")
        deck = get_deck(session.game.rules.deck)
        items.put(TableEvent("placed", deck.cards[0], "seat1", 0.0))        # a card is cut: the game is journalled
        wait_until(lambda: httpx2.get(page.url + "/view.json").json()["prompt"].startswith("Seat 2"))
        game_id = session.game.game_id
        tab.goto(evil_site["url"] + "/")
        tab.wait_for_url(page.url + "/owner/end", timeout=patience(10000))    # the form was sent, with the cookie
        assert "ended" not in tab.content()
        assert session.game.game_id == game_id and not session.game.finished
        assert httpx2.get(page.url + "/view.json").json()["prompt"].startswith("Seat 2")     # not undone
        assert ENDED not in [g["result"] for g in httpx2.get(page.url + "/history.json").json()]
        # the owner's own page still works: its requests carry the session's token
        tab.goto(page.url + "/owner")
        tab.wait_for_selector("#undo")
        tab.click("#undo")
        tab.wait_for_function("document.getElementById('answer').textContent === 'The last action was taken back'")
    finally:
        context.close()


@pytest.mark.slow
def test_owner_posts_need_the_session_token_and_their_own_origin(table):
    page, session, _ = table
    client = owner_client(page.url, "2468")
    token = client.headers.pop(TOKEN_HEADER)
    assert client.post("/owner/undo", json={}).status_code == 403
    assert client.post("/owner/undo", json={}, headers={TOKEN_HEADER: "guess"}).status_code == 403
    other = {TOKEN_HEADER: token, "Origin": "http://127.0.0.1:1"}
    answer = client.post("/owner/end", json={}, headers=other)
    assert answer.status_code == 403 and "another page" in answer.json()["error"]
    assert not session.game.finished and session.game.rules.name == "cribbage"
    mine = {TOKEN_HEADER: token, "Origin": page.url}
    assert client.post("/owner/undo", json={}, headers=mine).json()["answer"] == "Nothing to undo"
    # a form (the page's Leave button) carries the token in a field
    assert client.post("/owner/logout", data={"token": "guess"}).status_code == 403
    assert client.post("/owner/logout", data={"token": token}).status_code == 303
    assert client.get("/owner/status.json").status_code == 403


@pytest.mark.slow
def test_wrong_pins_lock_out_the_client_that_sent_them_never_the_owner(table):
    page, _, _ = table
    signed_in = owner_client(page.url, "2468")
    guest = httpx2.Client(base_url=page.url, timeout=patience(10), transport=httpx2.HTTPTransport(local_address="127.0.0.2"))
    for _ in range(6):
        assert guest.post("/owner/login", data={"pin": "0000"}).headers["location"].startswith("/owner?wrong=1")
    # the guest is shut out now, even with the right PIN, and told how long to wait
    assert guest.post("/owner/login", data={"pin": "2468"}).headers["location"] == "/owner?wrong=1&wait=1"
    # the owner, from another machine, gets in at once, and a signed-in owner goes on
    owner = httpx2.Client(base_url=page.url, timeout=patience(10))
    assert owner.post("/owner/login", data={"pin": "2468"}).headers["location"] == "/owner"
    assert signed_in.post("/owner/undo", json={}).json()["answer"] == "Nothing to undo"


def raw_post(url: str, head: bytes, chunks, *, timeout: float = 10.0) -> tuple[bytes, int]:
    """Sends ``head`` then each chunk until the server answers; returns its answer and how many
    body bytes were sent before it did."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    sent = 0
    try:
        sock.sendall(head)
        sock.setblocking(False)
        for chunk in chunks:
            try:
                answer = sock.recv(4096)
                if answer:
                    return answer, sent
            except BlockingIOError:
                pass
            try:
                sock.setblocking(True)
                sock.sendall(chunk)
                sock.setblocking(False)
            except OSError:
                break
            sent += len(chunk)
        sock.setblocking(True)
        return sock.recv(4096), sent
    finally:
        sock.close()


@pytest.mark.slow
@pytest.mark.parametrize("route", ["/owner/login", "/owner/end", "/view.json"])
def test_a_huge_body_is_refused_before_it_is_read(table, route):
    page, session, _ = table
    megabyte = b"pin=" + b"1" * (1 << 20)
    head = (f"POST {route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {300 << 20}\r\n\r\n").encode()
    answer, sent = raw_post(page.url, head, (megabyte for _ in range(300)))
    assert answer.startswith(b"HTTP/1.1 413") and sent < 20 << 20
    chunked = b"POST /owner/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    piece = b"%x\r\n%s\r\n" % (len(megabyte), megabyte)
    answer, sent = raw_post(page.url, chunked, (piece for _ in range(300)))
    assert answer.startswith(b"HTTP/1.1 413") and sent < 20 << 20
    assert httpx2.get(page.url + "/view.json").status_code == 200 and not session.game.finished


def start(client, **body) -> str:
    return client.post("/owner/start", json={"game": "cribbage", "players": 2, **body}).json()["answer"]


@pytest.mark.slow
def test_the_start_form_refuses_control_characters_and_duplicate_names(table):
    page, session, _ = table
    client = owner_client(page.url, "2468")
    answer = start(client, names=["\x1b[2J\x1b[31mAnn", "Bob"])
    assert answer.startswith("Not done: the name for seat 1") and "\x1b" not in answer
    assert start(client, names=["Bob", "B\u200bob"]).startswith("Not done: the name for seat 2 holds a control")
    for names in (["Ann", "ann"], ["Ann", "Ann "], ["ANN", "  ann"], ["Seat 2", ""]):
        answer = start(client, names=names)
        assert answer.startswith("Not done: ") and "same name" in answer, names
    assert session.game.setup.names == ("Seat 1", "Seat 2") or session.game.setup.names == ()
    assert start(client, names=["  Ann  Lee ", "Bob"]) == "Cribbage for 2 has started"
    assert session.game.setup.names == ("Ann Lee", "Bob")
    wait_until(lambda: [s["name"] for s in httpx2.get(page.url + "/view.json").json()["seats"]] == ["Ann Lee", "Bob"])


def test_a_game_for_more_seats_than_the_table_has_zones_is_refused(tmp_path):
    from cardtable.table.journalled_game import TableSetup
    from cardtable.table.table import Table
    from cardtable.journal import Journal
    from engine.table_events import OwnerRequest

    with Journal(tmp_path / "journal.sqlite") as journal:
        table = Table(TableSetup("cribbage", 2), journal)
        request = OwnerRequest(kind="start", game="cribbage", players=4)
        table.handle(request)
        assert request.answer.result() == ("Not done: the table has zones for 2 seats, not 4; give it zones "
                                           "for 4 seats in its configuration ([game] players, [table] "
                                           "seat_zones, [vision] zones) and start it again")
        assert table.game.setup.players == 2


@given(st.lists(st.text(max_size=30), max_size=5), st.integers(2, 5))
def test_any_names_are_refused_in_words_or_made_safe_and_distinct(given_names, players):
    try:
        names = seat_names(tuple(given_names), players)
    except InvalidInput as err:
        assert str(err).startswith(("the name for seat", "seats ")) and "\x1b" not in str(err)
        return
    assert len(names) == players and len({n.casefold() for n in names}) == players
    assert all(n and n == n.strip() and len(n) <= 24 and n.isprintable() for n in names)
