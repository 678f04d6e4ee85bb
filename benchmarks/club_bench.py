"""Club benchmark: many tables through one Mosquitto to one ``cardtable club serve``, and what
one finished-game record costs the club as the games add up.

Run: ``.venv/bin/python benchmarks/club_bench.py [--tables 256] [--seconds 20] [--games 10000] [--quick]
[--records-only]``

Records (first, in this process): ``--games`` finished Cribbage records from ``--tables`` tables,
each signed with its table's key, go through :meth:`cardtable.club.server.ClubState.receive` (the
signature checked, the record cut down, stored in SQLite, the standings kept, the pages pushed to)
and the records processed per CPU second are printed per thousand games: flat, however many games
came before. In the same run the old way (the standings counted afresh from every finished game on
each record, and pushed each time) over the first ``--naive-games`` records: it slows down as the
games add up. Then a flood: ``--flood`` of those records published as fast as one client can
through Mosquitto to ``cardtable club serve --keys``: how long until its page's standings hold every
game, and the club server's CPU seconds.

A whole bot Cribbage game is played once through the real controller and journal, and each view
it showed (with the game's public record whenever its scoring changed) is kept. Simulated tables
then publish those messages through the real :class:`cardtable.club.link.TableLink` (one MQTT
connection each, in worker processes), at a real table's rate (a view every 5 seconds: a
Cribbage game is about 130 accepted actions in 20 to 30 minutes, plus the cards seen on the way)
and at 10 times that. The club server runs as its own process (``cardtable club serve``); a
reader of its page's event stream measures, for every message a table published, the time from
the table's event to the page receiving it, and counts what never arrived. The club server's CPU
(user + system time over wall time, in cores) and resident memory are read from ``/proc``.

The naive design, measured in the same run: each table serves its view over HTTP and one poller
asks every table once a second. Its latency is the wait for the next poll plus the transfer; a
view replaced before the next poll is never seen at all.

Everything is on 127.0.0.1; every phase is bounded by ``--seconds``. Target (issue 15): p95 under
500 ms at 256 tables, under 1 core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable.table.journalled_game import TableSetup
from cardtable.table.table import Table  # noqa: E402
from cardtable.journal import Journal  # noqa: E402
from cardtable.table.outputs import TableOutputs  # noqa: E402
from cardtable.club.server import ClubState  # noqa: E402
from cardtable.club.signing import seal  # noqa: E402
from cardtable.club.standings import standings  # noqa: E402
from cardtable.club.store import ClubStore  # noqa: E402
from cardtable.club.topics import read_message, table_topic  # noqa: E402
from cardtable.pages.push import make_message  # noqa: E402
from cardtable.pages.records import game_record  # noqa: E402
from cardtable.pages.viewdata import view_data  # noqa: E402
from engine.bots import GreedyBot, RandomBot  # noqa: E402
from engine.games import get_game  # noqa: E402

REAL_INTERVAL = 5.0      # seconds between two views of one table at a real table
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


# -- one recorded game ------------------------------------------------------------------------------
class Recorder:
    def __init__(self) -> None:
        self.views: list[dict] = []

    def show(self, view) -> None:
        self.views.append(view_data(view))


def record_game(folder: Path) -> list[tuple[dict, dict | None]]:
    """Each view of a whole Cribbage game, with the game's record when its scoring changed."""
    game = get_game("cribbage")
    steps: list[tuple[dict, dict | None]] = []
    recorder = Recorder()
    with Journal(folder / "journal.sqlite") as journal:
        controller = Table(TableSetup("cribbage", 2, mode="dealer", seed=11), journal,
                                TableOutputs([recorder]), resume=False)
        bots = [RandomBot(random.Random(1)), GreedyBot(random.Random(2))]
        events = 0
        while not controller.game.finished:
            state = controller.game.state
            prompt = game.prompt(state)
            action = (game.legal_actions(state)[0] if prompt.seat is None
                      else bots[prompt.seat].choose(game, state, prompt.seat))
            controller.submit(action)
            record = game_record(journal, journal.game(controller.game.game_id))
            changed = len(record["events"]) != events
            events = len(record["events"])
            steps.append((recorder.views[-1], record if changed else None))
    return steps


# -- resource use of a process ------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Usage:
    """CPU cores used and the largest resident memory of ``pid`` between start and stop."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self._stop = threading.Event()
        self._cpu0, self._t0 = cpu_seconds(pid), time.monotonic()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.peak = max(self.peak, rss_mb(self.pid))

    def stop(self) -> tuple[float, float]:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb(self.pid))
        return (cpu_seconds(self.pid) - self._cpu0) / (time.monotonic() - self._t0), self.peak


# -- the simulated tables ---------------------------------------------------------------------------
def publish_tables(port: int, club: str, names: list[str], steps, interval: float, seconds: float,
                   start: float, sent) -> None:
    """A worker process: one TableLink per table, each publishing the recorded game's messages
    every ``interval`` seconds (tables start at random moments); reports (table, at) sent."""
    from cardtable.club.link import TableLink
    from cardtable.club.spec import Broker

    links = {name: TableLink(Broker("127.0.0.1", port), club, name) for name in names}
    deadline = time.monotonic() + 10
    while not all(link.connected for link in links.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    rng = random.Random(names[0])
    key = next(record["key"] for _, record in steps if record)
    due = sorted((start + rng.uniform(0, interval), name, rng.randrange(len(steps))) for name in names)
    done: list[tuple[str, float]] = []
    end = start + seconds
    while due:
        at, name, index = due.pop(0)
        if at >= end:
            continue
        pause = at - time.time()
        if pause > 0:
            time.sleep(pause)
        view, record = steps[index % len(steps)]
        now = time.time()
        if record is not None:
            links[name].publish("game", {**record, "names": ["A", "B"], "at": now}, record["key"])
        links[name].publish("view", {**view, "key": key, "at": now})
        done.append((name, now))
        next_at = at + interval
        position = next((i for i, d in enumerate(due) if d[0] > next_at), len(due))
        due.insert(position, (next_at, name, index + 1))
    time.sleep(1.0)
    for link in links.values():
        link.close()
    sent.send(done)


class ClubReader(threading.Thread):
    """The club page's event stream: every ``table`` message's (table, at) and when it came."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        self.sock.sendall(b"GET /events HTTP/1.0\r\nHost: club\r\n\r\n")
        self.first: dict[tuple[str, float], float] = {}

    def run(self) -> None:
        buffer = b""
        try:
            while chunk := self.sock.recv(1 << 16):
                now = time.time()
                buffer += chunk
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    if not block.startswith(b"event: table\n"):
                        continue
                    data = json.loads(block.split(b"data: ", 1)[1])
                    self.first.setdefault((data["table"], data["at"]), now)
        except OSError:
            return

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_mqtt(tables: int, interval: float, seconds: float, steps, workers: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        broker_port, page_port = free_port(), free_port()
        (folder / "mosquitto.conf").write_text(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\n"
                                               "persistence false\nmax_connections -1\n")
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", str(folder / "mosquitto.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        club = "bench"
        server = subprocess.Popen(
            [sys.executable, "-m", "cardtable.cli", "club", "serve", "--broker", f"mqtt://127.0.0.1:{broker_port}",
             "--club", club, "--port", str(page_port), "--host", "127.0.0.1", "--db", str(folder / "club.sqlite")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(broker_port)
            wait_port(page_port)
            reader = ClubReader(page_port)
            reader.start()
            names = [f"T{n:03d}" for n in range(tables)]
            start = time.time() + 3.0 + tables / 100
            pipes, processes = [], []
            for w in range(workers):
                receive, send = mp.Pipe(duplex=False)
                process = mp.Process(target=publish_tables, args=(broker_port, club, names[w::workers], steps,
                                                                  interval, seconds, start, send))
                process.start()
                pipes.append(receive)
                processes.append(process)
            time.sleep(max(0.0, start - time.time()))
            usage = Usage(server.pid)
            sent = [item for pipe in pipes for item in pipe.recv()]
            cores, memory = usage.stop()
            for process in processes:
                process.join(10)
            time.sleep(1.0)
            reader.close()
            latencies = [reader.first[key] - key[1] for key in sent if key in reader.first]
            return {"sent": len(sent), "lost": len(sent) - len(latencies), "p50": percentile(latencies, 0.5),
                    "p95": percentile(latencies, 0.95), "cores": cores, "rss": memory}
        finally:
            for process in (server, broker):
                process.terminate()
                process.wait(10)


# -- the naive design: every table polled over HTTP once a second ----------------------------------------
async def serve_tables(tables: int, steps, interval: float, seconds: float, start: float, pipe) -> None:
    """Each table's view at ``GET /`` on a port of its own (sent down ``pipe``); the view changes
    every ``interval`` seconds; at the end, what was shown when goes down ``pipe``."""
    current: dict[int, bytes] = {}
    sent: list[tuple[int, float]] = []

    def handler(port):
        async def answer(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            body = current.get(port, b"null")
            writer.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()
            writer.close()
        return answer

    servers = []
    for _ in range(tables):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        servers.append(await asyncio.start_server(handler(port), sock=sock))
    ports = [server.sockets[0].getsockname()[1] for server in servers]
    pipe.send(ports)
    rng = random.Random(1)

    async def table(port: int) -> None:
        index = rng.randrange(len(steps))
        at = start + rng.uniform(0, interval)
        while at < start + seconds:
            await asyncio.sleep(max(0.0, at - time.time()))
            now = time.time()
            view, _ = steps[index % len(steps)]
            current[port] = json.dumps({**view, "table": port, "at": now}).encode()
            sent.append((port, now))
            index += 1
            at += interval
    await asyncio.gather(*(table(port) for port in ports))
    await asyncio.sleep(1.5)
    for server in servers:
        server.close()
    pipe.send(sent)


def naive_tables(tables, steps, interval, seconds, start, pipe) -> None:
    asyncio.run(serve_tables(tables, steps, interval, seconds, start, pipe))


async def poll_tables(ports: list[int], seconds: float, start: float, box: dict) -> None:
    """The naive club: asks every table for its view once a second."""
    first: dict[tuple[int, float], float] = {}

    async def ask(port: int) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.0\r\nHost: table\r\n\r\n")
            data = await reader.read()
            writer.close()
            view = json.loads(data.split(b"\r\n\r\n", 1)[1])
            if view:
                first.setdefault((view["table"], view["at"]), time.time())
        except (OSError, ValueError):
            pass
    await asyncio.sleep(max(0.0, start - time.time()))
    tick = time.time()
    while tick < start + seconds + 1.5:
        await asyncio.gather(*(ask(port) for port in ports))
        tick += 1.0
        await asyncio.sleep(max(0.0, tick - time.time()))
    box["first"] = first


def naive_poller(ports, seconds, start, pipe) -> None:
    box: dict = {}
    asyncio.run(poll_tables(ports, seconds, start, box))
    pipe.send(box["first"])


def run_naive(tables: int, interval: float, seconds: float, steps) -> dict:
    start = time.time() + 3.0
    tables_in, tables_out = mp.Pipe(duplex=False)
    poll_in, poll_out = mp.Pipe(duplex=False)
    server = mp.Process(target=naive_tables, args=(tables, steps, interval, seconds, start, tables_out))
    server.start()
    ports = tables_in.recv()
    poller = mp.Process(target=naive_poller, args=(ports, seconds, start, poll_out))
    poller.start()
    time.sleep(max(0.0, start - time.time()))
    usage = Usage(poller.pid)
    first = poll_in.recv()
    cores, memory = usage.stop()
    sent = tables_in.recv()
    server.join(10)
    poller.join(10)
    latencies = [first[key] - key[1] for key in sent if key in first]
    return {"sent": len(sent), "lost": len(sent) - len(latencies), "p50": percentile(latencies, 0.5),
            "p95": percentile(latencies, 0.95), "cores": cores, "rss": memory}


# -- what one finished-game record costs the club ------------------------------------------------------
def finished_records(steps, tables: int, games: int) -> list[tuple[str, bytes]]:
    """``games`` signed (topic, payload) pairs: the recorded game's final record, played at
    ``tables`` tables by players drawn from a club of 600, with its scores and winner varied."""
    final = next(record for _, record in reversed(steps) if record)
    rng = random.Random(5)
    keys = {f"T{n:03d}": bytes([n % 256]) * 32 for n in range(tables)}
    out = []
    for n in range(games):
        table = f"T{n % tables:03d}"
        loser = rng.randrange(40, 121)
        winner = rng.randrange(2)
        scores = [121, loser] if winner == 0 else [loser, 121]
        key = f"{n // tables + 1}-{1_700_000_000 + n}"
        record = {**final, "key": key, "started": 1_700_000_000.0 + n, "finished": 1_700_000_100.0 + n,
                  "names": [f"Player {rng.randrange(600)}", f"Player {rng.randrange(600)}"],
                  "scores": scores, "winners": [winner], "at": time.time()}
        topic = table_topic("bench", table, "game", key)
        out.append((topic, seal(keys[table], topic, json.dumps(record, separators=(",", ":"))).encode()))
    return out, keys


class OldClub:
    """The old way, as the club did it before: each record stored, and the standings counted
    afresh from every finished game and pushed, on every record."""

    def __init__(self, store: ClubStore, keys) -> None:
        self.store, self.keys = store, keys
        self.finished: dict[tuple[str, str], dict] = {}

    def receive(self, topic: str, payload: bytes) -> None:
        message = read_message(topic, payload, "bench", self.keys)
        record = self.store.save_game(message.table, message.data)
        if record["winners"]:
            self.finished[(message.table, message.key)] = {**record, "table": message.table}
        make_message("standings", standings(list(self.finished.values())))


def records_per_second(club, records, window: int) -> list[float]:
    """Records processed per CPU second (every thread of the process), per ``window`` records."""
    rates = []
    for start in range(0, len(records), window):
        cpu = time.process_time()
        for topic, payload in records[start:start + window]:
            club.receive(topic, payload)
        rates.append(len(records[start:start + window]) / max(time.process_time() - cpu, 1e-9))
    return rates


def run_records(steps, tables: int, games: int, naive_games: int, window: int) -> None:
    records, keys = finished_records(steps, tables, games)
    with tempfile.TemporaryDirectory() as folder:
        store = ClubStore(Path(folder) / "club.sqlite")
        state = ClubState(store, "bench", keys=keys)
        kept = records_per_second(state, records, window)
        time.sleep(0.3)
        ranking = state.rankings()
        state.close()
        store.close()
        old_store = ClubStore(Path(folder) / "old.sqlite")
        old = OldClub(old_store, keys)
        naive = records_per_second(old, records[:naive_games], window)
        old_store.close()
    same = ranking == standings([{**json.loads(json.loads(p)["signed"]), "table": t.split("/")[2]}
                                 for t, p in records])
    players = sum(len(board["rows"]) for board in ranking)
    print(f"club records: {games} finished Cribbage games from {tables} tables ({players} players in the "
          f"standings), signed, through ClubState.receive; records per CPU second per {window} games")
    print(f"{'games so far':>14s} {'kept game by game':>18s} {'old: counted afresh':>20s}")
    for n, rate in enumerate(kept):
        old_rate = f"{naive[n]:20.0f}" if n < len(naive) else f"{'(not run)':>20s}"
        print(f"{n * window:>6d}-{(n + 1) * window:<7d} {rate:18.0f} {old_rate}", flush=True)
    print(f"kept game by game: the last {window} at {kept[-1] / kept[0]:.2f} of the first {window}'s rate, its "
          f"standings {'the same as' if same else 'DIFFERENT from'} all {games} counted afresh; "
          f"the old way: {naive[-1] / naive[0]:.2f} of its first rate after {naive_games}")


def run_flood(records, keys, count: int) -> None:
    """``count`` signed records published at once through a real broker to a real club server."""
    import paho.mqtt.client as mqtt

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "keys").mkdir()
        for table, key in keys.items():
            (folder / "keys" / f"{table}.key").write_text(key.hex())
        broker_port, page_port = free_port(), free_port()
        (folder / "mosquitto.conf").write_text(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\n"
                                               "persistence false\nmax_queued_messages 100000\n")
        broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", str(folder / "mosquitto.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = subprocess.Popen(
            [sys.executable, "-m", "cardtable.cli", "club", "serve", "--broker", f"mqtt://127.0.0.1:{broker_port}",
             "--club", "bench", "--port", str(page_port), "--host", "127.0.0.1", "--db", str(folder / "club.sqlite"),
             "--keys", str(folder / "keys")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(broker_port)
            wait_port(page_port)
            time.sleep(1.0)
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flood")
            client.max_queued_messages_set(0)
            client.connect("127.0.0.1", broker_port)
            client.loop_start()
            cpu0, start = cpu_seconds(server.pid), time.monotonic()
            infos = [client.publish(topic, payload, qos=1) for topic, payload in records[:count]]
            for info in infos:
                info.wait_for_publish(60)
            sent = time.monotonic() - start
            games = 0
            while time.monotonic() - start < 600:
                state = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{page_port}/state.json", timeout=30).read())
                games = sum(r["played"] for board in state["standings"] for r in board["rows"]) // 2
                if games >= count:
                    break
                time.sleep(0.1)
            complete = time.monotonic() - start
            cpu = cpu_seconds(server.pid) - cpu0
            client.loop_stop()
            client.disconnect()
        finally:
            for process in (server, broker):
                process.terminate()
                process.wait(10)
    print(f"flood: {count} signed finished records published in {sent:.1f} s through Mosquitto to club serve; "
          f"its page's standings held {games} games {complete:.1f} s after the first was sent; "
          f"the club server used {cpu:.1f} CPU-s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each phase publishes")
    parser.add_argument("--workers", type=int, default=4, help="processes simulating the tables")
    parser.add_argument("--games", type=int, default=10_000, help="finished-game records for the records phase")
    parser.add_argument("--naive-games", type=int, default=3_000, help="of which the old way processes (it is slow)")
    parser.add_argument("--quick", action="store_true", help="32 tables for 8 seconds, 2000 records (a smoke run)")
    parser.add_argument("--flood", type=int, default=3_000, help="records published at once in the flood phase")
    parser.add_argument("--records-only", action="store_true", help="only the records phase (and the flood)")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.games, args.naive_games = 32, 8.0, 2000, 1000
    with tempfile.TemporaryDirectory() as folder:
        steps = record_game(Path(folder))
    tables = 256 if not args.quick else args.tables
    run_records(steps, tables, args.games, args.naive_games, window=max(100, args.games // 10))
    run_flood(*finished_records(steps, tables, args.flood), args.flood)
    if args.records_only:
        return 0
    print(f"club benchmark: {args.tables} tables, {args.seconds:.0f} s per phase, one recorded Cribbage game "
          f"({len(steps)} views, {sum(1 for _, r in steps if r)} scoring records) played over and over")
    print(f"{'design':34s} {'rate':>5s} {'sent':>6s} {'lost':>5s} {'p50 ms':>7s} {'p95 ms':>7s} "
          f"{'cores':>6s} {'RSS MB':>7s}")
    rows = []
    for label, rate in (("MQTT -> club serve -> page", 1), ("MQTT -> club serve -> page", 10)):
        rows.append((label, rate, run_mqtt(args.tables, REAL_INTERVAL / rate, args.seconds, steps, args.workers)))
        print_row(*rows[-1])
    for rate in (1, 10):
        rows.append(("naive: HTTP poll of each table/s", rate,
                     run_naive(args.tables, REAL_INTERVAL / rate, args.seconds, steps)))
        print_row(*rows[-1])
    mqtt_real = rows[0][2]
    ok = mqtt_real["p95"] < 0.5 and mqtt_real["cores"] < 1.0 and mqtt_real["lost"] == 0
    print(f"target at {args.tables} tables, real rate: p95 < 500 ms, < 1 core, nothing lost: "
          f"{'met' if ok else 'NOT met'}")
    return 0


def print_row(label: str, rate: int, r: dict) -> None:
    print(f"{label:34s} {rate:>4d}x {r['sent']:6d} {r['lost']:5d} {1000 * r['p50']:7.0f} {1000 * r['p95']:7.0f} "
          f"{r['cores']:6.2f} {r['rss']:7.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
