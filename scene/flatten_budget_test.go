package scene

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestMeasurePointBudget measures a group whose members' outlines together pass the
// measure's point budget: refused naming MaxMeasurePoints, counted before the points are
// made; within the budget the group is measured.
func TestMeasurePointBudget(t *testing.T) {
	t.Parallel()
	s := New()
	var names []string
	for i := range 4 {
		name := fmt.Sprintf("w%d", i)
		mustPut(t, s, name, &PathShape{Data: "M 0 0" + strings.Repeat(" c 0 350 0 -350 0 0", 100)})
		names = append(names, name)
	}
	if _, err := s.CreateGroup("g", names); err != nil {
		t.Fatal(err)
	}
	e, err := s.Get("g")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		max int
		ok  bool
	}{{1_000_000, true}, {50_000, false}} {
		err := s.measureInto(e, s.WorldMatrix(e), &measured{maxPoints: c.max})
		switch {
		case c.ok && err != nil:
			t.Errorf("budget %d: %v", c.max, err)
		case !c.ok && (!errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "(MaxMeasurePoints)")):
			t.Errorf("budget %d: err = %v, want ErrLimit naming MaxMeasurePoints", c.max, err)
		}
	}
}
