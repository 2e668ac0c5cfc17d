"""Every remark of a run as data: what `--remarks-json FILE` writes and what the HTML report
(report/html.py) reads. Never parsed from the remark text: the `Remark` objects of
ge_dialect/diagnostics.py are collected through its `remark_sink`.

One JSON object per remark, in the order the passes made them:

    {"pass": "ge-autofuse", "stage": "fuse", "verdict": "not fused",
     "rule": "WillCreateCycle", "nf_code": "NF1002", "reason": "would create a cycle",
     "nodes": ["a", "b"], "message": "ge-autofuse: 'a' and 'b' not fused: ...",
     "location": {"file": "x.mlir", "line": 9, "col": 3}, "data": {"shared_bytes": 2048}}

`rule`, `nf_code` and `reason` are the remark's `Reason` (null without one); `data` the
decision's figures (`Remark.data`). A remark whose pass did not name itself gets the name
of the pass the pipeline was running when it was made (`RemarkCollector.callback`).
The file is `{"remarks": [...]}`, written with sorted keys: the same run gives the same bytes.
A remark about a node of an ONNX model (located `model.onnx: node 'n' (Op)`, not at a line)
has `"location": {"file": "model.onnx", "line": 0, "col": 0, "element": "node 'n' (Op)"}`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.reason import Reason

# ge_dialect/diagnostics.py element_location's printed form: `FILE: WHAT`
_ELEMENT = re.compile(r"^(.*?): ((?:node|input|initializer|sparse initializer|graph) '.*)$")


def parse_location(loc: str) -> dict[str, Any]:
    """`FILE:LINE:COL` as {file, line, col} (a file name may hold colons; `<unknown>:0:0`
    stays as it is); an ONNX element's `FILE: WHAT` as {file, line 0, col 0, element}."""
    parts = loc.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return {"file": parts[0], "line": int(parts[1]), "col": int(parts[2])}
    m = _ELEMENT.match(loc)
    if m is not None:
        return {"file": m.group(1), "line": 0, "col": 0, "element": m.group(2)}
    return {"file": loc, "line": 0, "col": 0}


def format_location(d: dict[str, Any]) -> str:
    """parse_location's inverse: the location as the remark printed it."""
    if "element" in d:
        return f"{d['file']}: {d['element']}"
    return f"{d['file']}:{d['line']}:{d['col']}"


def remark_to_json(r: Remark) -> dict[str, Any]:
    """One remark as a JSON object (the module doc gives its keys)."""
    return {
        "pass": r.pass_name,
        "stage": r.stage,
        "verdict": r.verdict,
        "rule": r.rule,
        "nf_code": r.nf_code,
        "reason": r.reason.message if r.reason is not None else None,
        "nodes": list(r.nodes),
        "message": r.message,
        "location": parse_location(r.location),
        "data": dict(r.data),
    }


def remark_from_json(d: dict[str, Any]) -> Remark:
    """The `Remark` a JSON object stands for (remark_to_json's inverse)."""
    reason = Reason(d["rule"], d["reason"] or "", d["nf_code"]) if d.get("rule") is not None else None
    return Remark(
        format_location(d["location"]),
        d["message"],
        pass_name=d["pass"],
        stage=d["stage"],
        verdict=d["verdict"],
        reason=reason,
        nodes=tuple(d["nodes"]),
        data=tuple(d.get("data", {}).items()),
    )


def remarks_document(remarks: Sequence[Remark]) -> str:
    return json.dumps({"remarks": [remark_to_json(r) for r in remarks]}, indent=1, sort_keys=True) + "\n"


def write_remarks_json(path: str | os.PathLike[str], remarks: Sequence[Remark]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(remarks_document(remarks))


def read_remarks_json(path: str | os.PathLike[str]) -> list[Remark]:
    with open(path, encoding="utf-8") as f:
        return [remark_from_json(d) for d in json.load(f)["remarks"]]


PipelineCallbackFn = Callable[[Any, Any, Any], None]


class RemarkCollector:
    """Collects the remarks of a run (and, with `echo`, prints each one's line on stderr as
    --remarks does). `callback(inner)` wraps a PassPipeline callback so that the collector
    knows which pass runs: a remark without a pass name gets that pass's."""

    def __init__(self, echo: bool = False):
        self.echo = echo
        self.remarks: list[Remark] = []
        self.current_pass: str | None = None

    def sink(self, r: Remark) -> None:
        if r.pass_name is None and self.current_pass is not None:
            r = dataclasses.replace(r, pass_name=self.current_pass)
        self.remarks.append(r)
        if self.echo:
            print(r.line(), file=sys.stderr)

    def callback(self, inner: PipelineCallbackFn | None = None) -> PipelineCallbackFn:
        """xDSL's PassPipeline callback (previous pass, module, next pass): runs `inner`,
        then records `next` as the running pass."""

        def run(previous: Any, module: Any, next: Any) -> None:
            if inner is not None:
                inner(previous, module, next)
            self.current_pass = next.name if next is not None else None

        return run

    @contextmanager
    def collecting(self) -> Iterator[RemarkCollector]:
        with remark_sink(self.sink):
            yield self
