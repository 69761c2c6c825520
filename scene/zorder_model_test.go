package scene_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/google/go-cmp/cmp"
)

// The scene keeps its sibling lists with holes where entities were deleted (see zlist.go).
// TestZOrderMatchesModel runs random interleavings of drawing, deleting, restacking, grouping
// and copying on a scene and on a plain model of the tree (dense lists of names, every
// operation done the obvious way), and after every step compares the scene's JSON with that
// of a scene built afresh from the model, so that no hole ever shows in an order, a z rank or
// the JSON.

// modelNode is an entity of the model: a shape (a Rect) or a group.
type modelNode struct {
	name   string
	shape  *scene.Rect // nil for a group
	parent *modelNode
	kids   []*modelNode
}

type model struct {
	roots  []*modelNode
	byName map[string]*modelNode
}

func (m *model) siblings(n *modelNode) *[]*modelNode {
	if n.parent == nil {
		return &m.roots
	}
	return &n.parent.kids
}

func (m *model) rank(n *modelNode) int { return slices.Index(*m.siblings(n), n) }

func (m *model) detach(n *modelNode) {
	list := m.siblings(n)
	*list = slices.Delete(*list, m.rank(n), m.rank(n)+1)
	n.parent = nil
}

func (m *model) attach(n, parent *modelNode, i int) {
	n.parent = parent
	list := m.siblings(n)
	*list = slices.Insert(*list, max(0, min(i, len(*list))), n)
}

func (m *model) forget(n *modelNode) {
	delete(m.byName, n.name)
	for _, k := range n.kids {
		m.forget(k)
	}
}

// path is n's z ranks from the top level down: the paint order of distinct entities.
func (m *model) path(n *modelNode) []int {
	var p []int
	for x := n; x != nil; x = x.parent {
		p = append(p, m.rank(x))
	}
	slices.Reverse(p)
	return p
}

// build draws the model into a new scene: each node is drawn (a group: its members, then
// the group made of them) on top of what came before, so the result has never seen a delete.
func (m *model) build(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	var draw func(n *modelNode)
	draw = func(n *modelNode) {
		if n.shape != nil {
			if _, err := s.Put(n.name, *n.shape); err != nil {
				t.Fatal(err)
			}
			return
		}
		members := []string{}
		for _, k := range n.kids {
			draw(k)
			members = append(members, k.name)
		}
		if _, err := s.CreateGroup(n.name, members); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range m.roots {
		draw(n)
	}
	return s
}

// any picks an entity of the model at random, or nil if there is none.
func (m *model) any(rng *rand.Rand) *modelNode {
	if len(m.byName) == 0 {
		return nil
	}
	names := make([]string, 0, len(m.byName))
	for name := range m.byName {
		names = append(names, name)
	}
	slices.Sort(names)
	return m.byName[names[rng.IntN(len(names))]]
}

func (m *model) anyGroup(rng *rand.Rand) *modelNode {
	for range 10 {
		if n := m.any(rng); n != nil && n.shape == nil {
			return n
		}
	}
	return nil
}

func TestZOrderMatchesModel(t *testing.T) {
	t.Parallel()
	for seed := range uint64(8) {
		t.Run(strconv.Itoa(int(seed)), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, 7))
			s := scene.New()
			m := &model{byName: map[string]*modelNode{}}
			// Scenes grow to about size entities, then shrink and grow again, so that runs
			// of deletes leave many holes before the lists are read.
			size := 20 + int(seed)*15
			next := 0
			for step := range 800 {
				op := do(t, rng, s, m, &next, size)
				want, err := m.build(t).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
					t.Fatalf("step %d, %s: scene JSON mismatch (-want +got):\n%s", step, op, diff)
				}
				if n := m.any(rng); n != nil {
					e, err := s.Get(n.name)
					if err != nil {
						t.Fatal(err)
					}
					if want, got := m.rank(n), s.ZRank(e); want != got {
						t.Fatalf("step %d, %s: ZRank(%q) = %d, want %d", step, op, n.name, got, want)
					}
				}
			}
		})
	}
}

// do applies one random operation to the scene and the model, and says what it was.
func do(t *testing.T, rng *rand.Rand, s *scene.Scene, m *model, next *int, size int) string {
	t.Helper()
	must := func(op string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return op
	}
	// Deleting is likelier when the scene is large: it swings between empty and full.
	if len(m.byName) > size || (len(m.byName) > size/2 && rng.IntN(3) == 0) {
		n := m.any(rng)
		op := fmt.Sprintf("Delete(%q)", n.name)
		m.detach(n)
		m.forget(n)
		return must(op, s.Delete(n.name))
	}
	switch k := rng.IntN(100); {
	case k < 40: // draw a new shape on top
		*next++
		n := &modelNode{name: "s" + strconv.Itoa(*next), shape: &scene.Rect{Width: float64(1 + rng.IntN(9)), Height: 1}}
		m.byName[n.name] = n
		m.attach(n, nil, len(m.roots))
		_, err := s.Put(n.name, *n.shape)
		return must(fmt.Sprintf("Put(%q)", n.name), err)
	case k < 45: // redraw a shape in place
		n := m.any(rng)
		if n == nil || n.shape == nil {
			return "nothing"
		}
		n.shape = &scene.Rect{Width: float64(1 + rng.IntN(9)), Height: 2}
		_, err := s.Put(n.name, *n.shape)
		return must(fmt.Sprintf("Put(%q) again", n.name), err)
	case k < 55:
		name := "missing" + strconv.Itoa(rng.IntN(3))
		if err := s.Delete(name); !errors.Is(err, scene.ErrNotFound) {
			t.Fatalf("Delete(%q) = %v, want ErrNotFound", name, err)
		}
		return fmt.Sprintf("Delete(%q)", name)
	case k < 75: // restack
		n := m.any(rng)
		if n == nil {
			return "nothing"
		}
		list := *m.siblings(n)
		from := m.rank(n)
		var mode string
		to := from
		switch rng.IntN(4) {
		case 0:
			mode, to = "front", len(list)-1
		case 1:
			mode, to = "back", 0
		case 2:
			d := rng.IntN(7) - 3
			mode, to = fmt.Sprintf("%+d", d), max(0, min(len(list)-1, from+d))
		default:
			other := list[rng.IntN(len(list))]
			above := rng.IntN(2) == 0
			mode = "below:" + other.name
			if above {
				mode = "above:" + other.name
			}
			if other == n {
				return must(fmt.Sprintf("DrawOrder(%q, %q)", n.name, mode), s.DrawOrder(n.name, mode))
			}
			to = m.rank(other)
			if to > from {
				to--
			}
			if above {
				to++
			}
		}
		parent := n.parent
		m.detach(n)
		m.attach(n, parent, to)
		return must(fmt.Sprintf("DrawOrder(%q, %q)", n.name, mode), s.DrawOrder(n.name, mode))
	case k < 83: // group some entities, whatever their places
		*next++
		g := &modelNode{name: "g" + strconv.Itoa(*next)}
		var members []*modelNode
		for range rng.IntN(5) {
			if n := m.any(rng); n != nil && !slices.Contains(members, n) {
				members = append(members, n)
			}
		}
		names := []string{}
		for _, n := range members {
			names = append(names, n.name)
		}
		paths := map[*modelNode][]int{}
		for _, n := range members {
			paths[n] = m.path(n)
		}
		slices.SortStableFunc(members, func(a, b *modelNode) int { return slices.Compare(paths[a], paths[b]) })
		m.byName[g.name] = g
		m.attach(g, nil, len(m.roots))
		for _, n := range members {
			m.detach(n)
			m.attach(n, g, len(g.kids))
		}
		_, err := s.CreateGroup(g.name, names)
		return must(fmt.Sprintf("CreateGroup(%q, %q)", g.name, names), err)
	case k < 88:
		g, n := m.anyGroup(rng), m.any(rng)
		if g == nil || n == nil {
			return "nothing"
		}
		for a := g; a != nil; a = a.parent {
			if a == n {
				return "nothing" // a cycle
			}
		}
		m.detach(n)
		m.attach(n, g, len(g.kids))
		return must(fmt.Sprintf("AddToGroup(%q, %q)", g.name, n.name), s.AddToGroup(g.name, n.name))
	case k < 92:
		g := m.anyGroup(rng)
		if g == nil || len(g.kids) == 0 {
			return "nothing"
		}
		n := g.kids[rng.IntN(len(g.kids))]
		m.detach(n)
		m.attach(n, g.parent, m.rank(g)+1)
		return must(fmt.Sprintf("RemoveFromGroup(%q, %q)", g.name, n.name), s.RemoveFromGroup(g.name, n.name))
	case k < 96:
		g := m.anyGroup(rng)
		if g == nil {
			return "nothing"
		}
		at := m.rank(g)
		for i, n := range slices.Clone(g.kids) {
			m.detach(n)
			m.attach(n, g.parent, at+1+i)
		}
		m.detach(g)
		delete(m.byName, g.name)
		return must(fmt.Sprintf("Ungroup(%q)", g.name), s.Ungroup(g.name))
	default:
		n := m.any(rng)
		if n == nil {
			return "nothing"
		}
		*next++
		name := "d" + strconv.Itoa(*next)
		var copyOf func(x *modelNode, name string) *modelNode
		copyOf = func(x *modelNode, name string) *modelNode {
			c := &modelNode{name: name, shape: x.shape}
			m.byName[name] = c
			for i, k := range x.kids {
				kc := copyOf(k, name+"_"+strconv.Itoa(i))
				kc.parent = c
				c.kids = append(c.kids, kc)
			}
			return c
		}
		c := copyOf(n, name)
		m.attach(c, n.parent, m.rank(n)+1)
		_, err := s.Duplicate(n.name, name)
		return must(fmt.Sprintf("Duplicate(%q, %q)", n.name, name), err)
	}
}
