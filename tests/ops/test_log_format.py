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
