package sample

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestFitsAndCheck(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, tc := range []struct {
		t    Type
		v    float32
		fits bool
	}{
		{Uint8, 255.49, true}, {Uint8, 255.5, false}, {Uint8, -0.49, true}, {Uint8, -0.5, false},
		{Int8, -128.49, true}, {Int8, -128.5, false}, {Int8, 127.5, false},
		{Int16, 32767.4, true}, {Int16, 32767.5, false}, {Int16, -32768.5, false},
		{Uint16, 65535.4, true}, {Uint16, 65535.5, false},
		{Int32, -2147483648, true}, {Int32, 2147483648, false},
		{Uint32, 4294967040, true}, {Uint32, 4294967296, false},
		{Int64, -9223372036854775808, true}, {Int64, 9223372036854775808, false},
		{Uint64, 18446742974197923840, true}, {Uint64, 18446744073709551616, false}, {Uint64, -0.5, false},
		{Float32, 3e38, true}, {Float64, -3e38, true},
		{Float32, nan, true}, {Float64, nan, true}, {Float32, inf, false}, {Float64, inf, false},
		{Int16, nan, false}, {Uint8, inf, false},
		{Float16, 1, false}, {Invalid, 1, false},
	} {
		if got := tc.t.Fits(tc.v); got != tc.fits {
			t.Errorf("%v.Fits(%v) = %v, want %v", tc.t, tc.v, got, tc.fits)
		}
		err := Check(tc.v, tc.t)
		if (err == nil) != tc.fits {
			t.Errorf("Check(%v, %v) = %v", tc.v, tc.t, err)
		}
		var re *RangeError
		if err != nil && (!errors.As(err, &re) || re.Type != tc.t || !strings.Contains(err.Error(), tc.t.String())) {
			t.Errorf("Check(%v, %v) = %v: not a RangeError naming the type", tc.v, tc.t, err)
		}
	}
	if err := Check(70000, Int16); err == nil || !strings.Contains(err.Error(), "70000") || !strings.Contains(err.Error(), "-32768..32767") {
		t.Errorf("Check(70000, int16) = %v, want the value and the range named", err)
	}
}

// TestFitsAgreesWithEncode checks that Encode rejects exactly the values
// Fits rejects.
func TestFitsAgreesWithEncode(t *testing.T) {
	vals := []float32{0, -0.5, 0.5, 127.5, -128.5, 255.5, 32767.5, -32768.5, 65535.5, 1e9, -1e9, 5e9, 1e19, 2e19, float32(math.NaN()), float32(math.Inf(1))}
	for _, typ := range []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float32, Float64} {
		for _, v := range vals {
			dst := make([]byte, typ.Size())
			rejected := Encode(dst, []float32{v}, 1, 1, typ, false) == 0
			if rejected == typ.Fits(v) {
				t.Errorf("%v: Encode rejected %v = %v, Fits = %v", typ, v, rejected, typ.Fits(v))
			}
		}
		if i := FirstMisfit(vals, typ); i < 0 || typ.Fits(vals[i]) || (i > 0 && FirstMisfit(vals[:i], typ) != -1) {
			t.Errorf("%v: FirstMisfit = %d", typ, i)
		}
	}
	if i := FirstMisfit([]float32{1, 2, 3}, Uint8); i != -1 {
		t.Errorf("FirstMisfit of fitting values = %d", i)
	}
}

// TestFromBitsAgreesWithDecode checks the one-sample decoder against Decode.
func TestFromBitsAgreesWithDecode(t *testing.T) {
	words := []uint64{0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x3c00, 0x7fffffff, 0x80000000, 0xffffffff, 0x3f800000, 0x7fffffffffffffff, 0x8000000000000000, 0x3ff0000000000000}
	for _, typ := range []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64} {
		for _, w := range words {
			mask := ^uint64(0) >> (64 - 8*typ.Size())
			b := make([]byte, 8)
			for i := range b {
				b[i] = byte(w >> (8 * i))
			}
			var want [1]float32
			Decode(want[:], 1, b, 1, typ, false)
			got := FromBits(w&mask, typ)
			if math.Float32bits(got) != math.Float32bits(want[0]) {
				t.Errorf("FromBits(%#x, %v) = %v, Decode gives %v", w&mask, typ, got, want[0])
			}
		}
	}
}

// TestEncodeWritesEveryValue checks that Encode goes on past a rejected
// value: 0 for an integer type, the value itself for a float type.
func TestEncodeWritesEveryValue(t *testing.T) {
	nan := float32(math.NaN())
	dst := make([]byte, 6)
	if bad := Encode(dst, []float32{7, 70000, 9}, 1, 3, Int16, true); bad != 1 {
		t.Fatalf("Encode int16 bad = %d, want 1", bad)
	}
	if want := []byte{0, 7, 0, 0, 0, 9}; string(dst) != string(want) {
		t.Errorf("Encode int16 = % x, want % x", dst, want)
	}
	f := make([]byte, 12)
	inf := float32(math.Inf(1))
	if bad := Encode(f, []float32{nan, inf, 1}, 1, 3, Float32, false); bad != 1 {
		t.Fatalf("Encode float32 bad = %d, want 1 (the infinity; NaN is written)", bad)
	}
	var back [3]float32
	Decode(back[:], 1, f, 3, Float32, false)
	if back[0] == back[0] || back[1] != inf || back[2] != 1 {
		t.Errorf("Encode float32 stored %v, want [NaN +Inf 1]", back)
	}
}

// TestDecodeFloat64AgreesWithDecode checks the double-precision decoder
// against Decode on values every float32 holds, in both byte orders.
func TestDecodeFloat64AgreesWithDecode(t *testing.T) {
	words := []uint64{0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x3c00, 0x3f800000, 0xbff8000000000000}
	for _, typ := range []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64} {
		for _, be := range []bool{false, true} {
			size := typ.Size()
			src := make([]byte, len(words)*size)
			for i, w := range words {
				for k := 0; k < size; k++ {
					sh := 8 * k
					if be {
						sh = 8 * (size - 1 - k)
					}
					src[i*size+k] = byte(w >> sh)
				}
			}
			want := make([]float32, len(words))
			Decode(want, 1, src, len(words), typ, be)
			got := make([]float64, len(words))
			DecodeFloat64(got, src, typ, be)
			for i := range got {
				if float32(got[i]) != want[i] && want[i] == want[i] {
					t.Errorf("%v be=%v: word %#x: DecodeFloat64 %v, Decode %v", typ, be, words[i], got[i], want[i])
				}
			}
		}
	}
	d := make([]float64, 1)
	DecodeFloat64(d, []byte{0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a}, Float64, true)
	if d[0] != 0.1 {
		t.Errorf("float64 0.1 decoded as %v", d[0])
	}
}
