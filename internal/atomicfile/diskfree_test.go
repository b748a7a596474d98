package atomicfile

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestDiskFree(t *testing.T) {
	free, ok := DiskFree(t.TempDir())
	if runtime.GOOS == "linux" && (!ok || free == 0) {
		t.Fatalf("DiskFree = %d, %v", free, ok)
	}
	if _, ok := DiskFree(filepath.Join(t.TempDir(), "missing")); ok {
		t.Fatal("DiskFree of a missing directory succeeded")
	}
}
