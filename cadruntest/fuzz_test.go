package cadruntest

import (
	"path/filepath"
	"testing"
)

// FuzzDiffScenes: any two documents, scene.json or not, give changes or an error, never a
// panic.
func FuzzDiffScenes(f *testing.F) {
	f.Add([]byte(`{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":1}}]}`),
		[]byte(`{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"circle","geometry":{"center":[3,4],"radius":2},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":[1,0,0,1],"stroke":[0,0,0,1],"strokeWidth":1}}]}`))
	f.Add([]byte(`{}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, _ = DiffScenes(a, b, 0)
	})
}

// FuzzExtract: an archive never writes outside the folder it is extracted to.
func FuzzExtract(f *testing.F) {
	f.Add([]byte("-- scene.code.js --\ndrawCircle('c', 0, 0, 1)\n-- modules/m.js --\nexport const x = 1\n"))
	f.Add([]byte("-- ../x.js --\n"))
	f.Fuzz(func(t *testing.T, archive []byte) {
		root := t.TempDir()
		dir := filepath.Join(root, "ws")
		if err := Extract(archive, dir); err != nil {
			return
		}
		matches, _ := filepath.Glob(filepath.Join(root, "*"))
		if len(matches) != 1 || matches[0] != dir {
			t.Fatalf("extract wrote %q", matches)
		}
	})
}
