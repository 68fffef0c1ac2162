# The graphmem service image (docker-compose.yml runs it beside the official Neo4j image).
# Build stage: the pinned dependencies, graphmem as a wheel (its Cypher files inside) and GraphiQL's assets
# from npm. The runtime stage keeps the virtual environment and the assets, runs as an unprivileged user and
# works offline: the embedding model ships in a pinned package and is loaded once at build to prove it.
# tests/e2e/test_container_entrypoint.py runs these steps in a plain venv against a real Neo4j.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PATH=/opt/graphmem/venv/bin:$PATH \
    GRAPHMEM_CACHE_DIR=/opt/graphmem/cache
RUN apt-get update && apt-get install -y --no-install-recommends npm && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/graphmem/venv
COPY requirements.lock /src/
RUN pip install -r /src/requirements.lock
COPY pyproject.toml setup.py MANIFEST.in README.md /src/
COPY graphmem /src/graphmem
COPY cypher /src/cypher
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /tmp/wheels /src \
    && pip install --no-deps /tmp/wheels/graphmem-*.whl
RUN python -m graphmem.api.graphiql fetch

FROM python:3.11-slim
ENV PATH=/opt/graphmem/venv/bin:$PATH GRAPHMEM_CACHE_DIR=/opt/graphmem/cache \
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1 \
    HOME=/var/lib/graphmem GRAPHMEM_SECRETS_DIR=/var/lib/graphmem GRAPHMEM_HOST=0.0.0.0 GRAPHMEM_PORT=8000
COPY --from=build /opt/graphmem /opt/graphmem
COPY docker/entrypoint.sh /usr/local/bin/graphmem-entrypoint
RUN HOME=/tmp python -c "from graphmem.embed import default_embedder; print('model:', default_embedder().name)" \
    && rm -rf /tmp/.cache \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/graphmem --no-create-home graphmem \
    && install -d -m 0700 -o graphmem -g graphmem /var/lib/graphmem
USER graphmem
WORKDIR /var/lib/graphmem
EXPOSE 8000
# 200 while the service and its Neo4j answer, else 503 (graphmem.api.health).
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('GRAPHMEM_PORT', '8000'), timeout=4)"]
ENTRYPOINT ["graphmem-entrypoint"]
