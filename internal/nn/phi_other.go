//go:build !amd64 || purego

package nn

// phiSlice writes Phi(x) (or x Phi(x) when mulx) of src into dst.
func phiSlice(dst, src []float32, mulx bool) { phiSliceGo(dst, src, mulx) }
