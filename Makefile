# graphmem — two commands: `make run` (service on 127.0.0.1:8000) and `make test`.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# Wheels are kept under the home directory so reruns (and CI on the same machine) install offline-fast.
WHEELHOUSE ?= $(HOME)/.cache/graphmem/wheels
# A CPU-only torch wheel, where the machine offers one (pip find-links), is preferred to PyPI's CUDA build.
PIP_FIND := --find-links $(WHEELHOUSE) $(if $(PIP_FIND_LINKS),--find-links $(PIP_FIND_LINKS),)
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup run test lint typecheck e2e-deps graphiql reliability clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@mkdir -p $(WHEELHOUSE)
	$(BIN)/pip download --quiet --dest $(WHEELHOUSE) $(PIP_FIND) --no-deps -r requirements.lock
	$(BIN)/pip install --quiet --no-index $(PIP_FIND) -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/graphmem neo4j fetch
	$(BIN)/python -m graphmem.api.graphiql fetch
	@touch $@

# GraphiQL's assets from npm, served locally (no CDN): part of setup; rerun to refresh.
graphiql: setup
	$(BIN)/python -m graphmem.api.graphiql fetch

# Browser end-to-end tests: Debian's Chromium (installed when running as root and missing) and
# playwright-core from npm under the cache. Without them those tests say so and skip.
E2E_NODE := $(HOME)/.cache/graphmem/e2e-node
e2e-deps:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
		echo "e2e-deps: no Chromium (needs root and apt-get); browser tests will skip"; }
	@command -v npm >/dev/null && mkdir -p $(E2E_NODE) && \
		(test -d $(E2E_NODE)/node_modules/playwright-core || \
		 npm install --silent --no-audit --no-fund --prefix $(E2E_NODE) playwright-core@1.64.1) || \
		echo "e2e-deps: no npm; browser tests will skip"

run: setup
	$(BIN)/graphmem neo4j start
	$(BIN)/graphmem schema install
	$(BIN)/graphmem keys ensure-dev
	$(BIN)/graphmem serve

lint: setup
	$(BIN)/ruff check graphmem tests bench
	$(BIN)/ruff format --check graphmem tests bench

typecheck: setup
	$(BIN)/mypy graphmem

test: setup e2e-deps lint typecheck
	$(BIN)/python -m pytest -q -p no:cacheprovider tests

# The long reliability runs (10,000 fuzzed requests, 64 clients for 60 s, faults, isolation, 1,000 temporal
# histories); their figures become docs/reliability.md. `make test` runs the same tests in a shortened form.
RELIABILITY_OUT := $(CURDIR)/.reliability
reliability: export GRAPHMEM_TEMPORAL_CASES := 1000
reliability: setup
	rm -rf $(RELIABILITY_OUT)
	GRAPHMEM_RELIABILITY_OUT=$(RELIABILITY_OUT) GRAPHMEM_FUZZ_REQUESTS=10000 GRAPHMEM_LOAD_CLIENTS=64 \
	GRAPHMEM_LOAD_SECONDS=60 GRAPHMEM_ISOLATION_CASES=1000 $(BIN)/python -m pytest -q -p no:cacheprovider --timeout=7200 \
		tests/e2e/test_isolation_property.py tests/e2e/test_fuzz_graphql.py tests/e2e/test_load.py \
		tests/integration/test_temporal_property.py \
		tests/integration/test_reliability_faults.py
	$(BIN)/python bench/reliability_report.py $(RELIABILITY_OUT) docs/reliability.md "make reliability"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache
