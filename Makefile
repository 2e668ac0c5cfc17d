# The README's two commands: `make example` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup example test lit pytest bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# Compile and run a bundled example on the reference interpreter.
example: $(STAMP)
	$(BIN)/ge-opt examples/split_relu_concat.mlir
	$(BIN)/ge-run examples/split_relu_concat.mlir --reference --seed 0

lit: $(STAMP)
	$(BIN)/lit -sv tests/filecheck

pytest: $(STAMP)
	$(BIN)/pytest

# lit, then pytest; fails when either fails (pytest's "no tests ran", exit 5, fails too).
test: lit pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_parse.py

clean:
	rm -rf $(VENV) tests/filecheck/**/Output .lit_test_times.txt
