package products

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

type uncertGolden struct {
	File  string        `json:"file"`
	Swath [][][]float64 `json:"swath"`
	Ortho [][][]float64 `json:"ortho"`
	RMS   []float64     `json:"rms"`
	Count []int         `json:"count"`
}

// The RFLUNCERT granule reads as the RFL one does: the swath, the same
// cube by -var, and the GLT grid with -ortho, with the band parameters
// and georeferencing of the granule.
func TestEMITUncertainty(t *testing.T) {
	var g uncertGolden
	loadJSON(t, "emit_uncert_golden.json", &g)
	var rfl emitGolden
	loadJSON(t, "emit_golden.json", &rfl)
	path := filepath.Join("testdata", g.File)
	for _, tc := range emitReads("reflectance_uncertainty", g.Swath, g.Ortho) {
		t.Run(tc.name, func(t *testing.T) {
			c, info, err := ReadHDF5(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			sameCube(t, c, tc.want)
			m := c.Meta
			if !m.HasDataIgnore || m.DataIgnore != -9999 {
				t.Errorf("no-data %v %v, want -9999", m.HasDataIgnore, m.DataIgnore)
			}
			if len(m.Wavelengths) != len(rfl.Wavelengths) || len(m.BadBands) != len(rfl.Good) {
				t.Fatalf("%d wavelengths, %d bad-band flags; want %d", len(m.Wavelengths), len(m.BadBands), len(rfl.Wavelengths))
			}
			for b := range rfl.Wavelengths {
				if float32(m.Wavelengths[b]) != float32(rfl.Wavelengths[b]) || m.BadBands[b] != (rfl.Good[b] == 0) {
					t.Fatalf("band %d: wavelength %v bad %v, want %v good %d", b, m.Wavelengths[b], m.BadBands[b], rfl.Wavelengths[b], rfl.Good[b])
				}
			}
			if info.Variable != "/reflectance_uncertainty" || !strings.Contains(info.Product, "Uncertainty") {
				t.Errorf("variable %q product %q", info.Variable, info.Product)
			}
			checkEMITGeo(t, m, tc.ortho, rfl.GT)
		})
	}
}

// BandRMS streams the cube and gives numpy's per-band root mean square of
// the valid samples; the grid it reports is the one a read gives.
func TestBandRMS(t *testing.T) {
	var g uncertGolden
	loadJSON(t, "emit_uncert_golden.json", &g)
	path := filepath.Join("testdata", g.File)
	for _, tc := range []struct {
		name string
		opt  hsi.ReadOptions
		h, w int
	}{
		{"swath", hsi.ReadOptions{}, len(g.Swath), len(g.Swath[0])},
		{"ortho grid, swath samples", hsi.ReadOptions{Ortho: true}, len(g.Ortho), len(g.Ortho[0])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := BandRMS(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if st.H != tc.h || st.W != tc.w || len(st.RMS) != len(g.RMS) {
				t.Fatalf("%d x %d, %d bands; want %d x %d, %d", st.H, st.W, len(st.RMS), tc.h, tc.w, len(g.RMS))
			}
			for b := range g.RMS {
				if st.Count[b] != g.Count[b] || math.Abs(st.RMS[b]-g.RMS[b]) > 1e-15*g.RMS[b]*float64(g.Count[b]) {
					t.Errorf("band %d: rms %v over %d samples, want %v over %d", b, st.RMS[b], st.Count[b], g.RMS[b], g.Count[b])
				}
			}
		})
	}
	// A packed generic cube: the fill is compared packed, the rest unpacked.
	var ggs map[string]genericGolden
	loadJSON(t, "generic_golden.json", &ggs)
	gg := ggs["generic_bhw.h5"]
	st, err := BandRMS(filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for b := range st.RMS {
		var sum float64
		n := 0
		for _, row := range gg.Cube {
			for _, px := range row {
				if px[b] != gg.Fill {
					sum += float64(float32(px[b])) * float64(float32(px[b]))
					n++
				}
			}
		}
		if st.Count[b] != n || math.Abs(st.RMS[b]-math.Sqrt(sum/float64(n))) > 1e-9 {
			t.Errorf("generic band %d: rms %v over %d, want %v over %d", b, st.RMS[b], st.Count[b], math.Sqrt(sum/float64(n)), n)
		}
	}
	if _, err := BandRMS(filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{Ortho: true}); err == nil || !strings.Contains(err.Error(), "-ortho") {
		t.Errorf("-ortho on a generic cube: %v", err)
	}
}

func TestEMITUncertaintyPath(t *testing.T) {
	dir := t.TempDir()
	rfl := filepath.Join(dir, "EMIT_L2A_RFL_001_20240101T000000_2400101_003.nc")
	unc := filepath.Join(dir, "EMIT_L2A_RFLUNCERT_001_20240101T000000_2400101_003.nc")
	lone := filepath.Join(dir, "EMIT_L2A_RFL_001_20240101T000000_2400101_004.nc")
	for _, p := range []string{rfl, unc, lone} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "EMIT_L2A_RFLUNCERT_001_20240101T000000_2400101_005.nc"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want, err string
	}{
		{rfl, unc, ""},
		{filepath.Join("testdata", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"), filepath.Join("testdata", "EMIT_L2A_RFLUNCERT_001_20230801T101112_2321307_002.nc"), ""},
		{lone, "", "EMIT_L2A_RFLUNCERT_001_20240101T000000_2400101_004.nc: no such file"},
		{filepath.Join(dir, "EMIT_L2A_RFL_001_20240101T000000_2400101_005.nc"), "", "is not a regular file"},
		{unc, "", "not named as an EMIT L2A reflectance granule"},
		{filepath.Join(dir, "scene.nc"), "", "not named as an EMIT L2A reflectance granule"},
	} {
		got, err := EMITUncertaintyPath(tc.in)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
		}
	}
}
