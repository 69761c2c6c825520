package job

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testKind is served by this test binary: started as its worker, it runs testJob.
var testKind = Kind{Role: "jobtest", Name: "test worker"}

func init() { Serve(testKind, 64<<20, testJob) }

// msg is the test protocol's one message.
type msg struct {
	Do  string `json:"do"` // echo, ask, panic, spin, grow, recurse
	Arg string `json:"arg,omitempty"`
}

var sink [][]byte

func testJob(c *Conn) error {
	var m msg
	if err := c.Receive(&m); err != nil {
		return err
	}
	switch m.Do {
	case "ask": // a question to the parent mid-job, its answer the result
		if err := c.Send(msg{Do: "question", Arg: m.Arg}); err != nil {
			return err
		}
		if err := c.Receive(&m); err != nil {
			return err
		}
	case "panic":
		panic(m.Arg)
	case "spin":
		time.Sleep(time.Hour)
	case "grow":
		for {
			sink = append(sink, make([]byte, 1<<20))
		}
	case "recurse":
		var f func(int) int
		f = func(n int) int { return f(n+1) + 1 }
		f(0)
	}
	return c.Send(msg{Do: "result", Arg: m.Arg})
}

// do runs one job of the test protocol, answering a question with its text twice.
func do(ctx context.Context, p *Pool, m msg) (string, error) {
	var got msg
	err := p.Call(ctx, func(c *Conn) error {
		if err := c.Send(m); err != nil {
			return err
		}
		for {
			if err := c.Receive(&got); err != nil || got.Do == "result" {
				return err
			}
			if err := c.Send(msg{Arg: got.Arg + got.Arg}); err != nil {
				return err
			}
		}
	})
	return got.Arg, err
}

// TestCallNamesTheLimit: a job past its time, its heap cap or the stack cap, or whose worker
// panicked, ends in a StoppedError naming which, and the Pool's next job runs in a fresh
// worker; a job that asks the parent mid-job gets its answer.
func TestCallNamesTheLimit(t *testing.T) {
	t.Parallel()
	// Each case sets the limits it does not test far out of reach, so that the one under test
	// is met first.
	for _, tc := range []struct {
		m    msg
		l    Limits
		want string
	}{
		{msg{Do: "spin"}, Limits{Time: 200 * time.Millisecond, Memory: 1 << 30}, "the test worker took longer than 200ms and was stopped"},
		{msg{Do: "grow"}, Limits{Time: time.Minute, Memory: 32 << 20}, "the test worker needed more than 32 MB of memory and was stopped"},
		{msg{Do: "recurse"}, Limits{Time: time.Minute, Memory: 1 << 30}, "the test worker nested too deeply and was stopped"},
		{msg{Do: "panic", Arg: "boom"}, Limits{Time: time.Minute, Memory: 1 << 30}, "the test worker stopped unexpectedly: panic: boom"},
	} {
		t.Run(tc.m.Do, func(t *testing.T) {
			t.Parallel()
			p := NewPool(testKind, tc.l)
			defer p.Close()
			_, err := do(context.Background(), p, tc.m)
			var se *StoppedError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a StoppedError", err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if got, err := do(context.Background(), p, msg{Do: "ask", Arg: "ab"}); err != nil || got != "abab" {
				t.Errorf("the job after: %q, %v; want abab", got, err)
			}
		})
	}
}

// TestCallCancelled: a cancelled job ends with the context's error.
func TestCallCancelled(t *testing.T) {
	t.Parallel()
	p := NewPool(testKind, Limits{Time: time.Minute, Memory: 32 << 20})
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := do(ctx, p, msg{Do: "spin"})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestCallWaitsForAWorker: past Limits.Workers jobs at once, a job waits for one to end
// (never two workers busy with Workers 1), and gives up when its context ends while it
// waits.
func TestCallWaitsForAWorker(t *testing.T) {
	t.Parallel()
	p := NewPool(testKind, Limits{Time: time.Minute, Memory: 32 << 20, Workers: 1})
	defer p.Close()
	var mu sync.Mutex
	busy, most := 0, 0
	enter := func() {
		mu.Lock()
		busy++
		most = max(most, busy)
		mu.Unlock()
	}
	leave := func() {
		mu.Lock()
		busy--
		mu.Unlock()
	}
	held, secondIn := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- p.Call(context.Background(), func(c *Conn) error {
			enter()
			defer leave()
			close(held)
			// Held until the second job runs beside it (a Pool without the cap) or long
			// enough that it would have.
			select {
			case <-secondIn:
			case <-time.After(time.Second):
			}
			if err := c.Send(msg{Do: "echo", Arg: "a"}); err != nil {
				return err
			}
			var m msg
			return c.Receive(&m)
		})
	}()
	<-held
	// A job whose context ends while it waits gives up without a worker.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := p.Call(ctx, func(*Conn) error { t.Error("a job whose context ended ran"); return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting job: got %v, want context.DeadlineExceeded", err)
	}
	err := p.Call(context.Background(), func(c *Conn) error {
		enter()
		defer leave()
		close(secondIn)
		if err := c.Send(msg{Do: "echo", Arg: "b"}); err != nil {
			return err
		}
		var m msg
		return c.Receive(&m)
	})
	if err != nil || <-first != nil {
		t.Fatalf("jobs: %v", err)
	}
	if most != 1 {
		t.Errorf("%d jobs ran at once; want 1 (Workers)", most)
	}
}
