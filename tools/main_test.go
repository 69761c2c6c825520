package tools

import (
	"os"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/internal/schemacheck"
)

// TestMain lets this test binary serve as a Pool's worker process (and, from the init functions
// of schemacheck and importer, as a schema checker's or an importer's).
func TestMain(m *testing.M) {
	runtime.ServeWorkerIfAsked()
	// Tests under testing/synctest must end their bubbles with no schema worker kept
	// (schemacheck's own tests keep them).
	schemas = schemacheck.NewChecker(schemacheck.Options{KeepNone: true})
	os.Exit(m.Run())
}
