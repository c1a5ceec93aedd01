# Two commands for a fresh machine:
#   make demo   - create .venv, install, run the offline demo (no key, no server, no network)
#   make test   - create .venv, install, run ruff and the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# PyTorch CPU build pinned first, so sentence-transformers does not pull a multi-GB CUDA build.
# On a laptop outside this workplace you may add: TORCH_PIP_ARGS="--index-url https://download.pytorch.org/whl/cpu"
TORCH_SPEC ?= torch==2.13.0
TORCH_PIP_ARGS ?=
# Optional extras installed with the project (comma separated); .ci/run adds the ones its tests need.
# web: `memory-agent web` and its tests (the browser tests also need e2e and Debian's chromium).
EXTRAS ?= dev,web
comma  := ,
STAMP  := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: install demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet $(TORCH_PIP_ARGS) "$(TORCH_SPEC)"
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	$(BIN)/memory-agent embedder export  # the ONNX graph of the default embedder, once (no download)
	touch $@

install: $(STAMP)

demo: install
	$(BIN)/memory-agent demo

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# python -P: the repository root is not on sys.path, so tests import only the installed root, memory_agent
test: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -P -m pytest -q

bench: install
	$(BIN)/python benchmarks/load_memory_latency.py

clean:
	rm -rf $(VENV) .memory_agent .pytest_cache
