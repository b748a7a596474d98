package memlimit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"2048", 2048, true}, {"2K", 2048, true}, {"512M", 512 << 20, true}, {"1G", 1 << 30, true},
		{"1.5g", 3 << 29, true}, {"2T", 2 << 40, true}, {" 64mb ", 64 << 20, true}, {"0", 0, true},
		{"", 0, false}, {"-1G", 0, false}, {"lots", 0, false}, {"1X", 0, false}, {"1e30T", 0, false},
	} {
		got, err := Parse(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("Parse(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	for in, want := range map[uint64]string{512: "512 B", 1536: "1.5 KiB", 3 << 30: "3.0 GiB"} {
		if got := Format(in); got != want {
			t.Errorf("Format(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestLimitAndCheck(t *testing.T) {
	t.Setenv(Env, "2K")
	if got := Limit(); got != 2048 {
		t.Fatalf("Limit under %s=2K = %d", Env, got)
	}
	if err := Check(2048, "a cube"); err != nil {
		t.Fatalf("2048 bytes under a 2 KiB limit: %v", err)
	}
	err := Check(3000, "a 3x3x3 cube")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "a 3x3x3 cube needs 2.9 KiB, more than the 2.0 KiB") || !strings.Contains(err.Error(), Env) {
		t.Fatalf("3000 bytes under a 2 KiB limit: %v", err)
	}
	t.Setenv(Env, "not a size")
	want := Physical()
	if cg := cgroupLimit(); cg > 0 && (want == 0 || cg < want) {
		want = cg
	}
	if want == 0 {
		want = unknown
	}
	if addressSpaceLeft() != 0 {
		t.Skip("this process runs under an address-space limit, which moves as it allocates")
	}
	if got := Limit(); got != want {
		t.Fatalf("Limit with a malformed %s = %d, want %d (physical memory or cgroup limit)", Env, got, want)
	}
}

func TestCgroupLimit(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("job/memory.max", "1073741824\n")
	write("free/memory.max", "max\n")
	write("memory/v1job/memory.limit_in_bytes", "536870912\n")
	for _, tc := range []struct {
		list string
		want uint64
	}{
		{"0::/job\n", 1 << 30},
		{"0::/free\n", 0},
		{"0::/missing\n", 0},
		{"4:memory:/v1job\n0::/\n", 512 << 20},
		{"4:cpu,memory:/v1job\n0::/job\n", 512 << 20},
		{"5:cpu:/job\n", 0},
		{"garbage\n", 0},
	} {
		if got := cgroupLimitFrom(strings.NewReader(tc.list), root); got != tc.want {
			t.Errorf("cgroup list %q: limit %d, want %d", tc.list, got, tc.want)
		}
	}
}
