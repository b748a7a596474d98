package raw

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

func TestTrackerKeepsEarliest(t *testing.T) {
	var tr FiniteTracker
	tr.Note(2, 5, 1, 0, 1)
	tr.Note(1, 2, 9, 3, 2)
	tr.Note(0, 0, 0, 0, 3)
	tr.Note(1, 2, 9, 4, 4)
	err := tr.Err("f.bin")
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 2 || nf.Col != 9 || nf.Band != 3 || nf.Count != 4 {
		t.Fatalf("got %+v", err)
	}
	if !strings.Contains(err.Error(), "f.bin") || !strings.Contains(err.Error(), "row 2, column 9, band 3") {
		t.Fatalf("message %q", err)
	}
	var none FiniteTracker
	if none.Err("x") != nil {
		t.Fatal("empty tracker gave an error")
	}
}

func TestNewCubeMemLimit(t *testing.T) {
	t.Setenv(memlimit.Env, "2K")
	if _, err := NewCube(16, 16, 2); err != nil { // 2 KiB
		t.Fatalf("16x16x2: %v", err)
	}
	_, err := NewCube(16, 16, 3)
	if !errors.Is(err, memlimit.ErrTooLarge) || !strings.Contains(err.Error(), "a 16x16x3 float32 cube") {
		t.Fatalf("16x16x3 under a 2 KiB limit: %v", err)
	}
	t.Setenv(memlimit.Env, "")
	if _, err := NewCube(1<<30, 1<<30, 1<<20); err == nil {
		t.Fatal("a 2^80-element cube was allocated")
	}
	if _, err := NewCube(1, 0, 1); err == nil {
		t.Fatal("a cube with 0 columns was allocated")
	}
}

func TestMulSize(t *testing.T) {
	if v, ok := MulSize(3, 4, 5); !ok || v != 60 {
		t.Fatal(v, ok)
	}
	if _, ok := MulSize(1<<40, 1<<30); ok {
		t.Fatal("overflow not detected")
	}
	if _, ok := MulSize(-1, 2); ok {
		t.Fatal("negative accepted")
	}
}

func TestToFromPixels(t *testing.T) {
	for _, tc := range []struct{ n, B, g, k int }{{5, 7, 2, 3}, {9, 40, 16, 16}, {3, 16, 0, 16}, {4, 17, 16, 1}} {
		testToFromPixels(t, tc.n, tc.B, tc.g, tc.k)
	}
}

func testToFromPixels(t *testing.T, n, B, g, k int) {
	rows := make([]float32, k*n)
	for i := range rows {
		rows[i] = float32(i + 1)
	}
	dst := make([]float32, n*B)
	ToPixels(dst, B, g, rows, n, k)
	for p := 0; p < n; p++ {
		for b := 0; b < B; b++ {
			want := float32(0)
			if b >= g && b < g+k {
				want = rows[(b-g)*n+p]
			}
			if dst[p*B+b] != want {
				t.Fatalf("pixel %d band %d = %v, want %v", p, b, dst[p*B+b], want)
			}
		}
	}
	back := make([]float32, k*n)
	FromPixels(back, dst, B, g, n, k)
	for i := range rows {
		if back[i] != rows[i] {
			t.Fatalf("FromPixels[%d] = %v, want %v", i, back[i], rows[i])
		}
	}
}

// FromPixelsFinite moves what FromPixelsStride moves, for every count of
// pixels and bands around the 8 x 8 blocks it transposes at once, and
// reports a NaN or an infinite value wherever it is.
func TestFromPixelsFinite(t *testing.T) {
	inf := float32(math.Inf(-1))
	nan := float32(math.NaN())
	for _, n := range []int{1, 7, 8, 9, 16, 23, 64} {
		for _, k := range []int{1, 5, 8, 13, 16, 17} {
			const B, g = 37, 3
			src := make([]float32, n*B)
			for i := range src {
				src[i] = float32(i)*0.25 - 7
			}
			ld := n + 5
			want := make([]float32, k*ld)
			FromPixelsStride(want, ld, src, B, g, n, k)
			got := make([]float32, k*ld)
			if !FromPixelsFinite(got, ld, src, B, g, n, k) {
				t.Fatalf("n=%d k=%d: finite values reported as not finite", n, k)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d k=%d: moved %v, want %v", n, k, got, want)
			}
			for _, bad := range []float32{inf, nan} {
				for _, at := range [][2]int{{0, 0}, {n - 1, k - 1}, {n / 2, k / 2}} {
					s := slices.Clone(src)
					s[at[0]*B+g+at[1]] = bad
					if FromPixelsFinite(got, ld, s, B, g, n, k) {
						t.Errorf("n=%d k=%d: %v at pixel %d, band %d not reported", n, k, bad, at[0], g+at[1])
					}
					// Outside the bands moved: not reported.
					s = slices.Clone(src)
					s[at[0]*B+g+k] = bad
					if !FromPixelsFinite(got, ld, s, B, g, n, k) {
						t.Errorf("n=%d k=%d: %v in a band not moved reported", n, k, bad)
					}
				}
			}
		}
	}
}
