// A key tag for a laser cutter, in millimetres: a rounded plate with a hole to hang it by
// (both cut), and a label and a small star (both engraved). It returns the names of what
// is cut and what is engraved, so that the caller can put them on their layers.
export const TAG = {w: 60, h: 28, r: 6, hole: 3}

export function keyTag(name, x, y, label) {
  const plate = name + '_plate', hole = name + '_hole'
  drawRoundedRect(plate, x, y, TAG.w, TAG.h, TAG.r)
  drawCircle(hole, x - TAG.w / 2 + 8, y, TAG.hole)

  const text = name + '_label', mark = name + '_star'
  drawText(text, label, x + 3, y - 3.5, 9, {align: 'center'})
  star(mark, x + TAG.w / 2 - 7, y, 3, 1.3)
  return {cut: [plate, hole], engrave: [text, mark]}
}

// star draws a five-pointed star of outer radius r and inner radius ri centred at (x, y).
function star(name, x, y, r, ri) {
  const pts = []
  for (let i = 0; i < 10; i++) {
    const a = Math.PI / 2 + i * Math.PI / 5, d = i % 2 === 0 ? r : ri
    pts.push(x + d * Math.cos(a), y + d * Math.sin(a))
  }
  drawPolygon(name, pts)
}
