//go:build cgo

package main

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/omnihsr/omnihsr/internal/capi"
)

// TestGuardTurnsPanicIntoStatus: a panic inside an entry point's body
// becomes the error status and the thread's last error, and the host
// process goes on; the next call's outcome replaces the error.
func TestGuardTurnsPanicIntoStatus(t *testing.T) {
	runtime.LockOSThread() // the last error is the calling thread's
	defer runtime.UnlockOSThread()
	var status int32
	func() {
		defer guard(&status)
		var cube []float32
		_ = cube[3] // an index out of range, as a bug would
	}()
	if status != capi.StatusError {
		t.Fatalf("status %d, want %d (StatusError)", status, capi.StatusError)
	}
	msg := cString(unsafe.Pointer(omnihsr_last_error()))
	if !strings.Contains(msg, "internal error, please report it") || !strings.Contains(msg, "index out of range") {
		t.Fatalf("last error %q: want the internal-error text with the panic's value", msg)
	}
	// No options (NULL) give no scale: an option error, reported as such.
	if got := omnihsr_output_size(10, 20, nil, nil, nil); got != capi.StatusOption {
		t.Fatalf("output_size with no options after the panic: status %d, want %d (StatusOption)", got, capi.StatusOption)
	}
	if msg := cString(unsafe.Pointer(omnihsr_last_error())); msg == "" || strings.Contains(msg, "internal error") {
		t.Fatalf("last error after the next call %q, want that call's own error", msg)
	}
}

// cString copies the NUL-terminated C string at p.
func cString(p unsafe.Pointer) string {
	var b []byte
	for i := 0; ; i++ {
		c := *(*byte)(unsafe.Add(p, i))
		if c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}
