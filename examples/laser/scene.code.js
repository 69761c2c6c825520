// Three key tags laid out for a laser cutter. One scene unit is one millimetre. Each
// top-level group becomes a DXF layer: 'cut' holds the outlines as red hairlines (cut
// through), 'engrave' the lettering and stars filled black (engraved). Export with
//   cadrun run -workspace examples/laser -o tags.dxf            (R12)
//   cadrun run -workspace examples/laser -o tags.dxf -dxf 2000  (R2000, $INSUNITS mm)
//   cadrun run -workspace examples/laser -o tags.pdf            (1:1 on a fitted page)
import {keyTag, TAG} from 'tags'

const labels = ['HOME', 'SHED', 'BIKE']
const GAP = 4 // mm of stock between two tags
const cut = [], engrave = []
labels.forEach((label, i) => {
  const tag = keyTag('tag' + (i + 1), i * (TAG.w + GAP), 0, label)
  cut.push(...tag.cut)
  engrave.push(...tag.engrave)
})

createGroup('cut', cut)
setFill('cut', null)
setStroke('cut', [1, 0, 0, 1], 0.1)

createGroup('engrave', engrave)
setFill('engrave', [0, 0, 0, 1])
setStroke('engrave', null)

const b = getWorldBounds('cut')
console.log(`${labels.length} tags on a sheet of ${(b.max[0] - b.min[0]).toFixed(0)} x ${(b.max[1] - b.min[1]).toFixed(0)} mm`)
console.log(`cut: ${cut.length} outlines, engrave: ${engrave.length} shapes`)
