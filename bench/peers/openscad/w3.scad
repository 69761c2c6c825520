// W3 of BENCH.md with OpenSCAD: a 1,000-vertex star offset by +2 and by -2 with round joins,
// 32 segments per full circle. The shrunk copy is moved 3,000 to the right so that the union
// OpenSCAD makes of top-level objects on export keeps both.
star = [for (k = [0:999]) let(a = 0.36 * k, r = k % 2 == 0 ? 1000 : 900) [r * cos(a), r * sin(a)]];
offset(r = 2, $fn = 32) polygon(star);
translate([3000, 0]) offset(r = -2, $fn = 32) polygon(star);
