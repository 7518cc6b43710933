# Tablero in a container: `docker build -t tablero .` (or
# `podman build --format docker`: the OCI format drops the HEALTHCHECK), then
# `docker run -e DISCORD_TOKEN=... -v tablero-data:/data tablero` (SQLite in /data), or the
# whole installation with compose.yaml (PostgreSQL, shards, the web, Prometheus, Grafana).
# The base names its Debian release: the bare python:3.11-slim tag moves to each new
# Debian (bookworm, then trixie), changing the system libraries under a rebuild nobody
# changed. For a build that never changes, add the digest this tag has today:
#   docker buildx imagetools inspect python:3.11-slim-trixie   # then FROM ...@sha256:<digest>
FROM python:3.11-slim-trixie

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TABLERO_DB=/data/tablero.db \
    TABLERO_METRICS_HOST=0.0.0.0 \
    TABLERO_METRICS_PORT=9464 \
    TABLERO_LOG_FORMAT=json

# The user Tablero runs as: never root; it owns /data only.
RUN useradd --system --uid 10001 --user-group --home-dir /data --create-home tablero

WORKDIR /opt/tablero
COPY pyproject.toml README.md ./
COPY rules rules
COPY engine engine
COPY render render
COPY storage storage
COPY service service
COPY bot bot
COPY locales locales
# The README's install command, with the PostgreSQL driver (not editable: the image is
# the installation). No C compiler in a slim image: the engine runs as pure Python.
RUN pip install ".[postgres]" && tablero --version

USER tablero
WORKDIR /data
VOLUME ["/data"]
# 9464: /healthz, /readyz, /metrics; 8080: tablero web's pages
EXPOSE 9464 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.probe"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["tablero"]
CMD ["run"]
