package importer

// The one place a drawing's format is chosen: every entry point (`cadrun import`, the import
// tool over MCP and the CLI runner) names the format, or lets Format find it, and reads the
// drawing through Import, so that a format added here reaches all of them.

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// ErrFormat is returned for a drawing in a format the importer does not read.
var ErrFormat = errors.New("unknown drawing format")

// formats are the formats Import reads, by name (the file extension without the dot).
var formats = []string{"dxf", "svg"}

// Format names the format of a drawing: format when given, else the extension of the file's
// name, else what data looks like (a DXF opens with a group code, an SVG with '<').
func Format(format, name string, data []byte) (string, error) {
	if format == "" {
		format = strings.TrimPrefix(path.Ext(name), ".")
	}
	if format == "" {
		return sniff(data), nil
	}
	format = strings.ToLower(format)
	if !slices.Contains(formats, format) {
		return "", fmt.Errorf("%w %q: import reads %s", ErrFormat, format, strings.Join(formats, " and "))
	}
	return format, nil
}

// sniff tells a drawing's format from its first bytes.
func sniff(data []byte) string {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(data, []byte("<")) {
		return "svg"
	}
	return "dxf"
}

// Import reads a drawing in format (as Format names it) and returns the module's source and
// the report.
func Import(format string, data []byte, opt Options) (string, *Report, error) {
	if err := precheck(format, data, opt); err != nil {
		return "", nil, err
	}
	switch format {
	case "dxf":
		return DXF(data, opt)
	case "svg":
		return SVG(data, opt)
	}
	return "", nil, fmt.Errorf("%w %q: import reads %s", ErrFormat, format, strings.Join(formats, " and "))
}

// precheck refuses what needs no reading: a gzip-compressed file, and one over its format's
// size limit. Pool.Import checks it before the bytes go to a worker, so that a file over the
// limit is refused at once rather than after 20 MiB have crossed the pipe.
func precheck(format string, data []byte, opt Options) error {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return fmt.Errorf("%w: the file is gzip-compressed (an .svgz?); decompress it and import the .svg", ErrRefused)
	}
	switch format {
	case "dxf":
		return dxf.CheckSize(len(data), opt.Limits)
	case "svg":
		return svg.CheckSize(len(data), opt.SVGLimits)
	}
	return nil
}
