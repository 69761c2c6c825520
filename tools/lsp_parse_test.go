package tools

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// A parse that does not finish within the timeout is abandoned with an error naming the
// limit; a second call for the same file waits for the same parse instead of starting
// another, a call for another file waits for the one parse slot, and once the parse is done
// its result is kept. (lsp symbols used to parse with no bound: 40,000 nested arrows cost 8 s
// of server CPU per call.)
func TestSymbolParseDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newSymbolParses()
		release := make(chan struct{})
		var started atomic.Int32
		slow := func() (*LSPSymbols, error) {
			started.Add(1)
			<-release
			return &LSPSymbols{File: "deep"}, nil
		}
		ctx := context.Background()
		want := "parse took too long: parsing modules/deep.js for its symbols took longer than 5s (Limits.Timeout) and was abandoned; " +
			"the parse goes on in the background, and asking again once it is done answers at once. " +
			"A long chain of nested arrow functions (x => y => ...) makes the parser slow: split it into named functions"
		for range 2 {
			_, err := p.symbols(ctx, "modules/deep.js", []byte("x => x"), 5*time.Second, slow)
			if err == nil || err.Error() != want || !errors.Is(err, ErrParseTimeout) {
				t.Fatalf("got %v, want %q", err, want)
			}
		}
		if n := started.Load(); n != 1 {
			t.Errorf("the slow file was parsed %d times, want once", n)
		}
		// One slot is left for other files; once a second slow file holds it, a third waits.
		if _, err := p.symbols(ctx, "modules/deep2.js", []byte("x => x"), 5*time.Second, slow); !errors.Is(err, ErrParseTimeout) {
			t.Fatalf("second slow file: %v", err)
		}
		_, err := p.symbols(ctx, "modules/other.js", []byte("1"), 5*time.Second, func() (*LSPSymbols, error) {
			t.Error("a third file was parsed while two slow ones held the slots")
			return nil, nil
		})
		if err == nil || !strings.Contains(err.Error(), "other files' symbols were still being parsed") {
			t.Errorf("a third file while two slow ones run: %v", err)
		}

		close(release)
		synctest.Wait()
		got, err := p.symbols(ctx, "modules/deep.js", []byte("x => x"), 5*time.Second, slow)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&LSPSymbols{File: "deep"}, got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
		if n := started.Load(); n != 2 {
			t.Errorf("the two slow files were parsed %d times, want twice", n)
		}
		if _, err := p.symbols(ctx, "modules/other.js", []byte("1"), 5*time.Second, func() (*LSPSymbols, error) { return &LSPSymbols{}, nil }); err != nil {
			t.Errorf("another file once the slot is free: %v", err)
		}
	})
}

// Through the tool, a file of deeply nested arrows (which a write accepts) answers within the
// server's run timeout (1 ms here; the parse takes far longer) with the limit named.
func TestLSPSymbolsNestedArrowsBounded(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"modules/deep.js": "export const f = " + strings.Repeat("x => ", 10000) + "1\n",
	})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{Limits: runtime.Limits{Timeout: time.Millisecond}})
	_, err := call[LSPOut](t, srv.Session(), "lsp", LSPIn{Operation: "symbols", File: "deep"})
	if !errors.Is(err, ErrParseTimeout) {
		t.Errorf("got %v, want ErrParseTimeout", err)
	}
}
