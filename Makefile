# clockbot — `make run` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXTRAS := dev,postgres,telegram,slack,email

.PHONY: run test test-image screenshots check check-real-model eval-local lint format typecheck bench bench-cache clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "clockbot needs Python 3.11 or newer (found $$($(PYTHON) --version))"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)  ## start clockbot on the embedded defaults (console channel)
	$(BIN)/clockbot run

test: $(STAMP)  ## the whole suite, as CI runs it
	$(BIN)/python -m pytest

test-image: $(STAMP)  ## build the container image with podman and run it (CI runs this too)
	$(BIN)/python -m pytest -m image tests/test_image.py

screenshots: $(STAMP)  ## the web pages in a real Chromium, written to docs/screenshots (commit them)
	CLOCKBOT_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest -q tests/bot/test_web_browser.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy

check: lint typecheck test  ## lint, format check, mypy strict, tests

bench: $(STAMP)  ## print the benchmark figures
	$(BIN)/python bench/time_bench.py
	$(BIN)/python bench/wrapper_bench.py

bench-cache: $(STAMP)  ## prompt cache on a local llama.cpp server (first run builds it, ~8 min)
	$(BIN)/python bench/prompt_cache_bench.py $(if $(wildcard $(HOME)/.cache/clockbot-bench/llama-venv/bin/python),,--setup)

check-real-model: $(STAMP)  ## 20 turns on Gemma 3 270M in llama.cpp, 4K context (first run builds it, ~20 min)
	$(BIN)/python bench/real_model_check.py

MODEL ?= qwen
eval-local: $(STAMP)  ## the scenario eval on Qwen2.5-Coder-1.5B in llama.cpp, and the baseline (MODEL=gemma: Gemma 3 270M)
	$(BIN)/python bench/eval_local.py --model $(MODEL)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
