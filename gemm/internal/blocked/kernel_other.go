//go:build !amd64 || purego

package blocked

var hasAVX2, hasAVX512 = false, false

func selectKernels(avx512, avx2 bool) { wide, narrow = nil, nil }
