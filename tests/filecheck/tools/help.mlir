// ge-opt --help is a manual of the project's passes: ge-compile first (a pass with its
// options and what it runs), then each pass with its first doc paragraph and, per option,
// its allowed values, default and meaning (the pass's OPTIONS table, the one its
// __post_init__ checks); xDSL's ~150 passes after, under their own heading, compact.
// RUN: ge-opt --help | filecheck %s
// RUN: ge-opt --help | filecheck %s --check-prefix=ORDER
// RUN: ge-opt --help | filecheck %s --check-prefix=SHORT

// CHECK: -t TARGET, --target TARGET
// CHECK-NEXT: output format: mlir (xDSL's other targets do not read
// CHECK: -p PASSES, --passes PASSES
// CHECK-NEXT: the pass pipeline: 'pass1,pass2{option=value ...}'
// CHECK: --verify-diagnostics
// CHECK-SAME: check the diagnostics against the input's
// CHECK: --print-ir-after-all
// CHECK: --print-ir-after-change
// CHECK-NEXT: print the IR to stderr after a pass only when
// CHECK: --dump-dir DIR
// CHECK: unchanged.txt
// CHECK: --remarks
// CHECK: {{^}}project passes (-p 'name{option=value ...}'; a list value is a,b,c):
// CHECK: {{^}}  ge-compile{{$}}
// CHECK-NEXT: {{^}}      The whole compile path
// CHECK: {{^}}      runs: ge-for-pass, ge-dimension-compute-pass, ge-constant-folding-pass,
// CHECK: {{^}}      options:
// CHECK-NEXT: {{^}}        streams: 1 | 2 (default 1)
// CHECK-NEXT: {{^}}            ge-to-npu's streams: 1: every task on stream 0; 2:
// CHECK: {{^}}        enable-pass: a list of reduce, concat, split, transpose, gather (default empty)
// CHECK: {{^}}  ge-phony-notask{{$}}
// CHECK-NEXT: Mark PhonyConcat/PhonySplit no-task
// CHECK: {{^}}        stage: mark | calc | all (default all)
// CHECK-NEXT: {{^}}            mark: the no-task marks
// CHECK: {{^}}        remarks: true | false (default false)
// CHECK: {{^}}  ge-lower-autofuse{{$}}
// CHECK: {{^}}        recomputation-threshold: an integer in 0..255 (default 1)
// CHECK: {{^}}        split-lowering: slice | split (default slice)
// CHECK: {{^}}  ge-autofuse{{$}}
// CHECK: {{^}}        max-fusion-size: an integer >= 0 (default 64)
// CHECK: {{^}}        max-proximity: an integer >= 0, or none (no limit, GE's INT64_MAX) (default none)
// CHECK: {{^}}  ge-assign-memory{{$}}
// CHECK: {{^}}        solver: heuristic | exact (default exact)
// CHECK: {{^}}        solver-work-limit: a number >= 0.0 (default 0.5)
// CHECK: {{^}}        build-graph-mode: online | offline (default online)
// CHECK: {{^}}xDSL's passes (inherited; they work on xDSL's dialects, not on ge IR):
// CHECK-NEXT: {{^}}  apply-eqsat-pdl, {{.*}},{{$}}
// CHECK: canonicalize,
// CHECK: -p takes comma-separated passes, each optionally followed by one {option=value ...}
// CHECK: standard input); brackets nest at most 64 levels. Every error is one line, exit 1.

// The project's passes in the order ge-compile runs them, before xDSL's.
// ORDER: {{^}}  ge-compile{{$}}
// ORDER: {{^}}  ge-identity-pass{{$}}
// ORDER: {{^}}  ge-phony-notask{{$}}
// ORDER: {{^}}  ge-lower-autofuse{{$}}
// ORDER: {{^}}  ge-autofuse{{$}}
// ORDER: {{^}}  ge-split-notask{{$}}
// ORDER: {{^}}  ge-concat-notask{{$}}
// ORDER: {{^}}  ge-pack-notask{{$}}
// ORDER: {{^}}  ge-assign-memory{{$}}
// ORDER: {{^}}  ge-to-npu{{$}}
// ORDER: xDSL's passes

// xDSL's passes are not listed in the option help (the -p help of xdsl-opt lists them all),
// nor are the project's listed among xDSL's.
// SHORT-NOT: Available passes are
// SHORT: xDSL's passes
// SHORT-NOT: ge-autofuse
