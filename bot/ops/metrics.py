"""What Tablero tells Prometheus: one :class:`Metrics` per process, its own registry.

The adapters and the wiring measure (the Discord interactions, the outbox's deliveries,
the deadline sweep, the engine's pool, the web's requests); the readiness check sets the
outbox and shard gauges when it runs (``bot.ops.health``); what storage counted since it
opened (moves stored, refusals by kind) is read at each scrape (:class:`StoreCollector`).
Labels are few and bounded: a command's name, an outcome, a route, a game's key, a
shard's number; never a user, a server or a match.

>>> m = Metrics()
>>> m.interaction("move", "ok", 0.05)
>>> b"tablero_interactions_total{command=\\"move\\",outcome=\\"ok\\"} 1.0" in m.scrape()
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

M = TypeVar("M", Counter, Gauge, Histogram)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""What ``/metrics`` answers with (Prometheus' text format)."""

OUTCOMES = ("ok", "refused", "unavailable", "failed")
"""An interaction's outcome: answered as asked; refused with a reason (a rule, a scope,
an illegal move); refused because the database was unavailable; an unexpected error."""

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: an interaction must be acknowledged within Discord's 3 s."""

SEARCH_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Seconds: a search's budget is 2 s by default (``TABLERO_ENGINE_SECONDS``, up to 60)."""

_LABEL = re.compile(r"[^A-Za-z0-9_ -]")


def label_value(text: str, limit: int = 40, *, lower: bool = True) -> str:
    """``text`` fit for a label value: lower case, plain characters, bounded, so no input
    can grow the number of series (a command's name comes from a registered tree, yet is
    cut all the same).

    >>> label_value("Tournament Create"), label_value("x" * 99)[-3:], label_value("é/")
    ('tournament create', 'xxx', '__')
    """
    return _LABEL.sub("_", text.lower() if lower else text)[:limit] or "unknown"


@runtime_checkable
class StoreCounts(Protocol):
    """What a repository counted since it opened (``storage``): the moves it stored by
    game, and the requests it refused by the kind of storage error."""

    @property
    def moves_stored(self) -> Mapping[str, int]: ...

    @property
    def refusals(self) -> Mapping[str, int]: ...


class StoreCollector(Collector):
    """``tablero_moves_total`` and ``tablero_storage_errors_total``, read at each scrape
    from the repository's own counts (nothing is copied between scrapes)."""

    def __init__(self, counts: Callable[[], StoreCounts | None]) -> None:
        self.counts = counts

    def collect(self) -> Iterable[Metric]:
        counts = self.counts()
        moves = CounterMetricFamily("tablero_moves", "Moves stored, by game.",
                                    labels=["game"])
        errors = CounterMetricFamily(
            "tablero_storage_errors", "Requests the database refused, by the kind of "
            "storage error (DatabaseUnreachable, DatabaseFull, ...).", labels=["kind"])
        if counts is not None:
            for game, n in sorted(counts.moves_stored.items()):
                moves.add_metric([label_value(game)], n)
            for kind, n in sorted(counts.refusals.items()):
                errors.add_metric([label_value(kind, lower=False)], n)
        yield moves
        yield errors

    def describe(self) -> Iterable[Metric]:
        return []


WEB_PROCESS = frozenset({
    "tablero_web_requests_total", "tablero_web_request_seconds", "tablero_ready",
    "tablero_ready_condition", "tablero_moves_total", "tablero_storage_errors_total"})
"""What ``tablero web`` alone measures (its pages, its readiness, what its storage
counted): it runs no Discord interactions, outbox, deadline sweep, engine or shards, so
their metrics, always zero there, are not exported."""


class Metrics:
    """Every metric of one process, in its own registry (tests build several bots in
    one process; none shares a series with another). ``web_process``: only what
    ``tablero web`` measures (:data:`WEB_PROCESS`); the bot's process measures all."""

    def __init__(self, *, web_process: bool = False) -> None:
        self.registry = CollectorRegistry()
        self.schema: dict[str, tuple[str, ...]] = {
            "tablero_moves_total": ("game",), "tablero_storage_errors_total": ("kind",)}
        """Each metric name a scrape shows and its labels (``_total`` for counters)."""
        self._exported = WEB_PROCESS if web_process else None
        """The metrics registered (None: all); the others are still recorded if called."""
        self.interactions = self._metric(Counter,
            "tablero_interactions", "Discord interactions answered (slash commands, "
            "context menus and buttons), by command and outcome.", ["command", "outcome"])
        self.move_seconds = self._metric(Histogram,
            "tablero_move_seconds", "Time to handle /move, from the interaction's arrival "
            "to its answer.", buckets=LATENCY_BUCKETS)
        self.outbox_backlog = self._metric(Gauge,
            "tablero_outbox_backlog", "Outbox entries waiting for delivery (of this "
            "process's shards) when last looked at.")
        self.outbox_oldest_age = self._metric(Gauge,
            "tablero_outbox_oldest_age_seconds", "Age of the oldest undelivered outbox "
            "entry (0 when none waits).")
        self.deliveries = self._metric(Counter,
            "tablero_deliveries", "Messages posted by the outbox's delivery, by route "
            "(thread, channel, dm, admins).", ["route"])
        self.delivery_failures = self._metric(Counter,
            "tablero_delivery_failures", "Posts Discord refused or that failed, by kind "
            "(rate_limited, server_error, connection: retried; forbidden, not_found, "
            "archived, dms_closed, other: the ladder moves on).", ["kind"])
        self.sweep_seconds = self._metric(Histogram,
            "tablero_sweep_duration_seconds", "Time one deadline sweep took.",
            buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0))
        self.sweep_last_success = self._metric(Gauge,
            "tablero_sweep_last_success_timestamp_seconds", "When the last deadline sweep "
            "finished without error (Unix time).")
        self.sweeps = self._metric(Counter,
            "tablero_sweeps", "Deadline sweeps, by outcome (ok, unavailable, failed, "
            "skipped: disconnected or backing off).", ["outcome"])
        self.engine_waiting = self._metric(Gauge,
            "tablero_engine_queue_depth", "Computer searches waiting for a free worker "
            "process.")
        self.engine_seconds = self._metric(Histogram,
            "tablero_engine_search_seconds", "Time a computer search took (its budget "
            "and any retry).", buckets=SEARCH_BUCKETS)
        self.computer_turns = self._metric(Gauge,
            "tablero_computer_games_thinking", "Games whose computer player is searching "
            "its move now.")
        self.shard_leases = self._metric(Gauge,
            "tablero_shard_leases_held", "Shards whose lease this process holds in the "
            "database.")
        self.shard_ready = self._metric(Gauge,
            "tablero_shard_ready", "1 when the shard is connected to Discord and ready.",
            ["shard"])
        self.ready = self._metric(Gauge,
            "tablero_ready", "1 when /readyz answers 200 (every condition holds).")
        self.condition = self._metric(Gauge,
            "tablero_ready_condition", "1 when a readiness condition holds (database, "
            "shards, sweep, outbox), 0 when it fails.", ["condition"])
        self.web_requests = self._metric(Counter,
            "tablero_web_requests", "Requests to the web pages, by route and status "
            "class.", ["route", "status"])
        self.web_seconds = self._metric(Histogram,
            "tablero_web_request_seconds", "Time to answer a web request (a live "
            "stream: until it closes), by route.", ["route"], buckets=LATENCY_BUCKETS)
        self.store: StoreCounts | None = None
        self.registry.register(StoreCollector(lambda: self.store))
        ProcessCollector(registry=self.registry)

    def _metric(self, kind: type[M], name: str, doc: str, labels: Sequence[str] = (),
                **options: Any) -> M:
        key = f"{name}_total" if kind is Counter else name
        if self._exported is not None and key not in self._exported:
            return kind(name, doc, labels, registry=None, **options)  # never exported
        self.schema[key] = tuple(labels)
        return kind(name, doc, labels, registry=self.registry, **options)

    # ------------------------------------------------------------------ recording

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """An interaction was answered: counted; ``/move``'s time goes to its histogram."""
        name = label_value(command)
        self.interactions.labels(command=name, outcome=outcome).inc()
        if name == "move":
            self.move_seconds.observe(seconds)

    def delivered(self, route: str) -> None:
        self.deliveries.labels(route=route).inc()

    def delivery_failed(self, kind: str) -> None:
        self.delivery_failures.labels(kind=kind).inc()

    def swept(self, outcome: str, seconds: float | None = None,
              finished_at: float | None = None) -> None:
        """A sweep ended with ``outcome`` after ``seconds``; ``finished_at`` (Unix time)
        when it succeeded."""
        self.sweeps.labels(outcome=outcome).inc()
        if seconds is not None:
            self.sweep_seconds.observe(seconds)
        if finished_at is not None:
            self.sweep_last_success.set(finished_at)

    def web_request(self, route: str, status: int, seconds: float) -> None:
        self.web_requests.labels(route=route, status=f"{status // 100}xx").inc()
        self.web_seconds.labels(route=route).observe(seconds)

    def scrape(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)
