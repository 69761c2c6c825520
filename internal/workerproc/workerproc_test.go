package workerproc

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportsOnlyWhatOSImports: the package imports nothing that package os does not import
// already (see the package comment): one more import, strings say, would hold internal/prestart's
// init back until half the program has initialised.
func TestImportsOnlyWhatOSImports(t *testing.T) {
	t.Parallel()
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Skipf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	os := deps("os")
	var got []string
	for _, d := range deps(".") {
		if !slices.Contains(os, d) {
			got = append(got, d)
		}
	}
	if diff := cmp.Diff([]string{"github.com/cadrun/cadrun/internal/workerproc"}, got); diff != "" {
		t.Errorf("packages imported beyond os's mismatch (-want +got):\n%s", diff)
	}
}

// TestEnviron: the worker's environment is this process's with the settings added, each key
// once, the last value winning, as os/exec would pass it.
func TestEnviron(t *testing.T) {
	t.Setenv("CADRUN_WORKER_MEMORY", "1")
	t.Setenv("CADRUN_TEST_KEEP", "a=b")
	got := environ(Env+"=1", MemoryEnv+"=536870912")
	var mine []string
	for _, kv := range got {
		if strings.HasPrefix(kv, "CADRUN_WORKER") || strings.HasPrefix(kv, "CADRUN_TEST_KEEP=") {
			mine = append(mine, kv)
		}
	}
	slices.Sort(mine)
	want := []string{"CADRUN_TEST_KEEP=a=b", "CADRUN_WORKER=1", "CADRUN_WORKER_MEMORY=536870912"}
	if diff := cmp.Diff(want, mine); diff != "" {
		t.Errorf("worker environment mismatch (-want +got):\n%s", diff)
	}
	if len(got) != len(os.Environ())+1 {
		t.Errorf("got %d settings; want this process's %d and CADRUN_WORKER", len(got), len(os.Environ()))
	}
}

func TestItoa(t *testing.T) {
	t.Parallel()
	for _, n := range []int64{0, 7, 10, 536870912, 1<<63 - 1} {
		if got, want := itoa(n), strconv.FormatInt(n, 10); got != want {
			t.Errorf("itoa(%d) = %q; want %q", n, got, want)
		}
	}
}

// TestStart: a worker gets the environment settings, its stdin and stdout are the pipes, the
// head of its stderr is kept, and Done closes after it has ended, with its stderr read whole.
func TestStart(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// stderr is written last, after the exchange on stdout, so that nothing but the exchange
	// runs before it.
	script := `echo "$CADRUN_WORKER $CADRUN_WORKER_MEMORY"; read line; echo "got $line"; head -c 5000 /dev/zero | tr '\0' e >&2`
	p, err := Start(Command{Path: sh, Args: []string{"sh", "-c", script}}, 1234)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(p.Stdout)
	var got []string
	line, _ := out.ReadString('\n')
	got = append(got, line)
	if _, err := p.Stdin.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	line, err = out.ReadString('\n')
	got = append(got, line)
	if diff := cmp.Diff([]string{"1 1234\n", "got hello\n"}, got); diff != "" {
		t.Errorf("the worker's stdout mismatch (-want +got):\n%s(the last read: %v; stderr: %q)", diff, err, p.Stderr.String())
	}
	<-p.Done
	if _, err := p.Stdin.Write([]byte("more\n")); err == nil {
		t.Error("stdin was still open after the worker ended")
	}
	if got, want := p.Stderr.String(), strings.Repeat("e", stderrHead); got != want {
		t.Errorf("stderr kept: got %d bytes; want the first %d", len(got), len(want))
	}
}

// TestTake: a prestarted worker goes to the first caller with its role and memory cap, once.
func TestTake(t *testing.T) {
	p, q := &Process{MaxMemory: 1}, &Process{MaxMemory: 1}
	prestarted.Lock()
	prestarted.p = map[string]*Process{"1": p, "import": q}
	prestarted.Unlock()
	if got := Take(2); got != nil {
		t.Error("Take with another memory cap took the prestarted worker")
	}
	if got := TakeRole("schema", 1); got != nil {
		t.Error("TakeRole of another role took a prestarted worker")
	}
	if got := Take(1); got != p {
		t.Error("Take with the same memory cap did not take the prestarted worker")
	}
	if got := Take(1); got != nil {
		t.Error("the prestarted worker was taken twice")
	}
	if got := TakeRole("import", 1); got != q {
		t.Error("TakeRole did not take the prestarted worker of its role")
	}
}
