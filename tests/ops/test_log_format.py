"""Issue 41: ``TABLERO_LOG_FORMAT=json`` for the real command line: every line the process
writes to standard error that is a log line is one JSON object."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_tablero(tmp_path: Path, log_format: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLERO_", "DISCORD_"))}
    env.update(TABLERO_LOG_FORMAT=log_format, TABLERO_LOG_LEVEL="INFO")
    (tmp_path / "t.db").touch()  # tablero db works on an existing database only
    return subprocess.run([sys.executable, "-m", "bot", "db", "check", "--quiet", "--db",
                           str(tmp_path / "t.db")], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=120, check=False)


def test_the_command_line_logs_one_json_object_a_line(tmp_path: Path) -> None:
    done = run_tablero(tmp_path, "json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    (core,) = [line for line in lines if line["message"].startswith("engine core: ")]
    assert core["level"] == "INFO" and core["logger"] == "tablero"
    assert set(core) == {"time", "level", "logger", "message"}


def test_text_stays_the_default_format(tmp_path: Path) -> None:
    done = run_tablero(tmp_path, "text")
    assert done.returncode == 0, done.stderr
    assert " INFO tablero: engine core: " in done.stderr
    assert not done.stderr.lstrip().startswith("{")


def test_every_command_redacts_tokens_and_the_webs_signed_links(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """``tablero web`` logged a refused request's path, a player's signed link in it
    ('web request /p/TOKEN/move refused: …', at INFO): whoever reads the logs could move
    for him. The redaction was installed by the Discord adapter alone; it is now part of
    the logging every command configures, and cuts the web's tokens too."""
    from bot.ops import redaction
    from bot.ops.logs import configure

    made = logging.getLogRecordFactory()
    monkeypatch.setattr(redaction, "_installed", False)
    logging.setLogRecordFactory(logging.LogRecord)  # a process that never loaded Discord
    try:
        configure("INFO", "text")
        token = "AAAAAAAAAAEAAAAAAAAAAb2fGY0wDtj7lnhBPlHAd5Y"
        with caplog.at_level(logging.INFO):
            logging.getLogger("bot.web.app").info("web request %s refused: %s",
                                                  f"/p/{token}/move", "not your turn")
    finally:
        logging.setLogRecordFactory(made)
    assert "web request /p/<redacted>/move refused: not your turn" in caplog.text
    assert token not in caplog.text


@pytest.mark.parametrize(("argv", "level"), [
    (["db", "backup", "backups/"], logging.DEBUG),  # a daily cron job: no INFO line to mail
    (["db", "check", "--quiet"], logging.INFO),  # it replays every match on that core
])
def test_the_engine_core_is_said_at_info_only_by_commands_that_use_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        argv: list[str], level: int) -> None:
    """Every ``tablero db`` command logged 'engine core: …' at INFO, so a cron job
    running ``tablero db backup`` mailed each day unless TABLERO_LOG_LEVEL=WARNING."""
    import bot.__main__ as cli

    for name in [k for k in os.environ if k.startswith(("TABLERO_", "DISCORD_"))]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "configure_logging", lambda *_: None)  # caplog keeps the root
    (tmp_path / "backups").mkdir()
    (tmp_path / "t.db").touch()
    with caplog.at_level(logging.DEBUG, logger="tablero"):
        assert cli.main([*argv, "--db", str(tmp_path / "t.db")]) == 0
    (said,) = [r for r in caplog.records if r.getMessage().startswith("engine core: ")]
    assert said.levelno == level


def _main_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str],
               **env: str) -> int:
    """``tablero ARGV`` in this process, in ``tmp_path``, with only ``env`` set."""
    import bot.__main__ as cli

    for name in [k for k in os.environ if k.startswith(("TABLERO_", "DISCORD_"))]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "configure_logging", lambda *_: None)
    monkeypatch.setattr(cli, "_input_can_reach_a_console", lambda: False)
    return cli.main(argv)


def test_a_start_up_refusal_is_one_json_record_when_the_logs_are_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed settings and ``tablero run`` with no token under systemd were plain
    lines even with TABLERO_LOG_FORMAT=json: a log shipper reading JSON lost them. With
    json, standard error holds the refusal as one ERROR record of the ``tablero`` logger
    (the same sentence as its message), and nothing else."""
    (tmp_path / ".env").write_text("TABLERO_LOG_FORMAT=json\n")  # as .env says it too
    assert _main_here(tmp_path, monkeypatch, ["run"], TABLERO_LOG_LEVEL="LOUD",
                      TABLERO_SWEEP_SECONDS="x") == 2
    records = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert len(records) == 2
    assert {r["level"] for r in records} == {"ERROR"} and {r["logger"] for r in records} \
        == {"tablero"}
    assert records[0]["message"].startswith("tablero: TABLERO_LOG_LEVEL must be ")
    assert set(records[0]) == {"time", "level", "logger", "message"}
    assert _main_here(tmp_path, monkeypatch, ["run"]) == 2
    (record,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert record["message"].startswith("tablero run: DISCORD_TOKEN is not set, ")


def test_a_refusal_stays_a_line_for_people_in_text_or_when_the_format_is_malformed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _main_here(tmp_path, monkeypatch, ["run"], TABLERO_LOG_LEVEL="LOUD",
                      TABLERO_LOG_FORMAT="xml") == 2
    said = capsys.readouterr().err
    assert said.startswith("tablero: TABLERO_LOG_LEVEL must be ") and "{" not in said
    assert "TABLERO_LOG_FORMAT must be text or json (it is 'xml')" in said
    assert _main_here(tmp_path, monkeypatch, ["run"]) == 2
    assert capsys.readouterr().err.startswith("tablero run: DISCORD_TOKEN is not set, ")


def test_a_refusal_after_the_logs_are_set_up_takes_their_format(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``tablero web`` on a taken port, Discord refusing the token: said where the logs
    are configured already, in their format."""
    from bot.ops import logs

    monkeypatch.setattr(logs, "_configured", "json")
    logs.refuse("tablero web: cannot listen on 127.0.0.1:8080 (Address already in use)")
    (record,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert record["message"] == \
        "tablero web: cannot listen on 127.0.0.1:8080 (Address already in use)"
    monkeypatch.setattr(logs, "_configured", "text")
    logs.refuse("tablero web: cannot listen on 127.0.0.1:8080 (Address already in use)")
    assert capsys.readouterr().err == \
        "tablero web: cannot listen on 127.0.0.1:8080 (Address already in use)\n"
