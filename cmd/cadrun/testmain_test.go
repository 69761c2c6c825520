package main

import (
	"os"
	"testing"

	"github.com/cadrun/cadrun/internal/browsertest"
	"github.com/cadrun/cadrun/runtime"
)

// TestMain lets the test binary serve as the worker process of the pools that run, tool and
// demo start (they re-run their own executable, which here is the test binary).
func TestMain(m *testing.M) {
	runtime.ServeWorkerIfAsked()
	code := m.Run()
	browsertest.Close() // the one browser the viewer tests share
	if cliBinaryDir != "" {
		os.RemoveAll(cliBinaryDir)
	}
	os.Exit(code)
}
