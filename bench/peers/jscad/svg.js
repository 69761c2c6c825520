// Shared by the JSCAD workloads: writes 2D geometries with JSCAD's own SVG serializer to the
// file named on the command line.
const fs = require('node:fs')
const { serialize } = require('@jscad/svg-serializer')

exports.writeSVG = (geometries) => {
  const out = process.argv[2]
  if (!out) {
    console.error('usage: node ' + process.argv[1] + ' OUT.svg')
    process.exit(2)
  }
  fs.writeFileSync(out, serialize({ unit: 'mm' }, geometries).join(''))
}
