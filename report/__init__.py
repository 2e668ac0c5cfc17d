"""Pictures of a run, read from the IR: the graph at each stage as DOT (dot.py) and SVG
(svg_render.py), the feature-map memory plan as SVG (memory_svg.py), and the per-stage
writer the tools call (stages.py). `report` reads IR only: it imports ge_dialect (and may
import runtime), never passes, lowering or ge_tools.
"""
