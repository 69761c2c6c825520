package schemacheck

// The worker's side: a child started with CADRUN_WORKER=schema serves checks from this
// package's init function (job.Serve) and exits, never reaching the parent's main. The protocol
// is JSON values on the child's stdin and stdout: the child says "ready" once started (job's
// handshake), so that its start-up does not count against a check's time; the parent sends
// "check" (data and schema names); the child asks for each file it reads with "read" and is
// answered "file"; it ends each check with "result". A file's error travels as its text, and the parent keeps the error itself, so
// that what a check returns is what the caller's Source said.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/internal/job"
	"github.com/cadrun/cadrun/runtime"
)

// kind is the schema checker's kind of worker: workerproc.Env is "schema" in it.
var kind = job.Kind{Role: "schema", Name: "schema checker"}

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

func init() { job.Serve(kind, MaxSchemaMemory, serveCheck) }

// serveCheck serves one check in the worker.
func serveCheck(conn *job.Conn) error {
	var req wire
	if err := conn.Receive(&req); err != nil {
		return err
	}
	if req.Type != "check" {
		return fmt.Errorf("unexpected message %q", req.Type)
	}
	src := &remoteFiles{conn: conn}
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
	return conn.Send(reply)
}

// remoteFiles asks the parent for files.
type remoteFiles struct {
	conn *job.Conn
	err  error // a broken pipe, reported after the check
}

func (r *remoteFiles) Read(name string) ([]byte, string, error) {
	if r.err != nil {
		return nil, "", r.err
	}
	var reply wire
	if r.err = r.conn.Send(wire{Type: "read", Name: name}); r.err != nil {
		return nil, "", r.err
	}
	if r.err = r.conn.Receive(&reply); r.err != nil {
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
