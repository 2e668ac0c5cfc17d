"""onnxruntime's tolerances per output dtype (ge_tools/onnx_oracle.py compares with them):
apart, so ge-run's --help states them without loading numpy or the oracle."""

from __future__ import annotations

# dtype name -> (atol, rtol) of a float output; integers and bools compare exactly
TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-9, 1e-9),
    "float32": (1e-4, 1e-4),
    "float16": (1e-2, 1e-2),
    "bfloat16": (2e-2, 2e-2),
}


def tolerance_text() -> str:
    """The TOLERANCES as the help and README state them."""
    parts = [f"{dt} atol {a:g} rtol {r:g}" for dt, (a, r) in TOLERANCES.items()]
    return "; ".join(parts) + "; integers and bools exactly"
