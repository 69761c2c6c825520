package modules_test

// The listings of a `cadrun tool` process, which opens the workspace and the server for one
// call (modules.Open with ForOneCall, tools.NewServer with tools.ForOneCall) and makes it. The test lives outside
// package modules because it needs the tools package, which imports modules.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// oneCall opens dir as `cadrun tool` does, makes one call and answers what it answered and
// how many times it listed each directory.
func oneCall(t *testing.T, dir, tool, params string) (any, map[string]int) {
	t.Helper()
	var mu sync.Mutex
	listed := map[string]int{}
	w, err := modules.Open(dir, modules.ForOneCall(), modules.ListedBy(func(d string) {
		mu.Lock()
		defer mu.Unlock()
		listed[d]++
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	srv := tools.NewServer(ctx, w, runtime.InProcess{}, runtime.Options{}, tools.ForOneCall())
	out, err := srv.Session().Call(ctx, tool, json.RawMessage(params))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, params, err)
	}
	return out, listed
}

// TestOneCallListsEachFolderOnce: a process that makes one change lists each folder once: the
// sweep for killed writes' temp files, the build of the scene the change starts from and the
// change itself share the listing the change makes under the workspace lock (and that listing
// removes the temp files). A tool that only reads files lists no program folder at all.
func TestOneCallListsEachFolderOnce(t *testing.T) {
	t.Parallel()
	dir := testws.Dir(t, `a workspace with modules, a data file and a history
-- scene.code.js --
import { a } from 'a'
import { b } from 'b'
drawRect('r', 0, 0, a, b)
-- modules/a.js --
export const a = 10
-- modules/b.js --
export const b = 20
-- modules/c.js --
export const c = 30
-- modules/.cadrun-tmp-killed --
torn
-- data/parts.json --
{"n": 1}
-- data/.cadrun-tmp-killed --
torn
`)
	// The first change makes the history, so that the second finds its folders there.
	oneCall(t, dir, "write", `{"file": "c", "code": "export const c = 31\n"}`)
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("the change left killed writes' temp files: %v", left)
	}

	out, listed := oneCall(t, dir, "write", `{"file": "c", "code": "export const c = 32\n"}`)
	want := map[string]int{".": 1, ".cadrun/history": 1, "modules": 1, "data": 1}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("listings of a write mismatch (-want +got):\n%s", diff)
	}
	if res, ok := out.(*tools.ChangeResult); !ok || res.Entities != 1 || res.Entry != 3 {
		t.Errorf("write answered %#v; want a change of 1 entity at history entry 3", out)
	}

	// A data file's write looks for a name that differs only in case among the entries the
	// change's own listing found: its folder is listed once too.
	_, listed = oneCall(t, dir, "write", `{"file": "parts.json", "code": "{\"n\": 2}"}`)
	want = map[string]int{".": 1, ".cadrun/history": 1, "modules": 1, "data": 1}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("listings of a data file's write mismatch (-want +got):\n%s", diff)
	}

	_, listed = oneCall(t, dir, "read", `{"file": "a"}`)
	want = map[string]int{".": 1, ".cadrun/history": 1}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("listings of a read mismatch (-want +got):\n%s", diff)
	}
}

// temps lists the temp files under dir's modules/ and data/.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, d := range []string{"modules", "data"} {
		entries, err := os.ReadDir(filepath.Join(dir, d))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".cadrun-tmp-") {
				out = append(out, d+"/"+e.Name())
			}
		}
	}
	return out
}

// TestDataCaseUnderTheLock: a data file's write made by one call checks its name's case
// against the names its change's listing found (every entry of the folder, data file or not,
// and the folders under data/), as a listing of its own would.
func TestDataCaseUnderTheLock(t *testing.T) {
	t.Parallel()
	dir := testws.Dir(t, `data files whose names differ in case
-- scene.code.js --
drawRect('r', 0, 0, 1, 1)
-- data/Parts.json --
{"n": 1}
-- data/notes.JSON --
not a data file
-- data/sub/Bolt.json --
{"m": 8}
`)
	for _, tc := range []struct{ file, want string }{
		{"parts.json", "data/parts.json would collide with data/Parts.json"},
		{"Notes.json", "data/Notes.json would collide with data/notes.JSON"},
		{"sub/bolt.json", "data/sub/bolt.json would collide with data/sub/Bolt.json"},
		{"Parts.json", ""},
		{"other/new.json", ""},
	} {
		w, err := modules.Open(dir, modules.ForOneCall())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		srv := tools.NewServer(ctx, w, runtime.InProcess{}, runtime.Options{}, tools.ForOneCall())
		params, _ := json.Marshal(map[string]string{"file": tc.file, "code": `{"n": 2}`})
		_, err = srv.Session().Call(ctx, "write", params)
		w.Close()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("write %s: error %q; want one saying %q", tc.file, got, tc.want)
		}
	}
}
