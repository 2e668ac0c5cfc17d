"""Memory assignment: GE's feature-map planning of a static graph (compiler/graph/build/memory/,
GraphMemoryAssigner) with the memory-layout conflict solver before it
(mem_layout_conflict_optimizer.cc), GE-local output sizes (ge_local_ops_kernel_builder.cc),
and an exact placement of the feature-map blocks (exact.py, CP-SAT)."""
