// W2 of BENCH.md with OpenSCAD: (A) the union of 200 64-gon circles on the golden-angle
// spiral; (B) the square [0,100]² minus ONE union of a 50 x 50 grid of unit squares
// (difference() subtracts the union of its later children). (B) is moved 200 to the right so
// that the union OpenSCAD makes of top-level objects on export leaves (A) and (B) apart.
G = 180 * (3 - sqrt(5));
union() for (k = [0:199]) translate(3 * sqrt(k) * [cos(k * G), sin(k * G)]) circle(r = 4, $fn = 64);
translate([200, 0]) difference() {
  square(100);
  for (i = [0:49], j = [0:49]) translate([2 * i + 0.5, 2 * j + 0.5]) square(1);
}
