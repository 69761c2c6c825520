// annotate: drawing annotations (built-in module, read-only; write modules/annotate.js to
// override it).
//
//   import 'annotate'                     // every function below becomes visible
//   import {dimension} from 'annotate'    // or only the ones named
//
// Lengths are in scene units, Y up. A bad argument throws an error naming the function and
// the argument.
//
// dimension(name, x1, y1, x2, y2, offset, options)
//   An aligned linear dimension between (x1, y1) and (x2, y2), as a group called `name`
//   (replaced if it exists) holding:
//     name_ext1, name_ext2   extension lines from each point out past the dimension line
//     name_line              the dimension line, parallel to the measured points and
//                            `offset` away from them (positive: to the left going from
//                            point 1 to point 2, so above for a left-to-right pair)
//     name_arrow1, name_arrow2  filled arrowheads at its ends, pointing outwards at the
//                            extension lines
//     name_text              the label, centred on the dimension line just above it and
//                            turned with it (never upside down)
//   options (optional): {text, size}. text: the label (default: the distance with up to two
//   decimals); size: the label's font size in scene units (default: a tenth of the distance),
//   which also sets the arrowheads (size long, size/3 wide) and the gaps.
//   Returns `name`.
//
// label(name, text, x, y, size)
//   Text of font size `size` (scene units, > 0) centred on (x, y), both across and up and down
//   (by the font's ascent and descent). Returns `name`.

export function dimension(name, x1, y1, x2, y2, offset, options) {
  const opts = options === undefined ? {} : options;
  if (typeof name !== 'string' || name === '') throw new Error(`dimension: argument 'name' must be a non-empty string, got ${JSON.stringify(name)}`);
  __annotateNumbers('dimension', {x1, y1, x2, y2, offset});
  if (typeof opts !== 'object' || opts === null) throw new Error(`dimension: argument 'options' must be an object {text, size}, got ${String(opts)}`);
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (!(len > 0)) throw new Error(`dimension: the two points must differ, got (${x1}, ${y1}) twice`);
  const size = opts.size === undefined ? len / 10 : opts.size;
  if (typeof size !== 'number' || !(size > 0) || !Number.isFinite(size)) throw new Error(`dimension: option 'size' must be a number > 0 (scene units), got ${String(opts.size)}`);
  const text = opts.text === undefined ? String(Math.round(len * 100) / 100) : String(opts.text);

  const ux = (x2 - x1) / len, uy = (y2 - y1) / len; // along the measured points
  const nx = -uy, ny = ux; // to the left of that direction
  const gap = size / 4, over = size / 2; // extension lines: a gap at the part, an overshoot
  const sgn = offset < 0 ? -1 : 1;
  const a1 = [x1 + nx * offset, y1 + ny * offset];
  const a2 = [x2 + nx * offset, y2 + ny * offset];

  if (exists(name)) deleteEntity(name);
  const parts = [];
  const ext = (n, x, y) => {
    drawLine(n, [x + nx * gap * sgn, y + ny * gap * sgn, x + nx * (offset + over * sgn), y + ny * (offset + over * sgn)]);
    parts.push(n);
  };
  if (offset !== 0) {
    ext(`${name}_ext1`, x1, y1);
    ext(`${name}_ext2`, x2, y2);
  }
  drawLine(`${name}_line`, [a1[0], a1[1], a2[0], a2[1]]);
  parts.push(`${name}_line`);
  const arrow = (n, tip, dir) => {
    const al = Math.min(size, len / 3), aw = al / 3;
    const bx = tip[0] + dir * ux * al, by = tip[1] + dir * uy * al;
    drawPolygon(n, [tip[0], tip[1], bx + nx * aw / 2, by + ny * aw / 2, bx - nx * aw / 2, by - ny * aw / 2]);
    setFill(n, [0, 0, 0, 1]);
    parts.push(n);
  };
  arrow(`${name}_arrow1`, a1, 1);
  arrow(`${name}_arrow2`, a2, -1);

  // The label reads left to right: flip the direction when the points run leftwards.
  let ang = Math.atan2(uy, ux);
  let side = 1;
  if (ang > Math.PI / 2 + 1e-9 || ang <= -Math.PI / 2 + 1e-9) {
    ang += Math.PI;
    side = -1; // the reader's "up" is now the other normal
  }
  const m = getTextMetrics(text, size);
  const lift = side * (gap + m.descent);
  const tx = (a1[0] + a2[0]) / 2 + nx * lift, ty = (a1[1] + a2[1]) / 2 + ny * lift;
  const t = `${name}_text`;
  drawText(t, text, tx, ty, size, {align: 'center'});
  setPivot(t, tx, ty);
  if (ang !== 0) rotate(t, ang);
  parts.push(t);
  createGroup(name, parts);
  return name;
}

export function label(name, text, x, y, size) {
  if (typeof name !== 'string' || name === '') throw new Error(`label: argument 'name' must be a non-empty string, got ${JSON.stringify(name)}`);
  __annotateNumbers('label', {x, y, size});
  if (!(size > 0)) throw new Error(`label: argument 'size' must be > 0 (scene units), got ${size}`);
  const s = String(text);
  const m = getTextMetrics(s, size);
  // The anchor is the first baseline; put the middle of the ink box (ascent over the first
  // baseline down to descent under the last) on y.
  const base = y + (m.height / 2 - m.ascent);
  drawText(name, s, x, base, size, {align: 'center'});
  return name;
}

// __annotateNumbers throws unless every value is a finite number. Its odd name keeps it out of
// the way of the importer's own declarations, which share one global scope with this file.
function __annotateNumbers(fn, args) {
  for (const [k, v] of Object.entries(args)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new Error(`${fn}: argument '${k}' must be a finite number, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
    }
  }
}
