# labkit: two commands set everything up — `make lab` and `make test`.
# Each creates .venv on first use; re-running is fast while pyproject.toml is unchanged.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8888

# Keep numba's on-disk cache inside the project so repeated runs reuse compiled kernels.
export NUMBA_CACHE_DIR ?= $(CURDIR)/build/numba-cache
export HYPOTHESIS_PROFILE ?= ci
export MPLBACKEND ?= Agg

.PHONY: lab test lint bench report docs clean install browser ffmpeg cjk-font mutate

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "labkit needs Python >= 3.11, found " + sys.version.split()[0]' \
		|| { echo "error: $(PYTHON) is older than 3.11; run 'make PYTHON=python3.11 ...'" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,distributed]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (labkit)" >/dev/null
	@touch $(STAMP)

# Kernels are compiled before JupyterLab starts (seconds when numba's cache already holds them),
# so a designer's first Tune or first generated level does not wait minutes for the compiler.
lab: $(STAMP)
	@echo "Preparing the fast kernels (first time on this machine: a few minutes; then seconds)"
	$(BIN)/labkit warmup
	@echo "Starting JupyterLab on notebooks/ — open the http://127.0.0.1:$(PORT)/lab?token=... URL printed below."
	$(BIN)/jupyter lab --notebook-dir=notebooks --ip=127.0.0.1 --port=$(PORT) \
		$(if $(DISPLAY),,--no-browser) $(if $(filter 0,$(shell id -u)),--allow-root)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Tools the suite needs from the system, installed from Debian when missing (as root with
# apt-get; otherwise the error says how): Chromium drives the browser suite (no browser
# download), ffmpeg writes the MP4 exports their test checks.
# $(call debian_tool,COMMAND,WHO NEEDS IT): the command and its Debian package share the name.
define debian_tool
	@command -v $(1) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's $(1) for $(2)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
	  else \
	    echo "error: $(2) need $(1): run 'sudo apt-get install $(1)'" >&2; exit 1; \
	  fi; }
	@command -v $(1) >/dev/null 2>&1 || { echo "error: $(1) still missing" >&2; exit 1; }
endef

browser:
	$(call debian_tool,chromium,the browser tests)

ffmpeg:
	$(call debian_tool,ffmpeg,the MP4 export tests)

# A font with CJK glyphs (Debian's fonts-wqy-microhei, 1.6 MB): the shipped levels have Chinese
# names, drawn by matplotlib and Chromium (boxes without it); checked by the widget tests.
cjk-font:
	@fc-list :lang=zh 2>/dev/null | grep -q . || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's fonts-wqy-microhei for the level names"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null; \
	  else \
	    echo "error: the level names need a CJK font: run 'sudo apt-get install fonts-wqy-microhei'" >&2; exit 1; \
	  fi; }

# The suite runs on every core (pytest-xdist, at most TEST_JOBS processes; tests/conftest.py
# hands out whole test files, the browser suite as one): notebooks executed once and shared.
# The kernels are compiled into numba's cache while lint runs (the encounter kernels alone take
# ~50 s; a cold cache otherwise has every worker, notebook kernel and CLI process of the suite
# compile them side by side). Logs in build/warmup-*.log, shown when a warmup fails.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 4 ] && n=4; echo $$n)
test: $(STAMP) browser ffmpeg cjk-font
	@mkdir -p build
	@$(BIN)/labkit warmup --quiet encounter > build/warmup-encounter.log 2>&1 & a=$$!; \
	 $(BIN)/labkit warmup --quiet hexpuzzle pathfinding mapturn > build/warmup-rest.log 2>&1 & b=$$!; \
	 $(MAKE) --no-print-directory lint; lint=$$?; \
	 wait $$a; wa=$$?; wait $$b; wb=$$?; \
	 [ $$wa = 0 ] || { cat build/warmup-encounter.log; echo "error: labkit warmup failed" >&2; }; \
	 [ $$wb = 0 ] || { cat build/warmup-rest.log; echo "error: labkit warmup failed" >&2; }; \
	 [ $$lint = 0 ] && [ $$wa = 0 ] && [ $$wb = 0 ]
	@tail -qn1 build/warmup-encounter.log build/warmup-rest.log
	$(BIN)/python -m pytest -n $(TEST_JOBS)

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# Mutation testing (mutmut) of the rule and kernel modules, one module at a time against its own
# tests; `make mutate MUTATE_ARGS="rng io"` for some modules. Report: build/mutate/report.md.
mutate: $(STAMP)
	$(BIN)/python scripts/mutate.py $(MUTATE_ARGS)

report: $(STAMP)
	$(BIN)/python -m labkit_build.report build/report

# The documentation site: executed notebooks (widget apps as static snapshots) and the API
# reference from the docstrings, with Sphinx + myst-nb; open build/docs/html/index.html.
docs: $(STAMP)
	$(BIN)/python -m labkit_build.docs build/docs/html

clean:
	rm -rf build .pytest_cache .hypothesis
