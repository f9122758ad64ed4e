"""The server's Prometheus metrics (`serve --metrics-port`), kept here so that the pool
and the refusals only count, in plain numbers read at each scrape, and know nothing of
Prometheus; a game's handler adds its own collectors (a cache's lookups). Each server
has a registry of its own, not the process's global one, so that several servers in one
process (the tests) do not share their counts.

A call about no one game (GetServerInfo, a position of no known game) has the game "".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, make_asgi_app
from prometheus_client.core import CounterMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from service.pool import WorkerPool
from service.refusals import Refusals

# from a cached hint (under a millisecond) to a search at the default limit (60 s)
_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    """One server's metrics; `serve()` exposes them on a port of their own."""

    def __init__(self, pool: WorkerPool, refusals: Refusals) -> None:
        self.registry = CollectorRegistry()
        self._calls = Counter("fortress_solver_calls", "Calls answered, by final status",
                              ("method", "game", "status"), registry=self.registry)
        self._seconds = Histogram("fortress_solver_call_seconds", "Time to answer a call",
                                  ("method", "game"), buckets=_BUCKETS, registry=self.registry)
        Gauge("fortress_solver_queue_depth", "Calls waiting for a worker",
              registry=self.registry).set_function(lambda: pool.waiting)
        Gauge("fortress_solver_workers_busy", "Workers running a job",
              registry=self.registry).set_function(lambda: pool.busy)
        # the fair sharing of the workers between clients (addresses, or tokens)
        Gauge("fortress_solver_clients_running", "Clients with a search running",
              registry=self.registry).set_function(lambda: pool.shares()[0])
        Gauge("fortress_solver_clients_waiting", "Clients waiting for a worker, none running",
              registry=self.registry).set_function(lambda: pool.shares()[1])
        Gauge("fortress_solver_busiest_client_workers", "Workers held by the busiest client",
              registry=self.registry).set_function(lambda: pool.shares()[2])
        self.registry.register(_RefusalCollector(refusals))

    def register(self, collectors: Iterable[Collector]) -> None:
        """Add collectors of the games' own, each read at every scrape."""
        for collector in collectors:
            self.registry.register(collector)

    def observe(self, method: str, game: str | None, status: str, seconds: float) -> None:
        """Count one finished call."""
        self._calls.labels(method, game or "", status).inc()
        self._seconds.labels(method, game or "").observe(seconds)

    def app(self) -> ASGIApp:
        """The ASGI application that serves them at /metrics (and nothing else)."""
        metrics = make_asgi_app(self.registry)

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http" and scope["path"] == "/metrics":
                await metrics(scope, receive, send)
            else:
                await PlainTextResponse("the metrics are at /metrics\n", 404)(
                    scope, receive, send)

        return app


class _RefusalCollector:
    """The refusals by cause (service/refusals.py), read from their counts at each scrape."""

    def __init__(self, refusals: Refusals) -> None:
        self._refusals = refusals

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily("fortress_solver_refusals",
                                     "Calls and connections refused, by cause", labels=("cause",))
        for cause, count in sorted(self._refusals.counts.items()):
            family.add_metric((cause,), count)
        yield family
