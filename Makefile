# The README's two commands: `make example` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup example test lint typecheck lit lit-stock pytest bench pictures docs clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	# pip byte-compiles what it installs, but not an editable project: write the packages'
	# .pyc once (py_compile writes them even under PYTHONDONTWRITEBYTECODE), so ge-opt
	# starts from bytecode (about 0.2 s CPU less per process; bench/bench_xla.py does the same)
	$(BIN)/python -m compileall -q ge_dialect passes lowering runtime ge_tools importers report > /dev/null
	touch $(STAMP)

# The main job on a real model, then on the flagship example. The zoo's UNet block
# (examples/zoo/unet_block.onnx, ONNX): imported, compiled (its skip Concat zero-copy, its
# residual Add and output Relu one fused kernel), simulated, compared with the reference
# and with onnxruntime. Then the seed's split-compute-merge pipeline: what
# ge-compile decides (the fusions, the zero-copy split and concat, the reused memory
# block), then compile it, execute it on the device simulator and compare with the
# reference (both no-task nodes move no bytes).
example: $(STAMP)
	$(BIN)/ge-opt examples/zoo/unet_block.onnx -p ge-compile --remarks 2>&1 > /dev/null \
		| grep -E 'lowered into autofuse_pointwise_[0-9]+_Add_Relu|marked no-task'
	$(BIN)/ge-run examples/zoo/unet_block.onnx
	$(BIN)/ge-opt examples/split_compute_merge.mlir -p ge-compile --remarks 2>&1 > /dev/null \
		| grep -E 'ge-autofuse @|marked no-task|reused block'
	$(BIN)/ge-run examples/split_compute_merge.mlir

# ruff (configured in pyproject.toml): the formatter's check, then the linter.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

# basedpyright (configured in pyproject.toml [tool.pyright]) on the packages.
typecheck: $(STAMP)
	$(BIN)/basedpyright

# Every test process runs its BLAS (numpy's OpenBLAS), torch's OpenMP pool and MKL on one
# thread: two lit tool processes or two xdist workers already share the two cores, and
# OpenBLAS's threads spin-waiting on a shared core cost up to 4 x the CPU of the work itself
# (bench/README.md, "The suite's time"). tests/conftest.py sets the same for a bare `pytest`.
TEST_ENV := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

lit: $(STAMP)
	$(TEST_ENV) $(BIN)/lit -sv tests/filecheck

# The same lit suite with ge_fast's switch off (GE_XDSL_FAST=0: xDSL's own verifier, lexer,
# parser, printer and op building, no fork, no GC tuning): the same expected output. Every
# lit test runs: none of them tests a fast path's internals (tests/tools and tests/ge_fast do).
lit-stock: $(STAMP)
	$(TEST_ENV) GE_XDSL_FAST=0 $(BIN)/lit -sv tests/filecheck

# pytest-xdist: one worker per core (`-n auto`); the tests share no files and no session state.
# worksteal: a worker that runs out takes tests from the other (the real-network tests run
# 10 to 60 s each, so a fixed split would leave one core idle at the end).
pytest: $(STAMP)
	$(TEST_ENV) $(BIN)/pytest -n auto --dist worksteal

# lint, then typecheck beside lit (with ge_fast's switch on, then off), then pytest; fails
# when any fails (pytest's "no tests ran", exit 5, fails too). basedpyright is one process
# (about 60 s): beside lit's two workers it takes the CPU lit leaves, instead of a core
# left idle; its report is printed after lit's.
test: lint
	@$(BIN)/basedpyright > $(VENV)/typecheck.log 2>&1 & pid=$$!; \
	$(MAKE) --no-print-directory lit lit-stock; lit=$$?; \
	wait $$pid; typecheck=$$?; \
	echo "$(BIN)/basedpyright (beside lit)"; cat $(VENV)/typecheck.log; \
	test $$lit -eq 0 -a $$typecheck -eq 0
	$(MAKE) --no-print-directory pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_parse.py

# The README's pictures (docs/*.svg), regenerated from examples/split_compute_merge.mlir.
pictures: $(STAMP)
	$(BIN)/python docs/make_pictures.py

# docs/passes.md and docs/onnx_ops.md, generated from the passes' and the importer's tables
# (tests/tools/test_gen_docs.py fails when they are not current).
docs: $(STAMP)
	$(BIN)/python -m ge_tools.gen_docs

clean:
	rm -rf $(VENV) .lit_test_times.txt
	find tests/filecheck -name Output -type d -prune -exec rm -rf {} +
