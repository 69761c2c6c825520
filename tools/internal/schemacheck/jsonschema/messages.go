package jsonschema

// The messages, in the words cadrun's answers have used since its first validator: agents
// and tests read them, so each is that validator's wording, numbers included (an integer
// with thousands separators, "1,234"; a bound as the float it is nearest, in the shortest
// form, its exponent written 1.5×10²¹).

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

func msgFalse() string { return "false schema" }

func msgRefCycle(url, kw1, kw2 string) string {
	return fmt.Sprintf("both %s and %s resolve to %q causing reference cycle", kw1, kw2, url)
}

func msgType(got, want int) string {
	var names []string
	for i, n := range typeNames {
		if want&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return "got " + typeNames[bitIndex(got)] + ", want " + strings.Join(names, " or ")
}

func bitIndex(t int) int {
	for i := range typeNames {
		if t == 1<<i {
			return i
		}
	}
	return 0
}

func msgConst(want any) string {
	switch want.(type) {
	case []any, map[string]any:
		return "'const' failed"
	}
	return "value must be " + display(want)
}

func msgEnum(want []any) string {
	for _, w := range want {
		switch w.(type) {
		case []any, map[string]any:
			return "'enum' failed"
		}
	}
	if len(want) == 1 {
		return "value must be " + display(want[0])
	}
	shown := make([]string, len(want))
	for i, w := range want {
		shown[i] = display(w)
	}
	return "value must be one of " + strings.Join(shown, ", ")
}

// msgCount is the message of a count's bound: minLength, maxItems, ...
func msgCount(kw string, got, want int) string {
	return kw + ": got " + fmtInt(got) + ", want " + fmtInt(want)
}

func msgRequired(missing []string) string {
	if len(missing) == 1 {
		return "missing property " + quote(missing[0])
	}
	return "missing properties " + joinQuoted(missing)
}

func msgDependent(prop string, missing []string) string {
	return "properties " + joinQuoted(missing) + " required, if " + quote(prop) + " exists"
}

func msgAdditional(names []string) string {
	return "additional properties " + joinQuoted(names) + " not allowed"
}

func msgUnique(i, j int) string {
	return "items at " + fmtInt(i) + " and " + fmtInt(j) + " are equal"
}

func msgAdditionalItems(n int) string {
	return "last " + fmtInt(n) + " additionalItem(s) not allowed"
}

func msgMinContains(want int, got []int) string {
	if len(got) == 0 {
		return "min " + fmtInt(want) + " items required to match contains schema, but none matched"
	}
	return "min " + fmtInt(want) + " items required to match contains schema, but matched " + fmtInt(len(got)) + " items at " + indexes(got)
}

func msgMaxContains(want int, got []int) string {
	return "max " + fmtInt(want) + " items required to match contains schema, but matched " + fmtInt(len(got)) + " items at " + indexes(got)
}

// indexes lists item indexes as Go's %v of a slice does, without the brackets.
func indexes(ix []int) string {
	s := make([]string, len(ix))
	for i, n := range ix {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// msgBound is a numeric keyword's message: both numbers as the floats nearest them.
func msgBound(kw string, got, want *big.Rat) string {
	g, _ := got.Float64()
	w, _ := want.Float64()
	return kw + ": got " + fmtFloat(g) + ", want " + fmtFloat(w)
}

// quote single-quotes s, escaped as Go quotes a string but for the double quote.
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

func joinQuoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, ", ")
}

// display shows a JSON scalar: a string quoted, a number as written, null as <nil>.
func display(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case json.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "<nil>"
	}
	return "value"
}

// fmtInt writes n with a comma between each three digits.
func fmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s = group(s)
	if neg {
		return "-" + s
	}
	return s
}

func group(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var sb strings.Builder
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	sb.WriteString(digits[:first])
	for i := first; i < len(digits); i += 3 {
		sb.WriteByte(',')
		sb.WriteString(digits[i : i+3])
	}
	return sb.String()
}

var superscripts = [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

// fmtFloat writes f in its shortest form, its integer part grouped by thousands, and an
// exponent (past 10⁶ or below 10⁻⁴) as ×10 and a superscript of at least two digits.
func fmtFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	case math.IsNaN(f):
		return "NaN"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	whole, frac, hasFrac := strings.Cut(mant, ".")
	out := group(whole)
	if hasFrac {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	if !hasExp {
		return out
	}
	var sb strings.Builder
	sb.WriteString(out)
	sb.WriteString("×10")
	if exp[0] == '-' {
		sb.WriteString("⁻")
	}
	for _, d := range exp[1:] {
		sb.WriteString(superscripts[d-'0'])
	}
	return sb.String()
}
