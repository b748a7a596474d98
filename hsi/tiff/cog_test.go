package tiff

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestDownsample checks the 2x2 reductions on a hand-computed case with
// an odd size and no-data.
func TestDownsample(t *testing.T) {
	// 3x3, one band, -1 is no-data.
	src := &hsi.Cube{H: 3, W: 3, B: 1, Data: []float32{
		1, 2, 3,
		-1, 4, -1,
		5, 6, -1,
	}}
	meta := &hsi.Meta{DataIgnore: -1, HasDataIgnore: true}
	got := make([]float32, 4)
	downsample(got, src, "AVERAGE", meta)
	if want := []float32{(1 + 2 + 4) / 3.0, 3, (5 + 6) / 2.0, -1}; !slices.Equal(got, want) {
		t.Errorf("AVERAGE %v, want %v", got, want)
	}
	downsample(got, src, "NEAREST", meta)
	if want := []float32{4, -1, 6, -1}; !slices.Equal(got, want) {
		t.Errorf("NEAREST %v, want %v", got, want)
	}
	// Without a no-data value, -1 is a value and NaN is left out.
	src.Data[0] = float32(math.NaN())
	downsample(got, src, "AVERAGE", &hsi.Meta{})
	if want := []float32{(2 - 1 + 4) / 3.0, 1, 5.5, -1}; !slices.Equal(got, want) {
		t.Errorf("AVERAGE without no-data %v, want %v", got, want)
	}
}

// cogLayout reads the IFD chain of a file: each IFD's offset and page.
func cogLayout(t *testing.T, path string) (*file, []uint64, []*page) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	f, err := openFile(path, fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var offs []uint64
	h := make([]byte, 16)
	fh.ReadAt(h, 0)
	off := uint64(f.bo.Uint32(h[4:]))
	if f.big {
		off = f.bo.Uint64(h[8:])
	}
	var pages []*page
	for i := 0; off != 0; i++ {
		offs = append(offs, off)
		_, next, err := f.readIFD(off)
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.page(i)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
		off = next
	}
	return f, offs, pages
}

// TestCOGLayout: the IFDs come first, from the full image to the smallest
// overview; the tiles of the smallest overview come first and those of the
// full image last; each overview is the 2x2 average of the level above
// (no-data left out), whatever the rows' chunking.
func TestCOGLayout(t *testing.T) {
	dir := t.TempDir()
	c := hsi.MustNew(70, 50, 3)
	for i := range c.Data {
		c.Data[i] = float32(i%97) * 0.5
	}
	for _, i := range []int{0, 1, 2, 3 * 51, 3*51 + 1, 3 * 70 * 49} {
		c.Data[i] = -1
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = -1, true
	for _, big := range []string{"NO", "YES"} {
		p := filepath.Join(dir, "c.tif")
		opt := hsi.WriteOptions{Driver: "COG", Creation: []string{"BLOCKSIZE=16", "COMPRESS=ZSTD", "BIGTIFF=" + big}}
		if err := streamRows(p, c, opt, []int{5, 16, 1}); err != nil {
			t.Fatal(err)
		}
		f, offs, pages := cogLayout(t, p)
		want := uint64(8)
		if f.big {
			want = 16
		}
		if offs[0] != want || f.big != (big == "YES") {
			t.Fatalf("BIGTIFF=%s: BigTIFF %v, first IFD at %d, want %d", big, f.big, offs[0], want)
		}
		sizes := [][2]int{{50, 70}, {25, 35}, {13, 18}, {7, 9}}
		if len(pages) != len(sizes) {
			t.Fatalf("%d IFDs, want %d", len(pages), len(sizes))
		}
		st, _ := os.Stat(p)
		end := uint64(st.Size())
		for i, pg := range pages {
			if pg.w != sizes[i][0] || pg.h != sizes[i][1] || !pg.tiled || pg.cw != 16 || pg.ch != 16 || pg.spp != 3 {
				t.Fatalf("IFD %d: %dx%d tiles %dx%d, want %v in 16x16 tiles", i, pg.w, pg.h, pg.cw, pg.ch, sizes[i])
			}
			if sub := f.uint1(f.ifds[i], tNewSubfileType, 0); (sub == 1) != (i > 0) {
				t.Errorf("IFD %d: NewSubfileType %d", i, sub)
			}
			if i > 0 && offs[i] <= offs[i-1] {
				t.Errorf("IFD %d at %d, before IFD %d at %d", i, offs[i], i-1, offs[i-1])
			}
		}
		// Data: level i occupies [lo, hi), the smallest overview first, the
		// full image last and ending the file, all after the IFDs.
		prevLo := end
		for i, pg := range pages {
			lo, hi := uint64(math.MaxUint64), uint64(0)
			for k, o := range pg.offsets {
				lo, hi = min(lo, o), max(hi, o+pg.counts[k])
			}
			if (i == 0 && hi != end) || (i > 0 && hi > prevLo) {
				t.Errorf("level %d data [%d, %d) does not end where level %d starts (%d)", i, lo, hi, i-1, prevLo)
			}
			if lo <= offs[len(offs)-1] {
				t.Errorf("level %d data at %d, before the last IFD at %d", i, lo, offs[len(offs)-1])
			}
			prevLo = lo
		}
		// Values of every level.
		prev := c
		for i, pg := range pages {
			got := hsi.MustNew(pg.h, pg.w, pg.spp)
			if err := f.decodePage(pg, got, 0); err != nil {
				t.Fatal(err)
			}
			want := prev
			if i > 0 {
				want = hsi.MustNew(pg.h, pg.w, pg.spp)
				downsample(want.Data, prev, "AVERAGE", &c.Meta)
			}
			if !slices.Equal(got.Data, want.Data) {
				t.Fatalf("level %d: values differ", i)
			}
			prev = got
		}
		back, info, err := Read(p, hsi.ReadOptions{})
		if err != nil || !slices.Equal(back.Data, c.Data) || info.Detail == "" {
			t.Fatalf("read back: %v", err)
		}
	}
}

// TestCOGSmallAndNone: an image within one tile, or OVERVIEWS=NONE, has
// one IFD, at the start.
func TestCOGSmallAndNone(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		h, w int
		co   []string
	}{
		{16, 16, []string{"BLOCKSIZE=16"}},
		{37, 23, nil},
		{37, 23, []string{"BLOCKSIZE=16", "OVERVIEWS=NONE"}},
	} {
		c := testrand.Integers(testrand.New(3, 7), tc.h, tc.w, 2, 0, 100)
		p := filepath.Join(dir, "s.tif")
		if err := Write(p, c, hsi.WriteOptions{DataType: sample.Uint8, Driver: "COG", Creation: tc.co}); err != nil {
			t.Fatal(err)
		}
		_, offs, pages := cogLayout(t, p)
		if len(offs) != 1 || offs[0] != 8 || !pages[0].tiled {
			t.Errorf("%dx%d %v: IFDs at %v", tc.h, tc.w, tc.co, offs)
		}
		back, _, err := Read(p, hsi.ReadOptions{})
		if err != nil || !slices.Equal(back.Data, c.Data) {
			t.Fatalf("read back: %v", err)
		}
	}
}
