package tiff

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// craft builds a little-endian classic TIFF: header, data at byte 8, then
// one IFD with the given tags (strip offsets are relative to the data).
func craft(data []byte, tags ...tagValue) []byte {
	out := []byte{'I', 'I', 42, 0, 0, 0, 0, 0}
	out = append(out, data...)
	if len(out)%2 == 1 {
		out = append(out, 0)
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].tag < tags[j].tag })
	at := uint64(len(out))
	binary.LittleEndian.PutUint32(out[4:], uint32(at))
	return append(out, encodeIFD(tags, at, false, 0)...)
}

// stripTags describes a w x h image of spp uint16 samples in one strip at byte 8.
func stripTags(w, h, spp int, count uint64, extra ...tagValue) []tagValue {
	bps := make([]uint64, spp)
	for i := range bps {
		bps[i] = 16
	}
	t := []tagValue{
		longs(tImageWidth, uint64(w)), longs(tImageLength, uint64(h)), shorts(tBitsPerSample, bps...),
		shorts(tSamplesPerPixel, uint64(spp)), longs(tStripOffsets, 8), longs(tStripByteCounts, count),
		longs(tRowsPerStrip, uint64(h)), shorts(tPhotometric, 1),
	}
	byTag := map[uint16]int{}
	for i, x := range t {
		byTag[x.tag] = i
	}
	for _, x := range extra {
		if i, ok := byTag[x.tag]; ok {
			t[i] = x
		} else {
			t = append(t, x)
		}
	}
	return t
}

func writeTemp(t *testing.T, b []byte) string {
	p := filepath.Join(t.TempDir(), "bad.tif")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCraftedValid(t *testing.T) {
	// The crafting helper makes a readable file (so the failures below are
	// caused by the one thing each changes).
	data := make([]byte, 3*2*2*2)
	for i := range data {
		data[i] = byte(i)
	}
	c, _, err := Read(writeTemp(t, craft(data, stripTags(3, 2, 2, uint64(len(data)))...)), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.H != 2 || c.W != 3 || c.B != 2 || c.At(0, 0, 1) != 0x0302 {
		t.Fatalf("cube %dx%dx%d, (0,0,1) = %v", c.H, c.W, c.B, c.At(0, 0, 1))
	}
}

func TestBadInput(t *testing.T) {
	data := make([]byte, 3*2*2*2)
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"wrong magic", []byte("GIF89a and some more bytes"), "not a TIFF"},
		{"short", []byte("II*"), "too short"},
		{"bad version", []byte("II\x2b\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), "BigTIFF header"},
		{"no IFD", []byte("II*\x00\x00\x00\x00\x00"), "no image"},
		{"IFD beyond end", []byte("II*\x00\xff\xff\x00\x00"), "beyond the end"},
		{"zero width", craft(data, stripTags(0, 2, 2, 24)...), "0-size"},
		{"12-bit samples", craft(data, stripTags(3, 2, 2, 24, shorts(tBitsPerSample, 12, 12))...), "12-bit"},
		{"complex samples", craft(data, stripTags(3, 2, 2, 24, shorts(tSampleFormat, 5, 5))...), "sample format 5"},
		{"JPEG", craft(data, stripTags(3, 2, 2, 24, shorts(tCompression, 7))...), "compression 7"},
		{"predictor 3 on integers", craft(data, stripTags(3, 2, 2, 24, shorts(tPredictor, 3))...), "floating-point predictor"},
		{"strip beyond end", craft(data, stripTags(3, 2, 2, 2400)...), "beyond the end"},
		{"strip too short", craft(data, stripTags(3, 2, 2, 10)...), "truncated"},
		{"missing offsets", craft(data, shorts(tImageWidth, 3), shorts(tImageLength, 2), shorts(tBitsPerSample, 16))[:], "offsets"},
		{"huge declared size", craft(data, stripTags(1000000, 1000000, 200, 24, shorts(tCompression, 8))...), "cannot come from"},
		{"huge uncompressed", craft(data, stripTags(100000, 100000, 3, 24)...), "damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeTemp(t, tc.file)
			before := allocated()
			_, _, err := Read(p, hsi.ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("err = %v, want one naming the file and saying %q", err, tc.want)
			}
			if a := allocated() - before; a > 16<<20 {
				t.Errorf("%d bytes allocated", a)
			}
			before = allocated()
			if err := readRows(p); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("OpenRows and ReadRows: err = %v, want one naming the file and saying %q", err, tc.want)
			}
			if a := allocated() - before; a > 16<<20 {
				t.Errorf("OpenRows: %d bytes allocated", a)
			}
		})
	}
}

// TestTruncated cuts goldens at many lengths: every cut fails with an error
// naming the file, never a panic.
func TestTruncated(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"uint16_pixel.tif", "float32_lzw_pred3_band.tif", "int16_tiled_lzw_pred2_band.tif", "uint16_bigtiff_tiled_band.tif", "float32_pages.tif", "uint16_pages_deflate_be.tif"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/101)
		fails := 0
		cuts := 0
		for cut := 0; cut < len(b); cut += step {
			p := filepath.Join(dir, "cut.tif")
			if err := os.WriteFile(p, b[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			cuts++
			_, _, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				fails++
				if !strings.Contains(err.Error(), p) {
					t.Errorf("%s cut at %d: error %q does not name the file", name, cut, err)
				}
			}
			if serr := readRows(p); serr == nil || !strings.Contains(serr.Error(), p) {
				if err != nil {
					t.Errorf("%s cut at %d: Read fails (%v), OpenRows and ReadRows row by row: %v", name, cut, err, serr)
				}
			}
		}
		// GDAL puts the IFD first and tifffile puts data before IFDs; in both
		// every cut loses data or structure.
		if fails != cuts {
			t.Errorf("%s: %d of %d truncated copies read without error", name, cuts-fails, cuts)
		}
	}
}

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// readRows opens p with OpenRows and reads its rows one at a time: the
// first error.
func readRows(p string) error {
	r, err := OpenRows(p)
	if err != nil {
		return err
	}
	defer r.Close()
	hd := r.Header()
	row := make([]float32, hd.W*hd.B)
	for y := 0; y < hd.H; y++ {
		if err := r.ReadRows(y, y+1, row); err != nil {
			return err
		}
	}
	return nil
}
