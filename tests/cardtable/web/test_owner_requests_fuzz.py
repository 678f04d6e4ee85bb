"""Whatever the owner's page is sent (any JSON, any bytes, any PIN), the answer is a sentence or a
refusal, never a crash, and the table's game goes on."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table
from cardtable.table.outputs import TableOutputs
from cardtable.web.app import COOKIE, TOKEN_HEADER, OwnerTools, ViewHub, create_app
from cardtable.web.owner import PinGate

values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                      lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=10), c, max_size=4),
                      max_leaves=20)
bodies = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["cribbage", "quinze", "allfives", "its15", "fifteen", "chess"]) | values,
    "players": st.integers(-3, 9) | st.sampled_from([float("inf"), 1e300, "3", 2.5]) | values, "names": st.lists(st.text(max_size=40), max_size=9) | values,
    "options": st.dictionaries(st.sampled_from(["target", "rounds", "muggins", "x"]), values, max_size=3) | values,
})


@pytest.fixture
def owner_client(journal):
    hub = ViewHub()
    table = Table(TableSetup("cribbage", 2), journal, TableOutputs([hub]))
    gate = PinGate("2468")
    client = TestClient(create_app(hub, owner=OwnerTools(gate, submit=table.handle)))
    cookie = gate.login("2468")
    client.cookies.set(COOKIE, cookie)
    client.headers[TOKEN_HEADER] = gate.token(cookie)
    yield client, table
    hub.close()


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["start", "undo", "end", "start", "x"]), body=bodies | values)
def test_any_request_gets_an_answer_and_the_table_goes_on(owner_client, kind, body):
    client, table = owner_client
    response = client.post(f"/owner/{kind}", content=json.dumps(body))
    assert response.status_code in (200, 400)
    assert isinstance(response.json()["answer"], str) and response.json()["answer"]
    assert table.game.prompt.text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_any_login_form_is_refused_without_the_pin(owner_client, form):
    client, _ = owner_client
    client.cookies.clear()
    response = client.post("/owner/login", content=form, headers={"content-type": "application/x-www-form-urlencoded"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/owner?wrong=1&wait=")
    assert client.get("/owner/status.json").status_code == 403
