"""What an operator sees of a running Tablero: health and readiness that know the game
(``health``), Prometheus metrics (``metrics``), their HTTP endpoints (``server``) and
machine-readable logs (``logs``). Imports neither discord nor storage: the wiring hands
in what is measured (see ``bot.discordapp.app.create_bot`` and ``bot.__main__``)."""
