package schemacheck

// The worker's side: a child started with CADRUN_WORKER=schema serves checks from this
// package's init function and exits, never reaching the parent's main. The protocol is JSON
// values on the child's stdin and stdout: the child says "ready" once started, so that its
// start-up does not count against a check's time; the parent sends "check" (data and schema names);
// the child asks for each file it reads with "read" and is answered "file"; it ends each check
// with "result". A file's error travels as its text, and the parent keeps the error itself, so
// that what a check returns is what the caller's Source said.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/runtime"
)

// workerRole is workerproc.Env's value in a schema checker's worker.
const workerRole = "schema"

// wire is one message of the protocol, either way.
type wire struct {
	Type    string `json:"type"` // ready, check, read, file, result
	Data    string `json:"data,omitempty"`
	Schema  string `json:"schema,omitempty"`
	Name    string `json:"name,omitempty"`
	Path    string `json:"path,omitempty"`
	Content []byte `json:"content,omitempty"`
	Missing bool   `json:"missing,omitempty"`  // file: there is no such file (Err says so in the Source's words)
	Err     string `json:"err,omitempty"`      // file: the read's error; result: the check's
	Invalid bool   `json:"invalid,omitempty"`  // result: Err is an ErrInvalidData's text, without its prefix
	ReadErr bool   `json:"read_err,omitempty"` // result: the check failed reading Name
}

func init() {
	if os.Getenv(workerproc.Env) != workerRole {
		return
	}
	mem, _ := strconv.ParseInt(os.Getenv(workerproc.MemoryEnv), 10, 64)
	if mem <= 0 {
		mem = MaxSchemaMemory
	}
	runtime.CapWorker(mem)
	go watchHeap(mem)
	if err := serve(os.Stdin, os.Stdout); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "cadrun schema checker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// watchHeap ends the worker once its heap passes mem: a validator cannot be interrupted, so
// the process is the unit that stops. The parent reads "out of memory" on stderr and names
// the limit.
func watchHeap(mem int64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for range time.Tick(10 * time.Millisecond) {
		metrics.Read(sample)
		if heap := int64(sample[0].Value.Uint64()); heap > mem {
			fmt.Fprintln(os.Stderr, "cadrun schema checker: out of memory: heap passed", heap>>20, "MB")
			os.Exit(3)
		}
	}
}

func serve(in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	send := func(m wire) error {
		if err := enc.Encode(m); err != nil {
			return err
		}
		return bw.Flush()
	}
	// Ready: the parent's clock for a check starts after the worker's start-up.
	if err := send(wire{Type: "ready"}); err != nil {
		return err
	}
	for {
		var req wire
		if err := dec.Decode(&req); err != nil {
			return err
		}
		if req.Type != "check" {
			return fmt.Errorf("unexpected message %q", req.Type)
		}
		src := &remoteFiles{dec: dec, send: send}
		err := Validate(src, req.Data, req.Schema)
		if src.err != nil {
			return src.err
		}
		reply := wire{Type: "result"}
		var fe *fileError
		switch {
		case err == nil:
		case errors.Is(err, ErrInvalidData):
			reply.Invalid = true
			reply.Err = strings.TrimPrefix(err.Error(), ErrInvalidData.Error()+": ")
		case errors.As(err, &fe) && !fe.missing:
			reply.ReadErr, reply.Name = true, fe.name
		default:
			reply.Err = err.Error()
		}
		if err := send(reply); err != nil {
			return err
		}
		goruntime.GC() // the next check starts from a small heap, far from the cap
	}
}

// remoteFiles asks the parent for files.
type remoteFiles struct {
	dec  *json.Decoder
	send func(wire) error
	err  error // a broken pipe, reported after the check
}

func (r *remoteFiles) Read(name string) ([]byte, string, error) {
	if r.err != nil {
		return nil, "", r.err
	}
	var reply wire
	if r.err = r.send(wire{Type: "read", Name: name}); r.err != nil {
		return nil, "", r.err
	}
	if r.err = r.dec.Decode(&reply); r.err != nil {
		return nil, "", r.err
	}
	if reply.Missing || reply.Err != "" {
		return nil, reply.Path, &fileError{name: name, msg: reply.Err, missing: reply.Missing}
	}
	return reply.Content, reply.Path, nil
}

// fileError is a read's error as the parent's Source gave it.
type fileError struct {
	name, msg string
	missing   bool
}

func (e *fileError) Error() string { return e.msg }

func (e *fileError) Is(target error) bool { return e.missing && target == runtime.ErrModuleNotFound }
