package products

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestOpenRowsEveryLayout: with each of the six stored-axis orders
// (-layout), over contiguous and chunked datasets, OpenRows's header is
// ReadHDF5's and its rows, read one at a time and in windows that cross
// chunk rows, are ReadHDF5's bit for bit; so are the windows of a chunked
// dataset (ReadWindow: every window of rows and columns starting at the
// first, second or middle row and column and ending one past the start or
// at the end), chunks never written included (partial_chunks.h5).
func TestOpenRowsEveryLayout(t *testing.T) {
	checked, windows := 0, 0
	for _, p := range []string{"testdata/generic_hwb.nc", "../matfile/testdata/plain.h5", "testdata/generic_bhw.h5", "testdata/noisy_bands.h5", "testdata/unlimited_ea.nc", "../matfile/testdata/latest_index.h5", "testdata/hostile/partial_chunks.h5"} {
		for _, l := range []string{"HWB", "HBW", "WHB", "WBH", "BHW", "BWH"} {
			opt := hsi.ReadOptions{Layout: l}
			want, info, rerr := ReadHDF5(p, opt)
			r, err := OpenRows(p, opt)
			if rerr != nil { // band metadata of the wrong length for this layout
				if err == nil || err.Error() != rerr.Error() {
					t.Errorf("%s %s: ReadHDF5: %v; OpenRows: %v", p, l, rerr, err)
				}
				continue
			}
			checked++
			if err != nil {
				t.Fatalf("%s %s: %v", p, l, err)
			}
			hd := r.Header()
			if hd.H != want.H || hd.W != want.W || hd.B != want.B || hd.Info != info {
				t.Errorf("%s %s: header %+v, ReadHDF5 %dx%dx%d %+v", p, l, hd, want.H, want.W, want.B, info)
			}
			row := hd.W * hd.B
			check := func(y0, y1 int) {
				got := make([]float32, (y1-y0)*row)
				if err := r.ReadRows(y0, y1, got); err != nil {
					t.Fatalf("%s %s: rows [%d, %d): %v", p, l, y0, y1, err)
				}
				for i, v := range got {
					if math.Float32bits(v) != math.Float32bits(want.Data[y0*row+i]) {
						t.Fatalf("%s %s: rows [%d, %d): value %d is %v, ReadHDF5's %v", p, l, y0, y1, i, v, want.Data[y0*row+i])
					}
				}
			}
			for y := 0; y < hd.H; y++ {
				check(y, y+1)
			}
			for y := hd.H - 1; y >= 0; y-- {
				check(y, y+1)
			}
			check(0, hd.H)
			for y0 := 0; y0 < hd.H; y0 += 2 {
				check(y0, min(hd.H, y0+3))
			}
			if w := r.(*hdf5Rows); w.slab.Extent(w.hAxis) > 0 {
				windows++
				for _, y0 := range []int{0, 1, hd.H / 2} {
					for _, y1 := range []int{y0 + 1, hd.H} {
						for _, x0 := range []int{0, 1, hd.W / 2} {
							for _, x1 := range []int{x0 + 1, hd.W} {
								if y1 > hd.H || x1 > hd.W {
									continue
								}
								got := make([]float32, (y1-y0)*(x1-x0)*hd.B)
								if err := w.ReadWindow(y0, y1, x0, x1, got); err != nil {
									t.Fatalf("%s %s: window [%d, %d) x [%d, %d): %v", p, l, y0, y1, x0, x1, err)
								}
								for i, v := range got {
									px, b := i/hd.B, i%hd.B
									y, x := y0+px/(x1-x0), x0+px%(x1-x0)
									if wv := want.Data[(y*hd.W+x)*hd.B+b]; math.Float32bits(v) != math.Float32bits(wv) {
										t.Fatalf("%s %s: window [%d, %d) x [%d, %d): (%d, %d, %d) is %v, ReadHDF5's %v", p, l, y0, y1, x0, x1, y, x, b, v, wv)
									}
								}
							}
						}
					}
				}
			}
			r.Close()
		}
	}
	if checked < 18 || windows < 12 {
		t.Errorf("%d files and layouts read, %d in windows", checked, windows)
	}
}
