// W4 of BENCH.md, start-up: one 10 x 20 rectangle to SVG, as a fresh process.
drawRect('r', 0, 0, 10, 20)
