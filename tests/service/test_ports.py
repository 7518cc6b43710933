"""One door to storage, split by aggregate (issue 37): the ``Repository`` port is the
union of narrow ports (matches and plies, leases and clocks, the outbox, ladders,
settings, comforts, tournaments, seasons), none wider than 15 operations, and every
operation belongs to exactly one of them."""

from __future__ import annotations

import inspect

from service.ports import Repository

LIMIT = 15


def _aggregates() -> list[type]:
    return [c for c in Repository.__mro__[1:]
            if c.__name__.endswith(("Store", "Repository")) and c is not Repository]


def _operations(port: type) -> set[str]:
    return {name for name, member in vars(port).items()
            if not name.startswith("_") and inspect.isfunction(member)}


def test_the_repository_is_the_union_of_narrow_ports() -> None:
    ports = _aggregates()
    assert len(ports) >= 8, [p.__name__ for p in ports]
    for port in ports:
        assert 0 < len(_operations(port)) <= LIMIT, (port.__name__, sorted(_operations(port)))
    # nothing but its own lifetime is declared on the union itself
    assert _operations(Repository) == {"close"}
    seen: dict[str, str] = {}
    for port in ports:
        for op in _operations(port):
            assert op not in seen, f"{op} is in {seen.get(op)} and {port.__name__}"
            seen[op] = port.__name__
