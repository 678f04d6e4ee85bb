"""Serving an ASGI app with uvicorn from a background thread, for as long as the table runs."""

from __future__ import annotations

import socket
import threading
import time


class WebServer:
    """``start()`` listens on ``host:port`` (port 0: a free one, read back from :attr:`port`);
    ``close()`` stops it. A port already taken is said in words, not a traceback."""

    def __init__(self, app, host: str = "0.0.0.0", port: int = 8080, *, name: str = "web") -> None:
        import uvicorn

        self.host = host
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
        except OSError as err:
            self.sock.close()
            raise OSError(f"the {name} page cannot listen on {host}:{port}: {err.strerror}") from None
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name=f"{name}-server", daemon=True)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self.server.started:
            raise OSError(f"the page at {self.url} did not start")
        return self

    def close(self) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.sock.close()
