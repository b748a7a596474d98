//go:build purego

package blocked

import (
	"slices"
	"testing"
)

// TestPuregoGoOnly checks that the purego build runs the Go kernel only,
// on every architecture.
func TestPuregoGoOnly(t *testing.T) {
	defer Use("auto")
	if !Use("auto") || Kernel() != KernelGo {
		t.Fatalf("purego build: default kernel %q, want %q", Kernel(), KernelGo)
	}
	if got := Available(); !slices.Equal(got, []string{KernelGo}) {
		t.Fatalf("purego build: Available() = %v, want [go]", got)
	}
	for _, name := range []string{KernelNEON, KernelAVX, KernelAVX512} {
		if Use(name) {
			t.Fatalf("purego build accepted kernel %q", name)
		}
	}
}
