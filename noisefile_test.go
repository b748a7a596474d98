package omnihsr

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testfiles"
)

// bandRMS, reading the rows of formats.Open's Source a band at a time,
// gives each band's root mean square over its valid samples of the whole
// cube (formats.Read's) for every committed file of every format, to the
// bit (the same sums in the same order); an infinite sample is Read's
// error, the first of the image counted over all of it.
func TestBandRMSMatchesWholeCube(t *testing.T) {
	paths := testfiles.Committed(".")
	// An ENVI image with infinite samples in two bands of rows.
	dir := t.TempDir()
	c := testCube(9, 180000, 3, 2) // two bands of rows (rowBand) are read
	c.Data[5], c.Data[len(c.Data)-2] = infMark, infMark
	inf := filepath.Join(dir, "inf.hdr")
	if err := formats.Write(inf, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	markInf(t, inf)
	if rowBand(3, 2) >= 180000 {
		t.Fatalf("a band of %d rows holds the image: the test tests nothing", rowBand(3, 2))
	}
	paths = append(paths, inf)
	n, nonFinite := 0, 0
	for _, p := range paths {
		want, _, rerr := formats.Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if rerr != nil && !errors.As(rerr, &nf) {
			continue // a file Read refuses
		}
		src, err := formats.Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		rms, cnt, err := bandRMS(src)
		src.Close()
		if nf != nil {
			nonFinite++
			var g *hsi.NonFiniteError
			if !errors.As(err, &g) || *g != *nf {
				t.Errorf("%s: bandRMS error %v, Read's %v", p, err, nf)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		n++
		wrms, wcnt := make([]float64, want.B), make([]int, want.B)
		nd := want.Meta.NoData()
		for i, v := range want.Data {
			if f := float64(v); !nd.Is(v) && !math.IsInf(f, 0) {
				wrms[i%want.B] += f * f
				wcnt[i%want.B]++
			}
		}
		for b := range wrms {
			if wcnt[b] > 0 {
				wrms[b] = math.Sqrt(wrms[b] / float64(wcnt[b]))
			}
		}
		if !slices.Equal(rms, wrms) || !slices.Equal(cnt, wcnt) {
			t.Errorf("%s: streamed %v %v, the cube's %v %v", p, rms, cnt, wrms, wcnt)
		}
	}
	if n < 100 || nonFinite == 0 {
		t.Fatalf("%d files, %d with an infinite sample: the test covers too little", n, nonFinite)
	}
}

// A noise file that is an EMIT uncertainty granule gives numpy's per-band
// root mean square of its valid samples (hsi/products' golden), whether
// the input is read as its swath or with Ortho (the statistic is over the
// swath); a companion whose swath is not the input's is refused, naming
// the file.
func TestNoiseFileEMITUncertainty(t *testing.T) {
	var g struct {
		File  string    `json:"file"`
		RMS   []float64 `json:"rms"`
		Count []int     `json:"count"`
	}
	b, err := os.ReadFile(filepath.Join("hsi", "products", "testdata", "emit_uncert_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	unc := filepath.Join("hsi", "products", "testdata", g.File)
	rfl := filepath.Join("hsi", "products", "testdata", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc")
	for _, ro := range []hsi.ReadOptions{{}, {Ortho: true}} {
		lr, _, err := formats.Read(rfl, ro)
		if err != nil {
			t.Fatal(err)
		}
		rms, err := readNoise(unc, lr, rfl)
		if err != nil {
			t.Fatalf("ortho %v: %v", ro.Ortho, err)
		}
		if len(rms) != len(g.RMS) {
			t.Fatalf("%d values, want %d", len(rms), len(g.RMS))
		}
		for b := range g.RMS {
			if math.Abs(rms[b]-g.RMS[b]) > 1e-15*g.RMS[b]*float64(g.Count[b]) {
				t.Errorf("ortho %v: band %d: rms %v, numpy's %v", ro.Ortho, b, rms[b], g.RMS[b])
			}
		}
	}
	// The companion against an input of another size.
	other := filepath.Join("sample", "L7_ETMs.tif") // 352 x 349
	lr, _, err := formats.Read(rfl, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readNoise(unc, lr, other); err == nil || !strings.Contains(err.Error(), unc) || !strings.Contains(err.Error(), "not the same granule") {
		t.Errorf("a companion of another swath: %v", err)
	}
}
