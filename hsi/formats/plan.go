package formats

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
)

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

// IgnoredReadOptions names the fields of ro that the reader of path's
// format would ignore ("Var", "Layout", "Height/Width", "Ortho"): Var,
// Layout, Height and Width select an array of a MATLAB or HDF5 file, Ortho
// the map grid of an EMIT, EnMAP or DESIS product. A caller refuses them
// rather than read another image than the one asked for; nil when the
// format is unknown (the reader reports that).
func IgnoredReadOptions(path string, ro hsi.ReadOptions) []string {
	f, err := ForRead(path)
	if err != nil {
		return nil
	}
	var ignored []string
	array := f.Name != "MAT" && f.Name != "HDF5" && f.Name != "EnMAP"
	if array && ro.Var != "" {
		ignored = append(ignored, "Var")
	}
	if array && ro.Layout != "" {
		ignored = append(ignored, "Layout")
	}
	if array && (ro.Height != 0 || ro.Width != 0) {
		ignored = append(ignored, "Height/Width")
	}
	if ro.Ortho && f.Name != "HDF5" && f.Name != "EnMAP" {
		ignored = append(ignored, "Ortho")
	}
	return ignored
}
