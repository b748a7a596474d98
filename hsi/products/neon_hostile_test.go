package products

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// neonPatched writes a copy of the NEON tile miniature with the bytes old
// replaced by new (same length; the miniature's v1 object headers carry no
// checksum) and returns its path.
func neonPatched(t *testing.T, old, new []byte) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5"))
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(new) || bytes.Count(b, old) != 1 {
		t.Fatalf("%q found %d times in the miniature", old, bytes.Count(b, old))
	}
	p := filepath.Join(t.TempDir(), "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5")
	if err := os.WriteFile(p, bytes.Replace(b, old, new, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func f64(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }

// Issue 39, NEON: an EPSG code that does not exist dropped the CRS that
// Map_Info names; one that contradicts Map_Info (4326 with UTM eastings)
// gave impossible coordinates; a subnormal Scale_Factor was accepted; a
// gap in the Band_Window_N numbering stopped the loop.
func TestNEONHostile(t *testing.T) {
	orig, _, err := ReadHDF5(filepath.Join("testdata", "NEON_D17_SJER_DP3_257000_4112000_reflectance.h5"), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, info, err := ReadHDF5(neonPatched(t, []byte("32611"), []byte("99999")), hsi.ReadOptions{})
	if err != nil {
		t.Fatalf("unknown EPSG code: %v", err)
	}
	if cr, _ := c.Meta.Geo.CRS(); cr.EPSG != 32611 || !strings.Contains(info.Detail, "EPSG Code 99999 unknown") {
		t.Errorf("unknown EPSG code: CRS %+v, detail %q; want Map_Info's EPSG:32611", cr.EPSG, info.Detail)
	}
	if _, _, err := ReadHDF5(neonPatched(t, []byte("32611"), []byte("04326")), hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "EPSG Code 4326 contradicts Map_Info, which names EPSG:32611") {
		t.Errorf("EPSG 4326 with UTM Map_Info: %v", err)
	}
	if _, _, err := ReadHDF5(neonPatched(t, f64(10000), f64(5e-324)), hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "Scale_Factor 5e-324 is not a positive normal number") {
		t.Errorf("subnormal Scale_Factor: %v", err)
	}
	c, _, err = ReadHDF5(neonPatched(t, []byte("Band_Window_1_Nanometers"), []byte("Band_Window_3_Nanometers")), hsi.ReadOptions{})
	if err != nil {
		t.Fatalf("Band_Window_2 and _3: %v", err)
	}
	if !slices.Contains(orig.Meta.BadBands, true) || !slices.Equal(c.Meta.BadBands, orig.Meta.BadBands) {
		t.Errorf("Band_Window_2 and _3: bad bands %v, want both windows' %v", c.Meta.BadBands, orig.Meta.BadBands)
	}
}
