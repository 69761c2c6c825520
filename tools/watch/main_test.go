package watch

import (
	"os"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/internal/schemacheck"
)

// schemas checks the watches' data: under testing/synctest a bubble must end with no schema
// worker kept, so the watches of these tests keep none.
var schemas = schemacheck.NewChecker(schemacheck.Options{KeepNone: true})

// TestMain lets this test binary serve as a Pool's worker process (and, from schemacheck's
// init, as a schema checker's).
func TestMain(m *testing.M) {
	runtime.ServeWorkerIfAsked()
	os.Exit(m.Run())
}
