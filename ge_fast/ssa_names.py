"""SSA names kept exactly: replaces xDSL's SSAValue.extract_valid_name (xdsl/ir/core.py).

This is a feature, not a speed-up, and the one module of ge_fast the switch leaves on.
xDSL strips a `_<digits>` suffix from every SSA name hint it is given (so `%data_1` and
`%data_2` would both become node `data`). GE node names are identities (remarks, the
`lxslice` rule, offset lists name producers; ge_dialect/names.py), and stock xDSL cannot
print them back as they were read, so the project keeps SSA names exactly. It is a global
replacement on purpose: xDSL copies name hints through this setter wherever it clones or
rewrites (ir/core.py: Operation.clone, replace_all_uses_with; rewriter.py:
Rewriter.replace_op), so without it a generated name such as `Add_2` would lose its suffix
on the first clone. Removing it needs every node's name kept as its `name` attribute
through every pass instead. tests/dialects/test_names.py checks the names survive.
"""

from __future__ import annotations

from xdsl.ir import SSAValue


def _keep_exact_ssa_name(cls: type, name: str | None) -> str | None:
    """SSA names are GE node names here: keep them exactly (module docstring)."""
    if name is not None and not SSAValue.is_valid_name(name):
        raise ValueError(f"invalid SSA value name '{name}'")
    return name


def keep_exact_ssa_names() -> None:
    """Replace SSAValue.extract_valid_name (ge_dialect/names.py does it when imported,
    before any op is built)."""
    SSAValue.extract_valid_name = classmethod(_keep_exact_ssa_name)  # type: ignore[method-assign, assignment]
