package products

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type uncertGolden struct {
	File  string        `json:"file"`
	Swath [][][]float64 `json:"swath"`
	Ortho [][][]float64 `json:"ortho"`
	RMS   []float64     `json:"rms"`   // checked by the front door's noise file test
	Count []int         `json:"count"` // (omnihsr's TestNoiseFileEMITUncertainty)
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
