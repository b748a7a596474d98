package sample

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Type
	}{
		{"", Float32}, {"float32", Float32}, {"FLOAT64", Float64}, {"uint8", Uint8}, {"int8", Int8},
		{"int16", Int16}, {"uint16", Uint16}, {"int32", Int32}, {"uint32", Uint32},
		{"int64", Int64}, {"uint64", Uint64}, {"float16", Float16},
	} {
		got, err := ParseType(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseType(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if tc.in != "" && !strings.EqualFold(got.String(), tc.in) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	if _, err := ParseType("complex64"); err == nil {
		t.Error("ParseType(complex64) gave no error")
	}
}

// encodeRef writes v as type t with the standard library.
func encodeRef(t Type, v float64, order binary.ByteOrder) []byte {
	b := make([]byte, t.Size())
	switch t {
	case Uint8:
		b[0] = uint8(v)
	case Int8:
		b[0] = uint8(int8(v))
	case Int16:
		order.PutUint16(b, uint16(int16(v)))
	case Uint16:
		order.PutUint16(b, uint16(v))
	case Int32:
		order.PutUint32(b, uint32(int32(v)))
	case Uint32:
		order.PutUint32(b, uint32(v))
	case Int64:
		order.PutUint64(b, uint64(int64(v)))
	case Uint64:
		order.PutUint64(b, uint64(v))
	case Float32:
		order.PutUint32(b, math.Float32bits(float32(v)))
	case Float64:
		order.PutUint64(b, math.Float64bits(v))
	}
	return b
}

func TestDecodeEncodeEveryType(t *testing.T) {
	cases := []struct {
		t    Type
		vals []float64
	}{
		{Uint8, []float64{0, 1, 127, 255}},
		{Int8, []float64{-128, -1, 0, 127}},
		{Int16, []float64{-32768, -1, 0, 12345, 32767}},
		{Uint16, []float64{0, 1, 40000, 65535}},
		{Int32, []float64{-2147483648, -16777216, 0, 16777216, 2147483520}},
		{Uint32, []float64{0, 16777216, 4294967040}},
		{Int64, []float64{-9223372036854775808, -1 << 40, 0, 1 << 40}},
		{Uint64, []float64{0, 1 << 40, 1 << 63}},
		{Float32, []float64{-3.5, 0, 1e-30, 3.4e38}},
		{Float64, []float64{-2.5, 0, 0.125, 1e10}},
	}
	for _, tc := range cases {
		for _, be := range []bool{false, true} {
			var order binary.ByteOrder = binary.LittleEndian
			if be {
				order = binary.BigEndian
			}
			var src []byte
			for _, v := range tc.vals {
				src = append(src, encodeRef(tc.t, v, order)...)
			}
			n := len(tc.vals)
			const stride = 3
			dst := make([]float32, (n-1)*stride+1)
			first, nbad := Decode(dst, stride, src, n, tc.t, be)
			if first != -1 || nbad != 0 {
				t.Errorf("%v be=%v: non-finite reported %d %d", tc.t, be, first, nbad)
			}
			for i, v := range tc.vals {
				if dst[i*stride] != float32(v) {
					t.Errorf("%v be=%v: value %d = %v, want %v", tc.t, be, i, dst[i*stride], float32(v))
				}
			}
			if tc.t == Uint64 && tc.vals[len(tc.vals)-1] >= 1<<63 {
				continue // 2^63 is valid for decode; encode is checked below
			}
			out := make([]byte, len(src))
			if bad := Encode(out, dst, stride, n, tc.t, be); bad != -1 {
				t.Errorf("%v be=%v: Encode rejected value %d (%v)", tc.t, be, bad, dst[bad*stride])
				continue
			}
			if string(out) != string(src) {
				t.Errorf("%v be=%v: Encode bytes % x, want % x", tc.t, be, out, src)
			}
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	cases := []struct {
		t   Type
		v   float32
		bad bool
	}{
		{Uint8, 255.4, false}, {Uint8, 255.6, true}, {Uint8, -0.4, false}, {Uint8, -0.6, true},
		{Int8, -128, false}, {Int8, 128, true},
		{Int16, 32767, false}, {Int16, 32768, true}, {Int16, -32769, true},
		{Uint16, 65535, false}, {Uint16, 65536, true}, {Uint16, -1, true},
		{Int32, -2147483648, false}, {Int32, 2147483648, true},
		{Uint32, 4294967040, false}, {Uint32, 4294967296, true},
		{Int64, -9223372036854775808, false}, {Int64, 9223372036854775808, true},
		{Uint64, 18446742974197923840, false}, {Uint64, 18446744073709551616, true},
		{Float32, nan, false}, {Float32, inf, true}, {Float64, nan, false}, {Float64, -inf, true}, {Uint8, nan, true}, {Int64, nan, true},
		{Float32, 1e38, false},
	}
	for _, tc := range cases {
		dst := make([]byte, 2*tc.t.Size())
		bad := Encode(dst, []float32{0, tc.v}, 1, 2, tc.t, false)
		if (bad == 1) != tc.bad || bad == 0 {
			t.Errorf("Encode(%v as %v) bad=%d, want rejected=%v", tc.v, tc.t, bad, tc.bad)
		}
	}
}

// TestEncodeRoundsHalfAwayFromZero checks the rounding rule on ties, on
// the float32 values either side of a tie, and in both byte orders.
func TestEncodeRoundsHalfAwayFromZero(t *testing.T) {
	below := math.Nextafter32(0.5, 0) // 0.49999997
	above := math.Nextafter32(0.5, 1)
	for _, tc := range []struct {
		t    Type
		in   []float32
		want []float64
	}{
		{Int16, []float32{0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, below, above, -below}, []float64{1, 2, 3, 4, -1, -2, -3, 0, 1, 0}},
		{Uint8, []float32{0.5, 1.5, 2.5, 3.49, 254.5, -0.49}, []float64{1, 2, 3, 3, 255, 0}},
		{Int32, []float32{-2.5, 2.5, 1e6 + 0.5}, []float64{-3, 3, 1e6 + 1}},
		{Uint16, []float32{65534.5, 0.5}, []float64{65535, 1}},
		{Int8, []float32{-127.5, 126.5}, []float64{-128, 127}},
		{Int64, []float32{-0.5, 7.5}, []float64{-1, 8}},
		{Uint32, []float32{0.5, 9.5}, []float64{1, 10}},
	} {
		for _, be := range []bool{false, true} {
			var order binary.ByteOrder = binary.LittleEndian
			if be {
				order = binary.BigEndian
			}
			dst := make([]byte, len(tc.in)*tc.t.Size())
			if bad := Encode(dst, tc.in, 1, len(tc.in), tc.t, be); bad >= 0 {
				t.Fatalf("%v: Encode rejected %v", tc.t, tc.in[bad])
			}
			var want []byte
			for _, v := range tc.want {
				want = append(want, encodeRef(tc.t, v, order)...)
			}
			if string(dst) != string(want) {
				t.Errorf("%v be=%v: Encode(%v) = % x, want % x (%v)", tc.t, be, tc.in, dst, want, tc.want)
			}
			for i, v := range tc.in {
				if Round(v) != tc.want[i] {
					t.Errorf("Round(%v) = %v, want %v", v, Round(v), tc.want[i])
				}
			}
		}
	}
}

func TestDecodeNonFinite(t *testing.T) {
	src := make([]byte, 16)
	binary.LittleEndian.PutUint32(src[4:], math.Float32bits(float32(math.NaN())))
	binary.LittleEndian.PutUint32(src[12:], math.Float32bits(float32(math.Inf(-1))))
	dst := make([]float32, 4)
	first, n := Decode(dst, 1, src, 4, Float32, false)
	if first != 1 || n != 2 {
		t.Fatalf("first=%d n=%d, want 1 2", first, n)
	}
	src64 := make([]byte, 16)
	binary.BigEndian.PutUint64(src64[0:], math.Float64bits(1e300)) // beyond float32
	binary.BigEndian.PutUint64(src64[8:], math.Float64bits(math.Inf(1)))
	first, n = Decode(dst, 1, src64, 2, Float64, true)
	if first != 0 || n != 2 {
		t.Fatalf("float64: first=%d n=%d, want 0 2", first, n)
	}
}

func TestHalf(t *testing.T) {
	for _, tc := range []struct {
		bits uint16
		want float64
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, math.Ldexp(1, -24)},
		{0x0400, math.Ldexp(1, -14)}, {0x3555, 0.333251953125}, {0x7c00, math.Inf(1)}, {0xfc00, math.Inf(-1)},
	} {
		if got := half(tc.bits); float64(got) != tc.want {
			t.Errorf("half(%#04x) = %v, want %v", tc.bits, got, tc.want)
		}
	}
	if v := half(0x7e00); v == v {
		t.Errorf("half(0x7e00) = %v, want NaN", v)
	}
}

func benchDecode(b *testing.B, t Type, stride int) {
	const n = 1 << 20
	src := make([]byte, n*t.Size())
	dst := make([]float32, (n-1)*stride+1)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Decode(dst, stride, src, n, t, false)
	}
}

func BenchmarkDecodeInt16(b *testing.B)          { benchDecode(b, Int16, 1) }
func BenchmarkDecodeFloat32(b *testing.B)        { benchDecode(b, Float32, 1) }
func BenchmarkDecodeFloat32Stride8(b *testing.B) { benchDecode(b, Float32, 8) }

// TestPrecisionLimit documents the float32 cube's limit: integers beyond
// 2^24 round to the nearest float32 (ties to even).
func TestPrecisionLimit(t *testing.T) {
	src := make([]byte, 12)
	binary.LittleEndian.PutUint32(src[0:], 1<<24)
	binary.LittleEndian.PutUint32(src[4:], 1<<24+1)
	binary.LittleEndian.PutUint32(src[8:], 1<<24+3)
	dst := make([]float32, 3)
	Decode(dst, 1, src, 3, Int32, false)
	if dst[0] != 1<<24 || dst[1] != 1<<24 || dst[2] != 1<<24+4 {
		t.Fatalf("got %v", dst)
	}
	for _, typ := range []Type{Uint8, Int8, Int16, Uint16, Float16, Float32} {
		if !typ.Exact() {
			t.Errorf("%v not exact", typ)
		}
	}
	for _, typ := range []Type{Int32, Uint32, Int64, Uint64, Float64} {
		if typ.Exact() {
			t.Errorf("%v exact", typ)
		}
	}
}

// TestEncodeFloat32Contiguous checks Encode's contiguous little-endian
// float32 path against the general one (a stride of 2 over the same
// values): the same bytes and the same first infinite value.
func TestEncodeFloat32Contiguous(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, vals := range [][]float32{
		{0, 1, -2.5, 3e38, 1e-45},
		{1, nan, 2, inf, float32(math.Inf(-1))},
		{float32(math.Inf(-1)), 0},
		{nan, nan},
	} {
		strided := make([]float32, 2*len(vals))
		for i, v := range vals {
			strided[2*i] = v
		}
		got := make([]byte, 4*len(vals))
		want := make([]byte, 4*len(vals))
		gb := Encode(got, vals, 1, len(vals), Float32, false)
		wb := Encode(want, strided, 2, len(vals), Float32, false)
		if gb != wb || !bytes.Equal(got, want) {
			t.Errorf("%v: bad %d, bytes % x; the strided path gives %d, % x", vals, gb, got, wb, want)
		}
	}
}
