// A street of houses: House comes from an upstream-style library (side-effect import), the
// trees from a standard ES module.
import 'house_lib'
import {tree, conifer} from 'trees'

const GROUND = [0.55, 0.75, 0.42, 1]
const ROAD_Y = -4.5 // centre line of the road

// sky and ground first, so everything else stands in front of them
drawRect('sky', 25, 7, 66, 22)
setFill('sky', [0.86, 0.93, 0.98, 1])
setStroke('sky', null)
drawCircle('sun', 51, 14, 2.2)
setFill('sun', [1, 0.84, 0.3, 1])
setStroke('sun', [1, 0.7, 0.2, 1], 0.15)
drawRect('lawn', 25, -1, 66, 2)
setFill('lawn', GROUND)
setStroke('lawn', null)

// the road, its kerbs and a dashed centre line
drawRect('pavement', 25, -2.4, 66, 0.8)
setFill('pavement', [0.78, 0.77, 0.74, 1])
setStroke('pavement', [0.55, 0.55, 0.52, 1], 0.05)
drawRect('road', 25, ROAD_Y, 66, 3.4)
setFill('road', [0.3, 0.31, 0.33, 1])
setStroke('road', null)
const dashes = []
for (let i = 0; i < 22; i++) {
  const d = 'dash' + i
  drawRect(d, -6 + i * 3, ROAD_Y, 1.5, 0.14)
  setFill(d, [0.97, 0.97, 0.92, 1])
  setStroke(d, null)
  dashes.push(d)
}
createGroup('centre_line', dashes)
createGroup('street', ['pavement', 'road', 'centre_line'])

// the houses: [x, width, height, options]
const plan = [
  [0, 7, 4.2, {wall: [0.95, 0.88, 0.72, 1], roof: [0.62, 0.22, 0.16, 1], number: 2, chimney: true}],
  [11, 9, 6.4, {wall: [0.78, 0.86, 0.93, 1], roof: [0.3, 0.33, 0.42, 1], floors: 2, number: 4, roofWindow: true}],
  [22, 6, 3.8, {wall: [0.97, 0.8, 0.78, 1], roof: [0.48, 0.2, 0.22, 1], door: [0.2, 0.38, 0.3, 1], number: 6}],
  [32.5, 8, 6, {wall: [0.9, 0.9, 0.86, 1], roof: [0.42, 0.28, 0.2, 1], floors: 2, number: 8, chimney: true}],
  [44, 7.5, 4.6, {wall: [0.88, 0.93, 0.8, 1], roof: [0.22, 0.4, 0.38, 1], door: [0.55, 0.15, 0.12, 1], number: 10, roofWindow: true}],
]
const houses = plan.map(([x, w, h, o], i) => new House('house' + (i + 1), x, w, h, o))
houses.forEach((h, i) => console.log(`${h.name}: ${h.width} x ${h.height}, ${h.floors} floor(s), roof top at ${h.top().toFixed(2)}`))

// trees in the gaps, alternating kinds
tree('tree1', 5.3, 0, 2.6, 0)
conifer('pine1', 16.6, 0, 3.2)
tree('tree2', 27.3, 0, 3.0, 1)
tree('tree3', -5.5, 0, 2.4, 2)
conifer('pine2', 38.6, 0, 2.8)
tree('tree4', 50.5, 0, 2.2, 2)

drawText('title', 'Elm Street', 25, -8.6, 1.2, {align: 'center', font: 'sans-bold', color: [0.2, 0.2, 0.25, 1]})
console.log('entities at the top level:', getDrawOrder().order.length)
