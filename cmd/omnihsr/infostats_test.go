package main

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/noise"
)

// describe, reading the rows of formats.Open's Source a band at a time,
// gives the statistics of the whole cube (hsi.StatsOf of formats.Read's
// cube) for every committed file of every format, and the bands the
// whole-cube noise screen (noise.Screen) judges unusable, with its figures
// as info prints them (3 digits).
func TestDescribeMatchesWholeCube(t *testing.T) {
	var paths []string
	for _, g := range []string{"../../hsi/envi/testdata/*.hdr", "../../hsi/npy/testdata/*.npy", "../../hsi/tiff/testdata/*.tif",
		"../../hsi/png/testdata/*.png", "../../hsi/matfile/testdata/*.h5", "../../hsi/products/testdata/*.nc",
		"../../hsi/products/testdata/*.h5", "../../hsi/products/testdata/*.he5",
		"../../hsi/products/testdata/hostile/partial_chunks.h5", "../../hsi/products/testdata/hostile/float16.h5", "../../hsi/products/testdata/hostile/nested100.h5", "../../hsi/formats/testdata/*/*", "../../sample/*.tif"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
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
