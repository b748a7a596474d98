package main

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testfiles"
	"github.com/omnihsr/omnihsr/noise"
)

// describe, reading the rows of formats.Open's Source a band at a time,
// gives the statistics of the whole cube (hsi.StatsOf of formats.Read's
// cube) for every committed file of every format, and the bands the
// whole-cube noise screen (noise.Screen) judges unusable, with its figures
// as info prints them (3 digits).
func TestDescribeMatchesWholeCube(t *testing.T) {
	paths := testfiles.Committed(filepath.Join("..", ".."), "hsi/products/testdata/hostile/partial_chunks.h5",
		"hsi/products/testdata/hostile/float16.h5", "hsi/products/testdata/hostile/nested100.h5")
	n, screened, noisy := 0, 0, 0
	for _, p := range paths {
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if err != nil && !(errors.As(err, &nf) && c != nil) {
			continue // a file Read refuses
		}
		src, err := formats.Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		d, err := describe(src, p)
		src.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		n++
		if want := hsi.StatsOf(c); !sameStats(d.st, want) {
			t.Errorf("%s: streamed statistics %+v, the cube's %+v", p, d.st, want)
		}
		if d.st.NaN+d.st.Inf > 0 {
			continue
		}
		want, werr := noise.Screen(c)
		if werr != nil {
			if !errors.Is(werr, hsi.ErrAllNoData) || !d.unusable {
				t.Errorf("%s: the cube's screen: %v; streamed: unusable %v", p, werr, d.unusable)
			}
			continue
		}
		if d.unusable || d.ns == nil {
			t.Errorf("%s: streamed screen unusable %v, sampler %v (%v)", p, d.unusable, d.ns != nil, d.why)
			continue
		}
		screened++
		got := d.ns.Outliers(c.Meta.BadBands)
		noisy += len(got)
		if len(got) != len(want) {
			t.Errorf("%s: %d noisy bands streamed, %d from the cube", p, len(got), len(want))
			continue
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Band != w.Band || fmt3(g.Sigma) != fmt3(w.Sigma) || fmt3(g.Sigma/g.Ref) != fmt3(w.Sigma/w.Ref) || fmt3(100*g.NSR) != fmt3(100*w.NSR) {
				t.Errorf("%s: noisy band %+v streamed, %+v from the cube", p, g, w)
			}
		}
	}
	if n < 100 || screened < 50 || noisy == 0 {
		t.Fatalf("%d files described, %d screened, %d noisy bands: the test covers too little", n, screened, noisy)
	}
	t.Logf("%d files, %d screened, %d noisy bands", n, screened, noisy)
}

func sameStats(a, b hsi.Stats) bool {
	same := func(x, y float32) bool { return x == y || (math.IsNaN(float64(x)) && math.IsNaN(float64(y))) }
	return same(a.Lo, b.Lo) && same(a.Hi, b.Hi) && a.NaN == b.NaN && a.Inf == b.Inf && a.Ignored == b.Ignored &&
		(a.NaN+a.Inf == 0 || (a.Row == b.Row && a.Col == b.Col && a.Band == b.Band))
}

// fmt3 is v to 3 digits, as info prints the screen's figures.
func fmt3(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// windowCounter is a Source whose window reads are counted.
type windowCounter struct {
	formats.Source
	w windowed
	n int
}

func (c *windowCounter) RowRun(y int) (int, bool, float32)         { return c.w.RowRun(y) }
func (c *windowCounter) ChunkSize() (int, int)                     { return c.w.ChunkSize() }
func (c *windowCounter) ColRun(y0, y1, x int) (int, bool, float32) { return c.w.ColRun(y0, y1, x) }
func (c *windowCounter) ReadWindow(y0, y1, x0, x1 int, dst []float32) error {
	c.n++
	return c.w.ReadWindow(y0, y1, x0, x1, dst)
}

// A chunked HDF5 dataset whose rows are wider than the band describe
// reads at a time is read in windows of whole chunks, a chunk row at a
// time, its columns never written counted without reading: with a band of
// one sample, every chunked miniature (chunk rows written in part
// included) gives the statistics and the noise screen describe gives
// reading rows.
func TestDescribeInPieces(t *testing.T) {
	dir := filepath.Join("..", "..", "hsi", "products", "testdata")
	for _, tc := range []struct {
		file string
		ro   hsi.ReadOptions
	}{
		{"noisy_bands.h5", hsi.ReadOptions{}},
		{"generic_bhw.h5", hsi.ReadOptions{}},
		{"generic_bhw.h5", hsi.ReadOptions{Layout: "BWH"}},
		{"unlimited_ea.nc", hsi.ReadOptions{Var: "reflectance_hwb"}},
		{"unlimited_sparse.h5", hsi.ReadOptions{}},
		{"hostile/partial_chunks.h5", hsi.ReadOptions{}},
		{"hostile/partial_chunks.h5", hsi.ReadOptions{Layout: "WHB"}},
	} {
		p := filepath.Join(dir, tc.file)
		open := func() formats.Source {
			src, err := formats.Open(p, tc.ro)
			if err != nil {
				t.Fatalf("%s %+v: %v", p, tc.ro, err)
			}
			t.Cleanup(func() { src.Close() })
			return src
		}
		want, err := describe(open(), p)
		if err != nil {
			t.Fatal(err)
		}
		src := open()
		wc := &windowCounter{Source: src, w: src.(windowed)}
		got, err := describeIn(wc, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		if wc.n == 0 {
			t.Errorf("%s %+v: no window read", p, tc.ro)
		}
		if !sameStats(got.st, want.st) || got.unusable != want.unusable || (got.ns == nil) != (want.ns == nil) {
			t.Errorf("%s %+v: in windows %+v (unusable %v, screen %v), in rows %+v (%v, %v)", p, tc.ro, got.st, got.unusable, got.ns != nil, want.st, want.unusable, want.ns != nil)
			continue
		}
		if got.ns == nil {
			continue
		}
		g, w := got.ns.Outliers(nil), want.ns.Outliers(nil)
		if len(g) != len(w) {
			t.Errorf("%s %+v: %d noisy bands in windows, %d in rows", p, tc.ro, len(g), len(w))
			continue
		}
		for i := range g {
			if g[i].Band != w[i].Band || fmt3(g[i].Sigma) != fmt3(w[i].Sigma) || fmt3(100*g[i].NSR) != fmt3(100*w[i].NSR) {
				t.Errorf("%s %+v: noisy band %+v in windows, %+v in rows", p, tc.ro, g[i], w[i])
			}
		}
	}
}
