# The bot in a slim image, as a non-root user, with its database on a volume.
#   docker build -t gamemaster .
#   docker run --env-file .env -v gamemaster-data:/data gamemaster
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/gamemaster.sqlite3

RUN useradd --create-home --uid 10001 gamemaster \
    && mkdir /data && chown gamemaster /data
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY bot ./bot
COPY games ./games
COPY cogs ./cogs
RUN pip install -c constraints.txt .

USER gamemaster
VOLUME ["/data"]
# docker stop sends SIGTERM: the bot closes cleanly (see bot/__main__.py).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
