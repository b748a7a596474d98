package fillgolden

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Files is the number of miniatures fill_golden.json lists.
const Files = 7

// File is one entry of fill_golden.json: a dataset written in part and
// every value h5py reads from it.
type File struct {
	File    string   `json:"file"`    // the file's name in its folder
	Dataset string   `json:"dataset"` // the dataset's path, "/cube"
	Shape   []uint64 `json:"shape"`   // as stored (C order)
	Dtype   string   `json:"dtype"`
	Fill    float64  `json:"fill"` // h5py's fillvalue
	// Scale and Offset are the CF packing a reader applies (1 and 0
	// without scale_factor and add_offset); NoData is _FillValue (nil
	// without one), which unpacking keeps as it is.
	Scale  float64   `json:"scale"`
	Offset float64   `json:"offset"`
	NoData *float64  `json:"nodata"`
	Chunks int       `json:"chunks_written"`
	Values []float64 `json:"values"` // every value, in C order
}

// Load reads fill_golden.json in dir (hsi/products/testdata/fill, from
// the test's package), failing tb unless it lists Files files.
func Load(tb testing.TB, dir string) []File {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "fill_golden.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var g []File
	if err := json.Unmarshal(b, &g); err != nil {
		tb.Fatal(err)
	}
	if len(g) != Files {
		tb.Fatalf("fill_golden.json lists %d files, want %d", len(g), Files)
	}
	return g
}
