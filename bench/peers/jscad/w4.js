// W4 of BENCH.md with JSCAD, start-up: one 10 x 20 rectangle to SVG.
const { primitives } = require('@jscad/modeling')
const { writeSVG } = require('./svg.js')

writeSVG([primitives.rectangle({ size: [10, 20] })])
