package hdf5

import (
	"errors"
	"fmt"
)

// Fill value write times (the Fill Value message's): "never" leaves the
// elements of storage never written unset.
const fillTimeNever = 1

// parseFill reads a Fill Value message (msgFill, versions 1 to 3) or the
// old Fill Value message (msgFillOld) of header message flags flags, and
// returns the fill value's bytes as stored, nil when the message defines
// none: an undefined fill value, the library's default (size 0: every
// byte 0), or a write time "never", where libhdf5 leaves the elements
// never written unset (they read as 0 here).
//
// Versions 1 and 2: version, space allocation time, fill value write
// time, fill value defined (bytes), then, in version 1 always and in
// version 2 when defined, the fill value's size (4 bytes) and bytes.
// Version 3: version and a flags byte (bits 0-1 allocation time, 2-3
// write time, 4 undefined, 5 a value follows: size and bytes). The old
// message is a size (4 bytes) and the bytes.
func parseFill(typ uint16, flags uint8, b []byte) ([]byte, error) {
	if flags&2 != 0 {
		return nil, errors.New("shared fill value message is not supported")
	}
	c := &cursor{b: b}
	value := func() []byte {
		n := c.u32()
		if int64(n) > int64(c.rest()) {
			c.err = fmt.Errorf("a fill value of %d bytes in %d", n, c.rest())
			return nil
		}
		v := c.bytes(int(n))
		if len(v) == 0 {
			return nil
		}
		return append([]byte(nil), v...)
	}
	var v []byte
	if typ == msgFillOld {
		v = value()
	} else {
		switch ver := c.u8(); ver {
		case 1, 2:
			c.skip(1) // space allocation time
			when := c.u8()
			defined := c.u8()
			if ver == 1 || defined != 0 {
				v = value()
			}
			if when > 2 {
				return nil, fmt.Errorf("fill value write time %d", when)
			}
			if defined == 0 || when == fillTimeNever {
				v = nil
			}
		case 3:
			fl := c.u8()
			if fl&^0x3f != 0 || (fl>>2)&3 > 2 || fl&0x30 == 0x30 {
				return nil, fmt.Errorf("fill value message flags %#x", fl)
			}
			if fl&0x20 != 0 {
				v = value()
			}
			if (fl>>2)&3 == fillTimeNever {
				v = nil
			}
		default:
			if c.err == nil {
				return nil, fmt.Errorf("fill value message version %d is not supported", ver)
			}
		}
	}
	if c.err != nil {
		return nil, fmt.Errorf("fill value message truncated (%v)", c.err)
	}
	return v, nil
}

// Fill returns the value the elements of a numeric dataset that were
// never written read as (HDF5's, h5py's and netCDF's rule): its fill
// value (the Fill Value message, else the old one) decoded as a stored
// element is (Datatype.Decode), or 0 when the file defines none. NetCDF-4
// sets it to the variable's _FillValue, or to netCDF's default fill for
// the type (9.969209968386869e+36 for a float) when there is none. A
// malformed message, or a fill value whose size is not the element's, is
// an error.
func (o *Object) Fill() (float64, error) {
	if !o.Type.Numeric() {
		return 0, fmt.Errorf("hdf5: dataset %s has type %s, not a number", o.Name, o.Type)
	}
	if o.fillErr != nil {
		return 0, fmt.Errorf("hdf5: dataset %s: %w", o.Name, o.fillErr)
	}
	if o.fill == nil {
		return 0, nil
	}
	if len(o.fill) != o.Type.Size {
		return 0, fmt.Errorf("hdf5: dataset %s: a fill value of %d bytes for elements of %d (%s)", o.Name, len(o.fill), o.Type.Size, o.Type)
	}
	var v [1]float64
	o.Type.Decode(o.fill, v[:])
	return v[0], nil
}
