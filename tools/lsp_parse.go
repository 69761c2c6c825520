package tools

// lsp symbols parses a file in the server, and goja's parser is superlinear on some inputs (a
// deep chain of nested arrow functions, which a write accepts, takes seconds).
// A parse cannot be interrupted, so it is bounded the way runs in process are: the caller
// waits at most the run timeout, then the parse is abandoned and finishes in the background.
// What stops abandoned parses from piling up is that at most two parses run at a time (so one
// slow file leaves a slot for the others; a third waits within its own deadline), a file asked
// for again while its parse is still running waits for that parse rather than starting
// another, and finished results are kept by path and content hash, so a slow file costs its
// parse once.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrParseTimeout is returned when a file's symbols were not parsed within the run timeout.
var ErrParseTimeout = errors.New("parse took too long")

// maxKeptParses caps the parse results kept by content hash.
const maxKeptParses = 64

// maxParses caps the parses running at once, abandoned ones included.
const maxParses = 2

// symbolParse is one parse of one content, running or finished.
type symbolParse struct {
	done chan struct{} // closed when out and err are set
	out  *LSPSymbols
	err  error
}

// symbolParses runs parses one at a time and keeps their results. It is safe for concurrent
// use.
type symbolParses struct {
	gate chan struct{} // holds a token per running parse

	mu   sync.Mutex
	byID map[[sha256.Size]byte]*symbolParse // running and finished parses
}

func newSymbolParses() *symbolParses {
	return &symbolParses{gate: make(chan struct{}, maxParses), byID: map[[sha256.Size]byte]*symbolParse{}}
}

// symbols returns parse(src)'s result, waiting at most timeout (and no longer than ctx) for
// it. path names the file in errors.
func (p *symbolParses) symbols(ctx context.Context, path string, src []byte, timeout time.Duration, parse func() (*LSPSymbols, error)) (*LSPSymbols, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(src)
	var id [sha256.Size]byte
	h.Sum(id[:0])
	p.mu.Lock()
	sp, ok := p.byID[id]
	p.mu.Unlock()
	if !ok {
		select {
		case p.gate <- struct{}{}:
		case <-ctx.Done():
			return nil, p.late(ctx, path, timeout, "other files' symbols were still being parsed")
		}
		p.mu.Lock()
		if sp, ok = p.byID[id]; ok { // parsed while this call waited for the gate
			<-p.gate
		} else {
			sp = &symbolParse{done: make(chan struct{})}
			if len(p.byID) >= maxKeptParses {
				p.forgetFinished()
			}
			p.byID[id] = sp
			go func() {
				defer func() { <-p.gate }()
				sp.out, sp.err = parse()
				close(sp.done)
			}()
		}
		p.mu.Unlock()
	}
	select {
	case <-sp.done:
		return sp.out, sp.err
	case <-ctx.Done():
		return nil, p.late(ctx, path, timeout, "the parse goes on in the background, and asking again once it is done answers at once")
	}
}

// late is the error of a call whose deadline passed (or whose caller gave up).
func (p *symbolParses) late(ctx context.Context, path string, timeout time.Duration, why string) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ctx.Err()
	}
	return fmt.Errorf("%w: parsing %s for its symbols took longer than %v (Limits.Timeout) and was abandoned; %s. "+
		"A long chain of nested arrow functions (x => y => ...) makes the parser slow: split it into named functions",
		ErrParseTimeout, path, timeout, why)
}

// forgetFinished drops the finished parses; p.mu is held.
func (p *symbolParses) forgetFinished() {
	for id, sp := range p.byID {
		select {
		case <-sp.done:
			delete(p.byID, id)
		default:
		}
	}
}
