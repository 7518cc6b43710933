"""Players' time zones resolve where the system has no time zone database (a slim container
image, Windows): the ``tzdata`` package is a dependency and ``zoneinfo`` falls back to it."""

from __future__ import annotations

import subprocess
import sys

# zoneinfo.reset_tzpath(()) leaves no system directory to search: only the tzdata package
SCRIPT = """
import zoneinfo
zoneinfo.reset_tzpath(())
from service.weekends import checked_zone, zone_names, zone_of
from datetime import datetime, timezone
print(checked_zone("europe/madrid"), len(zone_names()) > 300,
      datetime(2026, 7, 1, 12, tzinfo=timezone.utc).astimezone(zone_of("Europe/Madrid")).hour)
"""


def test_time_zones_resolve_without_the_system_database() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    assert out == ["Europe/Madrid", "True", "14"]  # summer time: UTC+2
