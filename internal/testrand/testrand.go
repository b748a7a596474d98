package testrand

import (
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
)

// New returns a PCG generator seeded with seed and stream.
func New(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// Cube returns an h x w x b cube of values drawn from [0, 1) by r.Float32,
// in the order of Data.
func Cube(r *rand.Rand, h, w, b int) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = r.Float32()
	}
	return c
}

// Uniform returns an h x w x b cube of values lo + (hi-lo)*r.Float64(),
// rounded to float32, in the order of Data.
func Uniform(r *rand.Rand, h, w, b int, lo, hi float64) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = float32(lo + r.Float64()*(hi-lo))
	}
	return c
}

// Integers is Uniform with every value rounded to the nearest integer
// (halfway cases away from zero), as integer samples read back.
func Integers(r *rand.Rand, h, w, b int, lo, hi float64) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = float32(math.Round(lo + r.Float64()*(hi-lo)))
	}
	return c
}
