"""GE's graph preparation passes (graph_prepare.cc: PrepareOptimize and friends)."""
