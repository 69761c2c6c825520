package modules

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"

	"github.com/cadrun/cadrun/runtime"
)

// ReadLines reads a user file in parts, for one over MaxReadBytes that Read refuses and
// ReadCapped cuts: up to limit lines (0: as many as fit) from line offset (1-based), at most
// MaxReadBytes of whole lines (a single longer line is cut at a whole character). next is the
// line to read on from, 0 when the part reaches the end; lines counts the lines up to the end
// of the part (all of them when offset is past the end).
func (w *Workspace) ReadLines(name string, offset, limit int) (b []byte, path string, next, lines int, err error) {
	path = runtime.PathOf(name)
	if err := CheckFileName(name); err != nil {
		return nil, path, 0, 0, err
	}
	f, err := w.openFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, 0, 0, fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	}
	if err != nil {
		return nil, path, 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		line, more, err := readLine(r, MaxReadBytes+1)
		if err == io.EOF && len(line) == 0 {
			return b, path, 0, lines, nil
		}
		if err != nil && err != io.EOF {
			return nil, path, 0, lines, err
		}
		lines++
		if lines < offset {
			continue
		}
		if len(b)+len(line) > MaxReadBytes || (limit > 0 && lines-offset >= limit) {
			if len(b) > 0 {
				return b, path, lines, lines - 1, nil
			}
			cut := MaxReadBytes
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			return line[:cut], path, lines + 1, lines, nil
		}
		b = append(b, line...)
		if !more {
			return b, path, 0, lines, nil
		}
	}
}

// readLine reads one line with its line break, keeping at most max bytes of it (the rest is
// skipped); more is false at the end of the input.
func readLine(r *bufio.Reader, max int) (line []byte, more bool, err error) {
	for {
		part, err := r.ReadSlice('\n')
		if len(line) < max {
			line = append(line, part[:min(len(part), max-len(line))]...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return line, false, io.EOF
		case err != nil:
			return nil, false, err
		}
		_, peek := r.Peek(1)
		return line, peek == nil, nil
	}
}
