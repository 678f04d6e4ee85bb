"""A cap on what a request may send: :class:`BodyLimit` wraps an ASGI app (the table's page, the
club's page) and answers 413 to any request whose body is longer than the cap, whatever its route.

It reads the body as it arrives and stops at the cap (a ``Content-Length`` over the cap is refused
before a byte of the body is read), so a client sending hundreds of megabytes costs the server no
more than the cap. The app then reads the body it was given as usual.
"""

from __future__ import annotations

MAX_BODY = 16 * 1024      # the owner's start form is well under 1 kB


class BodyLimit:
    """ASGI middleware: bodies over ``limit`` bytes get "413 Content Too Large"."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await self._refuse(send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":           # the client went away
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(send)
                return
            more = message.get("more_body", False)
        body = b"".join(chunks)
        given = False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send) -> None:
        text = f"The request is too long: at most {self.limit} bytes are taken.".encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(text)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": text})
