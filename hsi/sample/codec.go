package sample

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Decode converts n samples of type t from src into dst[0], dst[stride],
// ..., dst[(n-1)*stride]. bigEndian selects the byte order of src. It
// returns the index (0..n-1) of the first NaN or infinite sample, or -1,
// and the number of such samples; a float64 sample beyond the float32 range
// becomes an infinite value and counts as one. src must hold n*t.Size() bytes and dst
// (n-1)*stride+1 values; Decode panics otherwise (a programming error).
func Decode(dst []float32, stride int, src []byte, n int, t Type, bigEndian bool) (firstBad, nBad int) {
	firstBad = -1
	if n <= 0 {
		return
	}
	_ = dst[(n-1)*stride]
	_ = src[n*t.Size()-1]
	le := binary.LittleEndian
	j := 0
	switch t {
	case Uint8:
		for i := 0; i < n; i++ {
			dst[j] = float32(src[i])
			j += stride
		}
	case Int8:
		for i := 0; i < n; i++ {
			dst[j] = float32(int8(src[i]))
			j += stride
		}
	case Int16:
		for i := 0; i < n; i++ {
			u := le.Uint16(src[2*i:])
			if bigEndian {
				u = bits.ReverseBytes16(u)
			}
			dst[j] = float32(int16(u))
			j += stride
		}
	case Uint16:
		for i := 0; i < n; i++ {
			u := le.Uint16(src[2*i:])
			if bigEndian {
				u = bits.ReverseBytes16(u)
			}
			dst[j] = float32(u)
			j += stride
		}
	case Int32:
		for i := 0; i < n; i++ {
			u := le.Uint32(src[4*i:])
			if bigEndian {
				u = bits.ReverseBytes32(u)
			}
			dst[j] = float32(int32(u))
			j += stride
		}
	case Uint32:
		for i := 0; i < n; i++ {
			u := le.Uint32(src[4*i:])
			if bigEndian {
				u = bits.ReverseBytes32(u)
			}
			dst[j] = float32(u)
			j += stride
		}
	case Int64:
		for i := 0; i < n; i++ {
			u := le.Uint64(src[8*i:])
			if bigEndian {
				u = bits.ReverseBytes64(u)
			}
			dst[j] = float32(int64(u))
			j += stride
		}
	case Uint64:
		for i := 0; i < n; i++ {
			u := le.Uint64(src[8*i:])
			if bigEndian {
				u = bits.ReverseBytes64(u)
			}
			dst[j] = float32(u)
			j += stride
		}
	case Float16:
		for i := 0; i < n; i++ {
			u := le.Uint16(src[2*i:])
			if bigEndian {
				u = bits.ReverseBytes16(u)
			}
			v := half(u)
			if v-v != 0 {
				if firstBad < 0 {
					firstBad = i
				}
				nBad++
			}
			dst[j] = v
			j += stride
		}
	case Float32:
		for i := 0; i < n; i++ {
			u := le.Uint32(src[4*i:])
			if bigEndian {
				u = bits.ReverseBytes32(u)
			}
			v := math.Float32frombits(u)
			if v-v != 0 {
				if firstBad < 0 {
					firstBad = i
				}
				nBad++
			}
			dst[j] = v
			j += stride
		}
	case Float64:
		for i := 0; i < n; i++ {
			u := le.Uint64(src[8*i:])
			if bigEndian {
				u = bits.ReverseBytes64(u)
			}
			v := float32(math.Float64frombits(u)) // beyond the float32 range becomes +-Inf
			if v-v != 0 {
				if firstBad < 0 {
					firstBad = i
				}
				nBad++
			}
			dst[j] = v
			j += stride
		}
	default:
		panic("sample: Decode of invalid type " + t.String())
	}
	return
}

// half converts an IEEE 754 binary16 value to float32.
func half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: man * 2^-24.
		v := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// Encode converts src[0], src[stride], ..., src[(n-1)*stride] to type t
// into dst, rounding with Round for integer types; bigEndian selects the
// byte order of dst. It returns the index (0..n-1) of the first value that
// Fits rejects (an infinity, NaN for an integer type, or a value outside
// the range of t), or -1 when all fit. Every value is written: a rejected
// value of an integer type as 0, NaN and infinities of a float type as they
// are (NaN is the usual no-data value of float rasters), so a writer that
// checked its values beforehand can ignore the index. dst must hold
// n*t.Size() bytes. Float16 cannot be written.
func Encode(dst []byte, src []float32, stride int, n int, t Type, bigEndian bool) (bad int) {
	bad = -1
	if n <= 0 {
		return
	}
	_ = src[(n-1)*stride]
	_ = dst[n*t.Size()-1]
	if t == Float32 && stride == 1 && !bigEndian {
		return encodeFloat32LE(dst[:4*n], src[:n])
	}
	le, be := binary.LittleEndian, binary.BigEndian
	lo, hi := t.Range()
	j := 0
	switch t {
	case Uint8, Int8:
		for i := 0; i < n; i++ {
			v := Round(src[j])
			if !(v >= lo && v <= hi) {
				v = 0
				if bad < 0 {
					bad = i
				}
			}
			dst[i] = uint8(int16(v))
			j += stride
		}
	case Int16, Uint16:
		for i := 0; i < n; i++ {
			v := Round(src[j])
			if !(v >= lo && v <= hi) {
				v = 0
				if bad < 0 {
					bad = i
				}
			}
			u := uint16(int32(v))
			if bigEndian {
				be.PutUint16(dst[2*i:], u)
			} else {
				le.PutUint16(dst[2*i:], u)
			}
			j += stride
		}
	case Int32, Uint32:
		for i := 0; i < n; i++ {
			v := Round(src[j])
			if !(v >= lo && v <= hi) {
				v = 0
				if bad < 0 {
					bad = i
				}
			}
			u := uint32(int64(v))
			if bigEndian {
				be.PutUint32(dst[4*i:], u)
			} else {
				le.PutUint32(dst[4*i:], u)
			}
			j += stride
		}
	case Int64, Uint64:
		// 2^63 and 2^64 are exact float64 values; the upper bounds are exclusive.
		signed := t == Int64
		for i := 0; i < n; i++ {
			v := Round(src[j])
			var u uint64
			switch {
			case signed && v >= -(1<<63) && v < 1<<63:
				u = uint64(int64(v))
			case !signed && v >= 0 && v < 1<<64:
				u = uint64(v)
			default:
				if bad < 0 {
					bad = i
				}
			}
			if bigEndian {
				be.PutUint64(dst[8*i:], u)
			} else {
				le.PutUint64(dst[8*i:], u)
			}
			j += stride
		}
	case Float32:
		for i := 0; i < n; i++ {
			v := src[j]
			if v-v != 0 && v == v && bad < 0 { // infinite
				bad = i
			}
			u := math.Float32bits(v)
			if bigEndian {
				be.PutUint32(dst[4*i:], u)
			} else {
				le.PutUint32(dst[4*i:], u)
			}
			j += stride
		}
	case Float64:
		for i := 0; i < n; i++ {
			v := src[j]
			if v-v != 0 && v == v && bad < 0 { // infinite
				bad = i
			}
			u := math.Float64bits(float64(v))
			if bigEndian {
				be.PutUint64(dst[8*i:], u)
			} else {
				le.PutUint64(dst[8*i:], u)
			}
			j += stride
		}
	default:
		panic("sample: Encode to unsupported type " + t.String())
	}
	return bad
}

// FromBits converts one sample of type t held in the low t.Size()*8 bits
// of v (as a reader that assembles words, such as TIFF's predictor, has
// it) to float32. Float16 is decoded like Decode does.
func FromBits(v uint64, t Type) float32 {
	switch t {
	case Uint8:
		return float32(uint8(v))
	case Int8:
		return float32(int8(v))
	case Int16:
		return float32(int16(v))
	case Uint16:
		return float32(uint16(v))
	case Int32:
		return float32(int32(v))
	case Uint32:
		return float32(uint32(v))
	case Int64:
		return float32(int64(v))
	case Uint64:
		return float32(v)
	case Float16:
		return half(uint16(v))
	case Float32:
		return math.Float32frombits(uint32(v))
	case Float64:
		return float32(math.Float64frombits(v))
	}
	panic("sample: FromBits of invalid type " + t.String())
}

// DecodeFloat64 converts len(dst) samples of type t from src to float64,
// for values that are kept in double precision (MAT metadata vectors,
// HDF5 attributes). bigEndian selects the byte order of src. Every type
// converts exactly except 64-bit integers beyond +-2^53, which round to the
// nearest float64. src must hold len(dst)*t.Size() bytes.
func DecodeFloat64(dst []float64, src []byte, t Type, bigEndian bool) {
	var bo binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		bo = binary.BigEndian
	}
	switch t {
	case Uint8:
		for i := range dst {
			dst[i] = float64(src[i])
		}
	case Int8:
		for i := range dst {
			dst[i] = float64(int8(src[i]))
		}
	case Int16:
		for i := range dst {
			dst[i] = float64(int16(bo.Uint16(src[2*i:])))
		}
	case Uint16:
		for i := range dst {
			dst[i] = float64(bo.Uint16(src[2*i:]))
		}
	case Int32:
		for i := range dst {
			dst[i] = float64(int32(bo.Uint32(src[4*i:])))
		}
	case Uint32:
		for i := range dst {
			dst[i] = float64(bo.Uint32(src[4*i:]))
		}
	case Int64:
		for i := range dst {
			dst[i] = float64(int64(bo.Uint64(src[8*i:])))
		}
	case Uint64:
		for i := range dst {
			dst[i] = float64(bo.Uint64(src[8*i:]))
		}
	case Float16:
		for i := range dst {
			dst[i] = float64(half(bo.Uint16(src[2*i:])))
		}
	case Float32:
		for i := range dst {
			dst[i] = float64(math.Float32frombits(bo.Uint32(src[4*i:])))
		}
	case Float64:
		for i := range dst {
			dst[i] = math.Float64frombits(bo.Uint64(src[8*i:]))
		}
	default:
		panic("sample: DecodeFloat64 of invalid type " + t.String())
	}
}

// encodeFloat32LE is Encode of contiguous float32 values in little-endian
// order (the writers' usual case), a loop without per-value branches on
// the byte order or the stride.
func encodeFloat32LE(dst []byte, src []float32) (bad int) {
	bad = -1
	dst = dst[:4*len(src)]
	for i, v := range src {
		u := math.Float32bits(v)
		if u&0x7fffffff == 0x7f800000 && bad < 0 { // infinite
			bad = i
		}
		binary.LittleEndian.PutUint32(dst[4*i:4*i+4], u)
	}
	return bad
}
