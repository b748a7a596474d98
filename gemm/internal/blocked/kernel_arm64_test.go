//go:build arm64 && !purego

package blocked

import (
	"slices"
	"testing"
)

// TestNEONDefault checks that an arm64 build runs the NEON kernel by
// default and offers the Go one beside it.
func TestNEONDefault(t *testing.T) {
	defer Use("auto")
	if !Use("auto") || Kernel() != KernelNEON {
		t.Fatalf("default kernel %q on arm64, want %q", Kernel(), KernelNEON)
	}
	if got := Available(); !slices.Equal(got, []string{KernelNEON, KernelGo}) {
		t.Fatalf("Available() = %v, want [neon go]", got)
	}
	if !Use(KernelGo) || Kernel() != KernelGo {
		t.Fatalf("Use(go): kernel %q", Kernel())
	}
	if Use(KernelAVX) || Use(KernelAVX512) {
		t.Fatal("an amd64 kernel was accepted on arm64")
	}
}
