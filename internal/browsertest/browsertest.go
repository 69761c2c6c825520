// Package browsertest starts one headless Chromium per test binary for the viewer's browser
// tests, and skips them when Chromium is missing, unless CADRUN_BROWSER_TESTS=1 or
// CADRUN_REQUIRE_TOOLS=1 (make test) asks for them, in which case a missing browser fails.
//
// Call Tab in a test for a fresh tab, and Close from TestMain after m.Run.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

var (
	mu        sync.Mutex
	browser   context.Context // the browser's first tab; new tabs derive from it
	stopAlloc context.CancelFunc
	stopTab   context.CancelFunc
	dataDir   string
	startErr  error
)

// Required reports whether browser tests must run rather than skip.
func Required() bool {
	return os.Getenv("CADRUN_BROWSER_TESTS") == "1" || os.Getenv("CADRUN_REQUIRE_TOOLS") == "1"
}

// execPath finds Debian's chromium (or another Chromium-family browser).
func execPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Tab returns the context of a new tab in the shared browser, closed when the test ends.
func Tab(t testing.TB, width, height int) context.Context {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if browser == nil && startErr == nil {
		start()
	}
	if startErr != nil {
		if Required() {
			t.Fatalf("browser tests are required (CADRUN_BROWSER_TESTS or CADRUN_REQUIRE_TOOLS) but Chromium did not start: %v", startErr)
		}
		t.Skipf("no browser: %v (apt-get install chromium, or make test)", startErr)
	}
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

func start() {
	p := execPath()
	if p == "" {
		startErr = exec.ErrNotFound
		return
	}
	dataDir, startErr = os.MkdirTemp("", "cadrun-chromium-")
	if startErr != nil {
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(p),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		// The machine's network is closed: keep Chromium from trying to reach anything.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.UserDataDir(dataDir),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		acancel()
		startErr = err
		return
	}
	browser, stopAlloc, stopTab = ctx, acancel, cancel
}

// Close stops the browser, if one was started, and removes its profile.
func Close() {
	mu.Lock()
	defer mu.Unlock()
	if stopTab != nil {
		stopTab()
		stopAlloc()
	}
	if dataDir != "" {
		os.RemoveAll(dataDir)
	}
	browser, stopTab, stopAlloc = nil, nil, nil
}
