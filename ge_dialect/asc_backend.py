"""The AscBackend <-> AscGraph contract (docs/ge/autofuse.md), checked by the verifiers of
ge.AscBackend and ge.FusedAscBackend.

A `ge.AscBackend` holds one AscGraph in its region; its operands map in order to the
AscGraph's Data nodes and its results to its Output nodes, every Data/Load view stays
inside its operand tensor, every Store view covers its result tensor exactly once, and
`fusion_nodes_size` is the node count. Both kinds of backend carry GE's AutoFuseAttrs as
attributes (`fuse_type`, `fuse_type_mask`, `origin_nodes`). In its own module so that the ge
dialect (whose ops call it) and the ascgraph dialect (whose nodes it reads) need not import
each other.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from ge_dialect.ascgraph import FUSE_TYPE_ALL_BITS, FUSE_TYPES, AscGraphOp, Load, Store, node_count, view_extent

# GE AutoFuseAttrs: the primary fuse type (FuseTypeToString) and the OR of 1 << FuseType bits.
FUSE_TYPE_ATTR = "fuse_type"
FUSE_TYPE_MASK_ATTR = "fuse_type_mask"


def asc_graph_of(backend: Operation) -> AscGraphOp:
    """The AscGraph held by a ge.AscBackend (its region's one op)."""
    region = backend.regions[0] if backend.regions else None
    blocks = list(region.blocks) if region is not None else []
    ops = list(blocks[0].ops) if len(blocks) == 1 else []
    if len(ops) != 1 or not isinstance(ops[0], AscGraphOp):
        found = ", ".join(o.name for o in ops) or "nothing"
        raise VerifyException(f"AscBackend's region must hold exactly one ascgraph.graph, found {found}")
    return ops[0]


def _static_numel(t: Attribute) -> int | None:
    if not isinstance(t, TensorType):
        return None
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        return None
    return math.prod(shape)


def verify_fuse_attrs(op: Operation, what: str) -> None:
    """GE AutoFuseAttrs as attributes: `fuse_type` (primary, FuseTypeToString), its bitmask,
    `origin_nodes` (GE node names)."""
    ft = op.attributes.get(FUSE_TYPE_ATTR)
    if ft is not None and (not isinstance(ft, StringAttr) or ft.data not in FUSE_TYPES):
        raise VerifyException(f"{what} fuse_type must be one of {', '.join(FUSE_TYPES)}, got {ft}")
    mask = op.attributes.get(FUSE_TYPE_MASK_ATTR)
    if mask is not None:
        if not isinstance(mask, IntegerAttr) or not 0 <= mask.value.data <= FUSE_TYPE_ALL_BITS:
            raise VerifyException(
                f"{what} fuse_type_mask must be an OR of 1 << FuseType bits (0..{FUSE_TYPE_ALL_BITS}), "
                f"got {mask.value.data if isinstance(mask, IntegerAttr) else mask}"
            )
    origin = op.attributes.get("origin_nodes")
    if origin is not None and (
        not isinstance(origin, ArrayAttr) or not all(isinstance(s, StringAttr) for s in origin.data)
    ):
        raise VerifyException(f"{what} origin_nodes must be a list of node-name strings, got {origin}")


def verify_asc_backend(op: Operation) -> None:
    """ge.AscBackend <-> its AscGraph (docs/ge/autofuse.md): inputs map in order to the Data
    nodes, outputs to the Output nodes; views stay inside the tensors; node count."""
    g = asc_graph_of(op)
    verify_fuse_attrs(op, "AscBackend")
    datas, outputs = g.data_nodes(), g.output_nodes()
    if len(datas) != len(op.operands):
        raise VerifyException(f"AscGraph has {len(datas)} Data nodes for {len(op.operands)} AscBackend inputs")
    if len(outputs) != len(op.results):
        raise VerifyException(f"AscGraph has {len(outputs)} Output nodes for {len(op.results)} AscBackend outputs")
    for d, v in zip(datas, op.operands):
        dt, vt = d.out_type(), v.type
        elem = getattr(vt, "element_type", None)
        if dt.element_type != elem:
            raise VerifyException(f"Data {d.index} has dtype {dt.element_type}, but AscBackend input {d.index} is {vt}")
        n = _static_numel(vt)
        if n is None:
            continue
        reach = [(view_extent(dt), "its view")] + [
            (view_extent(dt, u.operation.offset), f"a Load at offset {u.operation.offset}")
            for u in d.results[0].uses
            if isinstance(u.operation, Load)
        ]
        for ext, how in reach:
            if ext > n:
                raise VerifyException(
                    f"Data {d.index} reads element {ext - 1} through {how}, but AscBackend input "
                    f"{d.index} ({vt}) has {n} elements"
                )
    for o, r in zip(outputs, op.results):
        ot, rt = o.out_type(), r.type
        elem = getattr(rt, "element_type", None)
        if ot.element_type != elem:
            raise VerifyException(
                f"Output {o.index} has dtype {ot.element_type}, but AscBackend output {o.index} is {rt}"
            )
        n = _static_numel(rt)
        if n is None:
            continue
        store = o.operands[0].owner
        assert isinstance(store, Store)
        covered = math.prod(ot.repeat_list)
        ext = view_extent(ot, store.offset)
        if covered != n or ext > n:
            raise VerifyException(
                f"Output {o.index} is written through a view of {covered} elements reaching element "
                f"{ext - 1}, but AscBackend output {o.index} ({rt}) has {n} elements"
            )
    size = op.attributes.get("fusion_nodes_size")
    if size is not None:
        if not isinstance(size, IntegerAttr):
            raise VerifyException(f"fusion_nodes_size must be an integer, got {size}")
        if size.value.data != node_count(g):
            raise VerifyException(
                f"fusion_nodes_size is {size.value.data}, but the AscGraph has {node_count(g)} nodes "
                f"(Data/Load/Store/Output included)"
            )
