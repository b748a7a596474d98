//go:build !linux

package resample

// memLimit returns 0 (unknown) off Linux; hsi.Elems still bounds sizes.
func memLimit() uint64 { return 0 }
