package omnihsr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/resample"
)

func TestRenderFile(t *testing.T) {
	lr, err := hsi.New(4, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range lr.Data {
		lr.Data[i] = float32(i*13) - 20 // some below 0 and above 255
	}
	m, err := method.Lookup("bicubic")
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Prepare(nil, lr)
	if err != nil {
		t.Fatal(err)
	}
	want, err := resample.Upsample(lr, 8, 10)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tests := []struct {
		name, file string
		typ        sample.Type
		clamped    bool
	}{
		{"float32 ENVI", "a.hdr", sample.Invalid, false},
		{"float32 NPY", "b.npy", sample.Invalid, false},
		{"uint8 clamps", "c.hdr", sample.Uint8, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			last := 0
			rep, err := renderFileContext(context.Background(), r, lr, hsi.SourceInfo{}, 8, 10, path, hsi.WriteOptions{DataType: tc.typ}, func(done, total int) { last = done })
			if err != nil {
				t.Fatal(err)
			}
			warn := rep.Warnings()
			if last != 8 {
				t.Errorf("progress ended at %d rows, want 8", last)
			}
			hasClamp := len(warn) > 0 && strings.Contains(strings.Join(warn, "\n"), "clamped")
			if hasClamp != tc.clamped {
				t.Errorf("warnings %q: clamped reported %v, want %v", warn, hasClamp, tc.clamped)
			}
			got, _, err := formats.Read(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.H != 8 || got.W != 10 || got.B != 2 {
				t.Fatalf("wrote %dx%dx%d, want 8x10x2", got.H, got.W, got.B)
			}
			if tc.typ == sample.Invalid {
				for i := range got.Data {
					if got.Data[i] != want.Data[i] {
						t.Fatalf("sample %d = %v, resample.Upsample gives %v", i, got.Data[i], want.Data[i])
					}
				}
			} else {
				for _, v := range got.Data {
					if v < 0 || v > 255 {
						t.Fatalf("uint8 output holds %v", v)
					}
				}
			}
		})
	}
	// A render that fails after writing rows leaves no file and no
	// temporary.
	for _, name := range []string{"d.hdr", "e.npy", "f.tif"} {
		path := filepath.Join(dir, "fail", name)
		_, err := renderFileContext(context.Background(), failing{r}, lr, hsi.SourceInfo{}, 8, 10, path, hsi.WriteOptions{}, nil)
		if err == nil || !strings.Contains(err.Error(), "disk gone") {
			t.Fatalf("%s: error %v, want the renderer's", name, err)
		}
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "fail")); err != nil || len(entries) > 0 {
		t.Errorf("failed renders left %v (%v)", entries, err)
	}
}

// failing renders the first row of r (2 bands), then fails.
type failing struct{ r method.Renderer }

func (f failing) RenderTo(h, w int, sink model.RowSink, progress func(done, total int)) error {
	return f.r.RenderTo(h, w, failAfter{sink: sink, row: w * 2}, progress)
}

// failAfter passes on the first row (row samples) of the first call, then
// fails.
type failAfter struct {
	sink model.RowSink
	row  int
}

func (f failAfter) WriteRows(data []float32) error {
	if err := f.sink.WriteRows(data[:f.row]); err != nil {
		return err
	}
	return errors.New("disk gone")
}
