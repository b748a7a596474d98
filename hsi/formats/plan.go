package formats

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/png"
)

// Shape returns the rows, columns and bands of the image at path from its
// header alone, so that a command can check its outputs before it reads a
// large input. ok is false for formats whose shape cannot be told without
// reading (MAT, TIFF) or when the header cannot be read (Read then reports
// the problem). For PNG, bands is the fewest Read may give.
func Shape(path string) (h, w, b int, ok bool) {
	f, err := ForRead(path)
	if err != nil || checkRegular(path) != nil {
		return 0, 0, 0, false
	}
	switch f.Name {
	case "ENVI":
		h, w, b, _, _, err = envi.ReadHeader(path)
	case "NPY":
		h, w, b, err = npy.Shape(path)
	case "PNG":
		h, w, b, err = png.Shape(path)
	default:
		return 0, 0, 0, false
	}
	if err != nil || h < 1 || w < 1 || b < 1 {
		return 0, 0, 0, false
	}
	return h, w, b, true
}

// Output is one output file a command is about to write.
type Output struct {
	Path    string
	H, W, B int
	Opt     hsi.WriteOptions
}

// CheckOutputs checks, before anything is read or written, what Create
// would check of each output: its format takes the options; a streamed
// output (Format.Create) fits on its file system together with the other
// streamed outputs there, counted at their uncompressed size (an error
// matching hsi.ErrNoSpace); an output written from memory fits in the
// memory available (hsi.ErrTooLarge).
func CheckOutputs(outs []Output) error {
	need := map[string]uint64{} // by file system
	first := map[string]string{}
	for _, o := range outs {
		f, err := forWrite(o.Path, o.Opt)
		if err != nil {
			return err
		}
		n, err := hsi.Elems(o.H, o.W, o.B)
		if err != nil {
			return fmt.Errorf("formats: create %s: %w", o.Path, err)
		}
		if f.Create == nil {
			if err := checkMemOutput(f, o.Path, o.H, o.W, o.B); err != nil {
				return err
			}
			continue
		}
		t, err := raw.WriteType(o.Opt.DataType)
		if err != nil {
			continue // the format's Create reports the bad type
		}
		key := fsKey(o.Path)
		need[key] += uint64(n) * uint64(t.Size())
		if first[key] == "" {
			first[key] = o.Path
		}
		if err := checkDisk(o.Path, need[key]); err != nil {
			if first[key] != o.Path {
				return fmt.Errorf("%w (with the other outputs from %s on the same file system)", err, first[key])
			}
			return err
		}
	}
	return nil
}
