// A plate with round holes, cut in one boolean difference, from a description such as
// data/bracket.json holds.
export function holedPlate(name, spec) {
  drawRoundedRect(name + '_blank', 0, 0, spec.width, spec.height, spec.corner_radius || 0)
  const holes = spec.holes.map((h, i) => {
    const hole = `${name}_hole${i}`
    drawCircle(hole, h.x, h.y, h.diameter / 2)
    return hole
  })
  booleanDifference(name + '_blank', holes, name)
  holes.forEach(deleteEntity)
  deleteEntity(name + '_blank')
  return holes.length
}
