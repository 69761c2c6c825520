package front

import (
	"errors"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestShutdownClosesSilentConnections: a connection that has brought no request (an HTTP
// client's spare) does not hold a stop: http.Server.Shutdown alone counts it busy for 5 s,
// past a grace of 3 s.
func TestShutdownClosesSilentConnections(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, l := NewServer(ln, http.NotFoundHandler(), Limits{MaxConns: 8, Name: "test"})
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for l.Count(http.StateNew) == 0 { // accepted
		time.Sleep(time.Millisecond)
	}
	if err := Shutdown(hs, l, 3*time.Second); err != nil {
		t.Errorf("Shutdown with a silent connection open: %v; want it closed and the stop done", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}
