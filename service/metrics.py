"""The server's Prometheus metrics (`serve --metrics-port`), kept here so that the pool and
the hint cache only count, in plain numbers read at each scrape, and know nothing of
Prometheus. Each server has a registry of its own, not the process's global one, so that
several servers in one process (the tests) do not share their counts.

A call about no one game (GetServerInfo, a position of no known game) has the game "".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily
from prometheus_client.metrics_core import Metric

from service.hint_cache import HintCache
from service.pool import WorkerPool
from service.tls import ServerTls

# from a cached hint (under a millisecond) to a search at the default limit (60 s)
_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    """One server's metrics; `serve()` exposes them on a port of their own."""

    def __init__(self, pool: WorkerPool, cache: HintCache) -> None:
        self.registry = CollectorRegistry()
        self._calls = Counter("fortress_solver_calls", "Calls answered, by final status",
                              ("method", "game", "status"), registry=self.registry)
        self._seconds = Histogram("fortress_solver_call_seconds", "Time to answer a call",
                                  ("method", "game"), buckets=_BUCKETS, registry=self.registry)
        Gauge("fortress_solver_queue_depth", "Calls waiting for a worker",
              registry=self.registry).set_function(lambda: pool.waiting)
        Gauge("fortress_solver_workers_busy", "Workers running a job",
              registry=self.registry).set_function(lambda: pool.busy)
        self.registry.register(_CacheCollector(cache))
        self._serving: tuple[WSGIServer, threading.Thread] | None = None

    def observe(self, method: str, game: str | None, status: str, seconds: float) -> None:
        """Count one finished call."""
        self._calls.labels(method, game or "", status).inc()
        self._seconds.labels(method, game or "").observe(seconds)

    def serve(self, host: str, port: int, tls: ServerTls | None = None) -> int:
        """Serve /metrics on its own thread, over HTTPS with the server's certificate
        (and client CA) when it has one; the port bound (0 picks a free one)."""
        secure: dict[str, Any] = {} if tls is None else {
            "certfile": str(tls.cert), "keyfile": str(tls.key),
            "client_cafile": None if tls.client_ca is None else str(tls.client_ca),
            "client_auth_required": tls.client_ca is not None}
        self._serving = start_http_server(port, addr=host, registry=self.registry, **secure)
        return int(self._serving[0].server_port)

    def stop(self) -> None:
        if self._serving is not None:
            server, thread = self._serving
            server.shutdown()
            server.server_close()
            thread.join()


class _CacheCollector:
    """The hint cache's lookups, read from its own counts at each scrape."""

    def __init__(self, cache: HintCache) -> None:
        self._cache = cache

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily("fortress_solver_hint_cache_hits",
                                  "Hint lookups answered from the cache", self._cache.hits)
        yield CounterMetricFamily("fortress_solver_hint_cache_misses",
                                  "Hint lookups the cache could not answer", self._cache.misses)
