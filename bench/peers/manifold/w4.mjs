// W4 of BENCH.md with manifold-3d, start-up: one 10 x 20 rectangle to SVG.
import {manifold, pathData, writeSVG} from './svg.mjs'

const {CrossSection} = await manifold()
writeSVG([pathData(CrossSection.square([10, 20], true))])
