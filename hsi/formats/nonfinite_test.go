package formats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// writeRawENVI writes a 3 x 4 x 2 float32 ENVI file (BIP) whose samples
// are 1..24 but for set, which maps sample indices to values (NaN and
// infinities included, which the writers refuse).
func writeRawENVI(t *testing.T, path string, set map[int]float32) {
	t.Helper()
	hdr := "ENVI\nsamples = 4\nlines = 3\nbands = 2\nheader offset = 0\nfile type = ENVI Standard\ndata type = 4\ninterleave = bip\nbyte order = 0\n"
	if err := os.WriteFile(path+".hdr", []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4*24)
	for i := range 24 {
		v, ok := set[i]
		if !ok {
			v = float32(i + 1)
		}
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	if err := os.WriteFile(path+".img", b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The one non-finite policy of hsi.ReadOptions: NaN is no-data (the cube
// holds it, no error) unless RefuseNaN; an infinite sample is a
// *hsi.NonFiniteError naming the first one's position (row, column, band,
// 0-based) and counting them, returned with the cube.
func TestNonFinitePolicy(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	// Sample index i is row i/8, column (i/2)%4, band i%2.
	for _, tc := range []struct {
		name      string
		set       map[int]float32
		refuseNaN bool
		want      string // "" = no error; else the error's position "row,col,band count"
	}{
		{"finite", nil, false, ""},
		{"finite, NaN refused", nil, true, ""},
		{"NaN is no-data", map[int]float32{5: nan, 17: nan}, false, ""},
		{"NaN refused", map[int]float32{5: nan, 17: nan}, true, "0,2,1 2"},
		{"+Inf", map[int]float32{13: inf}, false, "1,2,1 1"},
		{"-Inf after NaN", map[int]float32{3: nan, 20: -inf, 22: inf}, false, "2,2,0 2"},
		{"NaN and Inf, NaN refused", map[int]float32{3: nan, 20: -inf}, true, "0,1,1 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c")
			writeRawENVI(t, p, tc.set)
			c, _, err := Read(p+".hdr", hsi.ReadOptions{RefuseNaN: tc.refuseNaN})
			if c == nil {
				t.Fatalf("no cube (err %v)", err)
			}
			for i, v := range c.Data {
				w, ok := tc.set[i]
				if !ok {
					w = float32(i + 1)
				}
				if v != w && !(v != v && w != w) {
					t.Fatalf("sample %d = %v, want %v", i, v, w)
				}
			}
			var nf *hsi.NonFiniteError
			if tc.want == "" {
				if err != nil {
					t.Fatalf("err %v, want none", err)
				}
				return
			}
			if !errors.As(err, &nf) {
				t.Fatalf("err %v, want a *hsi.NonFiniteError", err)
			}
			if got := fmt.Sprintf("%d,%d,%d %d", nf.Row, nf.Col, nf.Band, nf.Count); got != tc.want {
				t.Errorf("position and count %s, want %s", got, tc.want)
			}
			if nf.InfOnly == tc.refuseNaN || !strings.Contains(err.Error(), fmt.Sprintf("row %d, column %d, band %d", nf.Row, nf.Col, nf.Band)) || !strings.Contains(err.Error(), p) {
				t.Errorf("error %q (InfOnly %v)", err, nf.InfOnly)
			}
		})
	}
}
