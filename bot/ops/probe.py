"""The container's health check: ``python -m bot.ops.probe`` exits 0 when ``/readyz``
answers 200, else 1 (printing why), within ``--timeout`` seconds. Nothing to install in
the image (no curl in a slim Python). The address: ``--url``, else ``TABLERO_HEALTH_URL``,
else ``/readyz`` on ``TABLERO_METRICS_HOST:TABLERO_METRICS_PORT`` (127.0.0.1 for
every address, ``0.0.0.0``; 9464 when unset).
"""

from __future__ import annotations

import argparse
import os
import sys
import urllib.error
import urllib.request

DEFAULT_PORT = 9464


def health_url(environ: dict[str, str] | os._Environ[str] = os.environ) -> str:
    """Where the probe asks.

    >>> health_url({}), health_url({"TABLERO_METRICS_PORT": "9500"})
    ('http://127.0.0.1:9464/readyz', 'http://127.0.0.1:9500/readyz')
    >>> health_url({"TABLERO_METRICS_HOST": "10.0.0.5"})  # where the endpoints listen
    'http://10.0.0.5:9464/readyz'
    >>> health_url({"TABLERO_HEALTH_URL": "http://127.0.0.1:8080/readyz"})
    'http://127.0.0.1:8080/readyz'
    """
    given = environ.get("TABLERO_HEALTH_URL", "").strip()
    if given:
        return given
    port = environ.get("TABLERO_METRICS_PORT", "").strip() or str(DEFAULT_PORT)
    host = environ.get("TABLERO_METRICS_HOST", "").strip()
    if host in ("", "0.0.0.0", "::"):  # every address: this machine's loopback is one
        host = "127.0.0.1"
    elif ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{port}/readyz"


def probe(url: str, timeout: float) -> tuple[bool, str]:
    """(ready, what it said)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return False, e.read().decode("utf-8", "replace")
    except (OSError, ValueError) as e:
        return False, f"no answer from {url}: {e}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ops.probe",
                                     description="exit 0 when Tablero is ready")
    parser.add_argument("--url", default=None, help="default: TABLERO_HEALTH_URL, else "
                        "/readyz on 127.0.0.1:TABLERO_METRICS_PORT")
    parser.add_argument("--timeout", type=float, default=8.0)
    args = parser.parse_args(argv)
    ready, said = probe(args.url or health_url(), args.timeout)
    if not ready:
        print(said.strip(), file=sys.stderr)
    return 0 if ready else 1


if __name__ == "__main__":
    sys.exit(main())
