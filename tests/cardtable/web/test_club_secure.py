"""A club broker with user names, passwords and TLS: a table with the right credentials and the
club's certificate authority is heard; a table with a wrong password is refused and goes on."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from cardtable.club.publisher import ClubPublisher
from cardtable.club.server import ClubServer
from cardtable.club.spec import parse_club
from cardtable.club.store import ClubStore
from cardtable.sim.demo import run_demo
from web_helpers import MOSQUITTO, Mosquitto
from web_helpers import wait_until

pytestmark = pytest.mark.slow          # a real broker with TLS and passwords


@pytest.fixture
def secure_broker(tmp_path):
    if not os.path.exists(MOSQUITTO) or not shutil.which("openssl") or not shutil.which("mosquitto_passwd"):
        pytest.skip("mosquitto (with mosquitto_passwd) and openssl are needed")
    cert, key = tmp_path / "broker.pem", tmp_path / "broker.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    passwords = tmp_path / "passwords"
    for user, password in (("club", "clubpass"), ("table1", "s3cret")):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if user == "club" else []), str(passwords), user, password],
                       check=True, capture_output=True)
    broker = Mosquitto(tmp_path, f"allow_anonymous false\npassword_file {passwords}\n"
                                 f"certfile {cert}\nkeyfile {key}\n")
    broker.start()
    yield broker, cert
    broker.stop()


def test_a_table_with_credentials_over_tls_reaches_the_club_and_a_wrong_password_is_refused(secure_broker, tmp_path):
    broker, cert = secure_broker
    url = f"mqtts://127.0.0.1:{broker.port}"
    problems: list[str] = []
    club_spec = parse_club({"broker": url, "username": "club", "password": "clubpass", "ca_file": str(cert)}, problems)
    good = parse_club({"broker": url, "table": "T1", "username": "table1", "password": "s3cret",
                       "ca_file": str(cert)}, problems)
    bad = parse_club({"broker": url, "table": "T2", "username": "table1", "password": "guess",
                      "ca_file": str(cert)}, problems)
    assert not problems
    store = ClubStore(tmp_path / "club.sqlite")
    server = ClubServer(club_spec.broker, "club", store).start()
    try:
        assert server.connected.wait(10)
        intruder = ClubPublisher(bad, tmp_path / "T2" / "journal.sqlite")
        result = run_demo("cribbage", input_kind="rfid", seed=2, out_dir=tmp_path / "T2", displays=[intruder])
        assert result.agrees                               # the table played on without its club
        table = ClubPublisher(good, tmp_path / "T1" / "journal.sqlite")
        result = run_demo("cribbage", input_kind="rfid", seed=2, out_dir=tmp_path / "T1", displays=[table])
        wait_until(lambda: "T1" in server.state.tables and server.state.tables["T1"]["view"].get("finished"))
        assert "T2" not in server.state.tables
        assert tuple(s["score"] for s in server.state.tables["T1"]["view"]["seats"]) == result.scores
    finally:
        server.close()
        store.close()
