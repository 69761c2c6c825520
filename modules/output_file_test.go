package modules

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteOutputSwappedOut: out/ checked to be a real folder, then swapped for a link to
// data/ before the rename. The export must not land in data/ (replacing a file main reads),
// and the swap is refused.
func TestWriteOutputSwappedOut(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "", "data/params.json": `{"holes": [1]}`, "out/a.svg": "<svg/>"})
	w.fail = func(step string) error {
		if step != "rename" {
			return nil
		}
		out := filepath.Join(dir, OutputDir)
		if err := os.Rename(out, out+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("data", out); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	_, err := w.WriteOutput("params.json", []byte(`{"format":"cadrun-scene"}`))
	if !errors.Is(err, ErrPlaceChanged) {
		t.Errorf("WriteOutput with out/ swapped for a link to data/: %v; want ErrPlaceChanged", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "data", "params.json")); string(b) != `{"holes": [1]}` {
		t.Errorf("data/params.json is now %q; want it untouched", b)
	}
	if names := dirNames(t, filepath.Join(dir, OutputDir+".old")); len(names) != 1 || names[0] != "a.svg" {
		t.Errorf("the held out/ holds %q after the refused write; want only a.svg (no temp file left)", names)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestPlaceSwappedForALink: an output's folder (run -o, watch -out, cadrun test's report) is
// held and checked, then swapped for a link to a workspace's data/ before the rename. The
// write is refused, the link's target untouched, and no temp file is left in the held folder.
func TestPlaceSwappedForALink(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	outDir, data := filepath.Join(base, "pictures"), filepath.Join(base, "ws", "data")
	for _, d := range []string{outDir, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(data, "scene.svg"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, name, err := HoldOutput(filepath.Join(base, "ws"), "-out", filepath.Join(outDir, "scene.svg"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.hook = func(step string) error {
		if step == "rename" {
			if err := os.Rename(outDir, outDir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(data, outDir); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	}
	if err := p.Replace(name, []byte("<svg/>"), 0o644, false); !errors.Is(err, ErrPlaceChanged) {
		t.Errorf("Replace with the folder swapped for a link: %v; want ErrPlaceChanged", err)
	}
	if b, _ := os.ReadFile(filepath.Join(data, "scene.svg")); string(b) != "data" {
		t.Errorf("data/scene.svg is now %q; want it untouched", b)
	}
	if names := dirNames(t, outDir+".old"); len(names) != 0 {
		t.Errorf("the held folder holds %q after the refused write; want nothing", names)
	}
}

// TestHoldOutput: the folder held is the one the output's path (or its link) leads to, judged
// by the workspace's place rule, and a write lands there.
func TestHoldOutput(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	for _, d := range []string{"data", "out", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"out/to-data.svg": "../data/a.svg", "out/to-elsewhere.svg": "../elsewhere/b.svg", "linked": "data"} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "elsewhere", "b.svg"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out     string
		refused bool
		lands   string
	}{
		{out: "out/a.svg", lands: "out/a.svg"},
		{out: "out/to-elsewhere.svg", lands: "elsewhere/b.svg"},
		{out: "data/a.svg", refused: true},
		{out: "linked/a.svg", refused: true},
		{out: "out/to-data.svg", refused: true},
	} {
		p, name, err := HoldOutput(ws, "-o", filepath.Join(ws, tc.out))
		if tc.refused {
			if err == nil {
				p.Close()
				t.Errorf("HoldOutput(%s): no error; want it refused", tc.out)
			}
			continue
		}
		if err != nil {
			t.Errorf("HoldOutput(%s): %v", tc.out, err)
			continue
		}
		err = p.Replace(name, []byte("new"), 0o644, true)
		p.Close()
		if err != nil {
			t.Errorf("Replace(%s): %v", tc.out, err)
		}
		if b, err := os.ReadFile(filepath.Join(ws, tc.lands)); string(b) != "new" {
			t.Errorf("%s after writing %s: %q, %v; want new", tc.lands, tc.out, b, err)
		}
	}
}
