"""Prints a graph with one SplitD of N outputs into NetOutput (lit input generator).

usage: gen_split.py N DIM -- DIM 0 splits a Nx2 input into 1x2 pieces, DIM 1 a 4xN input
into 4x1 pieces (a last-dim split whose outputs' end dim is 1).
"""

import sys

n, dim = int(sys.argv[1]), int(sys.argv[2])
whole, piece = (f"{n}x2", "1x2") if dim == 0 else (f"4x{n}", "4x1")
names = ", ".join(f"%y{i}" for i in range(n))
pieces = ", ".join([f"tensor<{piece}xf32>"] * n)
print("ge.graph @g {")
print(f"  %x = ge.Data {{index = 0}} : tensor<{whole}xf32>")
print(f"  {names} = ge.SplitD(%x) {{split_dim = {dim}, num_split = {n}}} : (tensor<{whole}xf32>) -> ({pieces})")
print(f"  ge.NetOutput {names} : {pieces}")
print("}")
