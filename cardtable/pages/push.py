"""Server-sent events: a :class:`Broadcaster` fans messages from any thread out to every
listening HTTP response, and :func:`event_stream` writes them in the ``text/event-stream`` format.

Each message is ``(event, data, at)``: the event's name, its JSON text and the wall-clock time it
happened. A listener first gets the latest message of each ``retained`` event name (the current
view), then every new one. A listener that falls far behind loses its oldest messages rather than
holding the server's memory.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

BACKLOG = 512          # messages a slow listener may hold before its oldest are dropped
KEEPALIVE = 15.0       # seconds between comments that keep proxies from closing an idle stream


@dataclass(frozen=True)
class Message:
    event: str
    data: str
    at: float


def make_message(event: str, data: dict | list, at: float | None = None) -> Message:
    return Message(event, json.dumps(data, separators=(",", ":")), time.time() if at is None else at)


class Broadcaster:
    """Thread-safe fan-out of messages to asyncio listeners."""

    def __init__(self, retained: tuple[str, ...] = ()) -> None:
        self._lock = threading.Lock()
        self._listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()
        self._retained_names = set(retained)
        self.retained: dict[str, Message] = {}
        self.closed = False

    def send(self, event: str, data: dict | list, at: float | None = None) -> Message:
        message = make_message(event, data, at)
        with self._lock:
            if event in self._retained_names:
                self.retained[event] = message
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(_offer, queue, message)
            except RuntimeError:                       # that listener's loop has closed
                with self._lock:
                    self._listeners.discard((loop, queue))
        return message

    def close(self) -> None:
        """End every stream."""
        with self._lock:
            self.closed = True
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(_offer, queue, None)
            except RuntimeError:
                pass

    async def listen(self, snapshot: Callable[[], list[Message]] | None = None) -> AsyncIterator[Message]:
        """The retained messages (or ``snapshot()``'s, taken once listening), then each new
        message, until :meth:`close`."""
        queue: asyncio.Queue = asyncio.Queue()
        key = (asyncio.get_running_loop(), queue)
        with self._lock:
            backlog = list(self.retained.values())
            self._listeners.add(key)
        if snapshot is not None:
            backlog = snapshot()
        try:
            for message in backlog:
                yield message
            while not self.closed:
                message = await queue.get()
                if message is None:
                    return
                yield message
        finally:
            with self._lock:
                self._listeners.discard(key)


def _offer(queue: asyncio.Queue, message: Message | None) -> None:
    while queue.qsize() >= BACKLOG:
        queue.get_nowait()
    queue.put_nowait(message)


async def event_stream(broadcaster: Broadcaster, *, delay: float = 0.0,
                       snapshot: Callable[[], list[Message]] | None = None) -> AsyncIterator[str]:
    """``text/event-stream`` chunks of the broadcaster's messages, each held back until ``delay``
    seconds after it happened (a streaming overlay's delay)."""
    yield ": cardtable\n\n"
    messages = broadcaster.listen(snapshot)
    pending: asyncio.Task | None = None
    try:
        while True:
            pending = pending or asyncio.ensure_future(anext(messages))
            done, _ = await asyncio.wait({pending}, timeout=KEEPALIVE)
            if not done:
                yield ": keepalive\n\n"
                continue
            try:
                message = pending.result()
            except StopAsyncIteration:
                return
            pending = None
            wait = message.at + delay - time.time()
            if delay and wait > 0:
                await asyncio.sleep(wait)
            yield f"event: {message.event}\ndata: {message.data}\n\n"
    finally:
        if pending is not None:
            pending.cancel()
            try:
                await pending
            except (asyncio.CancelledError, StopAsyncIteration):
                pass
        await messages.aclose()
