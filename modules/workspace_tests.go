package modules

// The files `cadrun test` reads and writes beside a workspace's own: its test scripts
// (tests/NAME.test.js) and its snapshots (__snapshots__/ and tests/__snapshots__/). `cadrun
// test` runs on repositories people did not write (CI on a pull request), so these files get
// the workspace's guarantees: the path is checked against the rule before any filesystem
// call; every open goes through the workspace's root, so that no link, in the file's place or
// in a folder's, leads outside; a read opens without blocking and refuses what is not a
// regular file with one link (a FIFO, /dev/zero) at once; reads are capped; a write goes to a
// temp file of a random name beside the target, synced and renamed over it (so that a link
// planted where a temp file used to go is never written through).

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sync"
)

// Caps on the files of cadrun test, in bytes. A snapshot's scene, SVG or PNG is capped as
// scene.json is; a test script as any workspace source.
const (
	MaxSnapshotBytes   = MaxSceneBytes
	MaxTestScriptBytes = MaxReadBytes
)

// ErrBadTestPath is returned for a path that is not a test script's or a snapshot's.
var ErrBadTestPath = errors.New("bad test file path")

// Compiled at first use, as importPart.
var (
	snapshotPath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:tests/)?__snapshots__/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}\.(?:json|svg|png)$`)
	})
	testScriptPath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^tests/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}\.test\.js$`)
	})
)

func checkTestPath(rel string, re *regexp.Regexp, what string) error {
	if !re.MatchString(rel) {
		return fmt.Errorf("%w: %q is not %s", ErrBadTestPath, rel, what)
	}
	return nil
}

// ReadSnapshot reads a snapshot file by its path in the workspace (__snapshots__/NAME.json,
// .svg or .png, or the same under tests/). A missing file is an fs.ErrNotExist error; one
// over MaxSnapshotBytes is an ErrTooLarge error naming the limit.
func (w *Workspace) ReadSnapshot(rel string) ([]byte, error) {
	if err := checkTestPath(rel, snapshotPath(), "a snapshot (__snapshots__/NAME.json, .svg or .png)"); err != nil {
		return nil, err
	}
	return w.readCapped(rel, MaxSnapshotBytes, "MaxSnapshotBytes", "rewrite it with -update")
}

// ReadTestScript reads a test script (tests/NAME.test.js), capped at MaxTestScriptBytes.
func (w *Workspace) ReadTestScript(rel string) ([]byte, error) {
	if err := checkTestPath(rel, testScriptPath(), "a test script (tests/NAME.test.js)"); err != nil {
		return nil, err
	}
	return w.readCapped(rel, MaxTestScriptBytes, "MaxTestScriptBytes", "split it into modules")
}

func (w *Workspace) readCapped(rel string, max int64, limit, next string) ([]byte, error) {
	b, err := w.readFile(rel, max)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("reading %s: %w: over %d bytes (%s); %s", rel, ErrTooLarge, max, limit, next)
	}
	return b, nil
}

// WriteSnapshot replaces a snapshot file with data, atomically and durably, making its folder
// when missing.
func (w *Workspace) WriteSnapshot(rel string, data []byte) error {
	if err := checkTestPath(rel, snapshotPath(), "a snapshot (__snapshots__/NAME.json, .svg or .png)"); err != nil {
		return err
	}
	if len(data) > MaxSnapshotBytes {
		return fmt.Errorf("writing %s: %w: %d bytes is over %d (MaxSnapshotBytes)", rel, ErrTooLarge, len(data), MaxSnapshotBytes)
	}
	mode, _, err := w.targetMode(rel)
	if err != nil {
		return fmt.Errorf("writing %s: %w", rel, err)
	}
	if err := w.replaceFile(rel, data, mode, true); err != nil {
		return writeError(rel, err)
	}
	return nil
}

// RemoveSnapshot removes a snapshot file (the entry itself, never what a link names); a
// missing one is not an error.
func (w *Workspace) RemoveSnapshot(rel string) error {
	if err := checkTestPath(rel, snapshotPath(), "a snapshot (__snapshots__/NAME.json, .svg or .png)"); err != nil {
		return err
	}
	if err := w.root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing %s: %w", rel, err)
	}
	return nil
}
