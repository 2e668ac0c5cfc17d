"""Work counts of ge-opt's parse and print (issue 12, part 3: fanout 4k/16k against XLA).
Each test counts calls or kept texts (never seconds) and checks that the faster path
gives what the plain one gives: the printed text with the printer's line and column,
the parsed module, the located errors.
"""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    DenseResourceAttr,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f32,
)
from xdsl.printer import Printer

from bench.gen_graphs import generate
from conftest import ROOT, count_calls
from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect.npu import AddrAttr
from ge_fast import Switch
from ge_tools.parse import GeLexer, LocatedParser, UserError, parse_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.printer import GePrinter
from ge_tools.registry import make_context
from random_graphs import graph_text

# -- print: kept attribute texts and the hot ops' lines written at once ---------------------


@cache
def _compiled_text(kind: str, nodes: int, seed: int) -> str:
    m = parse_module(make_context(), generate(kind, nodes, seed), "g.mlir")
    GeCompilePass().apply(make_context(), m)
    return _printed(Printer, m)[0]


def _compiled(kind: str, nodes: int = 300, seed: int = 0) -> ModuleOp:
    """A compiled module (AscGraphs in npu.kernel_defs, tensors, kernels), read back from
    its text: a fresh module per test, printed by xDSL as the compile printed it."""
    return parse_module(make_context(), _compiled_text(kind, nodes, seed), "c.mlir")


def _printed(printer_type: type, module, **flags) -> tuple[str, int, int]:
    out = io.StringIO()
    p = printer_type(stream=out, **flags)
    p.print_op(module)
    p.print_metadata(make_context().loaded_dialects)
    return out.getvalue(), p._current_line, p._current_column


@pytest.mark.parametrize("flags", [{}, {"print_generic_format": True}, {"print_debuginfo": True}])
@pytest.mark.parametrize("kind", ["fanout", "diamond", "concat_tree", "mixed", "chain"])
def test_kept_texts_print_what_xdsl_prints(kind, flags):
    m = _compiled(kind)
    want = _printed(Printer, m, **flags)  # xDSL's Printer: every op prints piece by piece
    assert _printed(GePrinter, m, **flags) == want  # the text, and the line and column kept


def test_a_compiled_module_reads_back_and_prints_the_same():
    text = _compiled_text("fanout", 300, 1)
    assert _printed(GePrinter, parse_module(make_context(), text, "c.mlir"))[0] == text


def test_each_attribute_text_is_printed_once(monkeypatch):
    m = _compiled("fanout")
    calls = count_calls(monkeypatch, Printer, "print_attribute")
    p = GePrinter(stream=io.StringIO())
    p.print_op(m)
    asked = p.text_hits + p.text_misses
    # xDSL's print_attribute runs once per kept text (and for what that nests); before,
    # once per attribute printed: every AscIR node's view, every address
    assert calls[0] <= 2 * p.text_misses
    assert calls[0] < asked // 3


def test_equal_addresses_and_views_share_one_text():
    p = GePrinter(stream=io.StringIO())
    a, b = AddrAttr("fm", 1024, 512), AddrAttr("fm", 1024, 512)
    assert a is not b
    t1, t2 = (ag.AscTensorType(f32, [0, 1], [4, 8], [8, 1]) for _ in range(2))
    assert p.attribute_text(a) == p.attribute_text(b) == "#npu.addr<fm, 1024, 512>"
    assert p.attribute_text(t1) == p.attribute_text(t2)
    assert (p.text_misses, p.text_hits) == (3, 2)  # the element type f32 is one of the misses
    # floats are never shared by value (0.0 == -0.0 in Python)
    z, nz = FloatAttr(0.0, f32), FloatAttr(-0.0, f32)
    assert (p.attribute_text(z), p.attribute_text(nz)) == ("0.000000e+00 : f32", "-0.000000e+00 : f32")


ODD_STRINGS = ["", "plain", 'a "quoted" word', "back\\slash", "new\nline", "tab\tand\x01", "é ü 中", "\x7f~ "]


def test_a_string_attribute_text_is_its_literal_without_a_buffer(monkeypatch):
    p = GePrinter(stream=io.StringIO())
    buffered = count_calls(monkeypatch, GePrinter, "text_of")
    for s in ODD_STRINGS:
        want = io.StringIO()
        Printer(stream=want).print_attribute(StringAttr(s))
        assert p.attribute_text(StringAttr(s)) == want.getvalue()
    assert buffered[0] == 0  # each distinct string's text built directly, none printed


def _count_print_strings(monkeypatch: pytest.MonkeyPatch, node_type: type) -> list[int]:
    """print_string calls made while an op of `node_type` prints its line."""
    calls = [0, 0]  # calls, lines
    plain = GePrinter.print_op
    write = GePrinter.print_string
    inside = [False]

    def print_op(self, op):  # type: ignore[no-untyped-def]
        was = inside[0]
        inside[0] = isinstance(op, node_type)
        calls[1] += inside[0]
        try:
            return plain(self, op)
        finally:
            inside[0] = was

    def print_string(self, text, *, indent=None):  # type: ignore[no-untyped-def]
        calls[0] += inside[0]
        return write(self, text, indent=indent)

    monkeypatch.setattr(GePrinter, "print_op", print_op)
    monkeypatch.setattr(GePrinter, "print_string", print_string)
    return calls


def test_an_ascir_node_prints_its_attributes_and_types_at_once(monkeypatch):
    m = _compiled("fanout")
    operands = sum(len(op.operands) for op in m.walk() if isinstance(op, ag.AscNode))
    calls = _count_print_strings(monkeypatch, ag.AscNode)
    GePrinter(stream=io.StringIO()).print_op(m)
    writes, lines = calls
    # per node: its result and ` = `, its name, `(`, the operands and `, `, then `) {attrs} :
    # type` at once (piece by piece it was 7 more: `) `, `{`, each key, ` = `, value, `}`, ...)
    assert writes <= 5 * lines + 2 * operands


def test_a_kernels_operands_print_at_once(monkeypatch):
    from ge_dialect.npu import KernelOp

    m = _compiled("fanout")
    pairs = sum(len(op.in_tensors.data) + len(op.out_tensors.data) for op in m.walk() if isinstance(op, KernelOp))
    calls = _count_print_strings(monkeypatch, KernelOp)
    GePrinter(stream=io.StringIO()).print_op(m)
    writes, lines = calls
    assert pairs > 5 * lines  # fanout's kernels write many tensors
    # a fixed number of writes per kernel (the declarative format's pieces), however many
    # operands; piece by piece, 3 more per tensor and address
    assert writes <= 20 * lines


def test_an_attribute_dict_prints_at_once(monkeypatch):
    from ge_dialect.npu import TensorOp

    m = _compiled("fanout")
    entries = sum(len(op.attributes) for op in m.walk() if isinstance(op, TensorOp))
    calls = _count_print_strings(monkeypatch, TensorOp)
    GePrinter(stream=io.StringIO()).print_op(m)
    writes, lines = calls
    assert entries >= 2 * lines  # each npu.tensor names its node and type
    # per line: the result-less op's name, then the format's pieces (` `, the tensor, ` `,
    # `at`, ` `, the address, ` `) and the dict at once; entry by entry it was 4 more each
    assert writes <= 12 * lines


def _odd_module() -> ModuleOp:
    """A compiled module with attributes whose texts are not kept: a dense resource
    (registered for the metadata), a float 0.0 and -0.0, a location, a string with a
    newline, each on two ops."""
    m = _compiled("diamond", 40)
    nodes = [op for op in m.walk() if isinstance(op, ag.AscNode)]
    for i, op in enumerate(nodes[:6]):
        op.attributes["blob"] = DenseResourceAttr.from_params("blob", TensorType(f32, [2]))
        op.attributes["zero"] = FloatAttr(-0.0 if i % 2 else 0.0, f32)
        op.attributes["at"] = FileLineColLoc(StringAttr("x.mlir"), IntAttr(i), IntAttr(2))
        op.attributes["s"] = StringAttr("new\nline")
    return m


@pytest.mark.parametrize("flags", [{}, {"print_debuginfo": True}, {"print_generic_format": True}])
def test_texts_not_kept_print_as_xdsl_prints(flags):
    m = _odd_module()
    want = _printed(Printer, m, **flags)
    assert want[0].count("dense_resource<blob>") == 6 and "-0.0" in want[0] and "new\\0Aline" in want[0]
    assert _printed(GePrinter, m, **flags) == want


def test_a_plain_printer_prints_piece_by_piece():
    p = Printer(stream=io.StringIO())
    assert A.keeping(p) is None
    assert A.keeping(GePrinter(stream=io.StringIO())) is not None


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "examples").glob("*.mlir")))
def test_examples_compiled_print_what_xdsl_prints(name):
    m = parse_module(make_context(), (ROOT / "examples" / name).read_text(), name)
    try:
        GeCompilePass().apply(make_context(), m)
    except Exception:  # an example the static pipeline refuses (dynamic shapes): its input
        m = parse_module(make_context(), (ROOT / "examples" / name).read_text(), name)
    assert _printed(GePrinter, m) == _printed(Printer, m)


# -- parse: a node's common form read from the text, the token path for the rest ------------


def _parsed(text: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    """The module as generic text with locations, or the one-line error."""
    monkeypatch.setattr(Switch, "on", fast)
    monkeypatch.setattr(LocatedParser, "fast_results", fast)
    try:
        m = parse_module(make_context(), text, "g.mlir")
    except UserError as e:
        return f"error: {e}"
    return _printed(Printer, m, print_generic_format=True, print_debuginfo=True)[0]


def _lit_inputs() -> list[Path]:
    # (not lit's Output/ directories: what a lit run left there is not a test's input)
    lit = [p for p in (ROOT / "tests" / "filecheck").rglob("*.mlir") if "Output" not in p.parts]
    return sorted(lit) + sorted((ROOT / "examples").glob("*.mlir"))


def test_common_form_parses_as_the_token_path_on_every_lit_input(monkeypatch):
    files = _lit_inputs()
    assert len(files) > 100
    for f in files:
        # a lit file holds several inputs (`// -----`) and expected errors: each chunk alone
        for chunk in f.read_text(errors="replace").split("// -----"):
            assert _parsed(chunk, True, monkeypatch) == _parsed(chunk, False, monkeypatch), f


@pytest.mark.parametrize("kind", ["fanout", "diamond", "concat_tree", "mixed", "chain"])
def test_common_form_parses_as_the_token_path_on_generated_graphs(monkeypatch, kind):
    text = generate(kind, 300, 2)
    assert _parsed(text, True, monkeypatch) == _parsed(text, False, monkeypatch)


@pytest.mark.parametrize("seed", range(6))
def test_common_form_parses_as_the_token_path_on_random_graphs(monkeypatch, seed):
    text = graph_text(seed)
    assert _parsed(text, True, monkeypatch) == _parsed(text, False, monkeypatch)


# What a one-character edit may put into a node's line: blanks, other brackets, a comment,
# an index, a bad type, a wrong name, nothing.
EDITS = ["", " ", "  ", "\n", "\t", "(", ")", "{", "}", ",", ":", "->", "%", "#0", "#1", "x", "?", "f7", "<", ">",
         "// c\n", "tensor", "%n1", "%zz", "1", "-", '"', "=", "[", "]"]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_a_broken_node_line_is_the_same_error_at_the_same_place(monkeypatch, seed):
    rng = random.Random(seed)
    text = generate("fanout", 60, seed)
    lines = text.split("\n")
    node_lines = [i for i, line in enumerate(lines) if " = ge." in line]
    for _ in range(60):
        i = rng.choice(node_lines)
        line = lines[i]
        at = rng.randrange(line.index(" = ge."), len(line) + 1)
        cut = rng.choice([0, 0, 1, 2])
        broken = "\n".join([*lines[:i], line[:at] + rng.choice(EDITS) + line[at + cut :], *lines[i + 1 :]])
        assert _parsed(broken, True, monkeypatch) == _parsed(broken, False, monkeypatch), broken.split("\n")[i]


def test_a_node_in_the_common_form_is_read_without_its_tokens(monkeypatch):
    text = generate("fanout", 300, 0)
    lexed = count_calls(monkeypatch, GeLexer, "lex")
    parse_module(make_context(), text, "g.mlir")
    nodes = text.count(" = ge.")
    # per node: its result, its name, the token after the types (and an attribute dict's
    # tokens); token by token it was `=` and about 4 per operand and type more
    assert lexed[0] < 4 * nodes
