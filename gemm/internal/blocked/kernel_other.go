//go:build !(amd64 || arm64) || purego

package blocked

// No assembly kernel: every product runs kernGo.
