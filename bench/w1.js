// W1 of ../../shared/BENCH.md, many shapes: a 100 x 100 grid at pitch 10. Cell k = 100j + i
// holds a circle of radius 4 at (10i, 10j) when k is even, else a 6 x 4 rectangle rotated by
// (k mod 90) degrees about its centre and moved to (10i, 10j). 10,000 entities.
for (let j = 0; j < 100; j++) {
  for (let i = 0; i < 100; i++) {
    const k = 100 * j + i, name = 'e' + k
    if (k % 2 === 0) {
      drawCircle(name, 10 * i, 10 * j, 4)
      continue
    }
    drawRect(name, 0, 0, 6, 4)
    rotate(name, (k % 90) * Math.PI / 180)
    translate(name, 10 * i, 10 * j)
  }
}
