"""``cardtable club serve --broker mqtt://HOST:PORT``: the club's page, every table live."""

from __future__ import annotations

import signal
import threading


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
    serve.set_defaults(func=run_serve)


def run_serve(args) -> int:
    from cardtable.club.server import ClubServer, create_club_app
    from cardtable.club.spec import check_name, parse_broker
    from cardtable.club.store import ClubStore
    from cardtable.web.server import WebServer
    from engine.errors import InvalidInput

    problems: list[str] = []
    club = check_name(args.club, "--club", problems, "")
    if problems:
        raise InvalidInput(problems[0])
    broker = parse_broker(args.broker, username=args.username, password=args.password)
    store = ClubStore(args.db)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    server = ClubServer(broker, club, store).start()
    page = WebServer(create_club_app(server.state), args.host, args.port, name="club").start()
    print(f'The club\'s page: {page.url}/  (the club "{club}" on the broker {args.broker}, kept in {store.path})',
          flush=True)
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        page.close()
        store.close()
    return 0
