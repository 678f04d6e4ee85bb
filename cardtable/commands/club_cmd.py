"""``cardtable club serve --broker mqtt://HOST:PORT``: the club's page, every table live;
``cardtable club key TABLE``: a new signing key for a table (:mod:`cardtable.club.signing`)."""

from __future__ import annotations

import signal
import threading

KEYS = "~/.config/cardtable/club-keys"


def register(subparsers) -> None:
    parser = subparsers.add_parser("club", help="a club of tables on one MQTT broker")
    commands = parser.add_subparsers(dest="club_command", metavar="COMMAND", required=True)
    serve = commands.add_parser("serve", help="serve the club's page: every table live, and the standings")
    serve.add_argument("--broker", required=True, help="the club's broker, e.g. mqtt://127.0.0.1:1883")
    serve.add_argument("--club", default="club", help="the club's name on the broker (default 'club')")
    serve.add_argument("--port", type=int, default=8090, help="the page's port (default 8090)")
    serve.add_argument("--host", default="0.0.0.0", help="the page's address (default: every interface)")
    serve.add_argument("--db", default="~/.local/share/cardtable/club.sqlite",
                       help="the club's own SQLite file (default ~/.local/share/cardtable/club.sqlite)")
    serve.add_argument("--username", default="", help="the broker's user name, if it asks for one")
    serve.add_argument("--password", default="", help="the broker's password")
    serve.add_argument("--keys", default=None, metavar="FOLDER",
                       help=f"the tables' keys, one TABLE.key file each (made by 'cardtable club key'; e.g. {KEYS}); "
                            "only signed games count in the standings")
    serve.set_defaults(func=run_serve)
    key = commands.add_parser("key", help="make a table's signing key, for the table and the club")
    key.add_argument("table", help="the table's name in the club, e.g. T1")
    key.add_argument("--folder", default=KEYS, help=f"where to write TABLE.key (default {KEYS})")
    key.set_defaults(func=run_key)


def run_key(args) -> int:
    from pathlib import Path

    from cardtable.club.signing import new_key_file
    from cardtable.club.spec import check_name
    from engine.errors import InvalidInput

    problems: list[str] = []
    table = check_name(args.table, "TABLE", problems, "")
    if problems:
        raise InvalidInput(problems[0])
    path = new_key_file(Path(args.folder) / f"{table}.key")
    print(f"Made the key of table {table}: {path} (readable by you only).\n"
          f"  On the table: copy it there (readable by the service's user only) and add to [club]:\n"
          f"    table = \"{table}\"\n    key_file = \"{path}\"\n"
          f"  On the club: keep it in the folder given to 'cardtable club serve --keys {path.parent}'.\n"
          "  Whoever has the file can publish as this table: keep it off the broker and out of backups you share.")
    return 0


def run_serve(args) -> int:
    from cardtable.club.server import ClubServer, create_club_app
    from cardtable.club.signing import read_keys
    from cardtable.club.spec import check_name, parse_broker
    from cardtable.club.store import ClubStore
    from cardtable.pages.server import WebServer
    from engine.errors import InvalidInput

    problems: list[str] = []
    club = check_name(args.club, "--club", problems, "")
    if problems:
        raise InvalidInput(problems[0])
    broker = parse_broker(args.broker, username=args.username, password=args.password)
    keys = read_keys(args.keys) if args.keys else {}
    store = ClubStore(args.db)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    server = ClubServer(broker, club, store, keys=keys, on_notice=lambda text: print(f"! {text}", flush=True)).start()
    page = WebServer(create_club_app(server.state), args.host, args.port, name="club").start()
    print(f'The club\'s page: {page.url}/  (the club "{club}" on the broker {args.broker}, kept in {store.path})',
          flush=True)
    print(f"Tables whose games count: {', '.join(sorted(keys))}" if keys else
          "No table keys (--keys): every table is shown, but no game counts in the standings; "
          "make keys with 'cardtable club key TABLE'", flush=True)
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        page.close()
        store.close()
    return 0
