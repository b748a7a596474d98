//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>

typedef void (*omnihsr_progress_fn)(int64_t done, int64_t total, void *user);

// The last error of each calling thread: an exported Go function runs on
// the thread that called it, and so does every C call it makes. static:
// none of this is part of the library's interface (export.go's preamble,
// which the generated header copies, declares only the callback type).
static __thread char *last_error;

static void set_error(char *msg) {
	free(last_error);
	last_error = msg;
}

static const char *get_error(void) {
	return last_error ? last_error : "";
}

static void call_progress(omnihsr_progress_fn f, int64_t done, int64_t total, void *user) {
	f(done, total, user);
}
*/
import "C"

import "unsafe"

// setError records msg (C memory the thread's record takes over, or nil)
// as the calling thread's last error.
func setError(msg *C.char) { C.set_error(msg) }

// lastError returns the calling thread's last error ("" when none).
func lastError() *C.char { return C.get_error() }

// callProgress calls the C progress callback f.
func callProgress(f unsafe.Pointer, done, total int, user unsafe.Pointer) {
	C.call_progress(C.omnihsr_progress_fn(f), C.int64_t(done), C.int64_t(total), user)
}
