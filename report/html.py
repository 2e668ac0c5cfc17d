"""`ge-run FILE --report DIR`: one self-contained HTML page, DIR/index.html, about one run.

Inline CSS and SVG only: no network, no external file loaded (the page links, relatively,
to the full DOT files written beside it), one small inline script that paginates the long
tables (without it every row is shown). Sections, in order:

* summary: the figures ge-run prints (its --stats-json dictionary);
* kernels: which original ops each AscBackend / FusedAscBackend holds (read from the IR
  after fusion), then the lowering decisions (ge-lower-autofuse: lowered into which kernel,
  or why not) and the fusion decisions (ge-autofuse: pair, verdict, GE rule and NF code,
  priority, ScoreFusionMemory bytes; lifting);
* no-task decisions: node, pass, verdict, the first GE rule that refused;
* graph pictures: before fusion (the input), after fusion, after the no-task passes and
  memory planning (report/dot.py, report/svg_render.py: above PICTURE_FULL_LIMIT nodes
  summarised by kernel, above PICTURE_KERNEL_LIMIT kernels by kernel type; the full DOT
  is written beside the page and linked);
* memory: the feature-map plan (report/memory_svg.py) and its blocks as a table, pieces
  and aliases inside their block (a zero-copy concat's inputs are its pieces);
* the task program, one table per stream (the npu.model);
* the comparisons ge-run computed (`Check`: against the reference interpreter, and any
  other a tool adds, e.g. onnxruntime);
* the other remarks (memory placement, inserted copies, the passes' summaries).

Every decision shown comes from the `Remark` objects of the run (report/remarks.py, the data
`--remarks-json` writes), never from parsing remark text. The page is also well-formed XML
(script and style in CDATA sections), so XML tools read it. Building it is linear in the
run's nodes, tasks and remarks; the same run gives the same bytes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue

from ge_dialect import attrs as A
from ge_dialect import npu
from ge_dialect.asc_backend import FUSE_TYPE_ATTR
from ge_dialect.diagnostics import Remark
from ge_dialect.ge import AscBackend, FusedAscBackend, GeNode, NetOutput, PartitionedCall
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import ge_type, node_name
from ge_dialect.node_types import SOURCE_TYPES
from report.dot import Picture, build_picture, is_no_task, named, node_types, to_dot, value_label
from report.figures import MEMORY_FIGURES, Check
from report.layered import RENDERER, layered_svg
from report.memory_svg import ALIAS, PIECE, GraphPlan, graph_plan, plans_svg
from report.remarks import RemarkCollector, parse_location
from report.stages import stage_file_stem
from report.svg_render import picture_to_show

# The passes whose remarks fill the kernel tables (GeCompilePass's, ge_tools/pipeline.py).
LOWERING_PASS = "ge-lower-autofuse"
FUSION_PASS = "ge-autofuse"
NO_TASK_VERDICTS = ("marked", "not marked")

PAGE_ROWS = 100
"""Rows per page of a long table (the inline script's pagination)."""

PICTURE_FULL_LIMIT = 4000
PICTURE_KERNEL_LIMIT = 1500
PICTURE_FOLD_LIMIT = 40
"""A page's pictures: drawn in full up to 4,000 nodes, by kernel up to 1,500 kernels, else by
kernel type; above 40 drawn nodes each kernel cluster is shown folded at first (one box
with its op count; the script unfolds it on a click). Always report/layered.py's drawing,
whose groups the script folds, searches and lays out again."""


@dataclass
class Kernel:
    graph: str
    name: str
    type: str
    fuse_type: str  # an AscBackend's fuse type; "" for a library kernel
    ops: list[str]  # origin nodes, `name (Type)` when the input named the type
    bytes_read: int | None = None  # its inputs' storage bytes (None: a size unknown)
    bytes_written: int | None = None


@dataclass
class Stage:
    title: str
    stem: str
    picture: Picture


class RunRecorder:
    """A PassPipeline callback (wrapping the tool's own) that gathers what the report
    shows: every remark (a RemarkCollector), the graph after fusion, and the graph, its
    kernels and its memory plans at the stage where the graphs carry a plan."""

    def __init__(self, inner: Any = None, echo: bool = False):
        self.collector = RemarkCollector(echo=echo)
        self.inner = inner  # the tool's own callback
        self._callback = self.collector.callback(inner)
        self.types: dict[str, str] = {}
        self.after_fusion: Picture | None = None
        self.planned: Picture | None = None
        self.kernels: list[Kernel] = []
        self.plans: list[GraphPlan] = []

    @property
    def remarks(self) -> list[Remark]:
        return self.collector.remarks

    def collecting(self) -> AbstractContextManager[RemarkCollector]:
        """Collect the remarks made inside the `with` block."""
        return self.collector.collecting()

    def __call__(self, previous: Any, module: ModuleOp, next: Any) -> None:
        self._callback(previous, module, next)
        if previous is None:
            self.types = node_types(module)
            return
        has_plan = any(A.get_int(g, A.MEMORY_SIZE) is not None for g in graphs_in_pass_order(module))
        if previous.name != FUSION_PASS and not has_plan:
            return
        m = named(module)
        pic = build_picture(m, "", self.types)
        if previous.name == FUSION_PASS:
            self.after_fusion = pic
            self.kernels = module_kernels(m, self.types)
        if has_plan:
            self.planned = pic
            self.kernels = module_kernels(m, self.types)
            self.plans = [p for g in graphs_in_pass_order(m) if (p := graph_plan(g)) is not None]


def _bytes(values: Iterable[SSAValue]) -> int | None:
    sizes = [value_label(v.type)[1] for v in values]
    return None if any(b is None for b in sizes) else sum(b for b in sizes if b is not None)


def module_kernels(module: ModuleOp, types: Mapping[str, str]) -> list[Kernel]:
    """Every node of the module's graphs that becomes a kernel task: each AscBackend /
    FusedAscBackend with the ops it holds, and each library kernel (a GE op kept as it is),
    with the bytes it reads and writes. Not kernels: graph inputs, constants, NetOutput,
    calls and no-task nodes (report/dot.py: is_no_task)."""
    out = []
    for g in graphs_in_pass_order(module):
        for op in g.body.block.ops:
            if not isinstance(op, GeNode) or isinstance(op, NetOutput | PartitionedCall):
                continue
            t = ge_type(op)
            if t in SOURCE_TYPES or is_no_task(op):
                continue
            origin = op.attributes.get("origin_nodes")
            names = [s.data for s in origin.data if isinstance(s, StringAttr)] if isinstance(origin, ArrayAttr) else []
            if not isinstance(op, AscBackend | FusedAscBackend):
                names = names or [node_name(op)]
            ops = [f"{n} ({types[n]})" if n in types else n for n in names]
            out.append(
                Kernel(
                    g.sym_name.data,
                    node_name(op),
                    t,
                    A.get_str(op, FUSE_TYPE_ATTR) or "",
                    ops,
                    _bytes(op.operands),
                    _bytes(op.results),
                )
            )
    return out


def kernel_decision(k: Kernel, remarks: Sequence[Remark]) -> str:
    """The decision that made kernel `k`, from the run's remarks: the fusion that made it
    (ge-autofuse), the lowering into it (ge-lower-autofuse), or why its op stayed a library
    kernel."""
    for r in remarks:
        if r.pass_name == FUSION_PASS and r.verdict == "fused" and len(r.nodes) > 2 and r.nodes[2] == k.name:
            return f"{FUSION_PASS}: fused {_pair(r)}" + (
                f" (priority {r.facts['priority']})" if "priority" in r.facts else ""
            )
    lowered = [
        r.nodes[0]
        for r in remarks
        if r.pass_name == LOWERING_PASS and r.verdict == "lowered" and tuple(r.nodes[1:2]) == (k.name,)
    ]
    if lowered:
        return f"{LOWERING_PASS}: lowered " + ", ".join(lowered)
    if k.type in ("AscBackend", "FusedAscBackend"):
        return "an AscBackend of the input"
    # lowered into an AscBackend that ge-autofuse's lifting put back as its ops
    into = {
        r.nodes[1]
        for r in remarks
        if r.pass_name == LOWERING_PASS
        and r.verdict == "lowered"
        and tuple(r.nodes[:1]) == (k.name,)
        and len(r.nodes) > 1
    }
    for r in remarks:
        if r.pass_name == FUSION_PASS and r.verdict == "lifted" and into & set(r.nodes):
            return r.message
    for r in remarks:
        if r.pass_name == LOWERING_PASS and r.verdict is not None and tuple(r.nodes[:1]) == (k.name,):
            return f"{LOWERING_PASS}: {r.message.split(': ', 1)[-1]}"
    return "library kernel (no pass changed it)"


# -- HTML pieces ------------------------------------------------------------------------------------

_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.fused td, tr.marked td, tr.lowered td { background: #eef7ee; }
tr.refused td { background: #fbeeee; }
.picture { overflow: auto; max-height: 85vh; border: 1px solid #ddd; margin: 0.5em 0; }
.note { color: #555; font-size: 0.9em; }
nav.pages { font-size: 0.85em; margin: 0.3em 0; }
nav.pages button { margin-right: 0.5em; }
code { font-size: 0.95em; }
.graph-tools { font-size: 0.85em; margin: 0.3em 0; }
.graph-tools input { width: 16em; }
.graph-tools .matches { margin-left: 0.6em; color: #555; }
svg.ge-graph { cursor: grab; }
svg.ge-graph g.folded > rect.frame, svg.ge-graph g.folded > text, svg.ge-graph g.folded > g.body { display: none; }
svg.ge-graph g.folded > g.fold { display: inline; }
svg.ge-graph g.cluster[data-fw] > rect.frame, svg.ge-graph g.fold { cursor: pointer; }
svg.ge-graph g.found > rect { stroke: #e7298a; stroke-width: 5; }
"""

# Paginates every table with data-page (the rows of one page shown, Prev / Next); marks the
# body with data-script="ok" once it ran, so a headless browser can tell the script worked.
_SCRIPT = """
(function () {
  function paginate(table) {
    var size = parseInt(table.getAttribute('data-page'), 10);
    var rows = table.tBodies[0].rows;
    var pages = Math.ceil(rows.length / size);
    if (pages <= 1) { return; }
    var page = 0;
    var nav = document.createElement('nav');
    nav.className = 'pages';
    var prev = document.createElement('button');
    var next = document.createElement('button');
    var label = document.createElement('span');
    prev.textContent = 'previous';
    next.textContent = 'next';
    function show() {
      var lo = page * size, hi = Math.min(lo + size, rows.length);
      for (var i = 0; i !== rows.length; i++) {
        rows[i].style.display = (i >= lo) === (i >= hi) ? 'none' : '';
      }
      label.textContent = 'rows ' + (lo + 1) + '-' + hi + ' of ' + rows.length + ' (page ' + (page + 1) + ' of ' + pages + ')';
      prev.disabled = page === 0;
      next.disabled = page === pages - 1;
    }
    prev.onclick = function () { page = Math.max(page - 1, 0); show(); };
    next.onclick = function () { page = Math.min(page + 1, pages - 1); show(); };
    nav.appendChild(prev); nav.appendChild(next); nav.appendChild(label);
    table.parentNode.insertBefore(nav, table);
    show();
  }
  var tables = document.querySelectorAll('table[data-page]');
  for (var i = 0; i !== tables.length; i++) { paginate(tables[i]); }
  document.body.setAttribute('data-script', 'ok');
})();
// The graph pictures (report/layered.py's SVG): zoom (wheel, + and -), pan (drag), fold a
// kernel cluster into one box with its op count (click its frame) and unfold it (click the
// box), find a node by name (the search box; Enter for the next match; #find=NAME in the
// page's address finds NAME at load). Folding lays the picture out again with
// report/layered.py's coordinate rule: rows of items side by side, each row centred.
(function () {
  function num(el, a) { return parseFloat(el.getAttribute(a)); }
  function kids(g, cls) {
    var out = [];
    for (var i = 0; i !== g.children.length; i++) {
      var c = g.children[i];
      if (c.classList && (c.classList.contains('node') || c.classList.contains('cluster'))) { out.push(c); }
    }
    return cls ? out.filter(function (c) { return c.classList.contains(cls); }) : out;
  }
  function child(g, cls) {
    for (var i = 0; i !== g.children.length; i++) {
      if (g.children[i].classList && g.children[i].classList.contains(cls)) { return g.children[i]; }
    }
    return null;
  }
  function Picture(svg, tools) {
    var self = this;
    var gaps = svg.getAttribute('data-gaps').split(' ').map(parseFloat);
    var GX = gaps[0], GY = gaps[1], PAD = gaps[2];
    var margin = num(svg, 'data-margin'), top = num(svg, 'data-top');
    var root = svg.querySelector('g.items');
    var prefix = svg.parentNode.getAttribute('data-prefix') + '-';
    var items = {};
    var all = svg.querySelectorAll('g.node, g.cluster');
    for (var i = 0; i !== all.length; i++) { items[all[i].id.slice(prefix.length)] = all[i]; }
    var edges = svg.querySelectorAll('g.edges > path');
    var labels = svg.querySelectorAll('g.edges > text');
    var W = 0, H = 0, view = null, box = {}, rep = {};
    function foldable(g) { return g.classList.contains('cluster') && g.hasAttribute('data-fw'); }
    function size(g) {
      if (g.classList.contains('node')) { return [num(g, 'data-w'), num(g, 'data-h')]; }
      if (g.classList.contains('folded')) { return [num(g, 'data-fw'), num(g, 'data-fh')]; }
      var body = child(g, 'body');
      var c = pack(body);
      var oy = g.hasAttribute('data-oy') ? num(g, 'data-oy') : num(g, 'data-h') - c[1] - PAD;
      var minw = g.hasAttribute('data-minw') ? num(g, 'data-minw') : 60;
      var w = Math.max(c[0] + 2 * PAD, minw), h = c[1] + oy + PAD;
      var frame = child(g, 'frame');
      frame.setAttribute('width', w); frame.setAttribute('height', h);
      g.setAttribute('data-w', w); g.setAttribute('data-h', h);
      return [w, h];
    }
    function pack(g) {
      var rows = [], cur = null, last = null;
      kids(g).forEach(function (c) {
        var r = c.getAttribute('data-row');
        if (r !== last) { cur = []; rows.push(cur); last = r; }
        c._s = size(c);
        cur.push(c);
      });
      var widths = rows.map(function (row) {
        return row.reduce(function (a, c) { return a + c._s[0]; }, 0) + GX * (row.length - 1);
      });
      var cw = Math.max.apply(null, [0].concat(widths)), y = 0;
      rows.forEach(function (row, k) {
        var rh = Math.max.apply(null, row.map(function (c) { return c._s[1]; }));
        var x = (cw - widths[k]) / 2;
        row.forEach(function (c) {
          c.setAttribute('transform', 'translate(' + x + ',' + (y + (rh - c._s[1]) / 2) + ')');
          c._x = x; c._y = y + (rh - c._s[1]) / 2;
          x += c._s[0] + GX;
        });
        y += rh + GY;
      });
      return [cw, Math.max(y - GY, 0)];
    }
    function place(g, ox, oy, shown) {
      kids(g).forEach(function (c) {
        var key = c.id.slice(prefix.length);
        if (shown) {  // inside a folded cluster: drawn as that cluster's box
          rep[key] = shown;
          if (c.classList.contains('cluster')) { place(child(c, 'body'), 0, 0, shown); }
          return;
        }
        var x = ox + c._x, y = oy + c._y;
        box[key] = [x, y, c._s[0], c._s[1]];
        rep[key] = key;
        if (c.classList.contains('cluster')) {
          var folded = c.classList.contains('folded');
          var oyc = c.hasAttribute('data-oy') ? num(c, 'data-oy') : 0;
          place(child(c, 'body'), x + PAD, y + oyc, folded ? key : null);
        }
      });
    }
    function route(el) {
      var s = rep[el.getAttribute('data-src')], d = rep[el.getAttribute('data-dst')];
      if (s === undefined || d === undefined || s === d) { el.style.display = 'none'; return null; }
      el.style.display = '';
      return [box[s], box[d]];
    }
    self.layout = function () {
      var c = pack(root);
      box = {}; rep = {};
      place(root, margin, margin + top, null);
      for (var i = 0; i !== edges.length; i++) {
        var r = route(edges[i]);
        if (!r) { continue; }
        var x1 = r[0][0] + r[0][2] / 2, y1 = r[0][1] + r[0][3], x2 = r[1][0] + r[1][2] / 2, y2 = r[1][1];
        var dd = Math.max(Math.abs(y2 - y1) / 2, 20);
        edges[i].setAttribute('d', 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + (y1 + dd) + ' ' + x2 + ',' + (y2 - dd) + ' ' + x2 + ',' + y2);
      }
      for (var j = 0; j !== labels.length; j++) {
        var q = route(labels[j]);
        if (!q) { continue; }
        labels[j].setAttribute('x', (q[0][0] + q[0][2] / 2 + q[1][0] + q[1][2] / 2) / 2 + 3);
        labels[j].setAttribute('y', (q[0][1] + q[0][3] + q[1][1]) / 2);
      }
      W = c[0] + 2 * margin; H = c[1] + top + 2 * margin;
      svg.querySelector('rect.background').setAttribute('width', W);
      svg.querySelector('rect.background').setAttribute('height', H);
    };
    function setView(v) {
      view = v;
      svg.setAttribute('viewBox', v.join(' '));
    }
    self.fit = function () { self.layout(); setView([0, 0, W, H]); };
    // at first: at most natural size, as wide as the page allows, from the top
    self.home = function () {
      self.layout();
      var pw = svg.parentNode.clientWidth || 1000;
      var scale = Math.min(1, pw / W);
      var h = Math.max(Math.min(H * scale, 0.8 * (window.innerHeight || 800), 900), 120);
      svg.setAttribute('height', Math.round(h) + 'px');
      setView([W / 2 - pw / scale / 2, 0, pw / scale, h / scale]);
    };
    self.zoom = function (f, cx, cy) {
      var v = view.slice();
      if (cx === undefined) { cx = v[0] + v[2] / 2; cy = v[1] + v[3] / 2; }
      setView([cx - (cx - v[0]) * f, cy - (cy - v[1]) * f, v[2] * f, v[3] * f]);
    };
    self.setFolded = function (g, folded) {
      if (foldable(g)) { g.classList.toggle('folded', folded); }
    };
    self.foldAll = function (folded) {
      var cs = svg.querySelectorAll('g.cluster');
      for (var i = 0; i !== cs.length; i++) { self.setFolded(cs[i], folded); }
      self.home();
    };
    svg.setAttribute('width', '100%');
    svg.setAttribute('preserveAspectRatio', 'xMidYMin meet');
    svg.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var r = svg.getBoundingClientRect();
      var s = Math.max(view[2] / r.width, view[3] / r.height);
      var cx = view[0] + (ev.clientX - r.left) * s, cy = view[1] + (ev.clientY - r.top) * s;
      self.zoom(ev.deltaY > 0 ? 1.2 : 1 / 1.2, cx, cy);
    }, { passive: false });
    var drag = null;
    svg.addEventListener('mousedown', function (ev) { drag = [ev.clientX, ev.clientY, view.slice(), false]; });
    window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
    svg.addEventListener('mousemove', function (ev) {
      if (!drag || ev.buttons !== 1) { return; }
      var r = svg.getBoundingClientRect();
      var s = Math.max(view[2] / r.width, view[3] / r.height);
      var dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
      if (Math.abs(dx) + Math.abs(dy) > 3) { drag[3] = true; }
      setView([drag[2][0] - dx * s, drag[2][1] - dy * s, drag[2][2], drag[2][3]]);
    });
    svg.addEventListener('click', function (ev) {
      if (drag && drag[3]) { return; }
      var t = ev.target;
      var g = t.closest ? t.closest('g.cluster') : null;
      if (!g || !foldable(g)) { return; }
      if (g.classList.contains('folded')) {
        self.setFolded(g, false);
      } else if (t.parentNode === g) {
        self.setFolded(g, true);
      } else { return; }
      self.layout();
    });
    var matches = [], at = -1, last = '';
    self.find = function (text) {
      text = text.trim().toLowerCase();
      if (!text) { return null; }
      if (text !== last) {
        last = text; at = -1; matches = [];
        for (var k in items) {
          var n = (items[k].getAttribute('data-name') || '').toLowerCase();
          if (n.indexOf(text) >= 0) { matches.push(items[k]); }
        }
        matches.sort(function (a, b) {
          var x = a.getAttribute('data-name').toLowerCase() === text, y = b.getAttribute('data-name').toLowerCase() === text;
          return x === y ? 0 : x ? -1 : 1;
        });
      }
      var old = svg.querySelectorAll('.found');
      for (var i = 0; i !== old.length; i++) { old[i].classList.remove('found'); }
      var out = tools.querySelector('.matches');
      if (!matches.length) { out.textContent = 'no node named like "' + text + '"'; return null; }
      at = (at + 1) % matches.length;
      var g = matches[at];
      for (var p = g.parentNode; p && p !== svg; p = p.parentNode) {
        if (p.classList && p.classList.contains('cluster')) { self.setFolded(p, false); }
      }
      self.layout();
      g.classList.add('found');
      var key = g.id.slice(prefix.length), b = box[key];
      var w = Math.max(b[2] * 4, Math.min(W, 900)), h = w * (view[3] / view[2]);
      setView([b[0] + b[2] / 2 - w / 2, b[1] + b[3] / 2 - h / 2, w, h]);
      svg.setAttribute('data-found', key);
      out.textContent = (at + 1) + ' of ' + matches.length + ': ' + g.getAttribute('data-name');
      return g;
    };
    var input = tools.querySelector('input');
    self.input = input;
    input.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { self.find(input.value); } });
    tools.addEventListener('click', function (ev) {
      var act = ev.target.getAttribute && ev.target.getAttribute('data-act');
      if (act === 'in') { self.zoom(1 / 1.4); } else if (act === 'out') { self.zoom(1.4); }
      else if (act === 'fit') { self.fit(); } else if (act === 'fold') { self.foldAll(true); }
      else if (act === 'unfold') { self.foldAll(false); } else if (act === 'find') { self.find(input.value); }
    });
    if (svg.getAttribute('data-folded') === '1') {
      var cs = kids(root);
      var stack = cs.slice();
      while (stack.length) {
        var c = stack.pop();
        if (foldable(c)) { self.setFolded(c, true); } else if (c.classList.contains('cluster')) { stack = stack.concat(kids(child(c, 'body'))); }
      }
    }
    self.home();
  }
  var pictures = [];
  var holders = document.querySelectorAll('div.picture[data-prefix]');
  for (var i = 0; i !== holders.length; i++) {
    var svg = holders[i].querySelector('svg.ge-graph');
    var tools = holders[i].previousElementSibling;
    if (svg && tools) { pictures.push(new Picture(svg, tools)); }
  }
  var m = /[#&]find=([^&]*)/.exec(window.location.hash);
  if (m) {
    var name = decodeURIComponent(m[1]);
    for (var j = 0; j !== pictures.length; j++) {
      pictures[j].input.value = name;
      pictures[j].find(name);
    }
  }
  document.body.setAttribute('data-graphs', String(pictures.length));
})();
"""


def _e(x: object) -> str:
    return escape("" if x is None else str(x))


def _cell(x: object) -> str:
    if isinstance(x, bool) or x is None:
        return f"<td>{_e('' if x is None else x)}</td>"
    if isinstance(x, int | float):
        return f'<td class="num">{_e(_num(x))}</td>'
    return f"<td>{_e(x)}</td>"


def _num(x: float) -> str:
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def table(
    tid: str, headers: Sequence[str], rows: Iterable[Sequence[object]], classes: Iterable[str] | None = None
) -> str:
    """An HTML table (cells escaped); more than PAGE_ROWS rows: paginated by the script."""
    body: list[str] = []
    cls = iter(classes) if classes is not None else None
    for row in rows:
        c = next(cls, "") if cls is not None else ""
        attr = f' class="{_e(c)}"' if c else ""
        body.append(f"<tr{attr}>" + "".join(_cell(x) for x in row) + "</tr>")
    page = f' data-page="{PAGE_ROWS}"' if len(body) > PAGE_ROWS else ""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    return (
        f'<table id="{_e(tid)}"{page}><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(body) + "\n</tbody></table>"
    )


_XML_DECL = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->|<metadata>.*?</metadata>", re.S)
_XMLNS = re.compile(r'\s+xmlns(?::\w+)?="[^"]*"')
_ID = re.compile(r'\bid="([^"]*)"')
_HREF = re.compile(r'((?:xlink:)?href)="#([^"]*)"')
_URL = re.compile(r"url\(#([^)]*)\)")


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG document as an element of the page: no XML declaration, doctype, comments
    or metadata, no namespace declarations (HTML puts <svg> in the SVG namespace), every
    id and internal reference prefixed so that several pictures' ids cannot clash."""
    s = _XMLNS.sub("", _XML_DECL.sub("", svg)).strip()
    s = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', s)
    s = _HREF.sub(lambda m: f'{m.group(1)}="#{prefix}-{m.group(2)}"', s)
    return _URL.sub(lambda m: f"url(#{prefix}-{m.group(1)})", s)


def _section(sid: str, title: str, body: str) -> str:
    return f'<section id="{sid}"><h2>{_e(title)}</h2>\n{body}\n</section>'


def _p(text: str) -> str:
    return f'<p class="note">{_e(text)}</p>'


def _figure_value(v: object) -> object:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) if all(not isinstance(x, dict) for x in v) else f"{len(v)} entries"
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in sorted(v.items()))
    return v


# -- sections -------------------------------------------------------------------------------------


def summary_section(source: str, stats: Mapping[str, object]) -> str:
    rows = [("input (locations below are LINE:COL in it)", source)] + [
        (k, _figure_value(v)) for k, v in sorted(stats.items()) if k not in ("outputs", "dynamic")
    ]
    outs = stats.get("outputs")
    body = table("summary-figures", ("figure", "value"), rows)
    if isinstance(outs, list):
        body += table(
            "outputs",
            ("index", "name", "shape", "dtype"),
            [
                (o.get("index"), o.get("name"), "x".join(map(str, o.get("shape", []))) or "scalar", o.get("dtype"))
                for o in outs
            ],
        )
    return _section("summary", "Summary", body)


def _where(loc: str, source: str) -> str:
    """`LINE:COL` of a location in the input file (for an ONNX model its element, `node 'n'
    (Op)`), else the whole location."""
    d = parse_location(loc)
    if d["file"] != source:
        return loc
    return d["element"] if "element" in d else f"{d['line']}:{d['col']}"


def _pair(r: Remark) -> str:
    return " + ".join(f"'{n}'" for n in r.nodes[:2])


def kernels_section(kernels: Sequence[Kernel], remarks: Sequence[Remark], source: str) -> str:
    parts = [
        _p(
            "Every kernel task of the compiled graph, fused or not, AscBackend or library kernel: which original "
            "ops it holds, the bytes it reads and writes in global memory (its inputs' and outputs' storage "
            "sizes), and the decision that made it."
        )
    ]
    parts.append(
        table(
            "kernel-list",
            ("graph", "kernel", "type", "fuse type", "ops", "holds", "bytes read", "bytes written", "decision"),
            [
                (
                    k.graph,
                    k.name,
                    k.type,
                    k.fuse_type or "library kernel",
                    len(k.ops),
                    ", ".join(k.ops),
                    k.bytes_read,
                    k.bytes_written,
                    kernel_decision(k, remarks),
                )
                for k in kernels
            ],
        )
    )
    lowering = [r for r in remarks if r.pass_name == LOWERING_PASS and r.verdict is not None]
    parts.append("<h3>Lowering into AscBackends (ge-lower-autofuse)</h3>")
    parts.append(
        table(
            "lowering",
            ("node", "verdict", "into", "why", "location"),
            [
                (
                    r.nodes[0] if r.nodes else "",
                    r.verdict,
                    ", ".join(r.nodes[1:]),
                    r.message.split(": ", 1)[-1],
                    _where(r.location, source),
                )
                for r in lowering
            ],
            ("lowered" if r.verdict == "lowered" else "refused" for r in lowering),
        )
    )
    fusion = [r for r in remarks if r.pass_name == FUSION_PASS and r.verdict is not None]
    parts.append("<h3>Fusion decisions (ge-autofuse)</h3>")
    parts.append(
        _p(
            "Each candidate pair the solver fused or refused, the GE rule (NotFuseReason) and NF code "
            "of a refusal, the priority bucket it was tried in, and ScoreFusionMemory: the bytes of the "
            "buffers both read or write, GE's measure of the global-memory traffic fusing saves. Lifting puts a kernel "
            "with too little work back as its ops."
        )
    )
    parts.append(
        table(
            "fusion",
            ("pair", "verdict", "into", "GE rule", "NF code", "priority", "shared bytes", "why", "location"),
            [
                (
                    _pair(r) if r.stage == "fuse" else ", ".join(r.nodes),
                    r.verdict,
                    r.nodes[2] if r.verdict == "fused" and len(r.nodes) > 2 else "",
                    r.rule,
                    r.nf_code,
                    r.facts.get("priority"),
                    r.facts.get("shared_bytes"),
                    r.reason.message if r.reason is not None else "" if r.verdict == "fused" else r.message,
                    _where(r.location, source),
                )
                for r in fusion
            ],
            (
                "fused" if r.verdict == "fused" else "refused" if (r.verdict or "").startswith("not") else ""
                for r in fusion
            ),
        )
    )
    return _section("kernels", "Kernels and fusion decisions", "\n".join(parts))


def notask_section(remarks: Sequence[Remark], source: str) -> str:
    rows = [r for r in remarks if r.verdict in NO_TASK_VERDICTS]
    body = _p(
        "A no-task node gets no task: its outputs are views of memory other nodes write (a zero-copy "
        "concat's inputs are written side by side into its output). A refusal names the first GE rule "
        "that failed."
    ) + table(
        "notask-decisions",
        ("node", "pass", "verdict", "first failing rule", "NF code", "message", "location"),
        [
            (
                r.nodes[0] if r.nodes else "",
                r.pass_name,
                r.verdict,
                r.rule,
                r.nf_code,
                r.message,
                _where(r.location, source),
            )
            for r in rows
        ],
        ("marked" if r.verdict == "marked" else "refused" for r in rows),
    )
    return _section("notask", "No-task decisions", body)


def _picture_block(stage: Stage, index: int) -> str:
    shown = picture_to_show(stage.picture, PICTURE_FULL_LIMIT, PICTURE_KERNEL_LIMIT)
    folded = len(shown.picture.nodes) > PICTURE_FOLD_LIMIT
    svg = inline_svg(layered_svg(shown.picture, RENDERER, folded), f"g{index}")
    note = shown.note or f"the full picture: {len(stage.picture.nodes)} nodes, {len(stage.picture.edges)} edges"
    if folded:
        note += "; kernels folded (click one to unfold it, its frame to fold it again)"
    link = f'<a href="{_e(stage.stem)}.dot">{_e(stage.stem)}.dot</a>'
    tools = (
        '<div class="graph-tools"><input type="search" placeholder="find a node by name (Enter: next)"/>'
        '<button data-act="find">find</button> <button data-act="in">+</button><button data-act="out">\u2212</button>'
        '<button data-act="fit">fit</button> <button data-act="fold">fold all</button>'
        '<button data-act="unfold">unfold all</button><span class="matches"></span></div>'
    )
    return (
        f'<div class="stage" id="stage-{index}"><h3>{_e(stage.title)}</h3>'
        f'<p class="note">{_e(note)}; drawn by {_e(RENDERER)}; the full DOT: {link}</p>'
        f'{tools}<div class="picture" data-prefix="g{index}">{svg}</div></div>'
    )


def graphs_section(stages: Sequence[Stage]) -> str:
    if not stages:
        return _section("graphs", "Graph pictures", _p("no graph to draw"))
    body = _p(
        "Kernels are boxes, AscBackend / FusedAscBackend clusters list the ops they hold, no-task nodes "
        "are dashed, a weight is a purple line on the node that reads it; edges carry shape, dtype and "
        "bytes: solid through global memory, dotted on chip. Red: the critical path (the longest chain of "
        "dependent kernels); orange: the largest buffers in global memory. Wheel to zoom, drag to pan."
    )
    return _section("graphs", "Graph pictures", body + "\n".join(_picture_block(s, i) for i, s in enumerate(stages)))


def figures_table(stats: Mapping[str, object]) -> str:
    """The memory figures of the run with their one definition (report/figures.py, as
    ge-run --help gives it)."""
    return table(
        "memory-figures",
        ("figure", "", "--stats-json key", "bytes", "definition"),
        [(f.name, f.letter, f.stats_key, stats.get(f.stats_key, "not measured"), f.definition) for f in MEMORY_FIGURES],
    )


def memory_section(plans: Sequence[GraphPlan], stats: Mapping[str, object] | None = None) -> str:
    figures = figures_table(stats or {})
    if not plans:
        return _section(
            "memory", "Memory plan", _p("no memory plan (the run did not reach ge-assign-memory)") + figures
        )
    parts = [figures, f'<div class="picture">{inline_svg(plans_svg(list(plans)), "mem")}</div>']
    for k, p in enumerate(plans):
        parts.append(
            f"<p>graph @{_e(p.graph)}: feature map {p.memory_size} bytes, lower bound {p.lower_bound}"
            + (f", proven bound {p.proven_bound}" if p.proven_bound is not None else "")
            + f"; {len(p.blocks)} blocks for {p.tensors} tensors (one row per block)</p>"
        )

        def kinds(b: Any) -> str:
            return ", ".join(
                f"{t.name} [{t.offset}, {t.offset + t.size}) {t.kind}" if t.kind in (ALIAS, PIECE) else f"{t.name}"
                for t in b.tensors
            )

        pos = p.positions
        parts.append(
            table(
                f"memory-blocks-{k}",
                ("offset", "size", "first", "last", "tensors", "tensors (pieces and aliases inside the block)"),
                [
                    (
                        b.offset,
                        b.size,
                        pos[b.begin] if b.begin < len(pos) else b.begin,
                        pos[b.end] if b.end < len(pos) else b.end,
                        len(b.tensors),
                        kinds(b),
                    )
                    for b in p.blocks
                ],
            )
        )
    return _section("memory", "Memory plan", "\n".join(parts))


def _task_row(i: int, t: Operation, defs: Mapping[str, npu.KernelDefOp]) -> tuple[object, ...]:
    kind = t.name.removeprefix("npu.")
    what = ""
    ins = outs = ""
    if isinstance(t, npu.KernelOp):
        what = t.kernel.root_reference.data
        d = defs.get(what)
        if d is not None:
            what += f" ({d.kind.data}{' ' + d.ge_type.data if d.ge_type is not None else ''})"
    elif isinstance(t, npu.EventRecordOp | npu.EventWaitOp):
        what = f"event {t.id}"
    elif isinstance(t, npu.StreamActiveOp):
        what = f"stream {t.id}"
    if isinstance(t, npu.KernelOp | npu.MemcpyOp):
        fi, fo = t.footprint()
        ins = ", ".join(f"{n} @ {a}" for n, a in fi)
        outs = ", ".join(f"{n} @ {a}" for n, a in fo)
    return (i, kind, what, ins, outs)


def tasks_section(compiled: ModuleOp | None) -> str:
    models = [op for op in compiled.ops if isinstance(op, npu.ModelOp)] if compiled is not None else []
    if not models:
        return _section("tasks", "Task program", _p("no task program (the run did not reach ge-to-npu)"))
    parts = []
    for m in models:
        defs = m.kernel_defs()
        for s in m.stream_ops():
            tasks = s.tasks
            parts.append(f"<h3>model @{_e(m.sym_name.data)}, stream {s.stream.value.data}: {len(tasks)} tasks</h3>")
            parts.append(
                table(
                    f"stream-{_e(m.sym_name.data)}-{s.stream.value.data}",
                    ("#", "task", "kernel / target", "reads", "writes"),
                    [_task_row(i, t, defs) for i, t in enumerate(tasks)],
                )
            )
    return _section("tasks", "Task program", "\n".join(parts))


def comparison_section(checks: Sequence[Check]) -> str:
    if not checks:
        return _section("comparison", "Comparison", _p("no comparison (--reference runs the reference only)"))
    parts = []
    for k, c in enumerate(checks):
        verdict = "match" if c.matched else "do not match"
        parts.append(f"<h3>against {_e(c.against)}: outputs {verdict}</h3>")
        parts.append(
            table(f"comparison-{k}", ("figure", "value"), [(n, _figure_value(v)) for n, v in c.figures.items()])
        )
        if c.lines:
            parts.append(table(f"comparison-{k}-lines", ("difference",), [(ln,) for ln in c.lines]))
    return _section("comparison", "Comparison", "\n".join(parts))


def dynamic_section(stats: Mapping[str, object]) -> str:
    """The clusters of a partitioned graph, which ran as static models, and each
    execution's address refresh (ge-run's stats["dynamic"], runtime/dynamic_executor.py)."""
    dyn = stats.get("dynamic")
    assert isinstance(dyn, dict)
    cl = dyn.get("clusters", {})
    rows = [
        ("unknown-shape clusters (run on the host)", len(cl.get("unknown_shape", []))),
        ("known-shape clusters", len(cl.get("known_shape", []))),
        (
            "run as static models (npu.model, known_node)",
            ", ".join(f"@{m}" for m in cl.get("static_models", [])) or "none",
        ),
        ("unknown-shape subgraphs", ", ".join(f"@{m}" for m in cl.get("unknown_shape", [])) or "none"),
        ("data / netoutput", f"{cl.get('data', 0)} / {cl.get('netoutput', 0)}"),
    ]
    body = table("dynamic-clusters", ("cluster", "value"), rows)
    body += _p(
        "Per execution: the input shapes, the nodes run on the host, and per static model GE's update "
        "policy (ret_up) and the args slots its refresh rewrote, 8 bytes each (64-bit device addresses)."
    )
    runs = []
    for h in dyn.get("executions", []):
        shapes = ", ".join("x".join(map(str, s)) or "scalar" for s in h.get("input_shapes", []))
        for m in h.get("models", []) or [{}]:
            runs.append(
                (
                    h.get("execution"), shapes, h.get("host_nodes"), m.get("model"),
                    f"{m.get('update_policy')} ({m.get('update_policy_name')})" if m else None,
                    m.get("refreshed_slots"), m.get("refreshed_bytes"), ", ".join(m.get("input_addresses", [])),
                    ", ".join(m.get("output_addresses", [])), m.get("fm_address"),
                )
            )  # fmt: skip
    body += table(
        "dynamic-executions",
        ("execution", "input shapes", "host nodes", "static model", "update policy", "args slots refreshed",
         "bytes refreshed", "input addresses", "output addresses", "feature map"),
        runs,
    )  # fmt: skip
    return _section("dynamic", "Dynamic shapes", body)


def in_tables(r: Remark) -> bool:
    """Whether the kernel, fusion or no-task table shows the remark."""
    return (r.pass_name in (LOWERING_PASS, FUSION_PASS) and r.verdict is not None) or r.verdict in NO_TASK_VERDICTS


def remarks_section(remarks: Sequence[Remark]) -> str:
    rows = []
    for r in remarks:
        if in_tables(r):
            continue
        loc = parse_location(r.location)
        rows.append(
            # an ONNX model's remark: its element (`node 'n' (Op)`) where a line would be
            (
                loc.get("element", loc["line"]),
                "" if "element" in loc else loc["col"],
                r.pass_name,
                r.stage,
                r.verdict,
                r.rule,
                r.nf_code,
                ", ".join(r.nodes),
                r.message,
            )
        )
    body = _p(
        "The remarks the tables above do not show (memory placement, inserted copies, summaries), in "
        "the order the passes made them; --remarks-json writes every remark."
    )
    return _section(
        "remarks",
        "Other remarks",
        body
        + table(
            "remark-list", ("line", "col", "pass", "stage", "verdict", "GE rule", "NF code", "nodes", "message"), rows
        ),
    )


# -- the page ---------------------------------------------------------------------------------------


def report_html(
    source: str,
    stats: Mapping[str, object],
    stages: Sequence[Stage],
    kernels: Sequence[Kernel],
    remarks: Sequence[Remark],
    plans: Sequence[GraphPlan],
    compiled: ModuleOp | None,
    checks: Sequence[Check],
) -> str:
    title = f"ge-run report: {source}" + (f" @{stats['graph']}" if "graph" in stats else "")
    toc = "".join(
        f'<li><a href="#{sid}">{_e(t)}</a></li>'
        for sid, t in (
            ("summary", "Summary"),
            ("kernels", "Kernels and fusion decisions"),
            ("notask", "No-task decisions"),
            ("graphs", "Graph pictures"),
            ("memory", "Memory plan"),
            ("tasks", "Task program"),
            ("comparison", "Comparison"),
            *((("dynamic", "Dynamic shapes"),) if "dynamic" in stats else ()),
            ("remarks", "Other remarks"),
        )
    )
    sections = [
        summary_section(source, stats),
        kernels_section(kernels, remarks, source),
        notask_section(remarks, source),
        graphs_section(stages),
        memory_section(plans, stats),
        tasks_section(compiled),
        comparison_section(checks),
        *((dynamic_section(stats),) if "dynamic" in stats else ()),
        remarks_section(remarks),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8"/>'
        f"<title>{_e(title)}</title>\n"
        f'<style type="text/css">/*<![CDATA[*/{_CSS}/*]]>*/</style></head>\n'
        f"<body><h1>{_e(title)}</h1>\n<ul>{toc}</ul>\n" + "\n".join(sections) + "\n"
        f"<script>//<![CDATA[{_SCRIPT}//]]></script>\n</body></html>\n"
    )


def write_report(
    out_dir: str | os.PathLike[str],
    source: str,
    stats: Mapping[str, object],
    module: ModuleOp,
    recorder: RunRecorder | None,
    compiled: ModuleOp | None,
    checks: Sequence[Check],
) -> Path:
    """Write DIR/index.html and the full DOT of each picture beside it; returns the page's path.
    `module` is the input (the picture before fusion), `recorder` what the compile gathered
    (None when nothing was compiled), `compiled` the module after the passes."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    m = named(module)
    types = node_types(m)
    stages = [Stage("before fusion: the input graph", "00_input", build_picture(m, "", types))]
    rec = recorder
    if rec is not None and rec.after_fusion is not None:
        stages.append(Stage("after fusion (ge-autofuse)", f"01_{stage_file_stem(FUSION_PASS)}", rec.after_fusion))
    if rec is not None and rec.planned is not None:
        stages.append(Stage("after the no-task passes and memory planning", "02_planned", rec.planned))
    stages = [s for s in stages if s.picture.nodes]
    for s in stages:
        (out / f"{s.stem}.dot").write_text(to_dot(s.picture), encoding="utf-8")
    page = report_html(
        source,
        stats,
        stages,
        rec.kernels if rec is not None else [],
        rec.remarks if rec is not None else [],
        rec.plans if rec is not None else [],
        compiled,
        checks,
    )
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
