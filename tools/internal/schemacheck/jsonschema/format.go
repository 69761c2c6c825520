package jsonschema

// Formats, asserted where the former validator asserted them: in draft-07 and older. In
// 2019-09 and 2020-12 it took format as an annotation unless a custom meta-schema's
// $vocabulary asked for assertion, and this validator reads no custom meta-schema, so there
// format is an annotation here too. A name the former validator did not know (idn-email,
// idn-hostname, ...) is ignored, as it was.
//
// Each check is a plain function answering why a string is not of its format, "" when it is,
// in the former validator's words, which the tests compare. Where those words were a standard
// library parser's error (a date's, an IP address's, a URL's, a number's, a regular
// expression's), that parser gives them. The checks follow the former validator's verdicts
// where they stray from the RFCs (an email's local part may be empty; a time's leap second
// is :60 at 23:59 UTC, after the offset is applied, on any date), because an answer that
// changed with the validator would break data files that passed before.

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// formatCheck is the check of a format the former validator knew, nil for any other name.
func formatCheck(name string) func(string) string {
	switch name {
	case "date-time":
		return checkDateTime
	case "date":
		return checkDate
	case "time":
		return checkTime
	case "duration":
		return checkDuration
	case "period":
		return checkPeriod
	case "email":
		return checkEmail
	case "hostname":
		return checkHostname
	case "ipv4":
		return checkIPv4
	case "ipv6":
		return checkIPv6
	case "uri", "iri":
		return checkURI
	case "uri-reference", "iri-reference":
		return checkURIReference
	case "uri-template":
		return checkURITemplate
	case "uuid":
		return checkUUID
	case "json-pointer":
		return checkJSONPointer
	case "relative-json-pointer":
		return checkRelativeJSONPointer
	case "regex":
		return checkRegex
	case "semver":
		return checkSemver
	}
	return nil
}

// msgFormat is a format's failure: the string, the format and why.
func msgFormat(s, name, why string) string {
	return quote(s) + " is not valid " + name + ": " + why
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// leadingDigits is the count of ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// quoteRune is a character as the former validator's messages show it (Go's %q).
func quoteRune(r rune) string { return strconv.QuoteRune(r) }

// RFC 3339 dates and times.

// checkDate: YYYY-MM-DD, a day of the month in the proleptic Gregorian calendar. A date that
// is not one is answered in the words of Go's time.Parse, which the former validator used.
func checkDate(s string) string {
	if isDate(s) {
		return ""
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return err.Error()
	}
	return "not a date YYYY-MM-DD" // not reached: time.Parse refuses what isDate refuses
}

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return false
		}
	}
	num := func(i, j int) int {
		n := 0
		for ; i < j; i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	y, m, d := num(0, 4), num(5, 7), num(8, 10)
	return 1 <= m && m <= 12 && 1 <= d && d <= daysIn(m, y)
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// field2 reads a two-character field of a time as the former validator did, by
// strconv.Atoi: two digits, or a sign and one digit ("-0" is 0). ok is false for anything
// else; a negative n is a field with a minus.
func field2(t string) (n int, ok bool) {
	if len(t) != 2 || !isDigit(t[1]) {
		return 0, false
	}
	d := int(t[1] - '0')
	switch {
	case isDigit(t[0]):
		return int(t[0]-'0')*10 + d, true
	case t[0] == '+':
		return d, true
	case t[0] == '-':
		return -d, true
	}
	return 0, false
}

// checkTime: hh:mm:ss, an optional fraction, and Z or an offset ±hh:mm. A second of 60 is a
// leap second only at 23:59 in UTC, the offset applied.
func checkTime(s string) string {
	if len(s) < 9 {
		return "less than 9 characters long"
	}
	if s[2] != ':' || s[5] != ':' {
		return "missing colon in correct place"
	}
	var hms [3]int
	for i := range hms {
		n, ok := field2(s[3*i : 3*i+2])
		if !ok {
			return "invalid hour/min/sec"
		}
		if n < 0 {
			return "non-positive hour/min/sec"
		}
		hms[i] = n
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return "hour/min/sec out of range"
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := leadingDigits(frac)
		if n == 0 {
			return "no digits in second fraction"
		}
		rest = frac[n:]
	}
	if rest != "z" && rest != "Z" {
		if len(rest) != 6 {
			return "offset must be 6 characters long"
		}
		var toUTC int // +hh:mm is ahead of UTC: subtract it
		switch rest[0] {
		case '+':
			toUTC = -1
		case '-':
			toUTC = 1
		default:
			return "offset must begin with plus/minus"
		}
		if rest[3] != ':' {
			return "missing colon in offset in correct place"
		}
		var off [2]int
		for i := range off {
			n, ok := field2(rest[1+3*i : 3+3*i])
			if !ok {
				return "invalid hour/min in offset"
			}
			if n < 0 {
				return "non-positive hour/min in offset"
			}
			off[i] = n
		}
		if off[0] > 23 || off[1] > 59 {
			return "hour/min in offset out of range"
		}
		// Minutes of the day in UTC; a time past midnight UTC is left past 24:00, as the
		// former validator left it, so that 23:59:60-01:00 is no leap second.
		minutes := h*60 + m + toUTC*(off[0]*60+off[1])
		if minutes < 0 {
			minutes += 24 * 60
		}
		h, m = minutes/60, minutes%60
	}
	if sec == 60 && (h != 23 || m != 59) {
		return "invalid leap second"
	}
	return ""
}

// checkDateTime: a date, T (or t), and a time.
func checkDateTime(s string) string {
	if len(s) < 20 {
		return "less than 20 characters long"
	}
	if s[10] != 'T' && s[10] != 't' {
		return "11th character must be t or T"
	}
	if why := checkDate(s[:10]); why != "" {
		return "invalid date element: " + why
	}
	if why := checkTime(s[11:]); why != "" {
		return "invalid time element: " + why
	}
	return ""
}

// checkDuration: P and either weeks (nW) or date units Y, M, D then T and time units H, M,
// S, each at most once and in that order, each after a whole number.
func checkDuration(s string) string {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok {
		return "must start with P"
	}
	if rest == "" {
		return "nothing after P"
	}
	if weeks, ok := strings.CutSuffix(rest, "W"); ok {
		if weeks == "" {
			return "no number in week"
		}
		if leadingDigits(weeks) != len(weeks) {
			return "invalid week"
		}
		return ""
	}
	for i, allUnits := 0, [2]string{"YMD", "HMS"}; ; i++ {
		part, more, found := strings.Cut(rest, "T")
		if i > 0 && part == "" {
			return "no time elements"
		}
		if i > 1 {
			return "more than one T"
		}
		units := allUnits[i]
		for part != "" {
			n := leadingDigits(part)
			if n == 0 {
				return "missing number"
			}
			if part = part[n:]; part == "" {
				return "missing unit"
			}
			u := part[0]
			j := strings.IndexByte(units, u)
			if j < 0 {
				if strings.IndexByte(allUnits[i], u) >= 0 {
					return "unit " + quoteRune(rune(u)) + " out of order"
				}
				return "invalid unit " + quoteRune(rune(u))
			}
			units, part = units[j+1:], part[1:]
		}
		if !found {
			return ""
		}
		rest = more
	}
}

// checkPeriod: two date-times, or a duration and a date-time either way round, split by /.
func checkPeriod(s string) string {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return "missing slash"
	}
	if strings.HasPrefix(start, "P") {
		if why := checkDuration(start); why != "" {
			return "invalid start duration: " + why
		}
		if why := checkDateTime(end); why != "" {
			return "invalid end date-time: " + why
		}
		return ""
	}
	if why := checkDateTime(start); why != "" {
		return "invalid start date-time: " + why
	}
	if strings.HasPrefix(end, "P") {
		if why := checkDuration(end); why != "" {
			return "invalid end duration: " + why
		}
	} else if why := checkDateTime(end); why != "" {
		return "invalid end date-time: " + why
	}
	return ""
}

// Internet names and addresses.

// checkEmail: a local part (plain, of letters, digits and !#$%&'*+-/=?^_`{|}~ between single
// dots; or quoted, with neither \ nor " inside), @, and a hostname or a bracketed IP address.
func checkEmail(s string) string {
	if len(s) > 254 {
		return "more than 255 characters long" // sic: the former validator's words
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return "missing @"
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return "local part more than 64 characters long"
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return "backslash and quote are not allowed within quoted local part"
		}
	} else {
		switch {
		case strings.HasPrefix(local, "."):
			return "starts with dot"
		case strings.HasSuffix(local, "."):
			return "ends with dot"
		case strings.Contains(local, ".."):
			return "consecutive dots"
		}
		for _, r := range local {
			if !isAlnum(r) && !strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r) {
				return "invalid character " + quoteRune(r)
			}
		}
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		ip := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(ip, "IPv6:"); ok {
			if why := checkIPv6(v6); why != "" {
				return "invalid ipv6 address: " + why
			}
			return ""
		}
		if why := checkIPv4(ip); why != "" {
			return "invalid ipv4 address: " + why
		}
		return ""
	}
	if why := checkHostname(domain); why != "" {
		return "invalid domain: " + why
	}
	return ""
}

// checkHostname: at most 253 bytes (a final dot aside) of labels of 1 to 63 ASCII letters,
// digits and hyphens, neither starting nor ending with a hyphen.
func checkHostname(s string) string {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return "more than 253 characters long"
	}
	for label := range strings.SplitSeq(s, ".") {
		switch {
		case len(label) < 1 || len(label) > 63:
			return "label must be 1 to 63 characters long"
		case label[0] == '-':
			return "label starts with hyphen"
		case label[len(label)-1] == '-':
			return "label ends with hyphen"
		}
		for _, r := range label {
			if !isAlnum(r) && r != '-' {
				return "invalid character " + quoteRune(r)
			}
		}
	}
	return ""
}

// checkIPv4: four decimals from 0 to 255 without leading zeros. Each is read by
// strconv.Atoi, whose words a decimal that is none is answered in (and which takes a sign:
// "+1" is 1, as it was).
func checkIPv4(s string) string {
	if strings.Count(s, ".") != 3 {
		return "expected four decimals"
	}
	for part := range strings.SplitSeq(s, ".") {
		if len(part) > 1 && part[0] == '0' {
			return "leading zeros"
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return err.Error()
		}
		if n < 0 || n > 255 {
			return "decimal must be between 0 and 255"
		}
	}
	return ""
}

// checkIPv6: an address netip reads as IPv6 or IPv4-mapped (a colon in it), without a zone.
func checkIPv6(s string) string {
	if !strings.Contains(s, ":") {
		return "missing colon"
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return err.Error()
	}
	if a.Zone() != "" {
		return "zone id is not a part of ipv6 address"
	}
	return ""
}

// URIs. net/url reads them, and answers in its words; a host with a colon must be a
// bracketed IPv6 address, which net/url does not check.

func parseURL(s string) (*url.URL, string) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err.Error()
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, "ipv6 address not enclosed in brackets"
		}
		if why := checkIPv6(host); why != "" {
			return nil, "invalid ipv6 address: " + why
		}
	}
	return u, ""
}

func checkURI(s string) string {
	u, why := parseURL(s)
	if why != "" {
		return why
	}
	if !u.IsAbs() {
		return "relative url"
	}
	return ""
}

func checkURIReference(s string) string {
	if strings.Contains(s, `\`) {
		return `contains \`
	}
	_, why := parseURL(s)
	return why
}

// checkURITemplate: a URI whose path, where net/url keeps it as written, holds braces in
// pairs, not nested, within each segment.
func checkURITemplate(s string) string {
	u, why := parseURL(s)
	if why != "" {
		return why
	}
	for seg := range strings.SplitSeq(u.RawPath, "/") {
		seg, err := url.PathUnescape(seg)
		if err != nil {
			return "percent decode failed: " + err.Error()
		}
		open := false
		for i := 0; i < len(seg); i++ {
			switch seg[i] {
			case '{':
				if open {
					return "nested curly braces"
				}
				open = true
			case '}':
				if !open {
					return "nested curly braces" // sic: a } before its {
				}
				open = false
			}
		}
		if open {
			return "no matching closing brace"
		}
	}
	return ""
}

// Identifiers.

// checkUUID: five groups of 8, 4, 4, 4 and 12 hexadecimal digits, split by hyphens.
func checkUUID(s string) string {
	if strings.Count(s, "-") != 4 {
		return "must have 5 elements"
	}
	i := 0
	for group := range strings.SplitSeq(s, "-") {
		want := [...]int{8, 4, 4, 4, 12}[i]
		i++
		if len(group) != want {
			return fmt.Sprintf("element %d must be %d characters long", i, want)
		}
		for _, r := range group {
			if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
				return "non-hex character " + quoteRune(r)
			}
		}
	}
	return ""
}

// checkJSONPointer: empty, or / and tokens in which ~ is followed by 0 or 1.
func checkJSONPointer(s string) string {
	if s == "" {
		return ""
	}
	if s[0] != '/' {
		return "not starting with /"
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || s[i+1] != '0' && s[i+1] != '1') {
			return "~ must be followed by 0 or 1"
		}
	}
	return ""
}

// checkRelativeJSONPointer: a whole number without leading zeros, then # or a JSON pointer.
func checkRelativeJSONPointer(s string) string {
	n := leadingDigits(s)
	if n == 0 {
		return "must start with non-negative integer"
	}
	if n > 1 && s[0] == '0' {
		return "starts with zero"
	}
	if rest := s[n:]; rest != "#" {
		return checkJSONPointer(rest)
	}
	return ""
}

// checkRegex: a regular expression Go's regexp compiles, as pattern is read.
func checkRegex(s string) string {
	if _, err := regexp.Compile(s); err != nil {
		return err.Error()
	}
	return ""
}

// checkSemver: major.minor.patch (whole numbers without leading zeros), then an optional
// pre-release (-) and build (+), each dot-separated identifiers of letters, digits and
// hyphens, a numeric pre-release identifier without leading zeros.
func checkSemver(s string) string {
	if core, build, ok := strings.Cut(s, "+"); ok {
		if build == "" {
			return "build is empty"
		}
		for id := range strings.SplitSeq(build, ".") {
			if id == "" {
				return "build identifier is empty"
			}
			for _, r := range id {
				if !isAlnum(r) && r != '-' {
					return "invalid character " + quoteRune(r) + " in build identifier"
				}
			}
		}
		s = core
	}
	if core, pre, ok := strings.Cut(s, "-"); ok {
		for id := range strings.SplitSeq(pre, ".") {
			if id == "" {
				return "pre-release identifier is empty"
			}
			for _, r := range id {
				if !isAlnum(r) && r != '-' {
					return "invalid character " + quoteRune(r) + " in pre-release identifier"
				}
			}
			if len(id) > 1 && id[0] == '0' && leadingDigits(id) == len(id) {
				return "pre-release numeric identifier starts with zero"
			}
		}
		s = core
	}
	if strings.Count(s, ".") != 2 {
		return "versionCore must have 3 numbers separated by dot"
	}
	i := 0
	for n := range strings.SplitSeq(s, ".") {
		name := [...]string{"major", "minor", "patch"}[i]
		i++
		switch {
		case n == "":
			return name + " is empty"
		case len(n) > 1 && n[0] == '0':
			return name + " starts with zero"
		case leadingDigits(n) != len(n):
			return name + " contains non-digit"
		}
	}
	return ""
}
