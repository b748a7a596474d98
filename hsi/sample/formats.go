package sample

// ENVI "data type" codes. ENVI has no int8 or float16.
var enviCodes = map[int]Type{
	1: Uint8, 2: Int16, 3: Int32, 4: Float32, 5: Float64,
	12: Uint16, 13: Uint32, 14: Int64, 15: Uint64,
}

// FromENVI returns the type of an ENVI "data type" code (1-5, 12-15).
func FromENVI(code int) (Type, bool) {
	t, ok := enviCodes[code]
	return t, ok
}

// ENVI returns t's ENVI "data type" code, false when ENVI cannot store t.
func (t Type) ENVI() (int, bool) {
	for c, tt := range enviCodes {
		if tt == t {
			return c, true
		}
	}
	return 0, false
}

// NPY dtype kinds and sizes, without the byte-order character ("b1",
// NumPy's bool, reads as uint8).
var npyKinds = map[string]Type{
	"u1": Uint8, "i1": Int8, "i2": Int16, "u2": Uint16, "i4": Int32, "u4": Uint32,
	"i8": Int64, "u8": Uint64, "f2": Float16, "f4": Float32, "f8": Float64,
	"b1": Uint8,
}

// FromNPY returns the type of an NPY dtype kind and size such as "i2" or
// "f4" (the descriptor without its byte-order character).
func FromNPY(kind string) (Type, bool) {
	t, ok := npyKinds[kind]
	return t, ok
}

// NPY returns the little-endian NPY dtype descriptor of t ("|u1", "<i2",
// "<f4", ...), false for the types that are not written (Float16).
func (t Type) NPY() (string, bool) {
	switch t {
	case Uint8:
		return "|u1", true
	case Int8:
		return "|i1", true
	case Invalid, Float16:
		return "", false
	}
	for k, tt := range npyKinds {
		if tt == t && k != "b1" {
			return "<" + k, true
		}
	}
	return "", false
}

// TIFF SampleFormat values.
const (
	TIFFUint  = 1
	TIFFInt   = 2
	TIFFFloat = 3
)

// FromTIFF returns the type of a TIFF SampleFormat (1 unsigned, 2 signed,
// 3 IEEE float) and BitsPerSample: 8-, 16- and 32-bit integers, 32- and
// 64-bit floats.
func FromTIFF(format, bits int) (Type, bool) {
	switch {
	case format == TIFFUint && bits == 8:
		return Uint8, true
	case format == TIFFUint && bits == 16:
		return Uint16, true
	case format == TIFFUint && bits == 32:
		return Uint32, true
	case format == TIFFInt && bits == 8:
		return Int8, true
	case format == TIFFInt && bits == 16:
		return Int16, true
	case format == TIFFInt && bits == 32:
		return Int32, true
	case format == TIFFFloat && bits == 32:
		return Float32, true
	case format == TIFFFloat && bits == 64:
		return Float64, true
	}
	return Invalid, false
}

// TIFF returns t's TIFF SampleFormat and BitsPerSample, false for the
// types FromTIFF does not accept.
func (t Type) TIFF() (format, bits int, ok bool) {
	switch t {
	case Uint8, Uint16, Uint32:
		format = TIFFUint
	case Int8, Int16, Int32:
		format = TIFFInt
	case Float32, Float64:
		format = TIFFFloat
	default:
		return 0, 0, false
	}
	return format, 8 * t.Size(), true
}

// MATLAB numeric classes.
var matClasses = map[string]Type{
	"double": Float64, "single": Float32, "int8": Int8, "uint8": Uint8, "int16": Int16,
	"uint16": Uint16, "int32": Int32, "uint32": Uint32, "int64": Int64, "uint64": Uint64,
}

// FromMAT returns the type of a MATLAB numeric class ("double", "single",
// "int16", ...).
func FromMAT(class string) (Type, bool) {
	t, ok := matClasses[class]
	return t, ok
}

// MAT returns t's MATLAB class, false for Float16 (MATLAB has no half).
func (t Type) MAT() (string, bool) {
	for c, tt := range matClasses {
		if tt == t {
			return c, true
		}
	}
	return "", false
}
