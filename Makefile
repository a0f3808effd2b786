# clockbot — `make run` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXTRAS := dev,docs,postgres,telegram,slack,email

.PHONY: run test test-fast docs test-image screenshots check check-real-model eval-local lint format typecheck bench bench-cache clean

RUN_STAMP := $(VENV)/.run-installed
RUN_EXTRAS := postgres,telegram,slack,email
PY_CHECK = @$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "clockbot needs Python 3.11 or newer (found $$($(PYTHON) --version))"; exit 1; }

# `make run` installs what running needs (the package and the channel extras, not the test
# and docs tools);
# `make test` and the rest install everything. Either stamp is redone when pyproject changes.
$(RUN_STAMP): pyproject.toml
	$(PY_CHECK)
	@echo "Installing clockbot into $(VENV) (first run only, a minute or two)…"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --progress-bar on -e '.[$(RUN_EXTRAS)]' | grep -v '^Requirement already' || true
	@$(BIN)/python -c 'import bot.cli.main' || { echo "the install failed; see above"; exit 1; }
	@touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	$(PY_CHECK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)  ## start clockbot on the embedded defaults (console channel)
	@$(BIN)/clockbot run

# `make test` (tests/run_suite.py): the tests spread over the cores (pytest-xdist; each
# process starts its own PostgreSQL and Dovecot), the `long` kill -9 tests beside them
# (they mostly wait on real time), then in the same lane the `timed` ones one at a time (a
# takeover timed in seconds; the parallel phase is niced); it prints each phase's time. `make test-fast`
# is the parallel phase without the slow tests (kill -9, fuzz, many processes, browser).
PYTEST_FAST := $(BIN)/python -m pytest -n auto -m "not slow and not image"

test: $(STAMP)  ## the whole suite, as CI runs it
	$(BIN)/python tests/run_suite.py $(if $(IMAGE),--image)

test-fast: $(STAMP)  ## the suite without the slow tests (kill -9, fuzz, browser): a few minutes
	$(PYTEST_FAST)

docs: $(STAMP)  ## the documentation site (docs/, mkdocs.yml) into site/; fails on any warning
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

test-image: $(STAMP)  ## build the container image with podman and run it (CI: `make test IMAGE=1`, beside the suite)
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
SAMPLING ?= greedy
MODE ?= native
SCENARIOS ?= all
eval-local: $(STAMP)  ## the scenario eval on Qwen2.5-Coder-1.5B in llama.cpp, and the baseline (MODEL=gemma, SAMPLING=greedy|server|clockbot, MODE=native|constrained|reader-first, SCENARIOS=all|team|unseen)
	$(BIN)/python bench/eval_local.py --model $(MODEL) --sampling $(SAMPLING) --mode $(MODE) --scenarios $(SCENARIOS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis site
