// shapes: common closed outlines, drawn with the ordinary API (built-in module, read-only;
// write modules/shapes.js to override it).
//
//   import 'shapes'                  // every function below becomes visible
//   import {star} from 'shapes'      // or only the ones named
//
// Lengths are in scene units, angles in radians counter-clockwise, Y up. Each function draws
// one polygon entity called `name` (an existing entity of that name is replaced in place) and
// returns `name`. A bad argument throws an error naming the function and the argument.
//
// regularPolygon(name, cx, cy, r, n)
//   A regular n-gon (n an integer >= 3) centred on (cx, cy), with circumradius r > 0 (the
//   distance from the centre to each vertex); the first vertex points straight up.
//   Area: n/2 * r^2 * sin(2*PI/n).
//
// star(name, cx, cy, rOuter, rInner, n)
//   An n-pointed star (n an integer >= 2) centred on (cx, cy): 2n vertices alternating
//   between radius rOuter (the points, the first straight up) and rInner (the notches),
//   with rOuter > rInner > 0.
//
// slot(name, cx, cy, length, width, angle)
//   An obround (a straight slot with semicircular ends) centred on (cx, cy): `length` is the
//   overall end-to-end length, `width` the slot's width (the ends' diameter), with
//   length >= width > 0; `angle` turns the slot from the +X axis (optional, default 0).
//   Area: (length - width) * width + PI * width^2 / 4.

export function regularPolygon(name, cx, cy, r, n) {
  __shapesNumbers('regularPolygon', {cx, cy, r, n});
  if (!(r > 0)) throw new Error(`regularPolygon: argument 'r' must be > 0 (scene units), got ${r}`);
  if (!Number.isInteger(n) || n < 3) throw new Error(`regularPolygon: argument 'n' must be an integer >= 3, got ${n}`);
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = Math.PI / 2 + (2 * Math.PI * i) / n;
    pts.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  drawPolygon(name, pts);
  return name;
}

export function star(name, cx, cy, rOuter, rInner, n) {
  __shapesNumbers('star', {cx, cy, rOuter, rInner, n});
  if (!Number.isInteger(n) || n < 2) throw new Error(`star: argument 'n' must be an integer >= 2, got ${n}`);
  if (!(rInner > 0)) throw new Error(`star: argument 'rInner' must be > 0 (scene units), got ${rInner}`);
  if (!(rOuter > rInner)) throw new Error(`star: argument 'rOuter' must be greater than rInner (${rInner}), got ${rOuter}`);
  const pts = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = Math.PI / 2 + (Math.PI * i) / n;
    const r = i % 2 === 0 ? rOuter : rInner;
    pts.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  drawPolygon(name, pts);
  return name;
}

export function slot(name, cx, cy, length, width, angle) {
  if (angle === undefined) angle = 0;
  __shapesNumbers('slot', {cx, cy, length, width, angle});
  if (!(width > 0)) throw new Error(`slot: argument 'width' must be > 0 (scene units), got ${width}`);
  if (!(length >= width)) throw new Error(`slot: argument 'length' must be at least the width (${width}), got ${length}`);
  // A rounded rectangle whose corner radius is half its height is exactly an obround; its
  // default pivot is the centre of its bounds, (cx, cy), so rotate turns it in place.
  drawRoundedRect(name, cx, cy, length, width, width / 2);
  if (angle !== 0) rotate(name, angle);
  return name;
}

// __shapesNumbers throws unless every value is a finite number. Its odd name keeps it out of
// the way of the importer's own declarations, which share one global scope with this file.
function __shapesNumbers(fn, args) {
  for (const [k, v] of Object.entries(args)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new Error(`${fn}: argument '${k}' must be a finite number, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
    }
  }
}
