//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>

typedef void (*omnihsr_progress_fn)(int64_t done, int64_t total, void *user);

// The last error of each calling thread: an exported Go function runs on
// the thread that called it, and so does every C call it makes.
static __thread char *last_error;

void omnihsr_set_error(char *msg) {
	free(last_error);
	last_error = msg;
}

const char *omnihsr_get_error(void) {
	return last_error ? last_error : "";
}

void omnihsr_call_progress(omnihsr_progress_fn f, int64_t done, int64_t total, void *user) {
	f(done, total, user);
}
*/
import "C"
