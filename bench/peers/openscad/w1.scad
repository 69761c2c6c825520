// W1 of BENCH.md with OpenSCAD: 32-gon circles and rotated 6 x 4 rectangles on a 100 x 100
// grid. OpenSCAD unions top-level 2D objects when it exports, as it always does.
for (j = [0:99], i = [0:99]) {
  k = 100 * j + i;
  translate([10 * i, 10 * j])
    if (k % 2 == 0) circle(r = 4, $fn = 32);
    else rotate(k % 90) square([6, 4], center = true);
}
