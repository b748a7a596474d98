package envi

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi/internal/raw"
)

// FuzzRead feeds arbitrary header text and data bytes through the header
// parser, the metadata conversion and the data reader. It must never panic
// and never allocate more than the data it is given can fill.
func FuzzRead(f *testing.F) {
	hdrs, _ := filepath.Glob("testdata/*.hdr")
	for _, h := range hdrs {
		text, err := os.ReadFile(h)
		if err != nil {
			f.Fatal(err)
		}
		_, data, err := Pair(h)
		if err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(data)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text, b)
	}
	f.Add([]byte(okHeader+"wavelength = {1,2,\n3,4}\nbbl={1,0,1,1}\n"), make([]byte, 48))
	f.Fuzz(func(t *testing.T, hdr, data []byte) {
		h, err := parseHeader(hdr)
		if err != nil {
			if h != nil {
				t.Fatal("header returned with an error")
			}
			return
		}
		m, err := h.meta()
		if err != nil {
			return
		}
		if len(m.Wavelengths) != 0 && len(m.Wavelengths) != h.bands {
			t.Fatalf("%d wavelengths for %d bands", len(m.Wavelengths), h.bands)
		}
		c, err := readData(bytes.NewReader(data), int64(len(data)), h, "fuzz", "fuzz.hdr")
		if c == nil {
			if err == nil {
				t.Fatal("no cube and no error")
			}
			return
		}
		if c.H != h.lines || c.W != h.samples || c.B != h.bands || len(c.Data) != c.H*c.W*c.B {
			t.Fatalf("cube %dx%dx%d (%d values) for header %dx%dx%d", c.H, c.W, c.B, len(c.Data), h.lines, h.samples, h.bands)
		}
		if int64(len(c.Data))*int64(h.typ.Size()) > int64(len(data)) {
			t.Fatal("cube larger than its data")
		}
		if err != nil && !strings.Contains(err.Error(), "non-finite") {
			t.Fatalf("cube returned with error %v", err)
		}
		if err == nil {
			if e := raw.CheckFinite("fuzz", c); e != nil {
				t.Fatalf("non-finite value not reported: %v", e)
			}
		}
	})
}
