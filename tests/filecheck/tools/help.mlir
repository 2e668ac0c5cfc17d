// ge-opt --help lists the project's flags and passes (with their first doc paragraph).
// RUN: ge-opt --help | filecheck %s

// CHECK: --print-ir-after-all
// CHECK: --dump-dir DIR
// CHECK: --remarks
// CHECK: project passes (-p 'name{option=value ...}'):
// CHECK: {{^}}  ge-compile{{$}}
// CHECK-NEXT: The whole compile path
// CHECK: option streams: int = 1
// CHECK-NEXT: option enable-pass: tuple[str, ...] = ()
// CHECK-NEXT: runs: ge-dimension-compute-pass, ge-constant-folding-pass,
// CHECK-NEXT: ge-dropout-pass, ge-stop-gradient-pass, ge-prevent-gradient-pass,
// CHECK-NEXT: ge-snapshot-pass, ge-identity-pass, ge-dimension-compute-pass,
// CHECK-NEXT: ge-constant-folding-pass, ge-phony-notask{stage=mark},
// CHECK: {{^}}  ge-phony-notask{{$}}
// CHECK-NEXT: Mark PhonyConcat/PhonySplit no-task
// CHECK: option remarks: bool = False
// CHECK: -p takes comma-separated passes, each optionally followed by one {option=value ...}
// CHECK: most 64 levels. Every error is one line, exit 1.
