package npy

import (
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi/internal/decodetest"
)

// TestDecodeMatchesRead checks that Decode of each golden's bytes gives
// what Read of the file gives, bit for bit.
func TestDecodeMatchesRead(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.npy"))
	decodetest.MatchesRead(t, paths, Read, Decode)
}

// TestDecodeTruncated cuts, fails and over-announces every golden: an
// error or a valid cube, never a panic.
func TestDecodeTruncated(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.npy"))
	decodetest.Truncated(t, paths, Decode)
}
