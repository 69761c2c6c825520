package drafting

import "testing"

func TestFormatDimValue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{{12.5, 2, "12.5"}, {40, 2, "40"}, {12.345, 2, "12.35"}, {0.0001, 2, "0"}, {-0.0001, 2, "0"}, {3.14159, 0, "3"}, {1234.5678, 3, "1234.568"}} {
		if got := FormatDimValue(c.v, c.prec); got != c.want {
			t.Errorf("FormatDimValue(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}
