package cadruntest

// JUnit XML, the report format CI systems read (GitHub Actions through test-reporter
// actions, GitLab, Jenkins). One <testsuite> per workspace, one <testcase> per result; a
// failure's first line is its message attribute and the whole text its body.

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cadrun/cadrun/modules"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes results as JUnit XML: a suite per workspace, in the order given.
func WriteJUnit(w io.Writer, results []Result) error {
	doc := junitSuites{Name: "cadrun test"}
	var total time.Duration
	index := map[string]int{}
	for _, r := range results {
		i, ok := index[r.Workspace]
		if !ok {
			i = len(doc.Suites)
			index[r.Workspace] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: r.Workspace})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: r.Name, Classname: r.Workspace, Time: secs(r.Duration)}
		switch r.Status {
		case StatusFail:
			first, _, _ := strings.Cut(r.Message, "\n")
			c.Failure = &junitFailure{Message: first, Type: "cadrun.test", Body: r.Message}
			s.Failures++
			doc.Failures++
		case StatusNew:
			c.SystemOut = "new snapshot written"
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
		doc.Tests++
		total += r.Duration
	}
	for i := range doc.Suites {
		var d time.Duration
		for _, r := range results {
			if r.Workspace == doc.Suites[i].Name {
				d += r.Duration
			}
		}
		doc.Suites[i].Time = secs(d)
	}
	doc.Time = secs(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// secs is a duration in seconds with millisecond precision, as JUnit's time attribute has it.
func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// ReplaceFile writes data to path through the one writer of output files (modules.Place): a
// temp file in the folder, held, renamed over the file, so that a link planted at path by the
// repository under test (report.xml -> ~/.bashrc) is replaced by the file, never written
// through, a folder swapped for a link meanwhile does not lead it elsewhere, and a reader never
// sees half a report. cadrun test writes its JUnit report and its difference pictures this way.
func ReplaceFile(path string, data []byte) error {
	p, err := modules.HoldFolder(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer p.Close()
	return p.Replace(filepath.Base(path), data, 0o644, false)
}
