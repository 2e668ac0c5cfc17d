"""ge-opt --verify-diagnostics: the diagnostics a run produces, checked against the
input's `// expected-error {{...}}` comments, as mlir-opt's verifier does
(mlir/lib/IR/Diagnostics.cpp: SourceMgrDiagnosticVerifierHandler).

An expectation is `expected-<kind>` (error, warning, remark, note), optionally a
designator, then the message text in `{{...}}` (a substring of the diagnostic's
message). Without a designator it expects the diagnostic on its own line; `@+N` / `@-N`
on the line N below / above; `@below` on the next line that holds no expectation,
`@above` on the previous one. Each diagnostic consumes one expectation of its kind on its
line whose text it contains; a diagnostic no expectation takes is "unexpected", an
expectation no diagnostic took "was not produced": each is one located error line, and
the run fails (exit 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# The message runs to the last `}}` of the line (it may hold `}}` itself).
_EXPECT = re.compile(r"expected-(error|warning|remark|note) *(?:@([+-]\d+|above|below))? *\{\{(.*)\}\}\s*$")
# A diagnostic as the tools print it: `FILE:LINE:COL: <kind>: <message>`.
_DIAG = re.compile(r"^(.*):(\d+):(\d+): (error|warning|remark|note): (.*)$", re.S)


@dataclass
class Expectation:
    kind: str
    line: int  # the line the diagnostic is expected on
    message: str
    at: tuple[int, int]  # where the comment is: line, column of `expected-`
    seen: bool = False


@dataclass(frozen=True)
class Diagnostic:
    kind: str
    file: str
    line: int
    col: int
    message: str

    @staticmethod
    def parse(text: str) -> Diagnostic | None:
        """A printed diagnostic line, or None when it is not located (`ge-opt: error: ...`)."""
        m = _DIAG.match(text.strip())
        if m is None:
            return None
        return Diagnostic(m.group(4), m.group(1), int(m.group(2)), int(m.group(3)), m.group(5))


def expectations(text: str) -> list[Expectation]:
    """The expectations of `text`, in line order (lines numbered from 1, in the whole
    file: --split-input-file chunks keep the file's line numbers)."""
    out: list[Expectation] = []
    below: list[Expectation] = []
    last_plain: int | None = None  # the last line without an expectation
    for number, line in enumerate(text.splitlines(), start=1):
        found = False
        for m in _EXPECT.finditer(line):
            found = True
            kind, where, message = m.group(1), m.group(2), m.group(3)
            e = Expectation(kind, number, message, (number, m.start() + 1))
            if where == "below":
                below.append(e)
            elif where == "above":
                e.line = last_plain if last_plain is not None else 0
            elif where is not None:
                e.line = number + int(where)
            out.append(e)
        if not found:
            for e in below:
                e.line = number
            below.clear()
            last_plain = number
    for e in below:
        e.line = 0  # no line below: never matched, reported as not produced
    return out


def check(text: str, name: str, produced: Iterable[str | Diagnostic]) -> list[str]:
    """The failures of a run: one `NAME:LINE:COL: error: ...` line per diagnostic that no
    expectation of `text` takes, and per expectation that no diagnostic took. Empty: the
    diagnostics are exactly the expected ones."""
    expected = expectations(text)
    by_line: dict[tuple[str, int], list[Expectation]] = {}
    for e in expected:
        by_line.setdefault((e.kind, e.line), []).append(e)
    failures: list[str] = []
    for d in produced:
        diag = d if isinstance(d, Diagnostic) else Diagnostic.parse(d)
        if diag is None:
            failures.append(f"{d} (unexpected: a diagnostic without a location)")
            continue
        match = None
        if diag.file == name:
            match = next(
                (e for e in by_line.get((diag.kind, diag.line), ()) if not e.seen and e.message in diag.message),
                None,
            )
        if match is None:
            failures.append(f"{diag.file}:{diag.line}:{diag.col}: error: unexpected {diag.kind}: {diag.message}")
        else:
            match.seen = True
    for e in expected:
        if not e.seen:
            failures.append(f'{name}:{e.at[0]}:{e.at[1]}: error: expected {e.kind} "{e.message}" was not produced')
    return failures
