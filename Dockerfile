# The graphmem service image (used by docker-compose.yml). Neo4j runs in its own container.
FROM python:3.11-slim
WORKDIR /app
ENV HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
COPY pyproject.toml requirements.lock README.md ./
RUN pip install --no-cache-dir -r requirements.lock
COPY graphmem ./graphmem
COPY cypher ./cypher
COPY schema.graphql ./
RUN pip install --no-cache-dir --no-deps -e .
EXPOSE 8000
CMD ["graphmem", "serve"]
