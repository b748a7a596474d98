//go:build unix

package products

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestMetadataNotRegular: a FIFO or /dev/zero named ...-METADATA.xml is
// refused at once (before, info hung on the FIFO or filled memory from
// /dev/zero).
func TestMetadataNotRegular(t *testing.T) {
	for _, kind := range []string{"fifo", "devzero"} {
		t.Run(kind, func(t *testing.T) {
			dir := desisCopy(t, nil)
			x := filepath.Join(dir, desisName+"-METADATA.xml")
			if kind == "fifo" {
				if err := syscall.Mkfifo(x, 0o644); err != nil {
					t.Skip("no FIFO here:", err)
				}
			} else if err := os.Symlink("/dev/zero", x); err != nil {
				t.Skip("no symbolic link here:", err)
			}
			done := make(chan error, 1)
			go func() {
				_, _, err := ReadProduct(filepath.Join(dir, desisName+"-SPECTRAL_IMAGE.tif"), hsi.ReadOptions{})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "not a regular file") {
					t.Fatalf("error %v, want \"not a regular file\"", err)
				}
			case <-time.After(10 * time.Second):
				// unblock the reader so the test binary can end
				if kind == "fifo" {
					if w, err := os.OpenFile(x, os.O_WRONLY, 0); err == nil {
						w.Close()
					}
				}
				t.Fatal("still reading after 10 s")
			}
		})
	}
}
