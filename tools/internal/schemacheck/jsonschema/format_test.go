package jsonschema

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	oracle "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// formatCases are edge cases of every format the former validator knew, and of names it did
// not (which both ignore). The oracle judges each: no verdict is written here.
var formatCases = map[string][]string{
	"date-time": {"2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "0000-02-29T00:00:00Z",
		"1990-12-31T23:59:60Z", "1990-12-31T15:59:60-08:00", "1990-12-31T23:59:60+01:00", "2024-01-01T00:00:60+00:01", "2024-01-01T23:59:60-00:01",
		"2024-06-30T12:59:60+13:00", "1990-12-31t23:59:59z", "2024-01-01 12:00:00Z", "2024-01-01T12:00:00", "2024-01-01T24:00:00Z",
		"2024-01-01T12:60:00Z", "2024-01-01T12:00:61Z", "2024-01-01T12:00:00.Z", "2024-01-01T12:00:00.123456789+05:30", "2024-01-01T12:00:00,5Z",
		"2024-01-01T12:00:00+5:30", "2024-01-01T12:00:00+05:60", "2024-01-01T12:00:00+24:00", "2024-01-01T12:00:00+05-30", "2024-01-01T12:00:00 05:30",
		"2024-01-01T12:00:00+0530", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-1-01T00:00:00Z",
		"２０２４-01-01T00:00:00Z", "2024-01-01T-0:+0:-0Z", "2024-01-01T-1:00:00Z", "2024-01-01T00:00:00+-1:00", "2024-01-01T00:00:00+00:-5",
		"2024-01-01T0:00:000Z", "2024-01-01T:0:00:00Z", "2024-01-01T00::0:00Z", "2024-01-01T00:00::0Z", "2024-01-01T00:00:00+:0:00",
		"2024-01-01T00:00:00+0::00", "2024-01-01T00:00:00+00::0", "short", "", "2024-01-01T00:00:00.5", "2024-01-01T00:00:00é"},
	"date": {"2024-02-29", "2023-02-29", "2100-02-29", "2024-04-31", "2024-04-30", "2024-00-10", "2024-12-32", "2024-1-1", "2024-01-01x",
		"+2024-01-01", "24-01-01", "2024/01/01", "", "0000-01-01", "9999-12-31", "2024-01-00", "2024-01-1", "2024-1-01"},
	"time": {"23:59:60Z", "12:00:60Z", "23:59:60+00:00", "00:59:60+01:00", "12:00:00", "12:00:00z", "1:00:00Z", "12:00:00.5+01:00",
		"12:00:00+01:00:00", "12:00:00 +01:00", "24:00:00Z", "+1:+2:+3Z", "-0:-0:-0Z", "12:00:00.Z", "12:00:00+1:00", "12:00:00é",
		"12:00:00+01é00", "", "ab:cd:efZ", "12:00:00+ab:cd", "12:00:00+23:59", "23:59:60-23:59"},
	"duration": {"P1Y2M3DT4H5M6S", "P", "PT", "P1W", "PW", "P1.5W", "P1DT", "PT1H1M", "P1M1Y", "P1X", "PT1D", "P1DT1HT", "P1DTT1H",
		"P1", "1D", "P1YT1H1M1S1", "P1DT1H", "PéW", "P1é", "P1Y1Y", "PT1S1M", "P1D1W", "p1D", "P-1D", "PT36H", "P0D", "P1WT1H"},
	"period": {"2024-01-01T00:00:00Z/2024-02-01T00:00:00Z", "P1D/2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z/P1D", "P1D/P1D",
		"x/y", "2024-01-01T00:00:00Z", "Px/2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z/Px", "2024-01-01T00:00:00Z/2024", "/", "P1D/"},
	"email": {"a@b.c", "@b.c", "a@", "a", "a..b@c", ".a@c", "a.@c", `"a b"@c`, `"a\b"@c`, `"a"b"@c`, `"@c`, "a@[1.2.3.4]", "a@[IPv6:::1]",
		"a@[IPv6:1.2.3.4]", "a@[300.1.1.1]", "a@[IPv6:fe80::1%en0]", "a@[]", "ä@b.c", "a@b_c", strings.Repeat("a", 65) + "@b.c",
		strings.Repeat("a", 64) + "@" + strings.Repeat("b.", 95) + "c", "a@-b.c", "a@b.c.", "a b@c", "a@b@c", "!#$%&'*+-/=?^_`{|}~@x"},
	"hostname": {"example.com", "example.com.", "-a.com", "a-.com", "a..b", "", ".", "a_b", strings.Repeat("a", 63) + ".com",
		strings.Repeat("a", 64) + ".com", strings.Repeat("a.", 126) + "ab", strings.Repeat("a.", 127), "xn--bcher-kva.example", "ä.com", "A-1.B-2"},
	"ipv4": {"1.2.3.4", "0.0.0.0", "255.255.255.255", "01.2.3.4", "256.1.1.1", "1.2.3", "1.2.3.4.5", "+1.2.3.4", "-0.1.2.3", "a.b.c.d",
		"1..2.3", "99999999999999999999.1.1.1", "1.2.3.-1", " 1.2.3.4", "1.2.3.4 ", "", "1.2.3.٤"},
	"ipv6": {"::1", "::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "::ffff:1.2.3.4", "1.2.3.4", "g::1", "1::2::3",
		"12345::1", "[::1]", ":::", "1:2:3:4:5:6:1.2.3.4", "::1.2.3", "", "%eth0", "1.2.3.4:5"},
	"uri": {"http://example.com/a?b#c", "mailto:a@b", "/relative", "http://[::1]:80/", "http://::1/", "http://[fe80::1%25en0]/",
		"http://a b/", "http://x:port/", "%zz", "http://[1:2]/", ":nohost", "http://a:b:80/", "urn:isbn:0451450523", "", "http://[::1/",
		`http://a\b/`, "http://例え.jp/"},
	"iri":           {"http://例え.jp/", "ü", "http://[::1]/"},
	"uri-reference": {"/a/b", `a\b`, "#frag", "", "http://[::1", "%", "a%20b", "http://[::1]:8080/x", "//host/p", "http://a:b:80/"},
	"iri-reference": {"ü/ä", `a\b`, "http:// x"},
	"uri-template": {"http://example.com/{id}", "http://example.com/{id", "/{a{b}}", "/}a{", "/{a}/{b}", "{x}", "http://e.com/%7Bx%7D",
		"/a%2", "/{a}{b}", "/{}", "/a}", "http://e.com/{a/b}", "http://e.com/x?{q}", "http://[::1"},
	"uuid": {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000",
		"123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-42661417400g", "g23e4567-e89b-12d3-a456-426614174000",
		"123é567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000-", "", "-", "----"},
	"json-pointer":          {"", "/", "/a~0b~1c", "a", "/~", "/~2", "/a/~", "//", "/é", "~0", "/a~", "/~01"},
	"relative-json-pointer": {"0", "1/a", "0#", "01", "", "#", "1~", "2/~x", "10/a~1", "1#/a", "00", "1#x", "1a"},
	"regex":                 {"^a+$", "(", "[a-", `\p{Greek}`, "(?<name>x)", "a{2,1}", `\1`, "(?=x)", "", "a**", `\`},
	"semver": {"1.2.3", "1.2.3-alpha.1+build.5", "01.2.3", "1.02.3", "1.2.03", "1.2", "1.2.3.4", "1.2.3-", "1.2.3+", "1.2.3-01",
		"1.2.3-0a", "1.2.3-0", "1.2.3-a..b", "1.2.3+a..b", "1.2.3-a_b", "1.2.3+ü", ".2.3", "1..3", "1.2.", "1.x.3", "1.2.3-rc+", "v1.2.3",
		"1.2.3+build-1.0-x", "1.2.3-beta+exp.sha.5114f85", ""},
	// Names the former validator did not know: ignored.
	"idn-email":    {"not an email"},
	"idn-hostname": {"-"},
	"color":        {"nope"},
}

// TestFormatsAgreeWithOracle: for every case of every format, in draft-07 (where the former
// validator asserted formats), this validator's answer is the oracle's, message for message.
func TestFormatsAgreeWithOracle(t *testing.T) {
	t.Parallel()
	for name, cases := range formatCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			docs := map[string]string{"s.json": `{"$schema":"http://json-schema.org/draft-07/schema#","format":` + jsonString(name) + `}`}
			for _, s := range cases {
				inst := jsonString(s)
				want := askOracle(t, docs, "s.json", inst)
				got, err := askMine(t, docs, "s.json", inst)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.leaves, got.leaves); diff != "" {
					t.Errorf("%s: mismatch (-oracle +here):\n%s", inst, diff)
				}
			}
		})
	}
}

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// fuzzFormats are the names FuzzFormats picks from, by a byte.
var fuzzFormats = []string{"date-time", "date", "time", "duration", "period", "email", "hostname", "ipv4", "ipv6", "uri", "iri",
	"uri-reference", "iri-reference", "uri-template", "uuid", "json-pointer", "relative-json-pointer", "regex", "semver", "idn-email"}

// FuzzFormats: for any string, each format's check here answers as the oracle's: whether the
// string is of the format, and the message when it is not.
func FuzzFormats(f *testing.F) {
	for name, cases := range formatCases {
		for i, n := range fuzzFormats {
			if n == name {
				for _, s := range cases {
					f.Add(uint8(i), s)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, pick uint8, s string) {
		if !utf8.ValidString(s) { // a decoded JSON string is valid UTF-8
			return
		}
		name := fuzzFormats[int(pick)%len(fuzzFormats)]
		want := oracleFormat(t, name, s)
		var got string
		if check := formatCheck(name); check != nil {
			if why := check(s); why != "" {
				got = msgFormat(s, name, why)
			}
		}
		if got != want {
			t.Fatalf("format %s, %q:\noracle: %s\nhere:   %s", name, s, want, got)
		}
	})
}

var oracleFormats = struct {
	sync.Mutex
	m map[string]*oracle.Schema
}{m: map[string]*oracle.Schema{}}

// oracleFormat is the oracle's message for s against a draft-07 schema of one format, "" when
// s is of it.
func oracleFormat(t *testing.T, name, s string) string {
	t.Helper()
	oracleFormats.Lock()
	sch, ok := oracleFormats.m[name]
	if !ok {
		c := oracle.NewCompiler()
		docs := oracleLoader{"f.json": `{"$schema":"http://json-schema.org/draft-07/schema#","format":` + jsonString(name) + `}`}
		c.UseLoader(docs)
		var err error
		if sch, err = c.Compile(base + "f.json"); err != nil {
			oracleFormats.Unlock()
			t.Fatal(err)
		}
		oracleFormats.m[name] = sch
	}
	oracleFormats.Unlock()
	err := sch.Validate(s)
	if err == nil {
		return ""
	}
	var ve *oracle.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("oracle: %v", err)
	}
	for len(ve.Causes) == 1 {
		ve = ve.Causes[0]
	}
	if len(ve.Causes) != 0 {
		t.Fatalf("oracle: more than one error: %v", err)
	}
	return ve.ErrorKind.LocalizedString(message.NewPrinter(language.English))
}
