# The README's two commands: `make example` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup example test lint typecheck lit pytest bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# The main job on a bundled example: why the concat is zero-copy, then compile it
# (ge-compile), execute it on the device simulator and compare with the reference.
example: $(STAMP)
	$(BIN)/ge-opt examples/split_relu_concat.mlir -p ge-concat-notask --remarks > /dev/null
	$(BIN)/ge-run examples/split_relu_concat.mlir

# ruff (configured in pyproject.toml): the formatter's check, then the linter.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

# basedpyright (configured in pyproject.toml [tool.pyright]) on the packages.
typecheck: $(STAMP)
	$(BIN)/basedpyright

lit: $(STAMP)
	$(BIN)/lit -sv tests/filecheck

pytest: $(STAMP)
	$(BIN)/pytest

# lint, typecheck, lit, then pytest; fails when any fails (pytest's "no tests ran", exit 5, fails too).
test: lint typecheck lit pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_parse.py

clean:
	rm -rf $(VENV) .lit_test_times.txt
	find tests/filecheck -name Output -type d -prune -exec rm -rf {} +
