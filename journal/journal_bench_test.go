package journal

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/benchtime"
)

// BenchmarkSave is one save: parse, insert, index.
func BenchmarkSave(b *testing.B) {
	j := openTemp(b)
	ctx := context.Background()
	params := []byte(`{"title":"Door width","text":"Doors are 900 mm wide so that a wheelchair passes","type":"decision","concepts":["door","access"],"facts":["900 mm"]}`)
	p := benchtime.New(b)
	for b.Loop() {
		start := time.Now()
		in, err := ParseSave(params, "house")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := j.Save(ctx, in, Link{Entry: 1}, time.Now()); err != nil {
			b.Fatal(err)
		}
		p.Add(start)
	}
	p.Report()
}

// BenchmarkSearch10k searches 10,000 entries of 40 words each, drawn from a vocabulary of
// 5,000 with a Zipf distribution as in prose: "query" is two words of middling frequency,
// "common-word" a word that is in a fifth of the entries (the worst case: every match is
// ranked), "recent" the listing with no query.
func BenchmarkSearch10k(b *testing.B) {
	j := openTemp(b)
	ctx := context.Background()
	tx, err := j.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(3, 4)), 1.1, 2, 4999)
	word := func() string { return fmt.Sprintf("w%d", zipf.Uint64()) }
	for i := range 10_000 {
		var title, text []string
		for range 4 {
			title = append(title, word())
		}
		for range 40 {
			text = append(text, word())
		}
		if i%5 == 0 {
			text = append(text, "clearance")
		}
		_, err := tx.Exec(`INSERT INTO entries (title, text, type, project, memory_session_id, visibility, created_at_epoch)
			VALUES (?, ?, 'decision', 'house', 's', 'project', ?)`, strings.Join(title, " "), strings.Join(text, " "), i+rng.IntN(3))
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		q    Query
	}{
		{"query", Query{Query: "w40 w41"}},
		{"query-filtered", Query{Query: "w40 w41", Type: "decision", Project: "house"}},
		{"common-word", Query{Query: "clearance"}},
		{"recent", Query{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := benchtime.New(b)
			defer p.Report()
			for b.Loop() {
				start := time.Now()
				q := bc.q
				q.Check()
				got, err := j.Search(ctx, &q)
				if err != nil || len(got) == 0 {
					b.Fatalf("%d entries, %v", len(got), err)
				}
				p.Add(start)
			}
		})
	}
}
