"""Settings from the environment and ``.env`` (pydantic-settings). ``.env.example``
documents every one; the environment wins over ``.env``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from service.shards import ShardSet


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore", populate_by_name=True)

    discord_token: SecretStr | None = Field(None, validation_alias="DISCORD_TOKEN")
    """The bot token; empty or unset: ``tablero run`` starts the console instead."""
    db_path: Path | str = Field(Path("tablero.db"), validation_alias="TABLERO_DB")
    """The SQLite file (default ``tablero.db``) or a ``postgresql://user:pass@host/db`` URL
    (several bot processes may share one PostgreSQL database)."""
    db_synchronous: str = Field("FULL", validation_alias="TABLERO_DB_SYNCHRONOUS")
    """SQLite durability: FULL (default) puts every acknowledged move on the disk before
    saying so; NORMAL is faster but a power cut may lose the last moves players were told
    were played (a crash of Tablero alone never loses anything either way)."""
    log_level: str = Field("INFO", validation_alias="TABLERO_LOG_LEVEL")
    log_format: str = Field("text", validation_alias="TABLERO_LOG_FORMAT")
    """``text`` (default: a line for people) or ``json`` (one JSON object a line: time,
    level, logger, message, and match, server and shard where known)."""
    metrics_port: int | None = Field(None, ge=0, le=65535,
                                     validation_alias="TABLERO_METRICS_PORT")
    """Where ``tablero run`` serves ``/healthz``, ``/readyz`` and ``/metrics`` (unset: not
    served); ``tablero web`` serves them beside its pages unless this is set."""
    metrics_host: str = Field("127.0.0.1", validation_alias="TABLERO_METRICS_HOST")
    """The address they listen on (default: this machine only; ``0.0.0.0`` in a
    container, for Prometheus and the health check)."""
    ready_outbox_seconds: float = Field(600.0, gt=0,
                                        validation_alias="TABLERO_READY_OUTBOX_SECONDS")
    """``/readyz`` fails when the oldest undelivered message is older than this."""
    boards_dir: Path | None = Field(None, validation_alias="TABLERO_BOARDS")
    """Where the console writes board PNGs (unset: no PNG files)."""
    console_lang: str | None = Field(None, validation_alias="TABLERO_LANG")
    """The console's language (``tablero console --lang`` overrides it; unset: en-US)."""
    sweep_seconds: float = Field(60.0, gt=0, validation_alias="TABLERO_SWEEP_SECONDS")
    """How often deadlines are checked (reminders, timeouts)."""
    engine_seconds: float = Field(2.0, gt=0, le=60, validation_alias="TABLERO_ENGINE_SECONDS")
    """The computer player's time budget per move (its top level uses all of it)."""
    engine_workers: int = Field(2, ge=1, le=32, validation_alias="TABLERO_ENGINE_WORKERS")
    """Processes searching computer moves at once (off the event loop)."""
    puzzle_games_per_hour: int = Field(30, ge=0, le=10000,
                                       validation_alias="TABLERO_PUZZLE_GAMES_PER_HOUR")
    """Finished games searched for puzzles in any hour, in the computer player's
    processes (0: no puzzles are mined)."""
    dev_guild_id: int | None = Field(None, validation_alias="TABLERO_DEV_GUILD")
    """Discord: sync slash commands to this one server at once (development)."""
    shard_count: int | None = Field(None, ge=1, validation_alias="SHARD_COUNT")
    """Discord shards in all (unset: Discord's recommendation, one process runs them all)."""
    shard_ids: tuple[int, ...] | None = Field(None, validation_alias="SHARD_IDS")
    """The shards this process runs, e.g. ``0,1`` (unset: all ``SHARD_COUNT`` of them).
    Each process sweeps deadlines and delivers messages only for its shards' guilds."""

    web_secret: SecretStr | None = Field(None, validation_alias="TABLERO_WEB_SECRET")
    """Signs the web's links (at least 32 characters; the same in every web process).
    Changing it makes every link given out so far invalid."""
    web_url: str = Field("http://127.0.0.1:8080", validation_alias="TABLERO_WEB_URL")
    """The public base address of the web pages, used in the links given out."""
    web_port: int | None = Field(None, ge=1, le=65535, validation_alias="TABLERO_WEB_PORT")
    """``tablero run`` also serves the web pages on this port, in the bot's process (unset:
    it does not; ``tablero web`` serves them in a process of its own)."""
    web_host: str = Field("127.0.0.1", validation_alias="TABLERO_WEB_HOST")
    """The address ``tablero run`` serves the web pages on (with ``TABLERO_WEB_PORT``)."""
    match_cards: bool = Field(True, validation_alias="TABLERO_MATCH_CARDS")
    """Discord: each turn is posted as one Components V2 layout (the match card; on by
    default); ``off`` posts it as a message with an embed, as before."""

    @field_validator("discord_token", "web_secret", mode="before")
    @classmethod
    def _empty_token_is_none(cls, value: object) -> object:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        return value

    @field_validator("boards_dir", "dev_guild_id", "web_port", "metrics_port", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("web_host")
    @classmethod
    def _host(cls, value: str) -> str:
        return value.strip() or "127.0.0.1"

    @field_validator("shard_count", mode="before")
    @classmethod
    def _empty_count_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if not isinstance(value, str):
            return value
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if not parts:
            return None
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, "
                             f"not {value!r}")
        return tuple(int(p) for p in parts)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards in all)")
            self.shards  # noqa: B018 -- raises when the ids do not fit the count
        return self

    @property
    def shards(self) -> ShardSet:
        """The shards this process runs (all of them by default)."""
        return ShardSet(self.shard_count or 1, self.shard_ids)

    @field_validator("db_path")
    @classmethod
    def _database(cls, value: Path | str) -> Path | str:
        text = str(value).strip()
        if text.startswith(("postgresql://", "postgres://")):
            return text
        return Path(text or "tablero.db")

    @field_validator("db_synchronous")
    @classmethod
    def _synchronous(cls, value: str) -> str:
        mode = value.strip().upper() or "FULL"
        if mode not in ("FULL", "NORMAL"):
            raise ValueError("TABLERO_DB_SYNCHRONOUS must be FULL or NORMAL")
        return mode

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("TABLERO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or "
                             "CRITICAL")
        return level

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        chosen = value.strip().lower() or "text"
        if chosen not in ("text", "json"):
            raise ValueError("TABLERO_LOG_FORMAT must be text or json")
        return chosen

    @field_validator("metrics_host")
    @classmethod
    def _metrics_host(cls, value: str) -> str:
        return value.strip() or "127.0.0.1"

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None


SECRET_SETTINGS = frozenset({"DISCORD_TOKEN", "TABLERO_DB", "TABLERO_WEB_SECRET"})
"""Settings whose value is never repeated in a message (a token, a URL with a password)."""


class SettingsError(ValueError):
    """Settings that do not parse: ``lines``, one per problem, each naming the setting and
    (unless it holds a secret) the value it has."""

    def __init__(self, lines: list[str], log_format: str = "text") -> None:
        super().__init__("; ".join(lines))
        self.lines = lines
        self.log_format = log_format
        """``TABLERO_LOG_FORMAT`` when it parsed itself (``text`` otherwise): the format
        the refusal is said in."""


class _LogFormat(BaseSettings):
    """``TABLERO_LOG_FORMAT`` alone, read as :class:`Settings` reads it."""

    model_config = Settings.model_config
    log_format: str = Field("text", validation_alias="TABLERO_LOG_FORMAT")


def _problem(error: Any) -> str:
    """One line for one of pydantic's errors: the setting, its value, what is wrong."""
    message = str(error["msg"]).removeprefix("Value error, ")
    loc = error.get("loc") or ()
    if not loc:  # a rule over several settings: its message names them
        return message
    name = str(loc[0])
    if name in SECRET_SETTINGS:
        return f"{name} (its value not shown): {message}"
    value = error.get("input")
    if name in message:  # the validator's own words name it already
        return f"{message} (it is {value!r})"
    return f"{name}={value!r}: {message[:1].lower()}{message[1:]}"


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """The settings, reading ``env_file`` if it exists (None: the environment only).
    Raises ``SettingsError`` when one does not parse."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as e:
        try:
            log_format = _LogFormat(_env_file=env_file).log_format  # type: ignore[call-arg]
        except ValidationError:
            log_format = "text"
        raise SettingsError([_problem(error) for error in e.errors()],
                            "json" if log_format.strip().lower() == "json" else "text"
                            ) from None
