package runtime

// Files through the worker's pipe. A warm worker runs the same scripts and reads the same data
// files run after run, and a file's content in a JSON line costs base64 both ways, every run.
// So a file of at least inlineFileBytes is answered with a hash of its content instead ("file"
// with Hash). The worker keeps the contents it was sent in a cache keyed by that hash
// (fileCache); when it lacks one it asks "content" with the hash, and the parent sends the
// bytes as a raw frame after a "content" line (ContentBytes), as results send the scene. A
// changed file has a new hash, so its new content is always sent. The worker still reads
// nothing itself: every byte comes from the parent's Source.

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"strconv"
)

// inlineFileBytes is the size from which a file goes by hash: below it the content costs about
// what the hash does, and a worker that lacks it would wait for one more message.
const inlineFileBytes = 4 << 10

// workerFileCacheBytes bounds the file contents a worker keeps between runs. Past it the cache
// is emptied and refills as files are read; a file over it is sent every time it is read.
const workerFileCacheBytes = 8 << 20

// contentSeeds key contentHash: 128 bits, from seeds made at random when the process starts.
// It is maphash rather than SHA-256, which is several times slower and runs on every run. The
// hashes only have to agree between a parent and its own workers, which take them as given (a
// worker never hashes), and nobody outside the process knows the seeds, so no file can be made
// to collide with another; by chance two differ in 128 bits but for one in 2^64 or so of the
// pairs.
var contentSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// contentHash names a file's content in the protocol.
func contentHash(b []byte) string {
	h := strconv.AppendUint(nil, maphash.Bytes(contentSeeds[0], b), 16)
	h = append(h, '-')
	return string(strconv.AppendUint(h, maphash.Bytes(contentSeeds[1], b), 16)) + "-" + strconv.Itoa(len(b))
}

// fileCache is a worker's file contents by hash. One goroutine uses it at a time.
type fileCache struct {
	files map[string][]byte
	bytes int
}

func (c *fileCache) get(hash string) ([]byte, bool) {
	b, ok := c.files[hash]
	return b, ok
}

func (c *fileCache) put(hash string, b []byte) {
	if len(b) > workerFileCacheBytes {
		return
	}
	if c.files == nil || c.bytes+len(b) > workerFileCacheBytes {
		c.files, c.bytes = map[string][]byte{}, 0
	}
	if _, dup := c.files[hash]; !dup {
		c.files[hash] = b
		c.bytes += len(b)
	}
}

// content is the file with this hash: from the cache, or asked of the parent and kept.
func (s *remoteSource) content(hash string) ([]byte, error) {
	if b, ok := s.cache.get(hash); ok {
		return b, nil
	}
	if err := s.send(message{Type: "content", Hash: hash}); err != nil {
		return nil, err
	}
	var m message
	if err := s.in.decode(&m); err != nil {
		return nil, err
	}
	if m.Type != "content" {
		return nil, fmt.Errorf("unexpected message %q while waiting for a file's content", m.Type)
	}
	b, err := s.in.frame(m.ContentBytes)
	if err != nil {
		return nil, fmt.Errorf("reading a file's content: %w", err)
	}
	s.cache.put(hash, b)
	return b, nil
}

// readReply is the "file" reply to a worker's "read" of name from src.
func readReply(src Source, name string) message {
	content, path, err := src.Read(name)
	reply := message{Type: "file", Name: name, Path: path, Content: content}
	if errors.Is(err, ErrModuleNotFound) {
		reply.Missing = true
	} else if err != nil {
		reply.Err = err.Error()
	}
	return reply
}

// sendable is a "read" or "font" reply as it is sent: a small file's content inline, a bigger
// one's hash, its content kept in pending for the worker's "content" request.
func sendable(reply message, pending map[string][]byte) message {
	if len(reply.Content) >= inlineFileBytes {
		reply.Hash = contentHash(reply.Content)
		pending[reply.Hash] = reply.Content
		reply.Content = nil
	}
	return reply
}

// sendContent answers a worker's "content" request with the bytes of a file this run served by
// hash, as a raw frame after the line.
func (w *worker) sendContent(enc *json.Encoder, hash string, pending map[string][]byte) error {
	b, ok := pending[hash]
	if !ok {
		return fmt.Errorf("the worker asked for content %q that this run did not send", hash)
	}
	if err := enc.Encode(message{Type: "content", ContentBytes: len(b)}); err != nil {
		return err
	}
	if _, err := w.proc.Stdin.Write(b); err != nil {
		return err
	}
	w.framedBytes += len(b)
	return nil
}

// lineReader reads JSON lines, each of which may be followed by a raw frame of bytes. Its
// decoder reads through it: first the bytes read past the last frame's end (pending), then
// the stream. A frame copied out (copyFrame) thus comes straight from the stream once what
// was read ahead is spent.
type lineReader struct {
	raw     io.Reader
	pending []byte
	dec     *json.Decoder
}

func newLineReader(r io.Reader) *lineReader {
	l := &lineReader{raw: r}
	l.dec = json.NewDecoder(l)
	return l
}

// Read serves the decoder: what was read ahead first, then the stream.
func (l *lineReader) Read(p []byte) (int, error) {
	if len(l.pending) > 0 {
		n := copy(p, l.pending)
		l.pending = l.pending[n:]
		return n, nil
	}
	return l.readRaw(p)
}

// readRaw reads the stream. A worker's stdout is closed once the worker has ended, which a
// read in flight sees as os.ErrClosed rather than the end of the stream it is.
func (l *lineReader) readRaw(p []byte) (int, error) {
	n, err := l.raw.Read(p)
	if errors.Is(err, os.ErrClosed) {
		err = io.EOF
	}
	return n, err
}

func (l *lineReader) decode(v any) error { return l.dec.Decode(v) }

// maxFrame caps a raw frame: the scene JSON or a file's content. A scene at its entity and
// vertex caps fits well within it.
const maxFrame = 1 << 30

// frame reads the n raw bytes that follow the last JSON line.
func (l *lineReader) frame(n int) ([]byte, error) {
	if n < 0 || n > maxFrame {
		return nil, fmt.Errorf("a frame of %d bytes is over %d", n, maxFrame)
	}
	b := make([]byte, n)
	if err := l.readFrame(n, func(ahead []byte) error { copy(b, ahead); return nil }, func(from int) error {
		_, err := io.ReadFull(readerFunc(l.readRaw), b[from:])
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the line announced n bytes: the stream ended inside the frame
		}
		return err
	}); err != nil {
		return nil, err
	}
	return b, nil
}

// readFrame reads the frame of n bytes after the last JSON line: ahead gets the part the
// decoder had read ahead (at most n bytes, at the frame's start), then rest reads the frame's
// bytes from offset from on straight from the stream. The decoder then starts again after the
// frame.
func (l *lineReader) readFrame(n int, ahead func([]byte) error, rest func(from int) error) error {
	// What the decoder holds past the line, then what was pending before it: the frame's
	// first bytes, maybe more.
	buffered, err := io.ReadAll(l.dec.Buffered())
	if err != nil {
		return err
	}
	unread := append(buffered, l.pending...)
	l.pending = nil
	// The frame starts after the newline that ends the message line, which the decoder has
	// not consumed.
	if len(unread) == 0 {
		var nl [1]byte
		if _, err := io.ReadFull(readerFunc(l.readRaw), nl[:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // a frame was announced
			}
			return err
		}
		unread = nl[:]
	}
	if unread[0] != '\n' {
		return fmt.Errorf("the frame does not start on a new line (%q)", unread[0])
	}
	unread = unread[1:]
	k := min(n, len(unread))
	if err := ahead(unread[:k]); err != nil {
		return err
	}
	if k < n {
		if err := rest(k); err != nil {
			return err
		}
	}
	l.pending = unread[k:]
	l.dec = json.NewDecoder(l)
	return nil
}

// copyFrame copies the frame of n bytes after the last JSON line to dst as it arrives,
// through buf. An error writing to dst comes back as an *outputError; any other error is the
// stream's.
func (l *lineReader) copyFrame(dst io.Writer, n int, buf []byte) error {
	write := func(b []byte) error {
		if _, err := dst.Write(b); err != nil {
			return &outputError{err}
		}
		return nil
	}
	return l.readFrame(n, write, func(from int) error {
		for left := n - from; left > 0; {
			k, err := l.readRaw(buf[:min(left, len(buf))])
			if k > 0 {
				if err := write(buf[:k]); err != nil {
					return err
				}
				left -= k
			}
			switch {
			case err == io.EOF && left > 0:
				return io.ErrUnexpectedEOF
			case err != nil && left > 0:
				return err
			}
		}
		return nil
	})
}

// outputError is an error writing an export to the caller's writer.
type outputError struct{ err error }

func (e *outputError) Error() string { return e.err.Error() }
func (e *outputError) Unwrap() error { return e.err }

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
