"""The owner's page of a demo table: with ``--pin`` its controls work (an undo stops the bots and
the owner has the table; a game started from the page is played on it while the page stays up);
without a PIN the page says how to turn the owner's pages on instead of asking for a PIN."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx2

from cardtable.web.page import TablePage
import pytest
from test_page_browser import keep
from web_helpers import die_with_parent, owner_client, wait_until

ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}


@pytest.mark.slow
def test_without_a_pin_the_owner_page_says_how_to_turn_it_on(tmp_path, browser):
    page = TablePage(host="127.0.0.1", port=0, journal_path=tmp_path / "journal.sqlite")
    try:
        tab = browser.new_page()
        tab.goto(page.url + "/owner")
        tab.wait_for_selector("#off", state="visible")
        text = tab.locator("main").inner_text()
        assert "--pin" in text and "[web]" in text and not tab.locator("input[name=pin]").is_visible()
        assert httpx2.post(page.url + "/owner/login", data={"pin": "1234"}).status_code == 303
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.screenshot(path=tmp_path / "owner-off-phone.png", full_page=True)
        keep(tmp_path / "owner-off-phone.png")
        tab.close()
    finally:
        page.close()


@pytest.mark.slow
def test_a_demo_with_a_pin_takes_the_owners_requests(tmp_path):
    demo = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "demo", "--input", "rfid", "--out", str(tmp_path),
                             "--web", "0", "--pin", "2468", "--pace", "0.15", "--stay", "60"], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
    lines: list[str] = []
    try:
        while not any("The table's page:" in line for line in lines):
            lines.append(demo.stdout.readline())
            assert lines[-1], "".join(lines)
        url = lines[-1].split("The table's page: ")[1].split("/ ")[0].strip()
        owner = owner_client(url, "2468")
        wait_until(lambda: (httpx2.get(url + "/view.json").json() or {}).get("score_log"), timeout=60)
        assert owner.post("/owner/undo", json={}).json()["answer"] == "The last action was taken back"
        while not any("The page stays up" in line for line in lines):
            lines.append(demo.stdout.readline())
            assert lines[-1], "".join(lines)
        assert any("The owner took the table over" in line for line in lines), "".join(lines)
        # while the page stays up the table is the owner's
        answer = owner.post("/owner/start", json={"game": "allfives", "players": 2, "names": ["Ann", "Bob"]})
        assert answer.json()["answer"] == "All Fives for 2 has started"
        view = wait_until(lambda: (v := httpx2.get(url + "/view.json").json()) and v["game"] == "All Fives" and v)
        assert [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
        assert owner.post("/owner/undo", json={}).json()["answer"] == "Nothing to undo"
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(15)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait(5)
