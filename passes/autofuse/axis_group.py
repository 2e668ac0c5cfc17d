"""Axis groups (x, y, r, n) of AscGraphs and GE's rules for merging them (docs/ge/autofuse.md).

GE source (read at 20968cab, before the back end left hicann/ge):
`optimize/autoschedule/tiling_group.{h,cpp}` (TilingGroup::GenAxisGroupForSingleNode,
GenTilingGroup, MergeAxesGroup, MergeNGroup) and `can_fuse/backend/backend_utils.cpp`
(BackendUtils::IsCanMergeAxisGroup, CanMergeAxisGroup, MergeAxesOrder).

* x: axes split apart from y (the before/after side of a Transpose);
* y: elementwise axes; r: reduce axes; n: axes that may not be split (concat/split dims).
* `axes_order` holds positions in the node's loop axes (GE's indices): y positions then r
  positions for a reduction, x then y for a transpose, 0..n-1 otherwise.

CanFuse compares groups as sets (`is_canfuse_call=True`); the schedule (and the per-graph
group generation) compares them in order. On GE's own path (`is_ge_call=True`) CanFuse
never merges two reductions (YR ⊕ YR), docs/ge/autofuse.md question 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ge_dialect import ascgraph as ag

# tiling_group.h: AxisGroupType bit flags
GROUP_X, GROUP_Y, GROUP_R = 1, 2, 4


@dataclass
class AxisGroup:
    x: list[int] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    r: list[int] = field(default_factory=list)
    n: list[int] = field(default_factory=list)
    axes_order: list[int] = field(default_factory=list)

    def group_type(self) -> int:
        """TilingGroup::GetGroupType: the OR of the non-empty groups (0 = INVALID)."""
        return (GROUP_X if self.x else 0) | (GROUP_Y if self.y else 0) | (GROUP_R if self.r else 0)

    def all_axes(self) -> set[int]:
        return set(self.x) | set(self.y) | set(self.r) | set(self.n)

    def copy(self) -> AxisGroup:
        """A copy of the id lists (cheaper than copy.deepcopy on this hot path)."""
        return AxisGroup(list(self.x), list(self.y), list(self.r), list(self.n), list(self.axes_order))

    def remapped(self, axis_map: dict[int, int]) -> AxisGroup | None:
        """BackendUtils::GetAscGraphAxisGroup: the group with ids converted through a map
        (BackendUtils::ConvertAxis: an empty map converts nothing; an id the map lacks
        fails: None)."""
        if not axis_map:
            return self.copy()
        if any(a not in axis_map for a in self.all_axes()):
            return None
        m = lambda ids: [axis_map[a] for a in ids]  # noqa: E731
        return AxisGroup(m(self.x), m(self.y), m(self.r), m(self.n), list(self.axes_order))

    def label(self) -> str:
        """'YR', 'XY', ... as GE's logs and the remarks name the group type."""
        return "".join(c for c, g in (("X", self.x), ("Y", self.y), ("R", self.r)) if g) or "empty"

    # a compact, parseable text form, cached on fused nodes (GE: AutoFuseAttrs::axis_group)
    def to_text(self) -> str:
        f = lambda ids: ",".join(map(str, ids))  # noqa: E731
        return f"x={f(self.x)};y={f(self.y)};r={f(self.r)};n={f(self.n)};order={f(self.axes_order)}"

    @staticmethod
    def from_text(s: str) -> AxisGroup | None:
        parts = dict(p.split("=", 1) for p in s.split(";") if "=" in p)
        try:
            g = {k: [int(v) for v in parts[k].split(",") if v] for k in ("x", "y", "r", "n", "order")}
        except (KeyError, ValueError):
            return None
        return AxisGroup(g["x"], g["y"], g["r"], g["n"], g["order"])


# -- per node (TilingGroup::GenAxisGroupForSingleNode) ------------------------------------------


def _changed_dim(whole: ag.AscTensorType, parts: list[ag.AscTensorType]) -> int:
    """The first dim where a part's repeat differs from the whole's (concat/split dim)."""
    for j, r in enumerate(whole.repeat_list):
        if any(j < len(p.repeat_list) and p.repeat_list[j] != r for p in parts):
            return j
    return len(whole.repeat_list)


def node_axis_group(node: ag.AscNode, loop_axes: list[int]) -> AxisGroup | None:
    """The group of one AscIR node; None for buffer nodes (Data, Output, Workspace).
    A HintGraph node's loop axes are the graph's axis list (GetLoopAxis)."""
    if node.MEMORY:
        return None
    order = list(range(len(loop_axes)))
    if _plain(type(node)):
        # tiling_group.cpp: Elewise, Broadcast, Gather, Load, Store, Cube: y = all loop axes
        return AxisGroup(y=list(loop_axes), axes_order=order)
    if isinstance(node, ag.Reduction):
        # tiling_group.cpp: r = axes whose input stride differs from the output stride and
        # whose output stride is 0; y = the rest; order = y positions, then r positions.
        a, b = node.in_type(), node.out_type()
        r = [ax for ax, si, so in zip(b.axis_ids, a.stride_list, b.stride_list) if si != so and so == 0]
        y = [ax for ax in loop_axes if ax not in r]
        pos = {ax: i for i, ax in enumerate(loop_axes)}
        return AxisGroup(y=y, r=r, axes_order=[pos[ax] for ax in y + r if ax in pos])
    if isinstance(node, ag.Concat):
        # tiling_group.cpp (Concat): y = the axes before concat_dim; n = concat_dim and after,
        # plus each input's concat-dim axis id.
        whole = node.out_type()
        parts = [node.in_type(i) for i in range(len(node.operands))]
        dim = _changed_dim(whole, parts)
        y = [ax for ax in whole.axis_ids[:dim]]
        n = list(whole.axis_ids[dim:])
        for p in parts:
            if dim < len(p.axis_ids) and p.axis_ids[dim] not in n:
                n.append(p.axis_ids[dim])
        return AxisGroup(y=y, n=n, axes_order=list(range(len(y))))
    if isinstance(node, ag.Split):
        # tiling_group.cpp (Split): a first-dim split (or all leading repeats 1) is a plain
        # store: all axes y; else y before split_dim, n from it on plus the outputs' axes.
        whole = node.in_type()
        parts = [node.out_type(i) for i in range(len(node.results))]
        dim = _changed_dim(whole, parts)
        lead = 1
        for r in whole.repeat_list[:dim]:
            lead *= r
        if dim == 0 or lead == 1:
            return AxisGroup(y=list(loop_axes), axes_order=order)
        y = list(whole.axis_ids[:dim])
        n = list(whole.axis_ids[dim:])
        for p in parts:
            if dim < len(p.axis_ids) and p.axis_ids[dim] not in n:
                n.append(p.axis_ids[dim])
        return AxisGroup(y=y, n=n, axes_order=list(range(len(y))))
    if isinstance(node, ag.Transpose):
        return transpose_axis_group(list(node.in_type().axis_ids), list(node.out_type().axis_ids), loop_axes)
    # tiling_group.cpp: Elewise, Broadcast, Gather, Load, Store, Cube: y = all loop axes
    # (a Gather reads its Data operands directly; they are buffers and have no group).
    return AxisGroup(y=list(loop_axes), axes_order=order)


_PLAIN: dict[type, bool] = {}


def _plain(cls: type) -> bool:
    """A node class whose group is y = all loop axes (none of the classes node_axis_group
    treats apart), decided once per class: isinstance against the AscIR classes is an ABC
    check, and graph_axis_group asks it of every node of every lowered graph."""
    if (k := _PLAIN.get(cls)) is None:
        k = _PLAIN[cls] = not issubclass(cls, ag.Reduction | ag.Concat | ag.Split | ag.Transpose)
    return k


def transpose_axis_group(src: list[int], dst: list[int], loop_axes: list[int]) -> AxisGroup:
    """tiling_group.cpp (Transpose): from the tail, equal input/output axes go to n; then
    walking left, an input axis not in y goes to x and an output axis not in x goes to y,
    until both are already placed; the rest go to y; order = x then y."""
    x: list[int] = []
    y: list[int] = []
    n: list[int] = []
    i = len(src) - 1
    while i >= 0 and src[i] == dst[i]:
        n.append(src[i])
        i -= 1
    while i >= 0:
        a, b = src[i], dst[i]
        if (a in x or a in y) and (b in x or b in y):
            break
        if a not in y and a not in x:
            x.append(a)
        if b not in x and b not in y:
            y.append(b)
        i -= 1
    for ax in loop_axes:
        if ax not in x and ax not in y and ax not in n:
            y.append(ax)
    n.reverse()
    pos = {ax: k for k, ax in enumerate(loop_axes)}
    return AxisGroup(x=x, y=y, n=n, axes_order=[pos[ax] for ax in x + y if ax in pos])


def graph_axis_group(graph: ag.AscGraphOp) -> AxisGroup | None:
    """TilingGroup::GenTilingGroup: n = the union of the per-node n groups; the per-node
    groups merged in node order in schedule mode. None when a merge fails."""
    loop_axes = graph.axis_ids()
    groups = [g for node in graph.nodes() if (g := node_axis_group(node, loop_axes)) is not None]
    target = AxisGroup()
    for g in groups:
        for a in g.n:
            if a not in target.n:
                target.n.append(a)
    for g in groups:  # (each g is this call's own: merged without a copy)
        if not merge_axes_group(target, g, is_canfuse_call=False, is_ge_call=True):
            return None
    return target


# -- MergeAxesGroup ----------------------------------------------------------------------------


def _remove_axes(g: AxisGroup, drop: set[int]) -> None:
    """MergeNGroup's removal of n axes from x/y/r; order entries of dropped positions go."""
    keep_pos = set()
    flat = g.x + g.y + g.r
    for k, ax in enumerate(flat):
        if ax not in drop:
            keep_pos.add(k)
    g.x = [a for a in g.x if a not in drop]
    g.y = [a for a in g.y if a not in drop]
    g.r = [a for a in g.r if a not in drop]
    if len(g.axes_order) == len(flat):
        g.axes_order = [o for k, o in enumerate(g.axes_order) if k in keep_pos]


def merge_n_group(target: AxisGroup, src: AxisGroup) -> None:
    """TilingGroup::MergeNGroup: n = n(target) ∪ n(src), removed from x/y/r on both sides."""
    n = list(target.n)
    for a in src.n:
        if a not in n:
            n.append(a)
    target.n, src.n = n, list(n)
    _remove_axes(target, set(n))
    _remove_axes(src, set(n))


def _same(a: list[int], b: list[int], canfuse: bool) -> bool:
    return (len(a) == len(b) and set(a) == set(b)) if canfuse else a == b


def _ordered(y: list[int], order: list[int]) -> list[int] | None:
    """`y[order[i]]` for each i (schedule mode); None when an index is out of range."""
    if any(o < 0 or o >= len(y) for o in order):
        return None
    return [y[o] for o in order]


def merge_axes_group(target: AxisGroup, src: AxisGroup, is_canfuse_call: bool, is_ge_call: bool) -> bool:
    """TilingGroup::MergeAxesGroup: merge `src` into `target` (mutated); False when the
    pair is none of the 8 implemented cases (docs/ge/autofuse.md)."""
    if target.n or src.n:  # (with no n axis on either side MergeNGroup changes nothing)
        merge_n_group(target, src)
    if not target.x and not target.y and not target.r:
        _assign(target, src)  # tiling_group.cpp: an empty target takes src
        return True
    case = _MERGE_CASES.get((target.group_type(), src.group_type()))
    return case is not None and case(target, src, is_canfuse_call, is_ge_call)


def _merge_y_and_y(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYAndY"""
    return _same(target.y, src.y, cf)


def _merge_y_and_yr(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYAndYR"""
    if len(target.y) != len(src.y) + len(src.r):
        return False
    if cf:
        ok = set(target.y) == set(src.y) | set(src.r)
    else:
        ok = _ordered(target.y, src.axes_order) == src.y + src.r
    if ok:
        _assign(target, src)
    return ok


def _merge_yr_and_y(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYRAndY"""
    if len(src.y) != len(target.y) + len(target.r):
        return False
    if cf:
        return set(src.y) == set(target.y) | set(target.r)
    return _ordered(src.y, target.axes_order) == target.y + target.r


def _merge_yr_and_yr(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYRAndYR"""
    if cf and ge_call:
        return False  # GE's CanFuse never merges two reductions (is_ge_call && is_canfuse_call)
    if cf:
        return set(target.y) == set(src.y) and set(target.r) == set(src.r)
    return (target.x, target.y, target.r, target.n, target.axes_order) == (
        src.x,
        src.y,
        src.r,
        src.n,
        src.axes_order,
    )


def _merge_y_and_xy(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYAndXY (sets in both modes)"""
    ok = set(target.y) == set(src.x) | set(src.y) and len(target.y) == len(src.x) + len(src.y)
    if ok:
        _assign(target, src)
    return ok


def _merge_xy_and_y(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeXYAndY"""
    return set(target.x) | set(target.y) == set(src.y) and len(src.y) == len(target.x) + len(target.y)


def _merge_y_and_r(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeYAndR"""
    ok = _same(target.y, src.r, cf)
    if ok:
        _assign(target, src)
    return ok


def _merge_r_and_y(target: AxisGroup, src: AxisGroup, cf: bool, ge_call: bool) -> bool:
    """tiling_group.cpp MergeRAndY"""
    return _same(src.y, target.r, cf)


# tiling_group.cpp TilingGroup::MergeAxesGroup: the 8 cases by (target's, src's) group type
_MERGE_CASES = {
    (GROUP_Y, GROUP_Y): _merge_y_and_y,
    (GROUP_Y, GROUP_Y | GROUP_R): _merge_y_and_yr,
    (GROUP_Y | GROUP_R, GROUP_Y): _merge_yr_and_y,
    (GROUP_Y | GROUP_R, GROUP_Y | GROUP_R): _merge_yr_and_yr,
    (GROUP_Y, GROUP_X | GROUP_Y): _merge_y_and_xy,
    (GROUP_X | GROUP_Y, GROUP_Y): _merge_xy_and_y,
    (GROUP_Y, GROUP_R): _merge_y_and_r,
    (GROUP_R, GROUP_Y): _merge_r_and_y,
}


def _assign(target: AxisGroup, src: AxisGroup) -> None:
    target.x, target.y, target.r, target.n = list(src.x), list(src.y), list(src.r), list(src.n)
    target.axes_order = list(src.axes_order)


def merge_axes_order(g1: AxisGroup, g2: AxisGroup) -> None:
    """backend_utils.cpp BackendUtils::MergeAxesOrder: when one group's axes_order values
    are a subset of the other's, the missing values are appended to it (std::set_difference,
    taken here on the sorted values); equal or unrelated orders are left alone."""
    merged = set(g1.axes_order) | set(g2.axes_order)
    sub1, sub2 = len(g2.axes_order) == len(merged), len(g1.axes_order) == len(merged)
    if sub1 and not sub2:
        g1.axes_order = g1.axes_order + sorted(merged - set(g1.axes_order))
    elif sub2 and not sub1:
        g2.axes_order = g2.axes_order + sorted(merged - set(g2.axes_order))


def can_merge_axis_group(g1: AxisGroup, g2: AxisGroup, is_ge_call: bool = True) -> AxisGroup | None:
    """BackendUtils::IsCanMergeAxisGroup + CanMergeAxisGroup: the merged group, or None.
    When one group's axes are a subset of the other's, the missing axes join the smaller
    group's y and the axes orders are completed (MergeAxesOrder)."""
    a, b = g1.copy(), g2.copy()
    all1, all2 = a.all_axes(), b.all_axes()
    if all1 <= all2 or all2 <= all1:
        a.y = a.y + sorted(all2 - all1)
        b.y = b.y + sorted(all1 - all2)
        merge_axes_order(a, b)
    merged = a
    if not merge_axes_group(merged, b, is_canfuse_call=True, is_ge_call=is_ge_call):
        return None
    return merged
