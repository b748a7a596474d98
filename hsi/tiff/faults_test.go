package tiff

import (
	"encoding/binary"
	"sort"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// craftPages builds a little-endian classic TIFF of several pages: the
// data at byte 8, then one IFD per page, chained.
func craftPages(data []byte, pages ...[]tagValue) []byte {
	out := []byte{'I', 'I', 42, 0, 0, 0, 0, 0}
	out = append(out, data...)
	next := 4 // where the offset of the next IFD goes
	for _, tags := range pages {
		if len(out)%2 == 1 {
			out = append(out, 0)
		}
		sort.Slice(tags, func(i, j int) bool { return tags[i].tag < tags[j].tag })
		at := uint64(len(out))
		binary.LittleEndian.PutUint32(out[next:], uint32(at))
		out = append(out, encodeIFD(tags, at, false, 0)...)
		next = int(at) + 2 + 12*len(tags)
	}
	return out
}

// Two pages of different sizes are an error naming both sizes, not page 0
// alone; two pages of one size are two bands.
func TestPagesOfDifferentSizes(t *testing.T) {
	data := make([]byte, 3*2*2)
	same := craftPages(data, stripTags(3, 2, 1, 12), stripTags(3, 2, 1, 12))
	c, _, err := Read(writeTemp(t, same), hsi.ReadOptions{})
	if err != nil || c.B != 2 {
		t.Fatalf("two equal pages: %v, %v", c, err)
	}
	diff := craftPages(data, stripTags(3, 2, 1, 12), stripTags(2, 3, 1, 12))
	_, _, err = Read(writeTemp(t, diff), hsi.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "page 1 is 2x3 pixels but page 0 is 3x2") {
		t.Fatalf("pages of different sizes: %v", err)
	}
}

// GDAL_NODATA that is not a number is an error, as ENVI's data ignore value.
func TestGDALNoDataNotANumber(t *testing.T) {
	data := make([]byte, 3*2*2)
	for _, tc := range []struct {
		nodata string
		ok     bool
		want   float64
	}{
		{"banana", false, 0},
		{"-9999", true, -9999},
		{" 0 ", true, 0},
	} {
		b := craftPages(data, stripTags(3, 2, 1, 12, ascii(tGDALNoData, tc.nodata)))
		c, _, err := Read(writeTemp(t, b), hsi.ReadOptions{})
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), `GDAL_NODATA = "banana" is not a number`) {
				t.Errorf("%q: %v", tc.nodata, err)
			}
			continue
		}
		if err != nil || !c.Meta.HasDataIgnore || c.Meta.DataIgnore != tc.want {
			t.Errorf("%q: %v, %+v", tc.nodata, err, c)
		}
	}
}
