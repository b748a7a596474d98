package sample

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Type is a binary sample type.
type Type uint8

// Sample types.
const (
	Invalid Type = iota
	Uint8
	Int8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float16
	Float32
	Float64
)

var typeNames = [...]string{"invalid", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"}
var typeSizes = [...]int{0, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8}

// String returns the type's name, e.g. "uint16".
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Size returns the size of one sample in bytes (0 for Invalid).
func (t Type) Size() int {
	if int(t) < len(typeSizes) {
		return typeSizes[t]
	}
	return 0
}

// IsFloat reports whether t is a floating-point type.
func (t Type) IsFloat() bool { return t == Float16 || t == Float32 || t == Float64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t == Int8 || t == Int16 || t == Int32 || t == Int64 }

// Exact reports whether every value of t converts to float32 exactly.
func (t Type) Exact() bool {
	switch t {
	case Uint8, Int8, Int16, Uint16, Float16, Float32:
		return true
	}
	return false
}

// Range returns the smallest and largest value of a type, as float64 (for
// 64-bit integer types the bounds are rounded: see Fits for the exact
// test).
func (t Type) Range() (lo, hi float64) {
	switch t {
	case Uint8:
		return 0, math.MaxUint8
	case Int8:
		return math.MinInt8, math.MaxInt8
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Uint16:
		return 0, math.MaxUint16
	case Int32:
		return math.MinInt32, math.MaxInt32
	case Uint32:
		return 0, math.MaxUint32
	case Int64:
		return math.MinInt64, math.MaxInt64
	case Uint64:
		return 0, math.MaxUint64
	case Float16:
		return -65504, 65504
	case Float32:
		return -math.MaxFloat32, math.MaxFloat32
	}
	return -math.MaxFloat64, math.MaxFloat64
}

// ParseType parses a type name such as "uint16" or "float32". The empty
// string means Float32, the default on-disk type of every writer.
func ParseType(s string) (Type, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "float32", "f4", "single", "float":
		return Float32, nil
	case "float64", "f8", "double":
		return Float64, nil
	case "float16", "f2", "half":
		return Float16, nil
	case "uint8", "u1", "byte":
		return Uint8, nil
	case "int8", "i1":
		return Int8, nil
	case "int16", "i2":
		return Int16, nil
	case "uint16", "u2":
		return Uint16, nil
	case "int32", "i4":
		return Int32, nil
	case "uint32", "u4":
		return Uint32, nil
	case "int64", "i8":
		return Int64, nil
	case "uint64", "u8":
		return Uint64, nil
	}
	return Invalid, fmt.Errorf("unknown data type %q (want uint8, int8, int16, uint16, int32, uint32, int64, uint64, float32 or float64)", s)
}
