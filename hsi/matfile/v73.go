package matfile

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
)

var numericClasses = map[string]bool{
	"double": true, "single": true, "int8": true, "uint8": true, "int16": true, "uint16": true,
	"int32": true, "uint32": true, "int64": true, "uint64": true, "logical": true,
}

// classOf names the MATLAB class of an HDF5 type without a MATLAB_class attribute.
func classOf(t hdf5.Datatype) string {
	switch s := t.String(); s {
	case "float64":
		return "double"
	case "float32":
		return "single"
	default:
		return s
	}
}

func (s *source) listV73(fh io.ReaderAt, size int64) error {
	f, err := hdf5.Open(fh, size)
	if err != nil {
		if errors.Is(err, hdf5.ErrNotHDF5) {
			return errors.New("MAT v7.3 header but no HDF5 superblock: truncated or damaged file")
		}
		return err
	}
	s.detail = fmt.Sprintf("HDF5 superblock v%d", f.SuperblockVersion)
	mem, err := f.Members()
	if err != nil {
		return err
	}
	for _, o := range mem {
		if strings.HasPrefix(o.Name, "#") {
			continue // #refs# and #subsystem# hold the contents of cells and objects
		}
		v := &variable{VarInfo: VarInfo{Name: o.Name}, maxBytes: -1}
		cls := o.AttrString("MATLAB_class")
		switch o.Kind {
		case hdf5.KindGroup:
			v.Class = cls
			if _, ok := o.Attrs["MATLAB_sparse"]; ok {
				v.Class = "sparse"
			}
			if v.Class == "" {
				v.Class = "struct"
			}
			v.Dims = []int{1, 1}
		case hdf5.KindDataset:
			for i := len(o.Dims) - 1; i >= 0; i-- {
				d := o.Dims[i]
				if d > math.MaxInt32*1024 {
					return fmt.Errorf("dataset %s: dimension %d is too large", o.Name, d)
				}
				v.Dims = append(v.Dims, int(d))
			}
			if len(v.Dims) == 1 {
				v.Dims = append(v.Dims, 1)
			}
			if len(v.Dims) == 0 {
				v.Dims = []int{1, 1}
			}
			if cls == "" {
				cls = classOf(o.Type)
			}
			v.Class = cls
			if a, ok := o.Attrs["MATLAB_empty"]; ok && a.IsNum && a.Num != 0 {
				for i := range v.Dims {
					v.Dims[i] = 0
				}
			}
			v.Numeric = numericClasses[cls] && o.Type.Numeric()
			if numericClasses[cls] && !o.Type.Numeric() {
				v.Complex = o.Type.Class == 6 // MATLAB stores complex arrays as {real, imag} compounds
			}
			v.storage = o.Type.String()
			if v.Numeric || cls == "char" && o.Type.Numeric() {
				o := o
				v.elemSize = o.Type.Size
				v.maxBytes = size*maxDeflateRatio + 4096
				v.detail = "HDF5 " + o.LayoutName()
				if fl := o.FilterNames(); fl != "" {
					v.detail += " " + fl
				}
				if fill, err := o.Fill(); err != nil {
					v.bad = err
				} else {
					v.fill = fill
				}
				v.stream = func(emit func(int, []float64) error) error {
					var buf []float64
					es := o.Type.Size
					return o.Read(func(start uint64, raw []byte) error {
						k := len(raw) / es
						if cap(buf) < k {
							buf = make([]float64, k)
						}
						o.Type.Decode(raw, buf[:k])
						if start > math.MaxInt32*1024 {
							return fmt.Errorf("dataset %s: element %d out of range", o.Name, start)
						}
						return emit(int(start), buf[:k])
					})
				}
			}
		default:
			v.Class = cls
			if v.Class == "" {
				v.Class = "unknown"
			}
		}
		s.vars = append(s.vars, v)
	}
	return nil
}
