package render

// glTF 2.0 binary (GLB): what web viewers, game engines and some slicers read. One mesh per
// solid, named after its entity, with a material of its colour; the scene's nodes hold them in
// the scene's order.
//
// glTF fixes what cadrun leaves to the file: lengths are metres, so scene units are scaled
// (millimetres by default, -units otherwise), and +Y is up, so cadrun's Z-up world is turned a
// quarter turn about X ((x, y, z) is written (x, z, -y)): a part lying on the XY plane lies on
// glTF's ground. Colours are linear, so the sRGB fill is converted.
//
// Normals are per vertex: a corner's normal is the average of the facets round it that lie
// within gltfCrease of its own facet, each weighed by its angle at the corner (which, unlike
// its area, does not depend on how a face was cut into triangles), so a cylinder's facets shade as one smooth face while a
// box's edges stay sharp; a vertex is written once for each distinct normal it takes.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene"
)

// GLTFOptions are the glTF writer's options.
type GLTFOptions struct {
	Unit Unit // what one scene unit is; "" is DefaultUnit (millimetres)
}

// gltfCrease is the cosine of the largest angle between two facets that shade as one smooth
// surface: 40 degrees, so a circle of 10 segments or more is smooth and a box's right angles
// are not.
var gltfCrease = math.Cos(40 * math.Pi / 180)

// The glTF constants the writer uses.
const (
	gltfFloat        = 5126  // componentType FLOAT
	gltfUnsignedInt  = 5125  // componentType UNSIGNED_INT
	gltfArrayBuffer  = 34962 // bufferView target of vertex attributes
	gltfElementArray = 34963 // bufferView target of indices
	glbMagic         = 0x46546C67
	glbChunkJSON     = 0x4E4F534A
	glbChunkBIN      = 0x004E4942
)

// GLB writes the scene's solids as a binary glTF (see the file's comment). A scene without a
// solid is refused (ErrNoSolids).
func GLB(s *scene.Scene, opt GLTFOptions) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteGLB(&b, s, opt); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// gltfMesh is one solid's arrays as written: positions and normals in glTF's frame, and the
// triangles' vertex indices.
type gltfMesh struct {
	pos, nrm []float32
	idx      []uint32
	min, max [3]float32
}

// WriteGLB writes the GLB that GLB makes to w. Its length comes first in the file, so the
// meshes are made whole before anything is written.
func WriteGLB(w io.Writer, s *scene.Scene, opt GLTFOptions) error {
	u := opt.Unit
	if u == "" {
		u = DefaultUnit
	}
	_, mm, err := unitInfo(u)
	if err != nil {
		return err
	}
	items, err := solidItems(s, "GLB")
	if err != nil {
		return err
	}
	doc := gltfDoc{Asset: gltfAsset{Version: "2.0", Generator: "cadrun"}, Scenes: []gltfScene{{Nodes: []int{}}}}
	meshes := make([]gltfMesh, len(items))
	size := 0
	for i, it := range items {
		meshes[i] = gltfMeshOf(it, mm/1000)
		size += 4 * (len(meshes[i].pos) + len(meshes[i].nrm) + len(meshes[i].idx))
	}
	bin := make([]byte, 0, size+3)
	view := func(n int, target int) int {
		doc.BufferViews = append(doc.BufferViews, gltfBufferView{ByteOffset: len(bin), ByteLength: 4 * n, Target: target})
		return len(doc.BufferViews) - 1
	}
	materials := map[scene.Color]int{}
	for i, it := range items {
		m := meshes[i]
		c := solidColor(s, it.Entity)
		mat, ok := materials[c]
		if !ok {
			mat = len(doc.Materials)
			materials[c] = mat
			doc.Materials = append(doc.Materials, gltfMaterialOf(c))
		}
		nv := len(m.pos) / 3
		pos := view(len(m.pos), gltfArrayBuffer)
		bin = appendFloat32s(bin, m.pos)
		nrm := view(len(m.nrm), gltfArrayBuffer)
		bin = appendFloat32s(bin, m.nrm)
		idx := view(len(m.idx), gltfElementArray)
		for _, x := range m.idx {
			bin = binary.LittleEndian.AppendUint32(bin, x)
		}
		meshes[i] = gltfMesh{} // its arrays are in bin now
		a := len(doc.Accessors)
		doc.Accessors = append(doc.Accessors,
			gltfAccessor{BufferView: pos, ComponentType: gltfFloat, Count: nv, Type: "VEC3", Min: m.min[:], Max: m.max[:]},
			gltfAccessor{BufferView: nrm, ComponentType: gltfFloat, Count: nv, Type: "VEC3"},
			gltfAccessor{BufferView: idx, ComponentType: gltfUnsignedInt, Count: len(m.idx), Type: "SCALAR"})
		doc.Meshes = append(doc.Meshes, gltfMeshDoc{Name: it.Entity.Name, Primitives: []gltfPrimitive{{
			Attributes: gltfAttributes{Position: a, Normal: a + 1}, Indices: a + 2, Material: mat}}})
		doc.Nodes = append(doc.Nodes, gltfNode{Name: it.Entity.Name, Mesh: len(doc.Meshes) - 1})
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, len(doc.Nodes)-1)
	}
	doc.Buffers = []gltfBuffer{{ByteLength: len(bin)}}
	js, err := json.Marshal(&doc)
	if err != nil {
		return err
	}
	// Each chunk is padded to four bytes: the JSON with spaces, the binary with zeros.
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var head [20]byte
	binary.LittleEndian.PutUint32(head[0:], glbMagic)
	binary.LittleEndian.PutUint32(head[4:], 2)
	binary.LittleEndian.PutUint32(head[8:], uint32(12+8+len(js)+8+len(bin)))
	binary.LittleEndian.PutUint32(head[12:], uint32(len(js)))
	binary.LittleEndian.PutUint32(head[16:], glbChunkJSON)
	var binHead [8]byte
	binary.LittleEndian.PutUint32(binHead[0:], uint32(len(bin)))
	binary.LittleEndian.PutUint32(binHead[4:], glbChunkBIN)
	for _, b := range [][]byte{head[:], js, binHead[:], bin} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// gltfMeshOf is a solid's mesh in glTF's frame, scaled by metres a scene unit, with normals
// per vertex smoothed within gltfCrease. A triangle that rounding collapses, or of no area, is
// left out.
func gltfMeshOf(it scene.SolidItem, metres float64) gltfMesh {
	v, mirrored := worldVertices(it)
	tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
	// The mesh's vertices are its points: a manifold mesh shares each between its facets,
	// which is how the facets round a point are found.
	pts := make([][3]float32, len(v)/3)
	for k := range pts {
		pts[k] = [3]float32{v[3*k], v[3*k+1], v[3*k+2]}
	}
	type facet struct {
		c     [3]uint32
		unit  [3]float64 // the unit normal
		angle [3]float64 // the angle at each corner: a corner's normal weighs its facets by it
	}
	facets := make([]facet, 0, len(tris)/3)
	sub := func(a, b [3]float32) [3]float64 {
		return [3]float64{float64(a[0] - b[0]), float64(a[1] - b[1]), float64(a[2] - b[2])}
	}
	for t := range len(tris) / 3 {
		a, b, c := triangle(tris, t, mirrored)
		f := facet{c: [3]uint32{a, b, c}}
		p, q, r := pts[a], pts[b], pts[c]
		if p == q || q == r || p == r {
			continue
		}
		e1, e2 := sub(q, p), sub(r, p)
		n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		if !(l > 0) {
			continue
		}
		f.unit = [3]float64{n[0] / l, n[1] / l, n[2] / l}
		f.angle = [3]float64{vecAngle(e1, e2), vecAngle(sub(r, q), sub(p, q)), vecAngle(sub(p, r), sub(q, r))}
		facets = append(facets, f)
	}
	// round[start[p]:start[p+1]] are the facets at point p.
	start := make([]int, len(pts)+1)
	for _, f := range facets {
		for _, c := range f.c {
			start[c+1]++
		}
	}
	for i := range pts {
		start[i+1] += start[i]
	}
	round := make([]int, start[len(pts)])
	fill := append([]int(nil), start[:len(pts)]...)
	for i, f := range facets {
		for _, c := range f.c {
			round[fill[c]] = i
			fill[c]++
		}
	}
	m := gltfMesh{pos: make([]float32, 0, 3*len(pts)), nrm: make([]float32, 0, 3*len(pts)), idx: make([]uint32, 0, 3*len(facets))}
	// The vertices written at point p are first[p] and on through next: a point takes a
	// vertex for each distinct normal, rarely more than three.
	first := make([]int32, len(pts))
	for i := range first {
		first[i] = -1
	}
	next := make([]int32, 0, len(pts))
	for i := range 3 {
		m.min[i], m.max[i] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	for _, f := range facets {
		for _, p := range f.c {
			var n [3]float64
			for _, g := range round[start[p]:start[p+1]] {
				o := facets[g]
				if o.unit[0]*f.unit[0]+o.unit[1]*f.unit[1]+o.unit[2]*f.unit[2] < gltfCrease {
					continue
				}
				w := o.angle[slices.Index(o.c[:], p)]
				n[0], n[1], n[2] = n[0]+w*o.unit[0], n[1]+w*o.unit[1], n[2]+w*o.unit[2]
			}
			l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
			// glTF's frame: (x, y, z) is (x, z, -y).
			nv := [3]float32{float32(n[0] / l), float32(n[2] / l), float32(-n[1] / l)}
			j := first[p]
			for j >= 0 && [3]float32(m.nrm[3*j:3*j+3]) != nv {
				j = next[j]
			}
			if j < 0 {
				j = int32(len(m.pos) / 3)
				next = append(next, first[p])
				first[p] = j
				q := pts[p]
				w := [3]float32{float32(float64(q[0]) * metres), float32(float64(q[2]) * metres), float32(-float64(q[1]) * metres)}
				for i := range 3 {
					if w[i] == 0 {
						w[i] = 0 // no -0 in the bounds
					}
					m.min[i], m.max[i] = min(m.min[i], w[i]), max(m.max[i], w[i])
				}
				m.pos = append(m.pos, w[:]...)
				m.nrm = append(m.nrm, nv[:]...)
			}
			m.idx = append(m.idx, uint32(j))
		}
	}
	if len(m.pos) == 0 {
		m.min, m.max = [3]float32{}, [3]float32{}
	}
	return m
}

// vecAngle is the angle between a and b.
func vecAngle(a, b [3]float64) float64 {
	c := [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	return math.Atan2(math.Sqrt(c[0]*c[0]+c[1]*c[1]+c[2]*c[2]), a[0]*b[0]+a[1]*b[1]+a[2]*b[2])
}

func appendFloat32s(b []byte, x []float32) []byte {
	for _, f := range x {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// gltfMaterialOf is a material of colour c: c's sRGB made linear as glTF's base colour,
// not metallic, fairly rough; blended when c is not opaque.
func gltfMaterialOf(c scene.Color) gltfMaterial {
	lin := func(x float64) float64 {
		x = clamp01(x)
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	m := gltfMaterial{Name: threeMFColor(c), PBR: gltfPBR{
		BaseColor: [4]float64{round6(lin(c[0])), round6(lin(c[1])), round6(lin(c[2])), round6(clamp01(c[3]))},
		Roughness: 0.6,
	}}
	if clamp01(c[3]) < 1 {
		m.AlphaMode = "BLEND"
	}
	return m
}

// round6 rounds to six decimals, which keep a colour exact to far below a step of 1/255 and
// the JSON short.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// The glTF document, as much of it as the writer uses; fields in the order the
// specification lists them.
type gltfDoc struct {
	Asset       gltfAsset        `json:"asset"`
	Scene       int              `json:"scene"`
	Scenes      []gltfScene      `json:"scenes"`
	Nodes       []gltfNode       `json:"nodes"`
	Meshes      []gltfMeshDoc    `json:"meshes"`
	Materials   []gltfMaterial   `json:"materials"`
	Accessors   []gltfAccessor   `json:"accessors"`
	BufferViews []gltfBufferView `json:"bufferViews"`
	Buffers     []gltfBuffer     `json:"buffers"`
}

type gltfAsset struct {
	Version   string `json:"version"`
	Generator string `json:"generator"`
}

type gltfScene struct {
	Nodes []int `json:"nodes"`
}

type gltfNode struct {
	Name string `json:"name"`
	Mesh int    `json:"mesh"`
}

type gltfMeshDoc struct {
	Name       string          `json:"name"`
	Primitives []gltfPrimitive `json:"primitives"`
}

type gltfPrimitive struct {
	Attributes gltfAttributes `json:"attributes"`
	Indices    int            `json:"indices"`
	Material   int            `json:"material"`
}

type gltfAttributes struct {
	Position int `json:"POSITION"`
	Normal   int `json:"NORMAL"`
}

type gltfMaterial struct {
	Name      string  `json:"name"`
	PBR       gltfPBR `json:"pbrMetallicRoughness"`
	AlphaMode string  `json:"alphaMode,omitempty"`
}

type gltfPBR struct {
	BaseColor [4]float64 `json:"baseColorFactor"`
	Metallic  float64    `json:"metallicFactor"`
	Roughness float64    `json:"roughnessFactor"`
}

type gltfAccessor struct {
	BufferView    int       `json:"bufferView"`
	ComponentType int       `json:"componentType"`
	Count         int       `json:"count"`
	Type          string    `json:"type"`
	Min           []float32 `json:"min,omitempty"`
	Max           []float32 `json:"max,omitempty"`
}

type gltfBufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	Target     int `json:"target"`
}

type gltfBuffer struct {
	ByteLength int `json:"byteLength"`
}
