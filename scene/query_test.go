package scene

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueries(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Center: Vec{1, 1}, Radius: 1})
	mustPut(t, s, "b", Rect{Width: 2, Height: 4})
	_, err := s.CreateGroup("g", []string{"a", "b"})
	must(t, err)
	must(t, s.Translate("g", Vec{10, 0}, SpaceWorld))

	d, err := s.Detail("a")
	must(t, err)
	got, err := json.Marshal(d)
	must(t, err)
	want := `{"name":"a","kind":"circle","parent":"g","zRank":0,"geometry":{"center":[1,1],"radius":1},` +
		`"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[1,1]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":1},` +
		`"localBounds":{"min":[0,0],"max":[2,2]},"worldBounds":{"min":[10,0],"max":[12,2]},"worldTransform":[1,0,0,1,10,0]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("detail mismatch (-want +got):\n%s", diff)
	}

	info, err := json.Marshal(s.Info())
	must(t, err)
	if diff := cmp.Diff(`{"entities":3,"shapes":2,"groups":1,"bounds":{"min":[9,-2],"max":[12,2]}}`, string(info)); diff != "" {
		t.Errorf("info mismatch (-want +got):\n%s", diff)
	}
	wantTree := []Node{{Name: "g", Kind: KindGroup, Children: []Node{{Name: "a", Kind: KindCircle}, {Name: "b", Kind: KindRect}}}}
	if diff := cmp.Diff(wantTree, s.Tree()); diff != "" {
		t.Errorf("tree mismatch (-want +got):\n%s", diff)
	}
	wantGroups := []GroupInfo{{Name: "g", Children: []string{"a", "b"}}}
	if diff := cmp.Diff(wantGroups, s.Groups()); diff != "" {
		t.Errorf("groups mismatch (-want +got):\n%s", diff)
	}
	if _, err := s.Detail("zz"); err == nil || err.Error() != `no such entity: "zz"` {
		t.Errorf("missing entity: got %v", err)
	}
	empty, _ := json.Marshal(New().Info())
	if string(empty) != `{"entities":0,"shapes":0,"groups":0,"bounds":null}` {
		t.Errorf("empty info = %s", empty)
	}
}

func TestSubset(t *testing.T) {
	s := New()
	for _, n := range []string{"a", "b", "c", "d"} {
		if _, err := s.Put(n, Circle{Radius: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGroup("g", []string{"b", "c"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGroup("outer", []string{"g"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("outer", Vec{X: 5}, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	names := func(s *Scene) []string {
		var out []string
		for d, e := range s.Walk() {
			out = append(out, fmt.Sprintf("%d:%s", d, e.Name))
		}
		return out
	}
	sub := s.Subset(func(e *Entity) bool { return e.Name == "c" || e.Name == "d" })
	if diff := cmp.Diff([]string{"0:a", "0:d", "0:outer", "1:g", "2:b", "2:c"}, names(s)); diff != "" {
		t.Errorf("the scene changed: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0:d", "0:outer", "1:g", "2:c"}, names(sub)); diff != "" {
		t.Errorf("subset mismatch (-want +got):\n%s", diff)
	}
	c, _ := sub.Get("c")
	orig, _ := s.Get("c")
	if diff := cmp.Diff(s.WorldBounds(orig), sub.WorldBounds(c)); diff != "" {
		t.Errorf("c moved: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0:outer", "1:g"}, names(s.Subset(func(e *Entity) bool { return e.Name == "g" }))); diff != "" {
		t.Errorf("a kept group alone: mismatch (-want +got):\n%s", diff)
	}
}
