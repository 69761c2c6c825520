package modules

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestValidNameIsNameRule: validName accepts exactly what NameRule matches.
func TestValidNameIsNameRule(t *testing.T) {
	t.Parallel()
	rule := regexp.MustCompile(NameRule)
	names := []string{"", "a", "A", "0", "_a", "-a", "a_", "a-", "a.b", "a b", "a/b", "é", "aé",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), "a\n", "\na"}
	alphabet := "aZ09_-_-aZ.é/\x00"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(70))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		names = append(names, string(b))
	}
	for _, n := range names {
		if got, want := validName(n), rule.MatchString(n); got != want {
			t.Errorf("validName(%q) = %v; NameRule matches: %v", n, got, want)
		}
	}
}
