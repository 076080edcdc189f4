FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY content ./content
COPY storage ./storage
RUN pip install . && useradd --create-home quiz && mkdir /data && chown quiz /data
USER quiz
ENV QUIZ_DB_PATH=/data/quiz.sqlite3
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
