package cadruntest

// cadrun test runs on repositories people did not write: what a cloned repository ships in
// place of its snapshots or test scripts (links out of it, FIFOs, devices, pictures that
// declare gigabytes) is refused at once, and nothing outside the workspace is written.

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSnapshotsDoNotWriteThroughLinks: a snapshot that is a link to a file outside, a link
// planted where the old writer put its temp file, and a __snapshots__ folder that is a link
// out of the workspace: an update writes none of the files outside.
func TestSnapshotsDoNotWriteThroughLinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	victim := filepath.Join(outside, "bashrc")
	if err := os.WriteFile(victim, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		plant func(dir string) error
	}{
		{"a link where the temp file went", func(dir string) error {
			if err := os.MkdirAll(filepath.Join(dir, "__snapshots__"), 0o755); err != nil {
				return err
			}
			return os.Symlink(victim, filepath.Join(dir, "__snapshots__", "scene.json.tmp"))
		}},
		{"the snapshot a link out", func(dir string) error {
			if err := os.MkdirAll(filepath.Join(dir, "__snapshots__"), 0o755); err != nil {
				return err
			}
			return os.Symlink(victim, filepath.Join(dir, "__snapshots__", "scene.svg"))
		}},
		{"the folder a link out", func(dir string) error {
			return os.Symlink(outside, filepath.Join(dir, "__snapshots__"))
		}},
	} {
		dir := writeWorkspace(t, map[string]string{"scene.code.js": "drawRect('$(touch pwned)', 0, 0, 1, 1)\n"})
		if err := tc.plant(dir); err != nil {
			t.Fatal(err)
		}
		for _, update := range []bool{false, true} {
			_, _ = RunDirs(context.Background(), []string{dir}, Options{Update: update})
		}
		if b, _ := os.ReadFile(victim); string(b) != "# mine\n" {
			t.Errorf("%s: the file outside now holds %.60q", tc.name, b)
		}
		if names, _ := os.ReadDir(outside); len(names) != 1 {
			t.Errorf("%s: files written outside: %v", tc.name, names)
		}
	}
}

// TestSnapshotNotARegularFile: a snapshot that is a FIFO (which blocked for ever) or a link
// to /dev/zero (which read until memory ran out) fails its test at once, saying what it is.
func TestSnapshotNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := writeWorkspace(t, map[string]string{"scene.code.js": "drawRect('r', 0, 0, 1, 1)\n", "tests/b.test.js": "drawCircle('c', 0, 0, 1)\n"})
	if err := os.MkdirAll(filepath.Join(dir, "__snapshots__"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "__snapshots__", "scene.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tests", "__snapshots__"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "tests", "__snapshots__", "b.json")); err != nil {
		t.Fatal(err)
	}
	rs, err := RunDirs(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := briefs(dir, rs)
	if len(got) != 2 || got[0].Status != "FAIL" || got[1].Status != "FAIL" ||
		!strings.Contains(got[0].Message, "__snapshots__/scene.json is a named pipe (FIFO); cadrun reads only regular files there: remove it") ||
		!strings.Contains(got[1].Message, "tests/__snapshots__/b.json") {
		t.Errorf("results: %+v", got)
	}
}

// TestTestScriptNotARegularFile: a test script that is a FIFO fails at once.
func TestTestScriptNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := writeWorkspace(t, map[string]string{"tests/keep.txt": ""})
	if err := syscall.Mkfifo(filepath.Join(dir, "tests", "a.test.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := RunDirs(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := briefs(dir, rs)
	if len(got) != 1 || got[0].Status != "FAIL" || !strings.Contains(got[0].Message, "tests/a.test.js is a named pipe (FIFO)") {
		t.Errorf("results: %+v", got)
	}
}

// TestPNGSnapshotDeclaringGigapixels: a small PNG that declares 30000 x 30000 pixels is not
// decoded (it made two canvases of 3.6 GB); the test fails naming the limit.
func TestPNGSnapshotDeclaringGigapixels(t *testing.T) {
	t.Parallel()
	dir := writeWorkspace(t, map[string]string{"scene.code.js": "drawRect('r', 0, 0, 1, 1)\n"})
	if _, err := RunDirs(context.Background(), []string{dir}, Options{}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// Rewrite the IHDR's width and height (bytes 16-23) and its CRC (over type and data).
	copy(b[16:24], []byte{0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30})
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	if err := os.WriteFile(filepath.Join(dir, "__snapshots__", "scene.png"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := RunDirs(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := briefs(dir, rs)
	want := "scene.png: the snapshot declares a picture of 30000x30000 pixels, over 8192 a side (MaxPNGSide); it was not decoded: rewrite it with -update"
	if len(got) != 1 || got[0].Status != "FAIL" || got[0].Message != want {
		t.Errorf("results: %+v\nwant the message %q", got, want)
	}
}

// TestReplaceFileReplacesALink: the JUnit report and the difference pictures are written by
// ReplaceFile, which replaces a link planted at the path instead of writing through it.
func TestReplaceFileReplacesALink(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(outside, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "report.xml")
	if err := os.Symlink(outside, report); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(report, []byte("<testsuites/>\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "# mine\n" {
		t.Errorf("the file the link named now holds %q", b)
	}
	if st, err := os.Lstat(report); err != nil || !st.Mode().IsRegular() {
		t.Errorf("report.xml is %v (%v); want a regular file in the link's place", st.Mode(), err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("left in the folder: %v", names)
	}
}
