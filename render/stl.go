package render

// Binary STL: what every slicer and mesh tool reads. It has no units, names or colours, so
// one file holds every solid of the scene as one list of triangles, in world coordinates.
// Its size is known before it is written (84 bytes and 50 a triangle), so it is written in
// pieces as it is made: `cadrun run -o` streams it from its worker, which never holds it whole.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"math"

	"github.com/cadrun/cadrun/scene"
)

// stlHeader opens the 80-byte header. It must not start with "solid", which readers take
// for an ASCII STL.
const stlHeader = "binary STL written by cadrun: the scene's solids in world coordinates"

// stlTriangleBytes is what one triangle takes in a binary STL: its normal and three vertices
// as float32, and a 16-bit attribute count.
const stlTriangleBytes = 50

// STL writes the scene's solids as one binary STL: each triangle in world coordinates
// (every solid through its SolidItem.World), float32, with its facet normal. A scene without
// a solid is refused (ErrNoSolids); its 2D shapes are left out (Format.LeftOut names them).
func STL(s *scene.Scene) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(84 + stlTriangleBytes*s.SceneTriangles())
	if err := WriteSTL(&b, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteSTL writes the STL that STL makes to w, in pieces of stlChunk bytes.
func WriteSTL(w io.Writer, s *scene.Scene) error {
	items, err := solidItems(s, "STL")
	if err != nil {
		return err
	}
	n := 0
	for _, it := range items {
		n += it.Entity.Shape.(*scene.Solid).Mesh.NumTriangles()
	}
	bw := bufio.NewWriterSize(w, stlChunk)
	var head [84]byte
	copy(head[:80], stlHeader)
	binary.LittleEndian.PutUint32(head[80:], uint32(n))
	bw.Write(head[:])
	var rec [stlTriangleBytes]byte
	put := func(at int, x float32) { binary.LittleEndian.PutUint32(rec[at:], math.Float32bits(x)) }
	for _, it := range items {
		v, mirrored := worldVertices(it)
		tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
		for t := range len(tris) / 3 {
			a, b, c := triangle(tris, t, mirrored)
			nv := facetNormal(v, a, b, c)
			put(0, nv[0])
			put(4, nv[1])
			put(8, nv[2])
			for k, i := range [3]uint32{a, b, c} {
				put(12+12*k, v[3*i])
				put(16+12*k, v[3*i+1])
				put(20+12*k, v[3*i+2])
			}
			if _, err := bw.Write(rec[:]); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// stlChunk is the size of the pieces WriteSTL hands its writer.
const stlChunk = 256 << 10
