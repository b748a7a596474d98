package eval

import (
	"bytes"
	"math"
	"strconv"
)

// Num is a float64 that JSON-encodes non-finite values (the infinite PSNR
// of a perfect reconstruction, an undefined mean) as null, which decodes
// back to NaN. Finite values use the shortest representation that
// round-trips, so encoding is deterministic.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*n = Num(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*n = Num(v)
	return nil
}
