"""The service is composed, not inherited (issue 37, step 2): ``MatchService`` is a
façade over parts that receive their collaborators, and no class of ``service/`` builds
on another one of ours, but for errors (a typed family) and Protocols (ports)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import service
from service import MatchService
from service.core import ServiceCore


def service_classes() -> list[type]:
    """Every class defined in a module of the ``service`` package."""
    found = []
    for info in pkgutil.walk_packages(service.__path__, "service."):
        module = importlib.import_module(info.name)
        found += [c for c in vars(module).values()
                  if inspect.isclass(c) and c.__module__ == module.__name__]
    return found


def is_ours(cls: type) -> bool:
    return cls.__module__ == "service" or cls.__module__.startswith("service.")


def test_no_service_class_inherits_from_another_but_errors_and_protocols() -> None:
    classes = service_classes()
    assert MatchService in classes and ServiceCore in classes
    inherited = []
    for cls in classes:
        for base in cls.__bases__:
            if not is_ours(base):
                continue
            error = issubclass(cls, BaseException)
            protocol = bool(getattr(cls, "_is_protocol", False)) \
                and bool(getattr(base, "_is_protocol", False))
            if not (error or protocol):
                inherited.append(f"{cls.__module__}.{cls.__name__}({base.__name__})")
    assert inherited == []
    assert [c.__name__ for c in classes if c.__name__.endswith("Mixin")] == []


def test_the_facade_is_one_class_over_its_parts() -> None:
    assert MatchService.__mro__ == (MatchService, object)
    assert ServiceCore.__mro__ == (ServiceCore, object)


async def test_each_operation_is_handed_to_a_part_the_facade_built(
        service: MatchService) -> None:
    """The parts are plain objects built once per service, each holding the one shared
    core; every public operation of the façade names the part it hands over to."""
    parts = {name: part for name, part in vars(service).items()
             if name.startswith("_") and type(part).__module__.startswith("service.")}
    assert len(parts) == 19  # Digests (42), Explorer, Importer, Puzzles (44), Pauses (43),
    # Background (the stop's wait for the writes after a match's end), Blocks
    for part in parts.values():
        assert type(part).__mro__ == (type(part), object)
    delegated = 0
    for name, method in inspect.getmembers(MatchService, inspect.isfunction):
        if name.startswith("_") or name in ("sweep", "sweepers", "stats",
                                            "get_guild_settings"):
            continue
        source = inspect.getsource(inspect.unwrap(method))
        assert any(f"self.{part}.{name}(" in source for part in parts), name
        delegated += 1
    assert delegated >= 85
    # the sweep and the reactions are data built from the parts
    assert [type(s.__self__).__name__ for s in service.sweepers()] == [
        "Comforts", "Deadlines", "Tournaments", "Seasons", "Computers", "Digests", "Puzzles",
        "Puzzles", "Explorer"]
    assert [type(s.__self__).__name__ for s in service.core.subscribers] == [
        "Tournaments", "Explorer", "Importer", "Computers"]
