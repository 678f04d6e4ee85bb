"""A table's connection to the club's broker (paho-mqtt): the last will says "offline", each
(re)connection says "online" and asks the owner to publish its state again, and messages
published while the broker is away wait in the client until it is back; a link closed then is
given time for its next try, so a broker that is back gets them. Each message carries the
link's ``instance`` (a random id: two tables publishing under one name are told apart) and is
signed with the table's key when it has one (:mod:`cardtable.club.signing`). A broker that cannot
be reached or refuses the table is remembered in :attr:`TableLink.problem`, in words.
"""

from __future__ import annotations

import json
import logging
import ssl
import time
import uuid
from collections.abc import Callable

from cardtable.club.signing import seal
from cardtable.club.spec import Broker
from cardtable.club.topics import table_topic

log = logging.getLogger(__name__)

QUEUE_LIMIT = 5000      # messages held while the broker is away; the state is republished anyway
RETRY = 2.0             # seconds between two tries to reach the broker, at most


def new_client(broker: Broker, client_id: str):
    """A paho client for ``broker`` (credentials and TLS set), reconnecting quickly."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if broker.username:
        client.username_pw_set(broker.username, broker.password or None)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(min_delay=0.2, max_delay=RETRY)
    return client


class TableLink:
    """One table on the broker. ``on_connected`` runs (on paho's thread) after every connection."""

    def __init__(self, broker: Broker, club: str, table: str, *, key: bytes | None = None,
                 on_connected: Callable[[], None] | None = None, on_problem: Callable[[str], None] | None = None,
                 keepalive: int = 10) -> None:
        self.club, self.table, self.key = club, table, key
        self.instance = uuid.uuid4().hex[:12]
        self.on_connected = on_connected
        self.on_problem = on_problem or (lambda text: None)
        self.connected = False
        self.ever_connected = False
        self.problem = ""
        self.broker = broker
        self._last = None
        self.client = new_client(broker, f"cardtable-{club}-{table}-{self.instance}")
        self.client.max_queued_messages_set(QUEUE_LIMIT)
        self.client.will_set(self.topic("status"), "offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_connect_fail = self._failed
        self.client.on_disconnect = self._disconnected
        self.client.connect_async(broker.host, broker.port, keepalive=keepalive)
        self.client.loop_start()

    def topic(self, kind: str, key: str = "") -> str:
        return table_topic(self.club, self.table, kind, key)

    def _connected(self, client, userdata, flags, reason, properties=None) -> None:
        if reason.is_failure:
            self._trouble(f"the broker at {self.broker.host}:{self.broker.port} refused the table: {reason}")
            log.warning("the club's broker refused table %s: %s", self.table, reason)
            return
        if self.problem:
            self.on_problem(f"The club's broker at {self.broker.host}:{self.broker.port} is reached: "
                            "the table is published again")
        self.connected = self.ever_connected = True
        self.problem = ""
        client.publish(self.topic("status"), "online", qos=1, retain=True)
        if self.on_connected:
            self.on_connected()

    def _failed(self, client, userdata) -> None:
        self._trouble(f"the broker at {self.broker.host}:{self.broker.port} cannot be reached")

    def _trouble(self, problem: str) -> None:
        """Remembers ``problem``, and says it (once, until the broker is reached)."""
        if not self.problem:
            self.on_problem(f"The club: {problem}. The table plays on and is published when the broker is "
                            "back; check that mosquitto runs there and [club] broker in the configuration")
        self.problem = problem

    def _disconnected(self, client, userdata, flags, reason, properties=None) -> None:
        self.connected = False
        log.info("table %s lost the club's broker (%s); it reconnects by itself", self.table, reason)

    def publish(self, kind: str, data: dict, key: str = "", *, retain: bool = True) -> None:
        topic = self.topic(kind, key)
        body = json.dumps({**data, "instance": self.instance}, separators=(",", ":"))
        self._last = self.client.publish(topic, seal(self.key, topic, body), qos=1, retain=retain)

    def close(self, timeout: float = RETRY + 1.0) -> None:
        """Let what was published reach the broker, say "offline" (when connected), disconnect.
        A link that is not connected is given ``timeout`` seconds to: one that has not connected
        yet (a short demo) unless the broker cannot be reached, and one that lost the broker, whose
        messages wait in the client for its next try (the broker may be back already)."""
        deadline = time.monotonic() + timeout
        while not self.connected and (self.ever_connected or not self.problem) and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.connected:
            for info in (self._last, self.client.publish(self.topic("status"), "offline", qos=1, retain=True)):
                try:
                    if info is not None:
                        info.wait_for_publish(timeout)
                except (RuntimeError, ValueError):
                    pass
        self.client.disconnect()
        self.client.loop_stop()
