"""Issue 41: the files an operator deploys with, read as files: compose.yaml, the
Dockerfile, Prometheus' configuration and alert rules, Grafana's provisioning and
dashboard, the systemd units. Every metric (and label) the alerts and the dashboard use
is one Tablero's registry declares, and every file a service mounts exists."""

from __future__ import annotations

import configparser
import json
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.ops.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"

SELECTOR = re.compile(r"\b(tablero_[a-z_]+)\s*(\{[^}]*\})?")
MATCHER = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)")
GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")
HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")
PROMETHEUS_LABELS = {"instance", "job", "le"}


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def declared() -> dict[str, tuple[str, ...]]:
    """Each metric name a scrape shows, with its labels (histograms with their parts)."""
    schema = dict(Metrics().schema)
    for name, labels in list(schema.items()):
        for part in HISTOGRAM_PARTS:
            schema.setdefault(name + part, (*labels, "le") if part == "_bucket" else labels)
    return schema


def unknown_in(expr: str) -> list[str]:
    """What ``expr`` names that the registry does not declare: metrics, and labels in
    selectors or in ``by (...)`` that none of its metrics carries."""
    schema = declared()
    problems = []
    names = []
    for name, selector in SELECTOR.findall(expr):
        if name not in schema:
            problems.append(f"metric {name}")
            continue
        names.append(name)
        for label in MATCHER.findall(selector or ""):
            if label not in schema[name] and label not in PROMETHEUS_LABELS - {"le"}:
                problems.append(f"label {label} of {name}")
    carried = {label for name in names for label in schema[name]} | PROMETHEUS_LABELS
    for group in GROUPING.findall(expr):
        for label in (g.strip() for g in group.split(",") if g.strip()):
            if label not in carried:
                problems.append(f"label {label} in by ({group})")
    if not names:
        problems.append("no Tablero metric at all")
    return problems


def deploy_metrics() -> set[str]:
    """Every Tablero metric the alert rules and the dashboard use."""
    rules = load_yaml(DEPLOY / "prometheus" / "alerts.yml")
    exprs = [r["expr"] for group in rules["groups"] for r in group["rules"]]
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "tablero.json").read_text())
    exprs += [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    return {name for expr in exprs for name, _ in SELECTOR.findall(expr)}


def test_the_registry_declares_what_a_scrape_shows() -> None:
    class Store:
        def __init__(self) -> None:
            self.moves_stored = {"damas": 2}
            self.refusals = {"DatabaseFull": 1}

    metrics = Metrics()
    metrics.store = Store()
    text = metrics.scrape().decode()
    for name in metrics.schema:
        assert re.search(rf"^# TYPE {name} ", text, re.MULTILINE), name
    assert 'tablero_moves_total{game="damas"} 2.0' in text
    assert declared()["tablero_move_seconds_bucket"] == ("le",)


def test_the_expression_check_finds_what_is_not_there() -> None:
    assert unknown_in("rate(tablero_moves_total[5m])") == []
    assert unknown_in("tablero_nothing_total") == ["metric tablero_nothing_total",
                                                    "no Tablero metric at all"]
    assert unknown_in('tablero_moves_total{server="1"}') == ["label server of tablero_moves_total"]
    assert unknown_in("sum by (user) (tablero_moves_total)") == ["label user in by (user)"]


def test_the_alert_rules_cover_the_promises_and_use_real_metrics() -> None:
    rules = load_yaml(DEPLOY / "prometheus" / "alerts.yml")
    alerts = {r["alert"]: r for group in rules["groups"] for r in group["rules"]}
    assert {"TableroSweepStalled", "TableroOutboxLag", "TableroStorageErrors",
            "TableroShardNotReady"} <= set(alerts)
    # a process that is gone exports nothing, so no rule on its metrics fires: the bot
    # down altogether, and any Tablero process that answered scrapes and stopped, alert
    assert alerts["TableroBotDown"]["expr"] == 'absent(tablero_ready{job="tablero-bot"})'
    assert alerts["TableroProcessGone"]["expr"] == (
        "max_over_time(tablero_ready[1d]) unless tablero_ready")
    for name, rule in alerts.items():
        assert unknown_in(rule["expr"]) == [], name
        assert rule["labels"]["severity"] in ("warning", "critical"), name
        assert rule["annotations"]["summary"] and rule["for"], name


def test_prometheus_scrapes_every_tablero_process_and_loads_the_rules() -> None:
    config = load_yaml(DEPLOY / "prometheus" / "prometheus.yml")
    assert config["rule_files"] == ["/etc/prometheus/alerts.yml"]
    targets = {t for job in config["scrape_configs"] for c in job["static_configs"]
               for t in c["targets"]}
    compose = load_yaml(ROOT / "compose.yaml")
    tablero = {name for name, s in compose["services"].items()
               if s.get("image") == "tablero:latest"}
    assert targets == {f"{name}:9464" for name in tablero}


def test_the_dashboard_parses_and_uses_real_metrics() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "tablero.json").read_text())
    assert dashboard["uid"] == "tablero" and dashboard["title"] == "Tablero"
    exprs = {p["title"]: [t["expr"] for t in p["targets"]] for p in dashboard["panels"]}
    for title, found in exprs.items():
        for expr in found:
            assert unknown_in(expr) == [], (title, expr)
    used = {n for found in exprs.values() for e in found for n, _ in SELECTOR.findall(e)}
    wanted = {"tablero_interactions_total", "tablero_move_seconds_bucket",
              "tablero_moves_total", "tablero_outbox_backlog",
              "tablero_outbox_oldest_age_seconds", "tablero_deliveries_total",
              "tablero_delivery_failures_total", "tablero_sweep_duration_seconds_bucket",
              "tablero_sweep_last_success_timestamp_seconds", "tablero_engine_queue_depth",
              "tablero_engine_search_seconds_bucket", "tablero_storage_errors_total",
              "tablero_shard_leases_held", "tablero_shard_ready",
              "tablero_computer_games_thinking", "tablero_web_requests_total"}
    assert wanted <= used, wanted - used
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:  # inside Grafana's 24 columns
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24 and grid["h"] > 0


def test_grafana_provisions_prometheus_and_the_dashboard() -> None:
    sources = load_yaml(DEPLOY / "grafana/provisioning/datasources/prometheus.yml")
    (source,) = sources["datasources"]
    assert source["type"] == "prometheus" and source["url"] == "http://prometheus:9090"
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "tablero.json").read_text())
    uids = {t["datasource"]["uid"] for p in dashboard["panels"] for t in p["targets"]}
    assert uids == {source["uid"]}
    (provider,) = load_yaml(DEPLOY / "grafana/provisioning/dashboards/tablero.yml")[
        "providers"]
    compose = load_yaml(ROOT / "compose.yaml")
    mounts = dict(v.split(":")[:2] for v in compose["services"]["grafana"]["volumes"]
                  if v.startswith("./"))
    assert mounts["./deploy/grafana/dashboards"] == provider["options"]["path"]


def test_compose_runs_the_bot_on_postgresql_with_shards_web_and_monitoring() -> None:
    compose = load_yaml(ROOT / "compose.yaml")
    services = compose["services"]
    assert {"postgres", "bot", "shard-0", "shard-1", "web", "prometheus",
            "grafana"} <= set(services)
    assert "/var/lib/postgresql/data" in services["postgres"]["volumes"][0]
    assert set(compose["volumes"]) >= {services["postgres"]["volumes"][0].split(":")[0]}
    for name in ("bot", "shard-0", "shard-1", "web"):
        s = services[name]
        env = s["environment"]
        assert s["build"] == "." and env["TABLERO_DB"].startswith("postgresql://")
        assert "@postgres:5432/" in env["TABLERO_DB"]
        assert env["TABLERO_METRICS_HOST"] == "0.0.0.0"
        assert s["depends_on"]["postgres"]["condition"] == "service_healthy"
        # a graceful stop (outbox 10 s + background writes 5 s) within Docker's grace,
        # as within systemd's TimeoutStopSec=30
        assert s["stop_grace_period"] == "30s"
    assert services["bot"]["profiles"] == ["bot"]
    assert [services[f"shard-{i}"]["environment"]["SHARD_IDS"] for i in (0, 1)] == ["0", "1"]
    assert {services[f"shard-{i}"]["environment"]["SHARD_COUNT"] for i in (0, 1)} == {"2"}
    assert services["web"]["command"][0] == "web"
    for service in services.values():  # every file mounted from the checkout exists
        for volume in service.get("volumes", ()):
            if volume.startswith("./"):
                assert (ROOT / volume.split(":")[0]).exists(), volume
        for port in service.get("ports", ()):  # nothing beyond this machine by default
            assert port.startswith("127.0.0.1:"), port


def test_the_dockerfile_is_slim_non_root_installs_as_the_readme_says_and_checks_readyz(
        ) -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n\s*", " ", text)  # continuation lines
    lines = [line.strip() for line in joined.splitlines()
             if line.strip() and not line.startswith("#")]
    (base,) = [line for line in lines if line.startswith("FROM ")]
    # a pinned base: its Debian release named (the bare -slim tag moves to the next one),
    # a digest allowed
    assert re.fullmatch(r"FROM python:3\.1[1-9]-slim-(bookworm|trixie)(@sha256:[0-9a-f]{64})?",
                        base), base
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert 'pip install ".[postgres]"' in text
    assert 'pip install -e ".[postgres]"' in (ROOT / "README.md").read_text()
    (check,) = [line for line in lines if line.startswith("HEALTHCHECK")]
    assert "bot.ops.probe" in check
    assert lines[-2:] == ['ENTRYPOINT ["tablero"]', 'CMD ["run"]']
    copied = {line.split()[1] for line in lines if line.startswith("COPY ")}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"][
        "include"]}
    assert packages <= copied, packages - copied  # every package the install needs
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and ".git" in ignored  # no secret, no history in the image


def test_the_package_ships_the_catalogues_a_plain_install_needs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["package-data"]
    assert "*/LC_MESSAGES/*.po" in data["locales"]
    assert list((ROOT / "locales").glob("*/LC_MESSAGES/*.po"))


def test_the_systemd_units_run_tablero_as_its_own_user() -> None:
    for name, command in (("tablero.service", "tablero run"),
                          ("tablero-web.service", "tablero web")):
        unit = configparser.ConfigParser(strict=False, interpolation=None)
        unit.optionxform = str  # type: ignore[assignment,method-assign]
        unit.read(DEPLOY / "systemd" / name)
        service = unit["Service"]
        assert service["User"] == "tablero" and service["Restart"] == "on-failure"
        assert command in service["ExecStart"]
        assert service["KillSignal"] == "SIGTERM"
        # exit 2 (a setting to fix) and 3 (a database not to use) are not retried
        assert {"2", "3"} <= set(service["RestartPreventExitStatus"].split())
        assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_a_service_without_a_token_stops_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``tablero run`` under systemd or in a container (standard input /dev/null) with no
    DISCORD_TOKEN started the console, which read the empty input and exited 0: systemd
    counted a success, compose's ``restart: unless-stopped`` started it again and again,
    and nothing said the token was missing. It says so and exits 2 (a setting to fix),
    which the unit does not retry; a terminal or a script's pipe still gets the console."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    with open(os.devnull) as null:
        monkeypatch.setattr(sys, "stdin", null)
        assert main(["run"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "tablero run: DISCORD_TOKEN is not set, and the local console it would start "
        "instead needs a terminal (standard input is /dev/null, as under systemd or in a "
        "container): set DISCORD_TOKEN in the environment or in .env"]
    assert list(tmp_path.iterdir()) == []  # no database made for a console never run


def test_compose_reads_only_documented_settings_and_has_no_default_password() -> None:
    """The README says to put POSTGRES_PASSWORD in .env (copied from .env.example), which
    did not list it: the database's password silently stayed 'tablero', Grafana's
    'admin'. Every variable compose.yaml reads is in .env.example, and the passwords
    have no default: compose stops and names the one to set."""
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    read = dict(re.findall(r"\$\{([A-Z_]+)(:[-?][^}]*)?\}", text))
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = set(re.findall(r"^([A-Z_]+)=", example, flags=re.M))
    assert set(read) <= documented, set(read) - documented
    for password in ("POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD"):
        assert read[password].startswith(":?"), password
