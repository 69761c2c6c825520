// Shared by the manifold-3d workloads: loads the WASM module and writes cross-sections as an
// SVG, one <path> per cross-section (manifold-3d has no SVG writer of its own), Y flipped as
// cadrun's SVG has it, coordinates to 3 decimals.
import fs from 'node:fs'
import Module from 'manifold-3d'

export async function manifold() {
  const wasm = await Module()
  wasm.setup()
  return wasm
}

// box is the bounds of every contour written so far, for the viewBox.
const box = {minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity}

// pathData is the SVG path data of a cross-section's contours.
export function pathData(cs) {
  let d = ''
  for (const contour of cs.toPolygons()) {
    contour.forEach(([x, y], i) => {
      box.minX = Math.min(box.minX, x)
      box.maxX = Math.max(box.maxX, x)
      box.minY = Math.min(box.minY, -y)
      box.maxY = Math.max(box.maxY, -y)
      d += (i === 0 ? 'M' : 'L') + x.toFixed(3) + ' ' + (-y).toFixed(3) + ' '
    })
    d += 'Z '
  }
  return d
}

// writeSVG writes the paths (path data strings) to the file named on the command line.
export function writeSVG(paths) {
  const out = process.argv[2]
  if (!out) {
    console.error('usage: node ' + process.argv[1] + ' OUT.svg')
    process.exit(2)
  }
  const w = box.maxX - box.minX, h = box.maxY - box.minY
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.minX} ${box.minY} ${w} ${h}">\n`
  for (const d of paths) svg += '<path d="' + d + '" fill="none" stroke="black"/>\n'
  fs.writeFileSync(out, svg + '</svg>\n')
}
