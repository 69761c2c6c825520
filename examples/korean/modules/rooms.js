// Rooms of a plan labelled in Korean. The labels use the workspace font in fonts/ (the
// embedded fonts have no Hangul): drawText(..., {font: 'hangul'}).
export const KO = {font: 'hangul', align: 'center'}

// room draws a room's floor (x, y: lower-left corner; w, h in metres), its Korean name and
// its area, and groups them under name.
export function room(name, label, x, y, w, h, colour) {
  drawRect(name + '_floor', x + w / 2, y + h / 2, w, h)
  setFill(name + '_floor', colour)
  const size = Math.min(0.42, w / 6)
  drawText(name + '_name', label, x + w / 2, y + h / 2 + size * 0.2, size, KO)
  drawText(name + '_area', `${(w * h).toFixed(1)} m²`, x + w / 2, y + h / 2 - size * 1.1, size * 0.7, {align: 'center', color: [0.3, 0.3, 0.35, 1]})
  createGroup(name, [name + '_floor', name + '_name', name + '_area'])
  return w * h
}

// door draws a door leaf and its swing (hairlines, the default stroke) at (x, y), opening
// into the room by a quarter turn from angle a.
export function door(name, x, y, r, a) {
  drawLine(name + '_leaf', [x, y, x + r * Math.cos(a + Math.PI / 2), y + r * Math.sin(a + Math.PI / 2)])
  drawArc(name + '_swing', x, y, r, a, a + Math.PI / 2)
  createGroup(name, [name + '_leaf', name + '_swing'])
}
