"""ge-run --report DIR: DIR/index.html is one well-formed, self-contained page whose tables say
which ops fused into which kernel, why the others did not, which nodes are no-task and
where each tensor lives; built from the run's Remark objects."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from report_helpers import EX

from bench.gen_graphs import generate
from ge_tools.run import run as ge_run
from report.html import PAGE_ROWS, PICTURE_FOLD_LIMIT, inline_svg

SECTIONS = ("summary", "kernels", "notask", "graphs", "memory", "tasks", "comparison", "remarks")
VOID = {"meta", "br", "hr", "img", "input", "link"}


class _Tags(HTMLParser):
    """Checks that every element is closed in order; collects attributes that load or link."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "action", "data", "poster") and v is not None:
                self.links.append((tag, k, v))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href", "xlink:href") and v is not None:
                self.links.append((tag, k, v))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()


def report(tmp_path, example: str, *extra: str) -> tuple[str, ET.Element]:
    out = tmp_path / "rep"
    src = example if "/" in example else str(EX / f"{example}.mlir")
    assert ge_run([src, "--report", str(out), *extra]) == 0
    page = (out / "index.html").read_text()
    return page, ET.fromstring(page)


def rows(root: ET.Element, tid: str) -> list[list[str]]:
    [t] = [t for t in root.iter("table") if t.get("id") == tid]
    body = t.find("tbody")
    assert body is not None
    return [["".join(td.itertext()) for td in tr] for tr in body.findall("tr")]


def column(root: ET.Element, tid: str, name: str) -> list[str]:
    [t] = [t for t in root.iter("table") if t.get("id") == tid]
    heads = ["".join(th.itertext()) for th in t.iter("th")]
    k = heads.index(name)
    return [r[k] for r in rows(root, tid)]


def check_page(page: str, root: ET.Element) -> _Tags:
    tags = _Tags()
    tags.feed(page)
    tags.close()
    assert tags.errors == [] and tags.stack == []
    assert {s.get("id") for s in root.iter("section")} == set(SECTIONS)
    # self-contained: nothing loaded from anywhere; the only links are to this page's
    # anchors and to the DOT files written beside it
    assert not tags.tags & {"link", "img", "iframe", "object", "embed"}
    assert all(s.get("src") is None for s in root.iter("script"))
    for tag, attr, value in tags.links:
        assert value.startswith("#") or re.fullmatch(r"[\w.-]+\.dot", value), (tag, attr, value)
    assert "http://" not in page and "https://" not in page and "url(http" not in page
    # the pictures' ids are unique on the page, and every internal reference resolves
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    assert len(ids) == len(set(ids))
    for _, _, value in tags.links:
        if value.startswith("#"):
            assert value[1:] in ids, value
    return tags


def test_softmax_like(tmp_path):
    page, root = report(tmp_path, "softmax_like")
    check_page(page, root)
    # ge-lower-autofuse puts Sub and Exp into one kernel; the reductions stay out
    kernels = {r[1]: r[5] for r in rows(root, "kernel-list")}
    assert kernels == {
        "m": "m (ReduceMaxD)",
        "autofuse_pointwise_0_Sub_Exp": "d (Sub), e (Exp)",
        "s": "s (ReduceSumD)",
        "y": "y (RealDiv)",
    }
    # every kernel a row (fused or not, library kernel or AscBackend), as many as ge-run's
    # kernels; bytes by hand: x and e are 8x64 f32 = 2048 B, m and s 8x1 f32 = 32 B
    table = {r[1]: (r[3], r[6], r[7], r[8]) for r in rows(root, "kernel-list")}
    assert table["m"][:3] == ("library kernel", "2048", "32")
    assert table["m"][3].startswith("ge-lower-autofuse: not lowered")
    assert table["autofuse_pointwise_0_Sub_Exp"] == ("pointwise", "2080", "2048", "ge-lower-autofuse: lowered d, e")
    assert table["s"][:3] == ("library kernel", "2048", "32")
    # RealDiv was lowered alone, then lifted back (one compute op): a library kernel
    assert table["y"][:3] == ("library kernel", "2080", "2048")
    assert table["y"][3].startswith("ge-autofuse: lifted 'autofuse_pointwise_1_RealDiv' back to RealDiv 'y'")
    lowering = {r[0]: (r[1], r[2]) for r in rows(root, "lowering")}
    assert lowering["d"] == lowering["e"] == ("lowered", "autofuse_pointwise_0_Sub_Exp")
    assert lowering["m"][0] == lowering["s"][0] == "not lowered"
    # why the two kernels did not fuse: RealDiv reads the Sub+Exp kernel and ReduceSumD's
    # output, which reads the kernel too: a cycle
    [fusion, lifted] = rows(root, "fusion")
    assert fusion[:5] == [
        "'autofuse_pointwise_0_Sub_Exp' + 'autofuse_pointwise_1_RealDiv'",
        "not fused",
        "",
        "WillCreateCycle",
        "NF1002",
    ]
    assert fusion[6] == str(8 * 64 * 4)
    assert lifted[1] == "lifted"
    assert rows(root, "notask-decisions") == []
    # the fm blocks: m and s (one 64-byte block each at the same offset, not alive together),
    # the kernel's 8x64 f32 output; one rect per block in the memory picture
    blocks = rows(root, "memory-blocks-0")
    assert len(blocks) == 3
    assert [r[5] for r in blocks] == ["m:0", "autofuse_pointwise_0_Sub_Exp:0", "s:0"]
    rects = [e for e in root.iter("rect") if e.get("class") == "block"]
    assert len(rects) == 3
    # one stream: four kernels and the end of the graph
    tasks = rows(root, "stream-main-0")
    assert [r[1] for r in tasks] == ["kernel"] * 4 + ["end_graph"]
    assert [t.text for t in root.iter("h3") if t.text and t.text.startswith("against")] == [
        "against the reference interpreter: outputs match"
    ]


def test_split_compute_merge(tmp_path):
    page, root = report(tmp_path, "split_compute_merge")
    check_page(page, root)
    kernels = {r[1]: r[5] for r in rows(root, "kernel-list")}
    assert kernels == {
        "autofuse_pointwise_0_Mul_Relu": "a (Mul), r (Relu)",
        "autofuse_0_Exp_Mul": "e0 (Exp), b0 (Mul)",
        "autofuse_1_Exp_Mul": "e1 (Exp), b1 (Mul)",
        "autofuse_2_Exp_Mul": "e2 (Exp), b2 (Mul)",
        "m": "m (MatMul)",
        "t": "t (Tanh)",
    }
    # the summary's kernels count (the simulator's kernel tasks) is the table's rows
    summary = {r[0]: r[1] for r in rows(root, "summary-figures")}
    assert summary["kernels"] == str(len(kernels)) == "6"
    fused = {r[1]: r[8] for r in rows(root, "kernel-list")}
    assert fused["autofuse_1_Exp_Mul"] == (
        "ge-autofuse: fused 'autofuse_pointwise_3_Exp' + 'autofuse_pointwise_4_Mul' (priority DEFAULT)"
    )
    fused = [r for r in rows(root, "fusion") if r[1] == "fused"]
    assert [(r[0], r[2], r[6]) for r in fused] == [
        (
            f"'autofuse_pointwise_{2 * k + 1}_Exp' + 'autofuse_pointwise_{2 * k + 2}_Mul'",
            f"autofuse_{k}_Exp_Mul",
            "2048",
        )
        for k in range(3)
    ]
    # the split and the concat are no-task: zero-copy
    notask = {r[0]: (r[1], r[2]) for r in rows(root, "notask-decisions")}
    assert notask == {"s0": ("ge-split-notask", "marked"), "c": ("ge-concat-notask", "marked")}
    # the concat's block holds its three inputs as pieces and its output as the alias
    blocks = rows(root, "memory-blocks-0")
    assert len(blocks) == 3
    [concat] = [r for r in blocks if "c:0" in r[5]]
    assert concat[0] == "3584" and concat[4] == "4"
    pieces = re.findall(r"(\S+) \[(\d+), (\d+)\) (piece|alias)", concat[5])
    assert pieces == [
        ("autofuse_0_Exp_Mul:0", "3584", "4640", "piece"),
        ("autofuse_1_Exp_Mul:0", "4608", "5664", "piece"),
        ("autofuse_2_Exp_Mul:0", "5632", "6688", "piece"),
        ("c:0", "3584", "6688", "alias"),
    ]
    assert len([e for e in root.iter("rect") if e.get("class") == "block"]) == 3
    # no task for the split or the concat: six kernels
    tasks = rows(root, "stream-main-0")
    assert [r[1] for r in tasks].count("kernel") == 6
    # the pictures: before fusion, after fusion, after the no-task passes; their DOT beside
    stages = [d for d in root.iter("div") if d.get("class") == "stage"]
    assert len(stages) == 3
    assert sorted(p.name for p in (tmp_path / "rep").iterdir()) == [
        "00_input.dot",
        "01_ge-autofuse.dot",
        "02_planned.dot",
        "index.html",
    ]
    # the remarks no table shows: the memory placements and the two summaries
    other = rows(root, "remark-list")
    assert [r[2] for r in other].count("ge-assign-memory") == 14
    assert [r[4] for r in other] == [""] * len(other)


def test_report_is_deterministic(tmp_path):
    a, _ = report(tmp_path / "a", "split_relu_concat")
    b, _ = report(tmp_path / "b", "split_relu_concat")
    assert a.replace(str(tmp_path / "a"), "") == b.replace(str(tmp_path / "b"), "")


def test_reference_only_report(tmp_path):
    page, root = report(tmp_path, "softmax_like", "--reference")
    check_page(page, root)
    assert rows(root, "fusion") == [] and rows(root, "remark-list") == []
    assert "no task program" in page


def test_two_streams_each_get_a_table(tmp_path):
    page, root = report(tmp_path, "split_compute_merge", "--streams", "2")
    check_page(page, root)
    tables = sorted(t.get("id") or "" for t in root.iter("table") if (t.get("id") or "").startswith("stream-"))
    assert tables == ["stream-main-0", "stream-main-1"]


def test_generated_graph_paginated(tmp_path):
    # a graph of other shapes and types, with more remarks than one page
    src = tmp_path / "g.mlir"
    src.write_text(generate("mixed", 400, 5, 30))
    page, root = report(tmp_path, str(src))
    check_page(page, root)
    [t] = [t for t in root.iter("table") if t.get("id") == "lowering"]
    body = t.find("tbody")
    assert body is not None and len(body) > PAGE_ROWS
    assert t.get("data-page") == str(PAGE_ROWS)
    notes = ["".join(p.itertext()) for d in root.iter("div") if d.get("class") == "stage" for p in d.iter("p")]
    # the pictures are drawn in full (every node of the DOT beside), the kernels folded at
    # first sight (more than PICTURE_FOLD_LIMIT nodes)
    dot = (tmp_path / "rep" / "02_planned.dot").read_text()
    drawn = len(re.findall(r"^ *n[0-9]+ \[", dot, re.M))
    assert drawn > PICTURE_FOLD_LIMIT
    assert len(notes) == 3 and f"the full picture: {drawn} nodes" in notes[2], notes
    assert all("kernels folded" in n for n in notes[1:])
    # every kernel of the graph after planning is a row, each holding at least one op
    assert all(int(r[4]) >= 1 for r in rows(root, "kernel-list"))
    json_out = tmp_path / "r.json"
    assert ge_run([str(src), "--remarks-json", str(json_out)]) == 0
    # every remark is a row of one table
    shown = sum(len(rows(root, t)) for t in ("lowering", "fusion", "notask-decisions", "remark-list"))
    assert len(json.loads(json_out.read_text())["remarks"]) == shown


@pytest.mark.parametrize(
    "svg",
    [
        '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/x.dtd">'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><!-- c -->'
        '<metadata><rdf>http://x</rdf></metadata><defs><path id="p"/></defs><use xlink:href="#p"/>'
        '<g clip-path="url(#p)"/></svg>',
    ],
)
def test_inline_svg_prefixes_ids(svg):
    s = inline_svg(svg, "k")
    assert "http" not in s and "<?xml" not in s and "<!--" not in s
    assert 'id="k-p"' in s and 'xlink:href="#k-p"' in s and "url(#k-p)" in s


def test_onnx_model_report_shows_the_onnxruntime_comparison(tmp_path):
    """A zoo model's report compares with onnxruntime too (the same figures ge-run prints);
    the UNet block's skip Concat is zero-copy on the page."""
    page, root = report(tmp_path, str(EX / "zoo" / "unet_block.onnx"))
    check_page(page, root)
    heads = ["".join(h.itertext()) for h in root.iter("h3")]
    assert "against the reference interpreter: outputs match" in heads
    assert "against onnxruntime: outputs match" in heads
    figures = dict((r[0], r[1]) for r in rows(root, "comparison-1"))
    assert set(figures) == {"y: max abs error", "y: max rel error"}
    assert float(figures["y: max abs error"]) < 1e-4
    assert "_skip_Concat" in page


def test_ge_run_names_the_renderer(tmp_path):
    from html import escape

    from conftest import run_cli
    from report.layered import RENDERER
    from report.svg_render import renderer

    code, _, err = run_cli(
        ge_run, [str(EX / "softmax_like.mlir"), "--report", str(tmp_path / "r"), "--dot-dir", str(tmp_path / "d")]
    )
    assert code == 0
    assert f"--dot-dir {tmp_path / 'd'}: graph pictures drawn by {renderer()}" in err
    assert f"report {tmp_path / 'r' / 'index.html'}: graph pictures drawn by {RENDERER}" in err
    assert f"drawn by {escape(RENDERER)}" in (tmp_path / "r" / "index.html").read_text()
