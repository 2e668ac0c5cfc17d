"""ge_tools/progress.py: a tqdm bar on a terminal, nothing when stderr is not one."""

from __future__ import annotations

import io

from ge_tools.progress import phase, steps


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_on_a_terminal_only():
    tty, pipe = Tty(), io.StringIO()
    assert list(steps(range(3), "ge-run: executions", 3, stream=tty)) == [0, 1, 2]
    assert list(steps(range(3), "ge-run: executions", 3, stream=pipe)) == [0, 1, 2]
    # drawn at its start (0/3), erased at its end (leave=False: the line ends blank)
    assert "ge-run: executions:   0%" in tty.getvalue() and "0/3" in tty.getvalue()
    assert tty.getvalue().rstrip(" \r").endswith("step/s]")
    assert pipe.getvalue() == ""
    with phase("ge-run: loading @main", stream=tty):
        pass
    with phase("ge-run: loading @main", stream=pipe):
        pass
    assert "ge-run: loading @main" in tty.getvalue() and pipe.getvalue() == ""


def test_pass_bar_names_the_running_pass():
    from conftest import parse
    from ge_tools.pipeline import GeCompilePass, expand
    from ge_tools.progress import PassBar

    assert PassBar.on_terminal(3, stream=io.StringIO()) is None
    tty = Tty()
    bar = PassBar.on_terminal(3, stream=tty, tool="ge-run")
    assert bar is not None
    m = parse("ge.graph @main {\n %x = ge.Data {index = 0} : tensor<4xf32>\n ge.NetOutput %x : tensor<4xf32>\n}")
    first, second = expand((GeCompilePass(),))[:2]
    bar.show(1, first, m)
    bar.show(2, second, m)
    bar.clear()
    # module, graph, Data, NetOutput: 4 ops
    assert f"ge-run: {first.name} (4 ops)" in tty.getvalue() and f"ge-run: {second.name} (4 ops)" in tty.getvalue()
    assert "1/3" in tty.getvalue()
