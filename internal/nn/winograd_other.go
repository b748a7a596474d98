//go:build !amd64 || purego

package nn

const winoAsm = false

func winoIn(d []float32, c, rs int, v []float32, vs int, _ []float32) { winoInGo(d, c, rs, v, vs) }

func winoOut(m []float32, ms, c int, bias, dst []float32, rs int, _ []float32) {
	winoOutGo(m, ms, c, bias, dst, rs)
}
