package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/tools"
)

// TestViewerServesTheJournal: the viewer's server of `cadrun watch -serve` and of `cadrun mcp
// -serve` answers the journal's POST /api/save and GET /api/search, behind the viewer's token
// and origin checks, with 400 naming the field for bad input; an entry saved there is found
// by the CLI, another process on the same database.
func TestViewerServesTheJournal(t *testing.T) {
	t.Parallel()
	bin := buildCadrun(t)
	const token = "viewer-s3cret"
	for _, command := range []string{"watch", "mcp"} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			ws := filepath.Join(t.TempDir(), "ws")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte("drawCircle('c', 0, 0, 1)\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, command, "-workspace", ws, "-serve", "127.0.0.1:0", "-token", token)
			stdin, err := cmd.StdinPipe() // mcp serves stdio until its stdin ends
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cmd.Process.Kill()
				cmd.Wait()
			}()
			base := viewerURL(t, stderr, "cadrun "+command+" -serve")
			do := func(method, path, body, tok, origin string) (int, string) {
				t.Helper()
				req, err := http.NewRequest(method, base+path, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if tok != "" {
					req.Header.Set("Authorization", "Bearer "+tok)
				}
				if origin != "" {
					req.Header.Set("Origin", origin)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, strings.TrimSpace(string(b))
			}

			code, body := do("POST", "/api/save", `{"title":"Wheel","text":"The wheel is 2 wide so that it fits the frame","concepts":["wheel"]}`, token, base)
			if code != 200 || !strings.HasPrefix(body, `{"id":1,`) {
				t.Fatalf("POST /api/save: %d %s", code, body)
			}
			code, body = do("GET", "/api/search?query=frame", "", token, "")
			var found tools.SearchOut
			if err := json.Unmarshal([]byte(body), &found); code != 200 || err != nil || len(found.Entries) != 1 {
				t.Fatalf("GET /api/search: %d %s (%v)", code, body, err)
			}
			if e := found.Entries[0]; e.ID != 1 || e.Title != "Wheel" || e.HistoryEntry == 0 {
				t.Errorf("GET /api/search found %+v; want entry 1, linked to a history entry", e)
			}
			for _, tc := range []struct {
				method, path, body, token, origin string
				code                              int
				want                              string
			}{
				{"POST", "/api/save", `{"text":"x"}`, token, "", 400, `{"error":"bad input: save: title is required: give the observation a short title"}`},
				{"POST", "/api/save", `{"title":"t","text":"x","visibility":"everyone"}`, token, "", 400, `{"error":"bad input: save: visibility \"everyone\" is not one of private, department, project, public"}`},
				{"GET", "/api/search?since=yesterday", "", token, "", 400, `{"error":"bad input: search: since must be an integer (milliseconds since 1970), got \"yesterday\""}`},
				{"GET", "/api/save", "", token, "", 405, `{"error":"use POST with a JSON object body"}`},
				{"POST", "/api/save", strings.Repeat(" ", tools.MaxAPIBodyBytes+1), token, "", 413, `{"error":"the body is over 266240 bytes (MaxAPIBodyBytes)"}`},
				{"GET", "/api/search", "", "", "", 401, `{"error":"unauthorized: open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN"}`},
				{"POST", "/api/save", `{"title":"t","text":"x"}`, token, "https://example.com", 403, `{"error":"forbidden: origin \"https://example.com\" is not this server"}`},
			} {
				code, body := do(tc.method, tc.path, tc.body, tc.token, tc.origin)
				if code != tc.code || body != tc.want {
					t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.path, code, body, tc.code, tc.want)
				}
			}

			// Another process finds the entry; the refused requests saved nothing.
			out, err := exec.Command(bin, "tool", "search", "--workspace", ws, "--params", `{}`).Output()
			if err != nil {
				t.Fatalf("cadrun tool search: %v", err)
			}
			var reply struct {
				Data tools.SearchOut `json:"data"`
			}
			if err := json.Unmarshal(out, &reply); err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			var titles []string
			for _, e := range reply.Data.Entries {
				titles = append(titles, e.Title)
			}
			if diff := cmp.Diff([]string{"Wheel"}, titles); diff != "" {
				t.Errorf("entries after the refused requests: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
