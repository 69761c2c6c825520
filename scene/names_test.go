package scene

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The name index against a Go map: random adds and removes over a few hundred names, so that
// the table grows, runs of slots wrap around its end and removals shift slots back; after
// every step each name is found exactly when the map has it.
func TestNameIndexMatchesMap(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var ix nameIndex
		if seed%2 == 1 {
			ix = newNameIndex(rng.IntN(50))
		}
		want := map[string]*Entity{}
		universe := 20 + rng.IntN(400)
		for step := range 3000 {
			name := "n" + strconv.Itoa(rng.IntN(universe))
			if _, ok := want[name]; ok && rng.IntN(2) == 0 {
				ix.remove(name)
				delete(want, name)
			} else if !ok {
				e := &Entity{Name: name}
				if rng.IntN(2) == 0 {
					ix.add(e)
				} else {
					got, at, h := ix.find(name)
					if got != nil {
						t.Fatalf("seed %d step %d: find(%q) = %p before it was added", seed, step, name, got)
					}
					ix.addAt(at, h, e)
				}
				want[name] = e
			}
			if ix.len() != len(want) {
				t.Fatalf("seed %d step %d: len %d, want %d", seed, step, ix.len(), len(want))
			}
			if step%100 != 0 {
				continue
			}
			for i := range universe {
				n := "n" + strconv.Itoa(i)
				e, ok := ix.get(n)
				if w, wok := want[n]; e != w || ok != wok {
					t.Fatalf("seed %d step %d: get(%q) = %p, %v; want %p, %v", seed, step, n, e, ok, w, wok)
				}
			}
			var got, names []string
			for e := range ix.all() {
				got = append(got, e.Name)
			}
			for n := range want {
				names = append(names, n)
			}
			slices.Sort(got)
			slices.Sort(names)
			if diff := cmp.Diff(names, got); diff != "" {
				t.Fatalf("seed %d step %d: all() mismatch (-want +got):\n%s", seed, step, diff)
			}
		}
	}
}

func TestSlotsFor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, want int }{{0, 8}, {1, 8}, {6, 8}, {7, 16}, {12, 16}, {13, 32}, {10000, 16384}, {12288, 16384}, {12289, 32768}} {
		got := slotsFor(c.n)
		if got != c.want {
			t.Errorf("slotsFor(%d) = %d, want %d", c.n, got, c.want)
		}
		if c.n*4 > got*3 {
			t.Errorf("slotsFor(%d) = %d holds them more than 3/4 full", c.n, got)
		}
	}
}
