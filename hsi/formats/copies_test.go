package formats_test

import (
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// TestPublicListsAreCopies changes what the public functions return and
// checks that the next call, and the package, are unaffected: the lists
// that act as constants cannot be changed from outside.
func TestPublicListsAreCopies(t *testing.T) {
	for _, tc := range []struct {
		name string
		get  func() []string
	}{
		{"hsi.GridFields", hsi.GridFields},
		{"envi.DataExts", envi.DataExts},
		{"formats.Extensions", formats.Extensions},
		{"formats.Formats()[0].Exts", func() []string { return formats.Formats()[0].Exts }},
		{"formats.ForWrite(x.tif).Exts", func() []string { f, _ := formats.ForWrite("x.tif"); return f.Exts }},
		{"formats.ForRead(x.npy).Exts", func() []string { f, _ := formats.ForRead("x.npy"); return f.Exts }},
	} {
		want := slices.Clone(tc.get())
		if len(want) == 0 {
			t.Fatalf("%s: empty", tc.name)
		}
		got := tc.get()
		got[0] = "changed"
		if again := tc.get(); !slices.Equal(again, want) {
			t.Errorf("%s: %q after a caller changed its copy, want %q", tc.name, again, want)
		}
	}
	f, err := formats.ForWrite("x.tif")
	if err != nil {
		t.Fatal(err)
	}
	f.Write, f.Name = nil, "changed"
	if g, err := formats.ForWrite("y.tif"); err != nil || g.Write == nil || g.Name != "TIFF" {
		t.Errorf("ForWrite after a caller changed its format: %+v, %v", g, err)
	}
}
