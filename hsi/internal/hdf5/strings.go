package hdf5

import (
	"fmt"
	"strings"
)

// maxStringElems bounds the elements of a string dataset that are read:
// string datasets hold metadata (a CRS code, a map info line), not data.
const maxStringElems = 1 << 16

// ReadStrings reads a dataset of fixed- or variable-length strings (a
// scalar gives one string), in C order. Fixed-length strings lose their
// NUL and space padding, as string attributes do.
func (o *Object) ReadStrings() ([]string, error) {
	if o.Kind != KindDataset {
		return nil, fmt.Errorf("hdf5: %s is not a dataset", o.Name)
	}
	t := o.Type
	vlen := t.Class == ClassVlen && t.VlenString
	if t.Class != ClassString && !vlen {
		return nil, fmt.Errorf("hdf5: dataset %s has type %s, not a string", o.Name, t)
	}
	n, err := o.Numel()
	if err != nil {
		return nil, err
	}
	if n > maxStringElems {
		return nil, fmt.Errorf("hdf5: dataset %s: %d strings is too many for a metadata dataset", o.Name, n)
	}
	es := t.Size
	if vlen {
		es = 4 + o.f.so + 4 // length, global heap collection address, object index
	}
	if es <= 0 || es != t.Size {
		return nil, fmt.Errorf("hdf5: dataset %s: string elements of %d bytes", o.Name, t.Size)
	}
	out := make([]string, n)
	err = o.readRaw(func(start uint64, raw []byte) error {
		k := uint64(len(raw) / es)
		if start > n || k > n-start {
			return fmt.Errorf("hdf5: dataset %s: run outside the dataset", o.Name)
		}
		for i := uint64(0); i < k; i++ {
			e := raw[int(i)*es : int(i+1)*es]
			if !vlen {
				out[start+i] = strings.TrimRight(cstring(e), " ")
				continue
			}
			c := &cursor{b: e}
			cnt := c.u32()
			coll := c.addr(o.f.so)
			idx := c.u32()
			if cnt == 0 || o.f.undef(coll) {
				continue
			}
			obj, err := o.f.globalHeapObject(coll, idx)
			if err != nil {
				return fmt.Errorf("hdf5: dataset %s: %w", o.Name, err)
			}
			out[start+i] = cstring(obj)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
