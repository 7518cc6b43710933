"""Settings from the environment and .env; .env.example documents every one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("DISCORD_TOKEN", "TABLERO_DB", "TABLERO_LOG_LEVEL", "TABLERO_BOARDS",
         "TABLERO_SWEEP_SECONDS", "TABLERO_ENGINE_SECONDS", "TABLERO_ENGINE_WORKERS",
         "TABLERO_DEV_GUILD", "TABLERO_DB_SYNCHRONOUS", "SHARD_COUNT", "SHARD_IDS",
         "TABLERO_LANG", "TABLERO_WEB_SECRET", "TABLERO_WEB_URL",
         "TABLERO_WEB_PORT", "TABLERO_WEB_HOST", "TABLERO_LOG_FORMAT",
         "TABLERO_METRICS_PORT", "TABLERO_METRICS_HOST", "TABLERO_READY_OUTBOX_SECONDS",
         "TABLERO_MATCH_CARDS", "TABLERO_PUZZLE_GAMES_PER_HOUR")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_defaults_without_env_or_file() -> None:
    s = load_settings(None)
    assert s.discord_token is None and not s.has_token
    assert s.db_path == Path("tablero.db") and s.log_level == "INFO"
    assert s.boards_dir is None and s.sweep_seconds == 60
    assert s.db_synchronous == "FULL"  # durable unless an operator relaxes it


def test_db_synchronous_accepts_full_or_normal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLERO_DB_SYNCHRONOUS", " normal ")
    assert load_settings(None).db_synchronous == "NORMAL"
    monkeypatch.setenv("TABLERO_DB_SYNCHRONOUS", "off")
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        load_settings(None)


def test_env_file_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc.def\nTABLERO_DB=/data/t.db\nTABLERO_LOG_LEVEL=debug\n"
                   "TABLERO_BOARDS=\nTABLERO_DEV_GUILD=42\n")
    s = load_settings(env)
    assert s.has_token and s.discord_token is not None
    assert s.discord_token.get_secret_value() == "abc.def"
    assert "abc.def" not in repr(s) and "abc.def" not in str(s)
    assert s.db_path == Path("/data/t.db") and s.log_level == "DEBUG"
    assert s.boards_dir is None and s.dev_guild_id == 42
    monkeypatch.setenv("DISCORD_TOKEN", "  ")  # the environment wins; blank means none
    monkeypatch.setenv("TABLERO_SWEEP_SECONDS", "5")
    monkeypatch.setenv("TABLERO_ENGINE_SECONDS", "0.5")
    s = load_settings(env)
    assert not s.has_token and s.sweep_seconds == 5 and s.engine_seconds == 0.5
    assert s.engine_workers == 2


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLERO_LOG_LEVEL", "chatty")
    with pytest.raises(ValueError, match="TABLERO_LOG_LEVEL"):
        load_settings(None)


def test_env_example_documents_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    documented = set(re.findall(r"^([A-Z_]+)=", example, flags=re.M))
    aliases = {f.validation_alias for f in Settings.model_fields.values()}
    compose_only = {"POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD"}  # compose.yaml reads them
    assert documented - compose_only == aliases == set(NAMES)


def test_the_bot_serves_the_web_only_with_a_port(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(None)
    assert s.web_port is None and s.web_host == "127.0.0.1"
    monkeypatch.setenv("TABLERO_WEB_PORT", " ")
    assert load_settings(None).web_port is None  # empty, as .env.example leaves it
    monkeypatch.setenv("TABLERO_WEB_PORT", "8081")
    monkeypatch.setenv("TABLERO_WEB_HOST", "0.0.0.0")
    s = load_settings(None)
    assert (s.web_port, s.web_host) == (8081, "0.0.0.0")
    for bad in ("0", "70000", "http"):
        monkeypatch.setenv("TABLERO_WEB_PORT", bad)
        with pytest.raises(ValueError, match="TABLERO_WEB_PORT"):
            load_settings(None)


def test_shards_default_to_all_in_one_process() -> None:
    s = load_settings(None)
    assert s.shard_count is None and s.shard_ids is None
    assert s.shards.everything and s.shards.owns(5 << 22)


def test_shard_ids_name_this_processs_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 1, 3 ")
    s = load_settings(None)
    assert s.shard_count == 4 and s.shard_ids == (1, 3)
    assert s.shards.owns(7 << 22) and not s.shards.owns(6 << 22)


@pytest.mark.parametrize(("count", "ids", "why"), [
    ("4", "1,x", "separated by commas"),
    ("4", "4", "not below the shard count"),
    ("4", "1,1", "repeat"),
    ("", "0", "needs SHARD_COUNT"),
    ("0", "", "greater than or equal to 1"),
])
def test_bad_shard_settings_are_refused_clearly(monkeypatch: pytest.MonkeyPatch, count: str,
                                                 ids: str, why: str) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ValueError, match=why):
        load_settings(None)


def test_operations_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(None)
    assert s.log_format == "text" and s.metrics_port is None
    assert s.metrics_host == "127.0.0.1"  # this machine only, unless told
    assert s.ready_outbox_seconds == 600
    monkeypatch.setenv("TABLERO_LOG_FORMAT", " JSON ")
    monkeypatch.setenv("TABLERO_METRICS_PORT", "9464")
    monkeypatch.setenv("TABLERO_METRICS_HOST", "0.0.0.0")
    monkeypatch.setenv("TABLERO_READY_OUTBOX_SECONDS", "120")
    s = load_settings(None)
    assert (s.log_format, s.metrics_port, s.metrics_host, s.ready_outbox_seconds) == \
        ("json", 9464, "0.0.0.0", 120)
    monkeypatch.setenv("TABLERO_METRICS_PORT", "")
    assert load_settings(None).metrics_port is None
    for name, bad, said in (("TABLERO_LOG_FORMAT", "xml", "text or json"),
                            ("TABLERO_METRICS_PORT", "70000", "65535"),
                            ("TABLERO_READY_OUTBOX_SECONDS", "0", "greater than 0")):
        monkeypatch.setenv(name, bad)
        with pytest.raises(ValueError, match=said):
            load_settings(None)
        monkeypatch.delenv(name)


def test_match_cards_are_on_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(None).match_cards is True
    monkeypatch.setenv("TABLERO_MATCH_CARDS", "off")
    assert load_settings(None).match_cards is False
    monkeypatch.setenv("TABLERO_MATCH_CARDS", "on")
    assert load_settings(None).match_cards is True


def test_puzzle_mining_is_bounded_per_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(None).puzzle_games_per_hour == 30
    monkeypatch.setenv("TABLERO_PUZZLE_GAMES_PER_HOUR", "0")  # no mining
    assert load_settings(None).puzzle_games_per_hour == 0
    monkeypatch.setenv("TABLERO_PUZZLE_GAMES_PER_HOUR", "-1")
    with pytest.raises(ValueError):
        load_settings(None)


@pytest.mark.parametrize("name, value, said", [
    ("TABLERO_SWEEP_SECONDS", "abc", "TABLERO_SWEEP_SECONDS='abc': input should be a valid "
     "number"),
    ("TABLERO_METRICS_PORT", "99999", "TABLERO_METRICS_PORT='99999': input should be less "
     "than or equal to 65535"),
    ("TABLERO_LOG_LEVEL", "loud", "TABLERO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or "
     "CRITICAL (it is 'loud')"),
    ("SHARD_IDS", "1", "SHARD_IDS needs SHARD_COUNT"),
])
def test_a_malformed_setting_is_one_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        name: str, value: str, said: str) -> None:
    """What an operator sees when a setting does not parse: one line naming the setting
    and its value and where to fix it, exit status 2, no traceback (pydantic's report,
    five lines and a link, ended the command with a traceback)."""
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv(name, value)
    assert main(["db", "check"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablero: "), lines
    assert said in lines[0] and "https://errors.pydantic.dev" not in lines[0]
    assert lines[0].endswith("(set it in the environment or in .env; .env.example "
                             "describes every setting)")


def test_a_malformed_secret_is_not_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting that holds a secret (a token, a URL with a password) is named with what
    is wrong, never echoed."""
    from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

    from bot import settings as settings_module

    names = ["DISCORD_TOKEN", "TABLERO_DB", "TABLERO_WEB_SECRET", "TABLERO_WEB_URL"]

    def init(self: object, **_: object) -> None:  # fails as pydantic would on each name
        raise ValidationError.from_exception_data("Settings", [
            InitErrorDetails(type=PydanticCustomError("value_error", "it is unusable"),
                             loc=(name,), input="x://hunter2") for name in names])

    monkeypatch.setattr(settings_module.Settings, "__init__", init)
    with pytest.raises(settings_module.SettingsError) as refused:
        settings_module.load_settings(None)
    lines = refused.value.lines
    assert [line.split(" ")[0] for line in lines] == [
        "DISCORD_TOKEN", "TABLERO_DB", "TABLERO_WEB_SECRET", "TABLERO_WEB_URL='x://hunter2':"]
    assert all("hunter2" not in line for line in lines[:3])
