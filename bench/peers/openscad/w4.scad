// W4 of BENCH.md with OpenSCAD, start-up: one 10 x 20 rectangle to SVG.
square([10, 20], center = true);
