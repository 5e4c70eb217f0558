"""Who watches which document resource, and telling them after each change.

Two protocol generations: a 2025-11-25 client sends ``resources/subscribe`` and gets
``notifications/resources/updated`` on its connection; a 2026-07-28 client opens a
``subscriptions/listen`` stream naming the URIs, fed from the SDK's subscription bus. Both are
checked against session ownership first (tools/runtime/protocol/resources.py ``owned``): nobody watches a
document they could not read.
"""
from __future__ import annotations

import threading
from collections import Counter

from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated

from tools.runtime.protocol import resources


class Watchers:
    def __init__(self):
        self._legacy: dict[str, dict[int, tuple[object, set[str]]]] = {}  # session -> id(conn) -> (conn, uris)
        self._listened: Counter[str] = Counter()  # URIs named by open listen streams
        self._guard = threading.Lock()
        self.bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self.bus)

    def subscribe(self, connection, target: resources.Target) -> None:
        with self._guard:
            conns = self._legacy.setdefault(target.session_id, {})
            fresh = id(connection) not in conns
            conns.setdefault(id(connection), (connection, set()))[1].add(target.uri)
        if fresh and getattr(connection, "exit_stack", None) is not None:
            connection.exit_stack.callback(self._forget, target.session_id, connection)

    def unsubscribe(self, connection, target: resources.Target) -> None:
        with self._guard:
            entry = self._legacy.get(target.session_id, {}).get(id(connection))
            if entry is not None:
                entry[1].discard(target.uri)

    def _forget(self, session_id: str, connection) -> None:
        with self._guard:
            self._legacy.get(session_id, {}).pop(id(connection), None)

    async def listen(self, services, caller, ctx, params):
        """subscriptions/listen: the SDK's handler, after the ownership check of every URI."""
        uris = list(params.notifications.resource_subscriptions or ())
        for uri in uris:
            resources.owned(services, caller, resources.parse(uri))
        with self._guard:
            self._listened.update(uris)
        try:
            return await self._listen(ctx, params)
        finally:
            with self._guard:
                self._listened.subtract(uris)
                self._listened += Counter()  # drop zero counts

    async def changed(self, session_ids) -> None:
        """After a call changed these sessions: every watcher of one of their URIs hears of it."""
        for sid in session_ids:
            prefix = resources.PREFIX + sid
            with self._guard:
                legacy = [(c, sorted(u)) for c, u in self._legacy.get(sid, {}).values()]
                listened = [u for u in self._listened if u == prefix or u.startswith(prefix + "/")]
            for connection, uris in legacy:
                for uri in uris:
                    await connection.notify("notifications/resources/updated", {"uri": uri})
            for uri in listened:
                await self.bus.publish(ResourceUpdated(uri=uri))
