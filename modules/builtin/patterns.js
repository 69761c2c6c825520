// patterns: arrays of copies of an existing entity (built-in module, read-only; write
// modules/patterns.js to override it).
//
//   import 'patterns'                      // every function below becomes visible
//   import {polarArray} from 'patterns'    // or only the ones named
//
// The source entity stays where it is and counts as the first instance; the copies are made
// with duplicate (a group is copied deeply) and moved with translate/rotate in world space.
// Each function returns the names of all instances, the source first. Lengths are in scene
// units, angles in radians counter-clockwise. A bad argument throws an error naming the
// function and the argument.
//
// linearArray(src, prefix, n, dx, dy)
//   n instances in a row (n an integer >= 1): copy i (1 <= i < n) is named prefix_i and
//   moved by (i*dx, i*dy) from the source.
//
// gridArray(src, prefix, nx, ny, dx, dy)
//   nx columns by ny rows (integers >= 1) spaced dx apart along X and dy along Y: the copy in
//   column i and row j (not both 0) is named prefix_i_j and moved by (i*dx, j*dy).
//
// polarArray(src, prefix, n, cx, cy, angle)
//   n instances around the point (cx, cy) (n an integer >= 1): copy i (1 <= i < n) is named
//   prefix_i and turned by i*angle about (cx, cy), the copy itself turning too. `angle` is
//   the step between neighbours (optional, default 2*PI/n: a full circle).

export function linearArray(src, prefix, n, dx, dy) {
  __patternsCheck('linearArray', src, prefix, {n, dx, dy});
  __patternsCount('linearArray', 'n', n);
  const names = [src];
  for (let i = 1; i < n; i++) {
    const c = `${prefix}_${i}`;
    duplicate(src, c);
    translate(c, i * dx, i * dy);
    names.push(c);
  }
  return names;
}

export function gridArray(src, prefix, nx, ny, dx, dy) {
  __patternsCheck('gridArray', src, prefix, {nx, ny, dx, dy});
  __patternsCount('gridArray', 'nx', nx);
  __patternsCount('gridArray', 'ny', ny);
  const names = [src];
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      if (i === 0 && j === 0) continue;
      const c = `${prefix}_${i}_${j}`;
      duplicate(src, c);
      translate(c, i * dx, j * dy);
      names.push(c);
    }
  }
  return names;
}

export function polarArray(src, prefix, n, cx, cy, angle) {
  if (angle === undefined && typeof n === 'number' && n > 0) angle = (2 * Math.PI) / n;
  __patternsCheck('polarArray', src, prefix, {n, cx, cy, angle});
  __patternsCount('polarArray', 'n', n);
  const names = [src];
  for (let i = 1; i < n; i++) {
    const c = `${prefix}_${i}`;
    const a = i * angle;
    duplicate(src, c);
    // Turning about (cx, cy) is turning about the copy's own pivot and then moving it so
    // that any one of its points lands where the turn about (cx, cy) would put it. The
    // point used is the copy's local origin, followed through getWorldPoint.
    const before = getWorldPoint(c, 0, 0);
    rotate(c, a);
    const after = getWorldPoint(c, 0, 0);
    const cos = Math.cos(a), sin = Math.sin(a);
    const tx = cx + (before.x - cx) * cos - (before.y - cy) * sin;
    const ty = cy + (before.x - cx) * sin + (before.y - cy) * cos;
    translate(c, tx - after.x, ty - after.y);
    names.push(c);
  }
  return names;
}

// The helpers' odd names keep them out of the way of the importer's own declarations, which
// share one global scope with this file.
function __patternsCheck(fn, src, prefix, nums) {
  if (typeof src !== 'string' || !exists(src)) throw new Error(`${fn}: argument 'src' must name an existing entity, got ${JSON.stringify(src)}`);
  if (typeof prefix !== 'string' || prefix === '') throw new Error(`${fn}: argument 'prefix' must be a non-empty string, got ${JSON.stringify(prefix)}`);
  for (const [k, v] of Object.entries(nums)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${fn}: argument '${k}' must be a finite number, got ${String(v)}`);
  }
}

function __patternsCount(fn, k, v) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`${fn}: argument '${k}' must be an integer >= 1, got ${v}`);
}
