package sample

import "testing"

// TestFormatTables checks each format's table both ways and which types
// each format can hold.
func TestFormatTables(t *testing.T) {
	all := []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64}
	for _, tc := range []struct {
		format string
		holds  []Type
		back   func(Type) (Type, bool)
	}{
		{"ENVI", []Type{Uint8, Int16, Int32, Float32, Float64, Uint16, Uint32, Int64, Uint64}, func(t Type) (Type, bool) {
			c, ok := t.ENVI()
			if !ok {
				return Invalid, false
			}
			return FromENVI(c)
		}},
		{"NPY", []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float32, Float64}, func(t Type) (Type, bool) {
			d, ok := t.NPY()
			if !ok {
				return Invalid, false
			}
			return FromNPY(d[1:])
		}},
		{"TIFF", []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Float32, Float64}, func(t Type) (Type, bool) {
			f, b, ok := t.TIFF()
			if !ok {
				return Invalid, false
			}
			return FromTIFF(f, b)
		}},
		{"MAT", []Type{Uint8, Int8, Int16, Uint16, Int32, Uint32, Int64, Uint64, Float32, Float64}, func(t Type) (Type, bool) {
			c, ok := t.MAT()
			if !ok {
				return Invalid, false
			}
			return FromMAT(c)
		}},
	} {
		holds := map[Type]bool{}
		for _, h := range tc.holds {
			holds[h] = true
		}
		for _, typ := range all {
			got, ok := tc.back(typ)
			if ok != holds[typ] || (ok && got != typ) {
				t.Errorf("%s: %v -> %v, %v; want it held: %v", tc.format, typ, got, ok, holds[typ])
			}
		}
	}
	for code, want := range map[int]Type{1: Uint8, 2: Int16, 3: Int32, 4: Float32, 5: Float64, 12: Uint16, 13: Uint32, 14: Int64, 15: Uint64} {
		if got, ok := FromENVI(code); !ok || got != want {
			t.Errorf("FromENVI(%d) = %v, %v; want %v", code, got, ok, want)
		}
	}
	for _, code := range []int{0, 6, 9, 11, 16} {
		if _, ok := FromENVI(code); ok {
			t.Errorf("FromENVI(%d) accepted", code)
		}
	}
	if d, _ := Uint16.NPY(); d != "<u2" {
		t.Errorf("Uint16.NPY() = %q", d)
	}
	if d, _ := Int8.NPY(); d != "|i1" {
		t.Errorf("Int8.NPY() = %q", d)
	}
	if b, ok := FromNPY("b1"); !ok || b != Uint8 {
		t.Errorf("FromNPY(b1) = %v, %v", b, ok)
	}
	if f, ok := FromNPY("f2"); !ok || f != Float16 {
		t.Errorf("FromNPY(f2) = %v, %v", f, ok)
	}
	if f, b, _ := Int16.TIFF(); f != TIFFInt || b != 16 {
		t.Errorf("Int16.TIFF() = %d, %d", f, b)
	}
	if c, _ := Float32.MAT(); c != "single" {
		t.Errorf("Float32.MAT() = %q", c)
	}
}
