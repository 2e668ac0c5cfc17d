"""The direction of dependencies (docs/architecture.md, "Layout, and the direction of dependencies"),
checked on the source: every import of every project module, lazy ones (inside a function)
included, is read with `ast`, and

* no two project modules import each other, directly or through others;
* ge_fast/ (the fast paths behind one switch) imports nothing of the project but
  ge_fast/ (xDSL and the standard library only), and every package may import it;
* nothing outside ge_fast/ reads xDSL's private state that ge_fast/ reads
  (`_impl_dict`, `_operands`, `_prev_op`, closure cells);
* ge_dialect imports nothing else of the project (but ge_fast);
* lowering/ and importers/ import ge_dialect only (and their own package);
* runtime/ imports ge_dialect and runtime/ only (it interprets IR; it never runs a pass),
  and its two interpreters (reference.py, ascgraph_interp.py) import neither the other;
* report/ imports ge_dialect, runtime/ and report/ only (it reads IR);
* the Python API (ge_tools/api.py) and the work it shares with ge-run
  (ge_tools/workflow.py) import no command-line module (ge_tools/run.py, ge_tools/opt.py,
  ge_tools/import_onnx.py): the command-line modules import them, never the reverse;
* passes/ imports ge_dialect and passes/ only, and a pass folder takes no `_private`
  name from another folder (a folder may use another's public analysis, never its
  internals);
* no test imports a module for its side effect (every name a test module imports is used
  in it: registrations live on objects, e.g. runtime/interpreter.py's `ge_interpreter`,
  not in what was imported first).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from conftest import ROOT

PACKAGES = ("ge_fast", "ge_dialect", "passes", "lowering", "runtime", "ge_tools", "importers", "report")


def _modules() -> dict[str, ast.Module]:
    mods: dict[str, ast.Module] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join(parts)] = ast.parse(path.read_text(), str(path))
    return mods


MODULES = _modules()


def _project(name: str) -> str | None:
    """The project module `name` is or lies in (a.b.c -> a.b if a.b.c is a name in a.b)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> Iterator[tuple[str, str, int]]:
    """(imported project module, imported name, line) of every import in `module`."""
    is_pkg = (ROOT / module.replace(".", "/") / "__init__.py").exists()
    for node in ast.walk(MODULES[module]):
        if isinstance(node, ast.Import):
            for a in node.names:
                if (m := _project(a.name)) is not None:
                    yield m, a.name.rpartition(".")[2], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = module.split(".")[: len(module.split(".")) - node.level + (1 if is_pkg else 0)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            if _project(base) is None:
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                yield (sub, a.name, node.lineno) if sub in MODULES else (_project(base), a.name, node.lineno)  # type: ignore[misc]


GRAPH = {m: {dep for dep, _, _ in imports(m) if dep != m} for m in MODULES}


def _cycles() -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.add(frozenset(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def _top(module: str) -> str:
    return module.split(".")[0]


def _violations(packages: tuple[str, ...], allowed: tuple[str, ...]) -> list[str]:
    return [
        f"{m} imports {dep} (line {line})"
        for m in sorted(MODULES)
        if _top(m) in packages
        for dep, _, line in imports(m)
        if _top(dep) not in allowed
    ]


def test_the_scan_sees_the_project():
    # the scan is not vacuous: it finds the modules and their imports, lazy ones too
    assert {"ge_dialect.ge", "passes.notask.base", "lowering.ge_to_npu", "runtime.simulator"} <= MODULES.keys()
    assert "ge_dialect.ge" in GRAPH["passes.notask.base"]
    assert "passes.prepare.identity" in GRAPH["ge_tools.registry"]  # a lazy import


def test_no_import_cycle():
    assert _cycles() == set()


def test_ge_fast_imports_nothing_else_of_the_project():
    assert {"ge_fast.verify", "ge_fast.printer"} <= MODULES.keys()
    assert _violations(("ge_fast",), ("ge_fast",)) == []


# the reads of xDSL's private state that only ge_fast/ makes
_PRIVATE_READS = re.compile(r"\._impl_dict\b|\._operands\b|\._prev_op\b|\._next_op\b|__closure__|cell_contents")


def test_only_ge_fast_reads_xdsls_private_state():
    found = [
        f"{p.relative_to(ROOT)}:{k}: {line.strip()}"
        for pkg in PACKAGES
        if pkg != "ge_fast"
        for p in sorted((ROOT / pkg).rglob("*.py"))
        for k, line in enumerate(p.read_text().splitlines(), 1)
        if _PRIVATE_READS.search(line)
    ]
    assert found == []
    assert _PRIVATE_READS.search("t = op._operands[0]") and _PRIVATE_READS.search("f.__closure__")


def test_ge_dialect_imports_nothing_else_of_the_project():
    assert _violations(("ge_dialect",), ("ge_fast", "ge_dialect")) == []


def test_lowering_and_importers_import_ge_dialect_only():
    assert _violations(("lowering",), ("ge_fast", "ge_dialect", "lowering")) == []
    assert _violations(("importers",), ("ge_fast", "ge_dialect", "importers")) == []


def test_runtime_imports_ge_dialect_and_runtime_only():
    assert _violations(("runtime",), ("ge_fast", "ge_dialect", "runtime")) == []


def test_the_two_interpreters_import_neither_the_other():
    # both build on runtime/graph_interpreter.py; runtime/interpreter.py registers both
    assert "runtime.ascgraph_interp" not in GRAPH["runtime.reference"]
    assert "runtime.reference" not in GRAPH["runtime.ascgraph_interp"]
    assert {"runtime.reference", "runtime.ascgraph_interp"} <= GRAPH["runtime.interpreter"]


def test_report_imports_ge_dialect_runtime_and_report_only():
    assert any(_top(m) == "report" for m in MODULES)
    assert _violations(("report",), ("ge_fast", "ge_dialect", "runtime", "report")) == []


COMMAND_LINE = ("ge_tools.run", "ge_tools.opt", "ge_tools.import_onnx")
# What ge_tools/api.py may take from ge_tools/opt.py: nothing (the pass-pipeline machinery is
# in ge_tools/pipeline_spec.py and pass_callback.py, the verifier in ge_dialect/verify.py).
API_FROM_OPT: set[str] = set()


def _command_line_imports(module: str, from_opt: set[str] = API_FROM_OPT) -> list[str]:
    return [
        f"{module} imports {name} from {dep} (line {line})"
        for dep, name, line in imports(module)
        if dep in COMMAND_LINE and not (dep == "ge_tools.opt" and name in from_opt)
    ]


def test_the_api_imports_no_command_line_module():
    assert _command_line_imports("ge_tools.api") == []
    # the work ge-run and the API share: also the input checks ge-opt defines
    assert _command_line_imports("ge_tools.workflow", API_FROM_OPT | {"input_size_cap", "is_onnx_path"}) == []
    # the check is not vacuous: ge-run's own imports are seen
    assert _command_line_imports("ge_tools.run") != []


def test_passes_import_ge_dialect_and_public_names_of_other_pass_folders():
    assert _violations(("passes",), ("ge_fast", "ge_dialect", "passes")) == []

    def folder(m: str) -> str:
        return ".".join(m.split(".")[:2])

    private = [
        f"{m} imports {name} from {dep} (line {line})"
        for m in sorted(MODULES)
        if _top(m) == "passes"
        for dep, name, line in imports(m)
        if _top(dep) == "passes" and folder(dep) != folder(m) and name.startswith("_")
    ]
    assert private == []


def _unused_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of each import whose bound name `tree` never reads."""
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    unused = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            unused += [(node.lineno, a.name) for a in node.names if (a.asname or a.name.split(".")[0]) not in used]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            unused += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if (a.asname or a.name) not in used]
    return unused


def test_no_test_imports_a_module_for_its_side_effect():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if "Output" not in path.parts
        for line, name in _unused_imports(ast.parse(path.read_text(), str(path)))
    ]
    assert found == []
    # the check is not vacuous: an import only for its side effect is found
    assert _unused_imports(ast.parse("import runtime.ascgraph_interp\nfrom runtime import simulator\n")) == [
        (1, "runtime.ascgraph_interp"),
        (2, "runtime.simulator"),
    ]


def _outside_links(path: Path, text: str) -> list[str]:
    """The relative paths (`../x`) in `text` of file `path` that lead out of the repository."""
    root = ROOT.resolve()
    return [
        m.group(0)
        for m in re.finditer(r"(?<![\w.])(?:\.\./)+[\w./-]+", text)
        if not (path.parent / m.group(0)).resolve().is_relative_to(root)
    ]


def test_citations_resolve_in_a_clone():
    """What the packages and docs cite is in the repository: no relative path leads out of
    it (a clone has nothing there), and no package comment sends the reader to an issue
    number (issues close; the docs and tests that explain a rule stay)."""
    issue = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
    texts = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "bench").rglob("*.md"))]
    bad = [f"{p.relative_to(ROOT)}: {link}" for p in [*texts, *docs] for link in _outside_links(p, p.read_text())]
    bad += [
        f"{p.relative_to(ROOT)}:{k}: {line.strip()}"
        for p in texts
        for k, line in enumerate(p.read_text().splitlines(), 1)
        if issue.search(line)
    ]
    assert not bad, "\n".join(bad)
    # the checks see what they forbid, and let a link inside the repository pass
    assert _outside_links(ROOT / "docs" / "x.md", "see ../../notes/NOTES.md") == ["../../notes/NOTES.md"]
    assert _outside_links(ROOT / "docs" / "ge" / "x.md", "see ../tools.md") == []
    assert issue.search("(issue 28)")
