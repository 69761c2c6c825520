package cadruntest_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/cadruntest"
	"github.com/cadrun/cadrun/modules"
)

// A workspace from a txtar archive is rendered and compared with its snapshot: the first
// time the snapshot is written; after the script changes, the comparison says what moved.
// In a Go test, cadruntest.Check(t, "testdata/plate.txtar", cadruntest.Options{}) does all
// of this and fails the test on a difference.
func Example() {
	dir, err := os.MkdirTemp("", "cadruntest-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// The snapshots are kept in dir's __snapshots__/, read and written through dir as a
	// workspace (confined, no-follow).
	snapshots, err := modules.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer snapshots.Close()

	check := func(archive string) {
		ws := filepath.Join(dir, "ws")
		os.RemoveAll(ws)
		if err := cadruntest.Extract([]byte(archive), ws); err != nil {
			log.Fatal(err)
		}
		src, err := modules.Open(ws)
		if err != nil {
			log.Fatal(err)
		}
		defer src.Close()
		out, err := cadruntest.Render(context.Background(), src, cadruntest.Options{})
		if err != nil {
			log.Fatal(err)
		}
		rep, err := cadruntest.Compare(snapshots, "__snapshots__", "plate", out, cadruntest.Options{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rep.Status, rep.Written)
		if len(rep.Changes) > 0 {
			fmt.Println(rep.Changes[0])
		}
	}
	check(`A plate with a hole.
-- scene.code.js --
drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 10, 0, 3)
`)
	check(`The hole moved.
-- scene.code.js --
drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 12, 0, 3)
`)
	// Output:
	// new 3
	// FAIL 0
	// moved circle "hole" by 2 from (10, 0) to (12, 0)
}
