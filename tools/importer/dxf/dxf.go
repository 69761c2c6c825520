// Package dxf reads ASCII DXF files (R12 through R2018) into entities with the line each
// started on: what the importer needs to turn a drawing into code, and nothing more. It knows
// the file's structure (sections, tables, blocks, entities, polyline vertices) but not what
// an entity means; tools/importer interprets the group codes of the kinds it supports.
//
// The input is untrusted: its size, its entity count and the time it takes are bounded by
// Limits, and a file that breaks the format is refused with the line it failed on.
package dxf

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limits bound what a file may ask of the reader. The zero value of a field means its
// default (DefaultLimits).
type Limits struct {
	MaxBytes    int           // file size
	MaxEntities int           // entities in the ENTITIES and BLOCKS sections, vertices included
	MaxTime     time.Duration // wall-clock time to read the file
}

// DefaultLimits are the limits of `cadrun import`; docs/limits.md lists them.
var DefaultLimits = Limits{MaxBytes: 20 << 20, MaxEntities: 200_000, MaxTime: 5 * time.Second}

func (l Limits) orDefault() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxEntities <= 0 {
		l.MaxEntities = DefaultLimits.MaxEntities
	}
	if l.MaxTime <= 0 {
		l.MaxTime = DefaultLimits.MaxTime
	}
	return l
}

// Errors a file is refused with; each is wrapped in a *SyntaxError or a message naming the
// limit.
var (
	// ErrBinary is returned for a binary DXF file, which this reader does not read.
	ErrBinary = errors.New("binary DXF is not supported: save the drawing as ASCII DXF (in most CAD programs: Save As, DXF, ASCII) and import that")
	// ErrLimit is returned when a file exceeds one of its Limits.
	ErrLimit = errors.New("over a limit")
	// ErrSyntax is returned when a file breaks the DXF format.
	ErrSyntax = errors.New("malformed DXF")
)

// SyntaxError is a file that breaks the format, at a 1-based line.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Pair is one group: a code and its value, with the line of the code.
type Pair struct {
	Code  int
	Value string
	Line  int
}

// Entity is one entity: its kind (LINE, CIRCLE, ...), its groups in file order, and for a
// POLYLINE its VERTEX entities.
type Entity struct {
	Kind     string
	Line     int
	Pairs    []Pair
	Vertices []*Entity
	// Embedded are the groups of the object embedded in the entity, from its 101 group on
	// (an MTEXT's columns): they reuse the entity's own codes (11 and 21, the MTEXT's
	// direction, are the columns' there), so they are kept apart from Pairs.
	Embedded []Pair
}

// Block is a block definition: its name, base point and entities.
type Block struct {
	Name       string
	Line       int
	BaseX      float64
	BaseY      float64
	Entities   []*Entity
	xrefOrFlag int
}

// Layer is a layer table entry.
type Layer struct {
	Name      string
	Color     int    // ACI; negative when the layer is off
	TrueColor int    // 24-bit RGB from code 420, or -1
	Linetype  string // its LTYPE's name (code 6), "" when none
	Plot      bool   // whether the layer is plotted (code 290, 1 unless 0)
	Frozen    bool   // frozen (bit 1 of code 70): drawn nowhere, like a layer that is off
}

// Off reports whether the layer is off: a CAD program neither shows nor plots it.
func (l Layer) Off() bool { return l.Color < 0 }

// Drawing is a read file.
type Drawing struct {
	InsUnits   int // $INSUNITS, 0 when absent (unitless)
	Layers     map[string]Layer
	Blocks     map[string]*Block
	BlockOrder []string  // block names in file order
	Entities   []*Entity // model space's entities: the drawing
	Lines      int       // lines in the file
	// Notes are what the reader read other than as the file wrote it, "KIND: how" -> count
	// (a file without its 0 EOF, a block without a name), for the importer's report.
	Notes map[string]int

	// Layouts are the file's paper-space layouts in file order (model space is not one).
	Layouts []Layout
	// paper is the ENTITIES section's entities of paper space (group 67 is 1, or their owner
	// is a paper-space block record) by the upper-cased name of their layout's block.
	paper map[string][]*Entity
	// records are the BLOCK_RECORD table's names by upper-cased handle.
	records map[string]string
}

// Layout is a paper-space layout: a sheet with its title block and viewports, drawn apart
// from the model.
type Layout struct {
	Name  string // as the layout's tab shows it
	Block string // its block (*Paper_Space for the active layout, *Paper_Space0 and on)
}

// activePaper is the block of the active layout, whose entities the ENTITIES section holds.
const activePaper = "*PAPER_SPACE"

// ErrLayout is returned by Drawing.Layout for a name that is no layout of the file.
var ErrLayout = errors.New("no such layout")

// LayoutEntities are the entities of the layout named name (case-insensitively, as CAD
// programs match them): those of its block and, for the active layout, the ENTITIES
// section's paper-space entities. "Model" is model space.
func (d *Drawing) LayoutEntities(name string) ([]*Entity, error) {
	if strings.EqualFold(name, "Model") {
		return d.Entities, nil
	}
	for _, l := range d.Layouts {
		if !strings.EqualFold(l.Name, name) {
			continue
		}
		var out []*Entity
		if b, ok := d.Blocks[l.Block]; ok {
			out = append(out, b.Entities...)
		}
		return append(out, d.paper[strings.ToUpper(l.Block)]...), nil
	}
	names := []string{"Model"}
	for _, l := range d.Layouts {
		names = append(names, l.Name)
	}
	return nil, fmt.Errorf("%w %q: the file's layouts are %s", ErrLayout, name, strings.Join(names, ", "))
}

// PaperCount is how many entities the layout's paper space holds (not counting those its
// blocks' inserts draw).
func (d *Drawing) PaperCount(l Layout) int {
	n := len(d.paper[strings.ToUpper(l.Block)])
	if b, ok := d.Blocks[l.Block]; ok {
		n += len(b.Entities)
	}
	return n
}

func (d *Drawing) note(what string) {
	if d.Notes == nil {
		d.Notes = map[string]int{}
	}
	d.Notes[what]++
}

// binarySentinel opens every binary DXF file.
var binarySentinel = []byte("AutoCAD Binary DXF")

// CheckSize refuses a file of n bytes over lim's MaxBytes: the first thing Read does, and what
// a caller that hands the bytes on (to the importer's worker) checks before it does.
func CheckSize(n int, lim Limits) error {
	if lim = lim.orDefault(); n > lim.MaxBytes {
		// Callers read at most one byte over the limit, so the size is not the file's.
		return fmt.Errorf("%w: the file is over the %d-byte limit on imported files (MaxBytes)", ErrLimit, lim.MaxBytes)
	}
	return nil
}

// Read reads an ASCII DXF file within the limits.
func Read(data []byte, lim Limits) (*Drawing, error) {
	lim = lim.orDefault()
	if err := CheckSize(len(data), lim); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, binarySentinel) {
		return nil, ErrBinary
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := &reader{data: data, lim: lim, deadline: time.Now().Add(lim.MaxTime)}
	d := &Drawing{Layers: map[string]Layer{}, Blocks: map[string]*Block{}, paper: map[string][]*Entity{}, records: map[string]string{}}
	if err := r.drawing(d); errors.Is(err, errEnd) && r.sections > 0 {
		// ezdxf and CAD programs read a file that stops between two groups: what it holds
		// is drawn, and the report says where it stopped.
		d.note(fmt.Sprintf("FILE: ends at line %d without 0 EOF (is it truncated?): read to its end", r.line))
	} else if errors.Is(err, errEnd) {
		return nil, &SyntaxError{r.line + 1, "the file ends before its first section (is it a DXF file?)"}
	} else if err != nil {
		return nil, err
	}
	d.nameBlocks(r.unnamed)
	d.Lines = r.line
	d.splitSpaces()
	return d, nil
}

// splitSpaces moves the ENTITIES section's paper-space entities out of the model's. A file
// without LAYOUT objects (R12) but with paper space has one layout, named Layout1 as CAD
// programs name it when they open such a file.
func (d *Drawing) splitSpaces() {
	model := d.Entities[:0:0]
	for _, e := range d.Entities {
		owner := strings.ToUpper(d.records[strings.ToUpper(e.owner())])
		paper := strings.HasPrefix(owner, activePaper)
		if !paper && e.Str(67, "0") == "1" {
			paper, owner = true, activePaper
		}
		if paper {
			d.paper[owner] = append(d.paper[owner], e)
		} else {
			model = append(model, e)
		}
	}
	d.Entities = model
	if len(d.Layouts) == 0 && (len(d.paper) > 0 || d.Blocks["*Paper_Space"] != nil && len(d.Blocks["*Paper_Space"].Entities) > 0) {
		d.Layouts = []Layout{{Name: "Layout1", Block: "*Paper_Space"}}
	}
	// Paper space no LAYOUT names (its objects lost, or a writer that writes none): a layout
	// named after its block, so that it is said and can be imported rather than lost.
	for _, block := range slices.Sorted(maps.Keys(d.paper)) {
		if !slices.ContainsFunc(d.Layouts, func(l Layout) bool { return strings.EqualFold(l.Block, block) }) {
			d.Layouts = append(d.Layouts, Layout{Name: strings.TrimPrefix(block, "*"), Block: block})
		}
	}
	// A layout's block is named in the case its BLOCK was written in, which the reader's
	// blocks are looked up by.
	for i, l := range d.Layouts {
		for name := range d.Blocks {
			if strings.EqualFold(name, l.Block) {
				d.Layouts[i].Block = name
			}
		}
	}
}

// owner is the handle of the entity's owner (the first 330 outside a 102 group), "" if none.
func (e *Entity) owner() string {
	in102 := false
	for _, p := range e.Pairs {
		switch {
		case p.Code == 102:
			in102 = strings.HasPrefix(p.Value, "{")
		case p.Code == 330 && !in102:
			return p.Value
		case p.Code == 100:
			return "" // the owner comes before the subclass markers
		}
	}
	return ""
}

// reader walks the file pair by pair; peeked holds a pair read ahead.
type reader struct {
	data     []byte
	pos      int
	line     int
	lim      Limits
	deadline time.Time
	pairs    int
	count    int // entities read
	sections int // sections begun
	unnamed  []*Block
	peeked   *Pair
}

// nextLine returns the next line without its line ending, or false at the end.
func (r *reader) nextLine() (string, bool) {
	if r.pos >= len(r.data) {
		return "", false
	}
	rest := r.data[r.pos:]
	i := bytes.IndexByte(rest, '\n')
	var l []byte
	if i < 0 {
		l, r.pos = rest, len(r.data)
	} else {
		l, r.pos = rest[:i], r.pos+i+1
	}
	r.line++
	return string(bytes.TrimSuffix(l, []byte("\r"))), true
}

// errEnd is next's error at the end of the file: a well-formed file ends with 0 EOF, which
// the caller stops at first. The readers of sections return what they read with it.
var errEnd = errors.New("the file ends without 0 EOF")

// next reads one pair; at the end of the file, errEnd.
func (r *reader) next() (Pair, error) {
	if r.peeked != nil {
		p := *r.peeked
		r.peeked = nil
		return p, nil
	}
	r.pairs++
	if r.pairs%4096 == 0 && time.Now().After(r.deadline) {
		return Pair{}, fmt.Errorf("%w: reading took over %v (MaxTime) by line %d", ErrLimit, r.lim.MaxTime, r.line)
	}
	codeText, ok := r.nextLine()
	if !ok {
		return Pair{}, errEnd
	}
	line := r.line
	code, err := strconv.Atoi(strings.TrimSpace(codeText))
	if err != nil || code < 0 || code > 1071 {
		return Pair{}, &SyntaxError{line, fmt.Sprintf("expected a group code (an integer 0-1071), got %q", clip(codeText))}
	}
	value, ok := r.nextLine()
	if !ok {
		return Pair{}, &SyntaxError{line + 1, fmt.Sprintf("the file ends after group code %d, before its value (is it truncated?)", code)}
	}
	if code != 1 && code != 3 {
		value = strings.TrimSpace(value)
	}
	return Pair{Code: code, Value: value, Line: line}, nil
}

func (r *reader) unread(p Pair) { r.peeked = &p }

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// drawing reads sections until 0 EOF.
func (r *reader) drawing(d *Drawing) error {
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		if p.Code != 0 {
			// A comment (999), or a group some writers leave between sections (dxflib
			// closes the HEADER early and writes variables after it): skipped, as CAD
			// programs skip them.
			continue
		}
		switch p.Value {
		case "EOF":
			return nil
		case "SECTION":
			r.sections++
		case "ENDSEC": // the end of a section some writer closed twice
			continue
		default:
			return &SyntaxError{p.Line, fmt.Sprintf("expected 0 SECTION or 0 EOF, got 0 %s", clip(p.Value))}
		}
		name, err := r.next()
		if err != nil {
			return err
		}
		if name.Code != 2 {
			return &SyntaxError{name.Line, fmt.Sprintf("expected 2 and the section's name, got group code %d", name.Code)}
		}
		switch name.Value {
		case "HEADER":
			err = r.header(d)
		case "TABLES":
			err = r.tables(d)
		case "BLOCKS":
			err = r.blocks(d)
		case "ENTITIES":
			d.Entities, err = r.entities("ENDSEC")
		case "OBJECTS":
			err = r.objects(d)
		default:
			err = r.skipSection()
		}
		if err != nil {
			return err
		}
	}
}

// skipSection reads up to 0 ENDSEC.
func (r *reader) skipSection() error {
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		if p.Code == 0 && p.Value == "ENDSEC" {
			return nil
		}
	}
}

// header reads $INSUNITS; the rest of the header is skipped.
func (r *reader) header(d *Drawing) error {
	variable := ""
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		switch {
		case p.Code == 0 && p.Value == "ENDSEC":
			return nil
		case p.Code == 9:
			variable = p.Value
		case variable == "$INSUNITS" && p.Code == 70:
			if d.InsUnits, err = Int(p); err != nil {
				return err
			}
		}
	}
}

// tables reads the LAYER table's names, colours and states, and the BLOCK_RECORD table's
// handles (what says which entities are paper space's); other tables are skipped.
func (r *reader) tables(d *Drawing) error {
	var layer *Layer
	var record *[2]string // handle, name
	flush := func() {
		if layer != nil && layer.Name != "" {
			d.Layers[layer.Name] = *layer
		}
		if record != nil && record[0] != "" {
			d.records[strings.ToUpper(record[0])] = record[1]
		}
		layer, record = nil, nil
	}
	table := ""
	for {
		p, err := r.next()
		if err != nil {
			flush()
			return err
		}
		switch {
		case p.Code == 0 && p.Value == "ENDSEC":
			flush()
			return nil
		case p.Code == 0:
			flush()
			if p.Value == "LAYER" && table == "LAYER" {
				layer = &Layer{Color: 7, TrueColor: -1, Plot: true}
			}
			if p.Value == "BLOCK_RECORD" && table == "BLOCK_RECORD" {
				record = &[2]string{}
			}
			if p.Value == "TABLE" {
				t, err := r.next()
				if err != nil {
					return err
				}
				table = t.Value
			}
		case record != nil && p.Code == 5:
			record[0] = p.Value
		case record != nil && p.Code == 2:
			record[1] = p.Value
		case layer != nil && p.Code == 2:
			layer.Name = p.Value
		case layer != nil && p.Code == 70:
			flags, err := Int(p)
			if err != nil {
				return err
			}
			layer.Frozen = flags&1 != 0
		case layer != nil && p.Code == 62:
			if layer.Color, err = Int(p); err != nil {
				return err
			}
		case layer != nil && p.Code == 420:
			if layer.TrueColor, err = Int(p); err != nil {
				return err
			}
		case layer != nil && p.Code == 6:
			layer.Linetype = p.Value
		case layer != nil && p.Code == 290:
			plot, err := Int(p)
			if err != nil {
				return err
			}
			layer.Plot = plot != 0
		}
	}
}

// objects reads the LAYOUT objects: a layout's name (its last group 1, after the page setup's)
// and its block record (its last 330, after its owner's); the other objects are skipped.
func (r *reader) objects(d *Drawing) error {
	var layout *[2]string // name, block record handle
	flush := func() {
		if layout != nil && layout[0] != "" && !strings.EqualFold(layout[0], "Model") {
			d.Layouts = append(d.Layouts, Layout{Name: layout[0], Block: layout[1]})
		}
		layout = nil
	}
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		switch {
		case p.Code == 0 && p.Value == "ENDSEC":
			flush()
			// The block records come first in the file; the names are looked up once read.
			for i, l := range d.Layouts {
				d.Layouts[i].Block = d.records[strings.ToUpper(l.Block)]
			}
			d.Layouts = slices.DeleteFunc(d.Layouts, func(l Layout) bool { return l.Block == "" })
			return nil
		case p.Code == 0:
			flush()
			if p.Value == "LAYOUT" {
				layout = &[2]string{}
			}
		case layout != nil && p.Code == 1:
			layout[0] = p.Value
		case layout != nil && p.Code == 330:
			layout[1] = p.Value
		}
	}
}

// blocks reads block definitions.
func (r *reader) blocks(d *Drawing) error {
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		if p.Code != 0 {
			return &SyntaxError{p.Line, fmt.Sprintf("expected 0 BLOCK or 0 ENDSEC, got group code %d", p.Code)}
		}
		switch p.Value {
		case "ENDSEC":
			return nil
		case "BLOCK":
		default:
			return &SyntaxError{p.Line, fmt.Sprintf("expected 0 BLOCK or 0 ENDSEC, got 0 %s", clip(p.Value))}
		}
		b := &Block{Line: p.Line}
		for {
			q, err := r.next()
			if err != nil {
				return err
			}
			if q.Code == 0 {
				r.unread(q)
				break
			}
			switch q.Code {
			case 2:
				b.Name = q.Value
			case 10:
				b.BaseX, err = Float(q)
			case 20:
				b.BaseY, err = Float(q)
			case 70:
				b.xrefOrFlag, err = Int(q)
			}
			if err != nil {
				return err
			}
		}
		b.Entities, err = r.entities("ENDBLK")
		if err == nil {
			// ENDBLK's own groups run to the next 0.
			err = r.skipGroups()
		}
		if err != nil && !errors.Is(err, errEnd) {
			return err
		}
		if b.Name == "" { // named once every name in the file is known
			r.unnamed = append(r.unnamed, b)
		} else {
			d.addBlock(b)
		}
		if err != nil {
			return err
		}
	}
}

// nameBlocks adds the blocks without a name (group 2), which no INSERT can name, as UNNAMED
// (UNNAMED2, ...: a name no other block has), noted, so that their geometry is not lost.
func (d *Drawing) nameBlocks(unnamed []*Block) {
	for _, b := range unnamed {
		b.Name = "UNNAMED"
		for i := 2; d.Blocks[b.Name] != nil; i++ {
			b.Name = fmt.Sprintf("UNNAMED%d", i)
		}
		d.note(fmt.Sprintf("BLOCK: a block without a name (group 2, line %d), named %s", b.Line, b.Name))
		d.addBlock(b)
	}
}

// addBlock adds a block definition; a later one of the same name replaces it.
func (d *Drawing) addBlock(b *Block) {
	if _, dup := d.Blocks[b.Name]; !dup {
		d.BlockOrder = append(d.BlockOrder, b.Name)
	}
	d.Blocks[b.Name] = b
}

// skipGroups reads groups up to (not including) the next 0.
func (r *reader) skipGroups() error {
	for {
		p, err := r.next()
		if err != nil {
			return err
		}
		if p.Code == 0 {
			r.unread(p)
			return nil
		}
	}
}

// entities reads entities up to 0 end (ENDSEC or ENDBLK), which it consumes. A POLYLINE
// takes the VERTEX entities after it up to its SEQEND; an INSERT's ATTRIBs are dropped.
func (r *reader) entities(end string) ([]*Entity, error) {
	var out []*Entity
	for {
		p, err := r.next()
		if errors.Is(err, errEnd) {
			return out, err
		}
		if err != nil {
			return nil, err
		}
		if p.Code != 0 {
			return nil, &SyntaxError{p.Line, fmt.Sprintf("expected 0 and an entity's kind, got group code %d", p.Code)}
		}
		if p.Value == end {
			return out, nil
		}
		if p.Value == "ENDSEC" || p.Value == "EOF" || p.Value == "SECTION" {
			return nil, &SyntaxError{p.Line, fmt.Sprintf("0 %s before 0 %s", p.Value, end)}
		}
		e, err := r.entity(p)
		if err != nil && !errors.Is(err, errEnd) {
			return nil, err
		}
		switch e.Kind {
		case "VERTEX", "SEQEND", "ATTRIB":
			// Loose parts of a sequence: a POLYLINE or an INSERT with attributes owns them.
			if e.Kind == "VERTEX" && len(out) > 0 && out[len(out)-1].Kind == "POLYLINE" {
				pl := out[len(out)-1]
				pl.Vertices = append(pl.Vertices, e)
			}
		default:
			out = append(out, e)
		}
		if err != nil { // the file ended after this entity's groups
			return out, err
		}
	}
}

// entity reads the groups of one entity whose 0 pair is p.
func (r *reader) entity(p Pair) (*Entity, error) {
	r.count++
	if r.count > r.lim.MaxEntities {
		return nil, fmt.Errorf("%w: line %d: the file has over %d entities (MaxEntities)", ErrLimit, p.Line, r.lim.MaxEntities)
	}
	e := &Entity{Kind: p.Value, Line: p.Line}
	for {
		q, err := r.next()
		if errors.Is(err, errEnd) {
			return e, err
		}
		if err != nil {
			return nil, err
		}
		if q.Code == 0 {
			r.unread(q)
			return e, nil
		}
		if q.Code == 101 || e.Embedded != nil {
			e.Embedded = append(e.Embedded, q)
			continue
		}
		e.Pairs = append(e.Pairs, q)
	}
}

// Float is the value of a real-valued group.
func Float(p Pair) (float64, error) {
	v, err := strconv.ParseFloat(p.Value, 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return 0, &SyntaxError{p.Line + 1, fmt.Sprintf("group %d needs a finite number, got %q", p.Code, clip(p.Value))}
	}
	return v, nil
}

// Int is the value of an integer-valued group.
func Int(p Pair) (int, error) {
	v, err := strconv.Atoi(p.Value)
	if err != nil {
		return 0, &SyntaxError{p.Line + 1, fmt.Sprintf("group %d needs an integer, got %q", p.Code, clip(p.Value))}
	}
	return v, nil
}

// Anonymous reports whether the block is anonymous (a name starting with *, such as a
// dimension's or a hatch's block).
func (b *Block) Anonymous() bool { return strings.HasPrefix(b.Name, "*") }

// Xref reports whether the block refers to another file, whose geometry this file lacks.
func (b *Block) Xref() bool { return b.xrefOrFlag&4 != 0 }

// First is the entity's first group with the code.
func (e *Entity) First(code int) (Pair, bool) {
	for _, p := range e.Pairs {
		if p.Code == code {
			return p, true
		}
	}
	return Pair{}, false
}

// Str is the value of the first group with the code, or def.
func (e *Entity) Str(code int, def string) string {
	if p, ok := e.First(code); ok {
		return p.Value
	}
	return def
}

// Num is the number in the first group with the code, or def when there is none.
func (e *Entity) Num(code int, def float64) (float64, error) {
	if p, ok := e.First(code); ok {
		return Float(p)
	}
	return def, nil
}

// IntOr is the integer in the first group with the code, or def when there is none.
func (e *Entity) IntOr(code int, def int) (int, error) {
	if p, ok := e.First(code); ok {
		return Int(p)
	}
	return def, nil
}
