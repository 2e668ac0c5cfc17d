"""Graph partitioners: GE's compiler/graph/partition/ (the dynamic-shape partitioner)."""
