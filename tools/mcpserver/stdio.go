package mcpserver

// The MCP server over stdio: newline-delimited JSON-RPC, one message per line. cadrun has its
// own line framing instead of the SDK's StdioTransport for two reasons:
//
//   - A message over the size cap, or a line that is not JSON-RPC, is answered with a
//     JSON-RPC error (carrying the request's id when it can be found in the line) and skipped;
//     the server goes on serving. The SDK's transport ends the connection on either.
//   - When stdin ends (a client that sends its requests and closes its end), or when the
//     process is told to stop (Drain), the calls already read are finished and answered
//     before the connection reports its end. The SDK's connection stops writing answers as
//     soon as its reader fails, so a client that closed stdin early got none.
//
// An oversize line is never held in memory: it is read through, streaming, by a scanner that
// picks out the top-level "id" (it may come after the large part: clients put it last, too).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes caps one JSON-RPC message on stdio, as mcp.DefaultMaxRequestBodyBytes caps
// an HTTP request body: 4 MiB, room for a write of the largest file a workspace accepts
// (500 KiB) even when every character of it needs an escape.
const MaxMessageBytes = mcp.DefaultMaxRequestBodyBytes

// StdioTransport is an mcp.Transport over a line-framed pair of streams (stdin and stdout).
// Use it for one connection; Drain may be called from any goroutine.
type StdioTransport struct {
	conn *lineConn
	// PeerGone, when set before Connect, is asked at the end of the input whether the
	// client can still read answers. When it cannot (its process is gone), the calls in
	// flight are cancelled rather than finished: a change whose answer cannot arrive must
	// not land.
	PeerGone func() bool
}

// NewStdioTransport returns a transport reading messages from in and writing them to out,
// each at most maxBytes long (0 means MaxMessageBytes). Rejected lines are logged to logger.
func NewStdioTransport(in io.ReadCloser, out io.Writer, maxBytes int, logger *slog.Logger) *StdioTransport {
	if maxBytes <= 0 {
		maxBytes = MaxMessageBytes
	}
	c := &lineConn{
		in: in, out: out, max: maxBytes, logger: logger,
		incoming: make(chan jsonrpc.Message),
		ended:    make(chan struct{}),
		draining: make(chan struct{}),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
		answered: make(chan struct{}),
	}
	go c.readLoop()
	return &StdioTransport{conn: c}
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	t.conn.peerGone = t.PeerGone
	return t.conn, nil
}

// Drain stops reading new messages: the calls already read are answered, then the
// connection ends as if stdin had closed. Calls in flight are not cancelled here; the caller
// cancels them (through the Server's context) when it wants them to stop early.
func (t *StdioTransport) Drain() { t.conn.drainOnce.Do(func() { close(t.conn.draining) }) }

// lineConn is the mcp.Connection of a StdioTransport. Read is called by one goroutine; Write
// and Close may be called concurrently with it and with each other.
type lineConn struct {
	in       io.ReadCloser
	out      io.Writer
	max      int
	logger   *slog.Logger
	peerGone func() bool

	incoming chan jsonrpc.Message // from readLoop, in order
	ended    chan struct{}        // closed by readLoop after its last message was taken
	readErr  error                // why the input ended; set before ended is closed

	drainOnce sync.Once
	draining  chan struct{}

	closeOnce sync.Once
	closed    chan struct{}

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // calls read and not answered yet
	answered chan struct{}       // closed (and replaced) whenever a pending call is answered
}

// Read implements mcp.Connection. Once the input has ended or the connection is draining,
// it waits for every call it returned to be answered, then reports io.EOF (or the read
// error).
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-c.draining:
		return nil, c.finish(ctx, io.EOF)
	default:
	}
	select {
	case msg := <-c.incoming:
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	case <-c.ended:
		if c.peerGone != nil && c.peerGone() {
			// Nobody can read the answers: end now, which cancels the calls in flight.
			c.logger.Warn("the client is gone; cancelling the calls in flight")
			return nil, c.readErr
		}
		return nil, c.finish(ctx, c.readErr)
	case <-c.draining:
		return nil, c.finish(ctx, io.EOF)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// finish waits until no call is waiting for its answer, then returns err.
func (c *lineConn) finish(ctx context.Context, err error) error {
	for {
		c.mu.Lock()
		n, answered := len(c.pending), c.answered
		c.mu.Unlock()
		if n == 0 {
			return err
		}
		select {
		case <-answered:
		case <-c.closed:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write implements mcp.Connection: one message, one line. A call counts as answered once its
// answer has been written.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		c.mu.Lock()
		if c.pending[resp.ID] {
			delete(c.pending, resp.ID)
			close(c.answered)
			c.answered = make(chan struct{})
		}
		c.mu.Unlock()
	}
	return nil
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.in.Close()
	})
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }

// readLoop reads lines and hands each message to Read; a line it cannot pass on is answered
// with a JSON-RPC error here and skipped.
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, size, id, err := readLine(br, c.max)
		if size > 0 {
			if msg, refusal := c.decode(line, size, id); refusal != nil {
				c.refuse(refusal)
			} else if msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.readErr = err
			close(c.ended)
			return
		}
	}
}

// decode turns one line into a message, or into the error response that refuses it. A blank
// line is neither.
func (c *lineConn) decode(line []byte, size int, id jsonrpc.ID) (jsonrpc.Message, *jsonrpc.Response) {
	refuse := func(code int64, format string, args ...any) *jsonrpc.Response {
		return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}}
	}
	if line == nil {
		return nil, refuse(jsonrpc.CodeInvalidRequest,
			"the message is %d bytes, over the %d-byte limit on one message (MaxMessageBytes); it was skipped. "+
				"Send smaller messages: a file is at most 500 KiB", size, c.max)
	}
	line = bytes.TrimSpace(line)
	switch {
	case len(line) == 0:
		return nil, nil
	case line[0] == '[':
		return nil, refuse(jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported; send one message per line")
	case !json.Valid(line):
		return nil, refuse(jsonrpc.CodeParseError, "the line is not valid JSON; send one JSON-RPC message per line")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, refuse(jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: %v", err)
	}
	return msg, nil
}

// refuse writes the error answer to a line that was skipped, and logs it.
func (c *lineConn) refuse(resp *jsonrpc.Response) {
	c.logger.Warn("refused an MCP message on stdin", "id", resp.ID.Raw(), "error", resp.Error)
	// Encoded here rather than by jsonrpc.EncodeMessage, which leaves out a missing id: an
	// error answer to a message whose id could not be read carries "id": null.
	wire := struct {
		Version string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", resp.ID.Raw(), resp.Error.(*jsonrpc.Error)}
	data, err := json.Marshal(wire)
	if err == nil {
		err = c.writeLine(data)
	}
	if err != nil {
		c.logger.Warn("answering a refused message", "error", err)
	}
}

// readLine reads one line (without its line break) of at most max bytes. A longer line is
// read through and dropped: line is then nil, and size says how long it was. id is the
// top-level "id" of the line's JSON object, when it has a valid one. err is the error that
// ended the input (io.EOF at the end), returned with the last line, if any.
func readLine(br *bufio.Reader, max int) (line []byte, size int, id jsonrpc.ID, err error) {
	var buf []byte
	var scan *idScanner
	for {
		chunk, rerr := br.ReadSlice('\n')
		size += len(chunk)
		if scan == nil && len(buf)+len(chunk) > max+2 { // room for "\r\n"
			scan = &idScanner{}
			scan.write(buf)
			buf = nil
		}
		if scan != nil {
			scan.write(chunk)
		} else {
			buf = append(buf, chunk...)
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		// The line break ("\n" or "\r\n") is not part of the line, nor of its size.
		brk := 0
		if bytes.HasSuffix(chunk, []byte("\r\n")) {
			brk = 2
		} else if bytes.HasSuffix(chunk, []byte("\n")) {
			brk = 1
		}
		size -= brk
		if scan == nil {
			buf = buf[:len(buf)-brk]
		}
		if scan == nil && len(buf) > max {
			scan = &idScanner{}
			scan.write(buf)
		}
		if scan != nil {
			return nil, size, scan.id(), rerr
		}
		if len(buf) > 0 {
			s := &idScanner{}
			s.write(buf)
			id = s.id()
		}
		return buf, size, id, rerr
	}
}

// idScanner finds the top-level "id" member of a JSON object fed to it in pieces, holding at
// most a few bytes of it: the key being read and the id's raw value (both capped).
type idScanner struct {
	depth             int
	inString, escaped bool
	expectKey, inKey  bool
	key               []byte
	capturing, done   bool
	value             []byte
}

const maxIDBytes = 256

func (s *idScanner) write(p []byte) {
	for _, b := range p {
		s.step(b)
	}
}

func (s *idScanner) step(b byte) {
	atTop := s.depth == 1
	if s.inString {
		switch {
		case s.inKey && len(s.key) <= 8:
			s.key = append(s.key, b)
		case s.capturing && atTop:
			s.value = append(s.value, b)
		}
		switch {
		case s.escaped:
			s.escaped = false
		case b == '\\':
			s.escaped = true
		case b == '"':
			s.inString = false
			if s.inKey {
				s.inKey = false
				s.key = s.key[:len(s.key)-1] // the closing quote
			}
		}
		s.capLength()
		return
	}
	switch b {
	case ' ', '\t', '\r', '\n':
	case '"':
		s.inString = true
		if atTop && s.expectKey {
			s.inKey, s.expectKey, s.key = true, false, s.key[:0]
		} else if s.capturing && atTop {
			s.value = append(s.value, b)
		}
	case '{', '[':
		s.depth++
		if s.depth == 1 && b == '{' {
			s.expectKey = true
		}
		if s.capturing {
			s.capturing, s.value = false, nil // an object or array is no id
		}
	case '}', ']':
		if atTop {
			s.endValue()
		}
		s.depth--
	case ':':
		if atTop && string(s.key) == "id" && !s.done {
			s.capturing, s.value = true, s.value[:0]
		}
	case ',':
		if atTop {
			s.endValue()
			s.expectKey = true
		}
	default:
		if s.capturing && atTop {
			s.value = append(s.value, b)
		}
	}
	s.capLength()
}

func (s *idScanner) endValue() {
	if s.capturing {
		s.capturing, s.done = false, true
	}
	s.key = s.key[:0]
}

func (s *idScanner) capLength() {
	if s.capturing && len(s.value) > maxIDBytes {
		s.capturing, s.value = false, nil
	}
}

// id is the id found, or the zero ID (null on the wire) when there was none or it was not a
// string or a number.
func (s *idScanner) id() jsonrpc.ID {
	if !s.done || len(s.value) == 0 {
		return jsonrpc.ID{}
	}
	var v any
	if err := json.Unmarshal(s.value, &v); err != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}
