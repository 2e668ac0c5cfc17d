"""ge_fast: everything the project does faster than stock xDSL, in one place, behind one switch.

Each module here replaces one piece of xDSL 0.74 with code that gives the same result in
less time (its docstring names the xDSL function it replaces and the test that proves they
agree):

* verify.py: the op verifier (OpDef.verify compiled per op class into plain tests);
* lexer.py: the MLIR lexer's common tokens (MLIRLexer.lex) by one regex;
* parser.py: one-result `%x = ` lists, the memos of plain tensor and dialect types and a
  GE node's common form read by regex (Parser._parse_op_result_list,
  _parse_optional_builtin_parametrized_type, AttrParser.parse_optional_type, the
  token-by-token parse of a node);
* printer.py: attribute texts kept and string literals written whole (Printer);
* op_builder.py: ops and blocks built without the generic steps (Operation.create,
  Operation.clone, Block(ops));
* beside.py: the result's text rendered in a forked second process while it is verified;
* process.py: the garbage collector's thresholds, the exit without teardown and the
  xDSL plugins read once per process (Universe.get_multiverse);
* operands.py: an op's operand tuple read directly (Operation.operands);
* interpreter.py: the lookup of a registered implementation (xDSL's private table);
* ssa_names.py: SSAValue.extract_valid_name kept exact. This one is a feature, not speed:
  stock xDSL renames `%Add_2` to `%Add`, so it stays on whatever the switch says.

The switch: the environment variable GE_XDSL_FAST=0 (read at import), `ge-opt
--no-fast-paths` (`set_enabled(False)`), or `with stock():` in-process, sends every call to
xDSL's own code. Whatever changes the printed text (weights as dense_resource, elided
values, exact SSA names, located errors) is a feature of the tools, not of this package,
and stays on: the output is byte-identical either way (tests/ge_fast/test_seam.py).

Two fast paths outside xDSL follow the same switch from beside the code they serve:
importers/fx_load.py (torch.export.load's schema type hints once per class, and
run_decompositions' preservable CIA ops once per dispatcher state).

This package imports xDSL and the standard library only; every package of the project may
import it (tests/test_layout.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

ENV = "GE_XDSL_FAST"


class Switch:
    """Whether the fast paths run (`on`); read where each one starts."""

    on: bool = os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


SWITCH = Switch()


def enabled() -> bool:
    """Whether the fast paths run (GE_XDSL_FAST, --no-fast-paths, `stock()`)."""
    return SWITCH.on


def set_enabled(on: bool) -> None:
    """Turn the fast paths on or off for the rest of the process (--no-fast-paths)."""
    Switch.on = on


@contextmanager
def stock(off: bool = True) -> Iterator[None]:
    """While the block runs, every call goes to xDSL's own code (`off=False`: the fast
    paths, whatever the switch said before); the switch is put back afterwards."""
    before = Switch.on
    Switch.on = not off
    try:
        yield
    finally:
        Switch.on = before
