// An option value of the right type that the pass cannot take is refused when the pass
// is built (its options dataclass's __post_init__, ge_dialect/pass_options.py): one line
// `<tool>: error: <pass>: option <name>: <what it takes>`, exit 1, not an error located
// in the input file (issue 17 case 8). The type of a value is the pipeline parser's
// (bad_pipeline.mlir).
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=-1}' 2>&1 | filecheck %s --check-prefix=FUSION
// RUN: not ge-opt %s -p 'ge-autofuse{max-input-nums-after-fuse=0}' 2>&1 | filecheck %s --check-prefix=INPUTS
// RUN: not ge-opt %s -p 'ge-autofuse{max-proximity=-3}' 2>&1 | filecheck %s --check-prefix=PROXIMITY
// RUN: not ge-opt %s -p 'ge-to-npu{streams=3}' 2>&1 | filecheck %s --check-prefix=STREAMS
// RUN: not ge-opt %s -p 'ge-compile{streams=0}' 2>&1 | filecheck %s --check-prefix=COMPILE
// ge-compile's options are checked by the passes they go to, in ge-compile's name:
// RUN: not ge-opt %s -p 'ge-compile{enable-pass=reduce,conv}' 2>&1 | filecheck %s --check-prefix=COMPILE-ENABLE
// RUN: not ge-opt %s -p 'ge-phony-notask{stage=foo}' 2>&1 | filecheck %s --check-prefix=STAGE
// RUN: not ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,bogus}' 2>&1 | filecheck %s --check-prefix=ENABLE
// RUN: not ge-opt %s -p 'ge-lower-autofuse{recomputation-threshold=256}' 2>&1 | filecheck %s --check-prefix=RECOMPUTE
// RUN: not ge-opt %s -p 'ge-assign-memory{solver=best}' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: not ge-opt %s -p 'ge-assign-memory{solver-work-limit=-0.5}' 2>&1 | filecheck %s --check-prefix=LIMIT
// A bad value later in the pipeline stops it before any pass runs (nothing is dumped):
// RUN: rm -rf %t.d && not ge-opt %s -p 'ge-phony-notask,ge-autofuse{max-fuse-rounds=-1}' --dump-dir %t.d 2>&1 | filecheck %s --check-prefix=LATER
// RUN: not ls %t.d
// ge-run: --streams is ge-compile's option, checked the same way (with --reference too).
// RUN: not ge-run %s --streams 3 2>&1 | filecheck %s --check-prefix=TOOL
// RUN: not ge-run %s --streams 0 --reference 2>&1 | filecheck %s --check-prefix=TOOLZERO
// The edges of each range are accepted:
// RUN: ge-opt %s -p 'ge-autofuse{max-fusion-size=0 max-proximity=0},ge-lower-autofuse{recomputation-threshold=255},ge-assign-memory{solver-work-limit=0.0}' > /dev/null

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %r = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}

// FUSION: {{\A}}ge-opt: error: ge-autofuse: option max-fusion-size: expected an integer >= 0, got -1{{$}}
// FUSION-NOT: {{.}}
// INPUTS: {{\A}}ge-opt: error: ge-autofuse: option max-input-nums-after-fuse: expected an integer >= 1, got 0{{$}}
// INPUTS-NOT: {{.}}
// PROXIMITY: {{\A}}ge-opt: error: ge-autofuse: option max-proximity: expected an integer >= 0, got -3{{$}}
// PROXIMITY-NOT: {{.}}
// STREAMS: {{\A}}ge-opt: error: ge-to-npu: option streams: expected 1 or 2, got 3{{$}}
// STREAMS-NOT: {{.}}
// COMPILE: {{\A}}ge-opt: error: ge-compile: option streams: expected 1 or 2, got 0{{$}}
// COMPILE-NOT: {{.}}
// COMPILE-ENABLE: {{\A}}ge-opt: error: ge-compile: option enable-pass: expected a list of reduce, concat, split, transpose, gather, got 'conv' (GE's flag exists, but this op set has no such lowering){{$}}
// COMPILE-ENABLE-NOT: {{.}}
// STAGE: {{\A}}ge-opt: error: ge-phony-notask: option stage: expected mark, calc or all, got 'foo'{{$}}
// STAGE-NOT: {{.}}
// ENABLE: {{\A}}ge-opt: error: ge-lower-autofuse: option enable-pass: expected a list of reduce, concat, split, transpose, gather, got 'bogus'{{$}}
// ENABLE-NOT: {{.}}
// RECOMPUTE: {{\A}}ge-opt: error: ge-lower-autofuse: option recomputation-threshold: expected an integer in 0..255, got 256{{$}}
// RECOMPUTE-NOT: {{.}}
// SOLVER: {{\A}}ge-opt: error: ge-assign-memory: option solver: expected heuristic or exact, got 'best'{{$}}
// SOLVER-NOT: {{.}}
// LIMIT: {{\A}}ge-opt: error: ge-assign-memory: option solver-work-limit: expected a number >= 0.0, got -0.5{{$}}
// LIMIT-NOT: {{.}}
// LATER: {{\A}}ge-opt: error: ge-autofuse: option max-fuse-rounds: expected an integer >= 0, got -1{{$}}
// LATER-NOT: {{.}}
// TOOL: {{\A}}ge-run: error: ge-compile: option streams: expected 1 or 2, got 3{{$}}
// TOOL-NOT: {{.}}
// TOOLZERO: {{\A}}ge-run: error: ge-compile: option streams: expected 1 or 2, got 0{{$}}
// TOOLZERO-NOT: {{.}}
