// Package svg reads SVG files into a drawing the importer turns into code: groups, shapes in
// scene coordinates (Y up, in the chosen units, every transform composed in), symbols that
// are drawn once and placed by each <use>, and what was skipped with why. It knows SVG's
// structure, transforms and styles but not cadrun's API; tools/importer writes the calls.
//
// The input is untrusted: its size, element count, nesting depth, path data, the segments
// converted and the text written for them (a <use> can ask for its content again), and the
// time it takes are bounded by Limits; a DOCTYPE that declares entities is refused (entity
// expansion is how a small file becomes a huge one), and a file that is not well-formed XML
// is refused with the line it failed on.
package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/geom"
)

// Limits bound what a file may ask of the reader. The zero value of a field means its
// default (DefaultLimits).
type Limits struct {
	MaxBytes        int           // file size
	MaxElements     int           // elements in the file
	MaxDepth        int           // elements nested within each other
	MaxPathBytes    int           // one path's data (a d or points attribute)
	MaxPathSegments int           // segments in one path
	MaxUseDepth     int           // <use> within <use>
	MaxDrawn        int           // shapes and groups once every <use> is expanded
	MaxSegments     int           // path segments converted in all, each conversion counted
	MaxShapeBytes   int           // the shapes' path data, points and text, in all
	MaxMarkerDrawn  int           // shapes and groups the markers draw, in all
	MaxTime         time.Duration // wall-clock time to read and convert the file
}

// DefaultLimits are the limits of `cadrun import`; docs/limits.md lists them. MaxSegments
// and MaxShapeBytes follow the module the drawing becomes, which the sandbox takes up to
// MaxSourceBytes: the shapes' text goes into it as it is, and a segment takes at least 4
// bytes of it (" L 0 0", or " M 0 0 Z" for two), so such a module holds fewer than 130,000
// and a conversion of over 200,000 could only end in a module refused.
var DefaultLimits = Limits{MaxBytes: 20 << 20, MaxElements: 200_000, MaxDepth: 64,
	MaxPathBytes: geom.MaxPathDataBytes, MaxPathSegments: geom.MaxPathSegments,
	MaxUseDepth: 16, MaxDrawn: 100_000, MaxSegments: 200_000, MaxMarkerDrawn: 20_000,
	MaxShapeBytes: runtime.DefaultLimits.MaxSourceBytes, MaxTime: 5 * time.Second}

func (l Limits) orDefault() Limits {
	d := DefaultLimits
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.MaxBytes, d.MaxBytes)
	pick(&l.MaxElements, d.MaxElements)
	pick(&l.MaxDepth, d.MaxDepth)
	pick(&l.MaxPathBytes, d.MaxPathBytes)
	pick(&l.MaxPathSegments, d.MaxPathSegments)
	pick(&l.MaxUseDepth, d.MaxUseDepth)
	pick(&l.MaxDrawn, d.MaxDrawn)
	pick(&l.MaxSegments, d.MaxSegments)
	pick(&l.MaxShapeBytes, d.MaxShapeBytes)
	pick(&l.MaxMarkerDrawn, d.MaxMarkerDrawn)
	if l.MaxTime <= 0 {
		l.MaxTime = d.MaxTime
	}
	return l
}

// Errors a file is refused with; each is wrapped with the line and the limit or the reason.
var (
	// ErrLimit is returned when a file exceeds one of its Limits.
	ErrLimit = errors.New("over a limit")
	// ErrSyntax is returned when a file is not well-formed XML or not an SVG document.
	ErrSyntax = errors.New("malformed SVG")
	// ErrEntities is returned for a DOCTYPE that declares entities.
	ErrEntities = errors.New("the file's DOCTYPE declares entities, which cadrun does not expand (a few lines of them can stand for gigabytes); remove the DOCTYPE or save the file as plain SVG")
	// ErrRefused is returned for a file that is read but cannot be imported (a <use> that
	// uses itself, nesting or expansion over the limits).
	ErrRefused = errors.New("cannot import")
)

// LineError is a file refused at a 1-based line.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap gives the reason: ErrSyntax, ErrLimit, ErrEntities or ErrRefused, wrapped.
func (e *LineError) Unwrap() error { return e.Err }

// element is one element of the file: its local name, attributes by local name (a prefixed
// attribute keeps its prefix's namespace local name, e.g. "label" for inkscape:label and
// "href" for xlink:href) and children.
type element struct {
	name     string
	space    string
	attrs    map[string]string
	children []*element
	text     strings.Builder // a textNode's characters, a <style>'s stylesheet
	line     int
}

func (e *element) attr(name string) string { return e.attrs[name] }

// textNode is the name of the children that hold a text's characters.
const textNode = "#text"

// inText tells whether the innermost of stack is inside a <text>.
func inText(stack []*element) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].name == "text" {
			return true
		}
	}
	return false
}

// CheckSize refuses a file of n bytes over lim's MaxBytes: the first thing Read does, and what
// a caller that hands the bytes on (to the importer's worker) checks before it does.
func CheckSize(n int, lim Limits) error {
	if lim = lim.orDefault(); n > lim.MaxBytes {
		return fmt.Errorf("%w: the file is %d bytes, over the %d-byte limit on imported files (MaxBytes)", ErrLimit, n, lim.MaxBytes)
	}
	return nil
}

// parse reads the XML into a tree of elements, within the limits.
func parse(data []byte, lim Limits, deadline time.Time) (*element, error) {
	if err := CheckSize(len(data), lim); err != nil {
		return nil, err
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l == "utf-8" || l == "us-ascii" || l == "ascii" {
			return r, nil
		}
		return nil, fmt.Errorf("the file is in %q; save it as UTF-8", label)
	}
	var root *element
	var stack []*element
	count := 0
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, &LineError{se.Line, fmt.Errorf("%w: %s", ErrSyntax, se.Msg)}
			}
			return nil, &LineError{line, fmt.Errorf("%w: %v", ErrSyntax, err)}
		}
		switch t := tok.(type) {
		case xml.Directive:
			if d := string(t); strings.HasPrefix(strings.TrimSpace(d), "DOCTYPE") && strings.Contains(d, "<!ENTITY") {
				return nil, &LineError{line, ErrEntities}
			}
		case xml.StartElement:
			count++
			if time.Now().After(deadline) {
				return nil, &LineError{line, fmt.Errorf("%w: reading took over %v (MaxTime)", ErrLimit, lim.MaxTime)}
			}
			if count > lim.MaxElements {
				return nil, &LineError{line, fmt.Errorf("%w: the file has over %d elements (MaxElements)", ErrLimit, lim.MaxElements)}
			}
			if len(stack) >= lim.MaxDepth {
				return nil, &LineError{line, fmt.Errorf("%w: elements nest over %d deep (MaxDepth)", ErrLimit, lim.MaxDepth)}
			}
			line, _ = dec.InputPos() // the line the start tag ends on
			e := &element{name: t.Name.Local, space: t.Name.Space, attrs: make(map[string]string, len(t.Attr)), line: line}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, &LineError{line, fmt.Errorf("%w: a second root element <%s>", ErrSyntax, t.Name.Local)}
				}
				root = e
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			// A stylesheet's text, CDATA included and XML comments left out, as SVG reads it.
			if n := len(stack); n > 0 && stack[n-1].name == "style" {
				stack[n-1].text.Write(t)
				continue
			}
			// A text's characters are kept in order among its tspans, as "#text" children.
			if n := len(stack); n > 0 && (stack[n-1].name == "text" || stack[n-1].name == "tspan" || stack[n-1].name == "a" && n > 1 && inText(stack[:n-1])) {
				p := stack[n-1]
				if k := len(p.children); k > 0 && p.children[k-1].name == textNode {
					p.children[k-1].text.Write(t)
				} else {
					node := &element{name: textNode, line: line}
					node.text.Write(t)
					p.children = append(p.children, node)
				}
			}
		}
	}
	if root == nil || root.name != "svg" {
		return nil, &LineError{1, fmt.Errorf("%w: the root element is not <svg>", ErrSyntax)}
	}
	return root, nil
}
