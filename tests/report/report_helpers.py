"""Helpers of the report tests: a module at a stage of the pipeline, and DOT read back
with pydot (labels unescaped)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pydot
import pyparsing
from xdsl.dialects.builtin import ModuleOp

from conftest import COMPILE_ORDER, ROOT, parse
from ge_dialect.names import name_all_nodes
from ge_tools.pipeline_spec import build_pipeline
from ge_tools.registry import get_all_passes, make_context

# pydot reads DOT with a pyparsing grammar that re-parses the same alternatives over and
# over: pyparsing's packrat memo (its default bounded cache; global to the process, and
# transparent: the same parse) makes the pictures' checks about 40 % cheaper
pyparsing.ParserElement.enable_packrat()

EX = ROOT / "examples"
# ge-compile up to and including ge-assign-memory (the heuristic planner: fast and
# deterministic); the last stage that still holds ge graphs
TO_MEMORY = ",".join(p for p in COMPILE_ORDER if not p.startswith(("ge-assign-memory", "ge-to-npu")))
TO_MEMORY += ",ge-assign-memory{solver=heuristic}"


def staged(text_or_path: str | Path, passes: str = "") -> ModuleOp:
    """The module of `text_or_path` (MLIR text or an example's path) after `passes`."""
    text = text_or_path.read_text() if isinstance(text_or_path, Path) else text_or_path
    ctx = make_context()
    m = parse(text, "<report-test>", ctx)
    name_all_nodes(m)
    if passes:
        for p in build_pipeline(passes, get_all_passes()):
            p.apply(ctx, m)
    m.verify()
    return m


def unquote(s: str | None) -> str:
    """A DOT quoted string as the text it stands for (`\\n` a newline)."""
    assert s is not None
    if s.startswith('"') and s.endswith('"'):
        s = s[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "\\": "\\", '"': '"'}.get(m.group(1), "\\" + m.group(1)), s)


class Dot:
    """A DOT text parsed by pydot: nodes (id -> attrs), edges, clusters (id -> attrs and
    the node ids directly inside, and the parent cluster)."""

    def __init__(self, text: str):
        with warnings.catch_warnings():  # pydot 4.0.1 calls pyparsing's deprecated camelCase API
            warnings.simplefilter("ignore", DeprecationWarning)
            graphs = pydot.graph_from_dot_data(text)
        assert graphs is not None and len(graphs) == 1, "the DOT text parses as one graph"
        self.graph = graphs[0]
        self.nodes: dict[str, dict[str, str]] = {}
        self.node_cluster: dict[str, str | None] = {}
        self.clusters: dict[str, dict[str, str]] = {}
        self.cluster_parent: dict[str, str | None] = {}
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        self.graph_attrs: dict[str, str] = {}
        self._walk(self.graph, None)

    def _walk(self, g: pydot.Graph, cluster: str | None) -> None:
        for n in g.get_nodes():
            name = n.get_name()
            if name == "graph" and cluster is None:
                self.graph_attrs.update({k: unquote(v) for k, v in n.get_attributes().items()})
            if name in ("node", "edge", "graph"):
                continue
            self.nodes[name] = {k: unquote(v) for k, v in n.get_attributes().items()}
            self.node_cluster[name] = cluster
        for e in g.get_edges():
            self.edges.append(
                (e.get_source(), e.get_destination(), {k: unquote(v) for k, v in e.get_attributes().items()})
            )
        for sub in g.get_subgraphs():
            cid = sub.get_name()
            attrs: dict[str, str] = {}
            for gn in sub.get_nodes():
                if gn.get_name() == "graph":
                    attrs.update({k: unquote(v) for k, v in gn.get_attributes().items()})
            attrs.update({k: unquote(v) for k, v in sub.get_attributes().items()})
            self.clusters[cid] = attrs
            self.cluster_parent[cid] = cluster
            self._walk(sub, cid)

    def label_of(self, node: str) -> str:
        return self.nodes[node]["label"]

    def node_by_label(self, first_lines: str) -> str:
        """The one node whose label starts with `first_lines` (e.g. "ConcatD\\nc")."""
        hits = [n for n, a in self.nodes.items() if a.get("label", "").split("\n")[:2] == first_lines.split("\n")]
        assert len(hits) == 1, f"{first_lines!r}: {hits}"
        return hits[0]

    def cluster_of_kind(self, kind: str) -> list[str]:
        return [c for c, a in self.clusters.items() if a.get("class") == kind]

    def kernel_cluster(self, node: str) -> str | None:
        """The outermost kernel (non-graph) cluster holding `node`, or None."""
        c = self.node_cluster[node]
        out = None
        while c is not None:
            if self.clusters[c].get("class") != "graph":
                out = c
            c = self.cluster_parent[c]
        return out
