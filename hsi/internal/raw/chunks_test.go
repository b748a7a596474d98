package raw

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// readerOf serves reads from b like a file of len(b) bytes.
func readerOf(b []byte) ReadFunc {
	return func(buf []byte, off int64) error {
		if off < 0 || off+int64(len(buf)) > int64(len(b)) {
			return errors.New("short read")
		}
		copy(buf, b[off:])
		return nil
	}
}

func TestEncodeDecodePixels(t *testing.T) {
	for _, typ := range []sample.Type{sample.Uint8, sample.Int16, sample.Uint16, sample.Int32, sample.Float32, sample.Float64} {
		c := hsi.MustNew(3, 5, 7)
		for i := range c.Data {
			c.Data[i] = float32(i % 100)
		}
		const base = 11
		file := make([]byte, base)
		var calls []int
		buf, err := EncodePixels(nil, c.Data, c.W, c.B, 0, typ, func(p []byte, i int) error {
			if len(file) != base+i*typ.Size() {
				t.Fatalf("%v: chunk at value %d written after %d bytes", typ, i, len(file)-base)
			}
			calls = append(calls, i)
			file = append(file, p...)
			return nil
		})
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		if len(calls) != 1 || calls[0] != 0 || cap(buf) < len(c.Data)*typ.Size() {
			t.Fatalf("%v: chunks at %v, buffer of %d bytes", typ, calls, cap(buf))
		}
		got := hsi.MustNew(3, 5, 7)
		var tr FiniteTracker
		if err := DecodePixels(readerOf(file), base, got, typ, false, &tr); err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		if tr.Err("x") != nil {
			t.Fatalf("%v: %v", typ, tr.Err("x"))
		}
		for i := range got.Data {
			if got.Data[i] != c.Data[i] {
				t.Fatalf("%v: value %d = %v, want %v", typ, i, got.Data[i], c.Data[i])
			}
		}
		// The buffer is reused when it is large enough.
		buf2, err := EncodePixels(buf, c.Data, c.W, c.B, 0, typ, func([]byte, int) error { return nil })
		if err != nil || &buf2[0] != &buf[0] {
			t.Fatalf("%v: buffer not reused (err %v)", typ, err)
		}
	}
}

func TestDecodePixelsNonFinite(t *testing.T) {
	c := hsi.MustNew(2, 3, 4) // value 13: pixel 3 = row 1, column 0, band 1
	src := make([]float32, len(c.Data))
	src[13] = float32(math.Inf(-1))
	src[20] = float32(math.NaN())
	file := make([]byte, 4*len(src))
	if bad := sample.Encode(file, src, 1, len(src), sample.Float32, false); bad != 13 {
		t.Fatalf("Encode reports %d, want 13", bad)
	}
	for i := range src {
		if src[i]-src[i] != 0 {
			// Encode stops at the first bad value: store the rest by hand.
			u := math.Float32bits(src[i])
			file[4*i], file[4*i+1], file[4*i+2], file[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		}
	}
	var tr FiniteTracker
	if err := DecodePixels(readerOf(file), 0, c, sample.Float32, false, &tr); err != nil {
		t.Fatal(err)
	}
	var nf *hsi.NonFiniteError
	if err := tr.Err("f.bin"); !errors.As(err, &nf) || nf.Count != 2 || nf.Row != 1 || nf.Col != 0 || nf.Band != 1 {
		t.Fatalf("got %v", err)
	}
}

func TestChunkErrors(t *testing.T) {
	c := hsi.MustNew(2, 2, 2)
	// A file one byte short: the read error comes back as is.
	var tr FiniteTracker
	err := DecodePixels(readerOf(make([]byte, 4*8-1)), 0, c, sample.Float32, false, &tr)
	if err == nil || err.Error() != "short read" {
		t.Fatalf("short file: %v", err)
	}
	// A write error comes back as is.
	werr := errors.New("disk full")
	if _, err := EncodePixels(nil, c.Data, 2, 2, 0, sample.Uint8, func([]byte, int) error { return werr }); err != werr {
		t.Fatalf("write error: %v", err)
	}
	// A bad value is reported before its chunk is written, by position.
	c.Data[5] = 300 // row 5 (y0 4 + 1), column 0, band 1
	_, err = EncodePixels(nil, c.Data, 2, 2, 4, sample.Uint8, func([]byte, int) error {
		t.Fatal("chunk with a bad value written")
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "value 300 at row 5, column 0, band 1 (0-based) does not fit uint8 (0..255)") {
		t.Fatalf("out of range: %v", err)
	}
	c.Data[5] = float32(math.Inf(-1))
	_, err = EncodePixels(nil, c.Data, 2, 2, 0, sample.Float32, func([]byte, int) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "the cube holds -Inf at row 1, column 0, band 1 (0-based); non-finite values cannot be written") {
		t.Fatalf("-Inf: %v", err)
	}
	// NaN is written to float types, and refused for integer types.
	c.Data[5] = float32(math.NaN())
	if _, err = EncodePixels(nil, c.Data, 2, 2, 0, sample.Float32, func([]byte, int) error { return nil }); err != nil {
		t.Fatalf("NaN as float32: %v", err)
	}
	_, err = EncodePixels(nil, c.Data, 2, 2, 0, sample.Int16, func([]byte, int) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "the cube holds NaN at row 1, column 0, band 1 (0-based); non-finite values cannot be written as int16") {
		t.Fatalf("NaN as int16: %v", err)
	}
	// Nothing to write calls nothing.
	if _, err := EncodePixels(nil, nil, 2, 2, 0, sample.Float32, func([]byte, int) error { return werr }); err != nil {
		t.Fatalf("empty: %v", err)
	}
}
