//go:build amd64 && !purego

package nn

import "golang.org/x/sys/cpu"

// winoAsm reports whether the AVX2 + FMA transforms run.
var winoAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func winoIn43(d *float32, c, rs int, v *float32, vs int, tmp *float32)

//go:noescape
func winoOut43(m *float32, ms int, c int, bias *float32, dst *float32, rs int, tmp *float32)

// winoIn is B^T D B (see winoInGo) with the assembly when the CPU has it.
// tmp holds 36 x 8 floats.
func winoIn(d []float32, c, rs int, v []float32, vs int, tmp []float32) {
	if !winoAsm {
		winoInGo(d, c, rs, v, vs)
		return
	}
	_ = d[5*rs+6*c-1]
	_ = v[35*vs+c-1]
	_ = tmp[36*8-1]
	winoIn43(&d[0], c, rs, &v[0], vs, &tmp[0])
}

// winoOut is A^T M A + bias (see winoOutGo) with the assembly when the
// CPU has it. tmp holds 24 x 8 floats.
func winoOut(m []float32, ms, c int, bias, dst []float32, rs int, tmp []float32) {
	if !winoAsm {
		winoOutGo(m, ms, c, bias, dst, rs)
		return
	}
	_ = m[35*ms+c-1]
	_ = bias[c-1]
	_ = dst[3*rs+3*c+c-1]
	_ = tmp[24*8-1]
	winoOut43(&m[0], ms, c, &bias[0], &dst[0], rs, &tmp[0])
}
