package manifold

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePagesAsked: the kernel's memory is a mapping Linux may back with transparent huge
// pages (smaps says THPeligible), which it does not do unasked where the setting is madvise.
func TestHugePagesAsked(t *testing.T) {
	setting, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(setting), "[never]") {
		t.Skipf("this system has no transparent huge pages (%q, %v)", setting, err)
	}
	k := newKernel(t, Options{NoInterrupt: true})
	if _, err := k.Cube(context.Background(), 1, 1, 1, false); err != nil {
		t.Fatal(err)
	}
	if !k.in.memory.mapped {
		t.Skip("the reservation was refused: the memory is a Go slice")
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(k.in.memory.buf)))
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	mine := false
	for _, line := range strings.Split(string(smaps), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			mine = lo <= base && base < hi
			continue
		}
		if v, ok := strings.CutPrefix(line, "THPeligible:"); ok && mine {
			if strings.TrimSpace(v) != "1" {
				t.Errorf("the kernel's memory is not eligible for huge pages: THPeligible %s", strings.TrimSpace(v))
			}
			return
		}
	}
	t.Skip("smaps says nothing of huge pages for the kernel's memory (an older kernel)")
}
