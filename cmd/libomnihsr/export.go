//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>

// omnihsr_progress_fn is called with the output rows done and their total.
typedef void (*omnihsr_progress_fn)(int64_t done, int64_t total, void *user);
*/
import "C"

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/capi"
)

// fail records err as the calling thread's last error and returns its
// status; ok clears it.
func fail(err error) C.int {
	if err == nil {
		setError(nil)
		return capi.StatusOK
	}
	setError(C.CString(capi.BoundError(err.Error())))
	return C.int(capi.StatusOf(err))
}

// guard turns a panic of an entry point into its error status, so that no
// Go panic reaches the host process (Go's fatal errors, such as an
// allocation beyond the address space, cannot be caught: the memory
// checks refuse those before they happen). T is C.int for the entry
// points; the constraint lets a Go test hold the status without cgo.
func guard[T ~int32](status *T) {
	if r := recover(); r != nil {
		*status = T(fail(capi.PanicError(r)))
	}
}

// flagContext is cancelContext over the C int32 *flag (NULL: never).
func flagContext(flag *C.int32_t) (context.Context, func()) {
	return capi.CancelContext((*int32)(unsafe.Pointer(flag)))
}

// progressFunc calls the C callback f (nil when f is NULL).
func progressFunc(f C.omnihsr_progress_fn, user unsafe.Pointer) func(done, total int) {
	if f == nil {
		return nil
	}
	return func(done, total int) {
		callProgress(unsafe.Pointer(f), done, total, user)
	}
}

// setString stores a C copy of s in *dst when dst is not NULL.
func setString(dst **C.char, s string) {
	if dst != nil {
		*dst = C.CString(s)
	}
}

//export omnihsr_version
func omnihsr_version() *C.char {
	return C.CString(capi.Version())
}

//export omnihsr_last_error
func omnihsr_last_error() *C.char {
	return lastError()
}

//export omnihsr_free
func omnihsr_free(p unsafe.Pointer) {
	C.free(p)
}

//export omnihsr_output_size
func omnihsr_output_size(h, w C.int64_t, opts *C.char, oh, ow *C.int64_t) (status C.int) {
	defer guard(&status)
	y, x, err := capi.OutputSize(int(h), int(w), C.GoString(opts))
	if err == nil && oh != nil && ow != nil {
		*oh, *ow = C.int64_t(y), C.int64_t(x)
	}
	return fail(err)
}

//export omnihsr_upscale
func omnihsr_upscale(in *C.float, h, w, b C.int64_t, opts *C.char, out *C.float, outLen C.int64_t, outAlloc **C.float,
	result **C.char, cancelFlag *C.int32_t, progress C.omnihsr_progress_fn, user unsafe.Pointer) (status C.int) {
	defer guard(&status)
	if in == nil || h < 1 || w < 1 || b < 1 {
		return fail(fmt.Errorf("libomnihsr: %w: no input, or shape %d x %d x %d not positive", capi.ErrOption, h, w, b))
	}
	if out == nil && outAlloc == nil {
		return fail(fmt.Errorf("libomnihsr: %w: give an output buffer or a place for the library's", capi.ErrOption))
	}
	n, err := hsi.Elems(int(h), int(w), int(b))
	if err != nil {
		return fail(fmt.Errorf("libomnihsr: %w: %w", capi.ErrOption, err))
	}
	o := C.GoString(opts)
	if err := capi.CheckArrayOutput(int(h), int(w), int(b), o); err != nil {
		return fail(err)
	}
	if out != nil {
		oh, ow, err := capi.OutputSize(int(h), int(w), o)
		if err != nil {
			return fail(err)
		}
		if m, err := hsi.Elems(oh, ow, int(b)); err != nil || int64(m) != int64(outLen) {
			return fail(fmt.Errorf("libomnihsr: %w: the output buffer holds %d samples, the output has %d (%d x %d x %d)", capi.ErrOption, outLen, m, oh, ow, b))
		}
	}
	data := unsafe.Slice((*float32)(unsafe.Pointer(in)), n)
	ctx, stop := flagContext(cancelFlag)
	defer stop()
	sr, res, err := capi.UpscaleArray(ctx, data, int(h), int(w), int(b), o, progressFunc(progress, user))
	if err != nil {
		return fail(err)
	}
	if out != nil {
		copy(unsafe.Slice((*float32)(unsafe.Pointer(out)), len(sr)), sr)
	} else {
		if err := capi.CheckAlloc(len(sr), "the output buffer"); err != nil {
			return fail(err)
		}
		p := C.malloc(C.size_t(len(sr)) * 4)
		if p == nil {
			return fail(fmt.Errorf("libomnihsr: out of memory for the %d x %d x %d output", res.Height, res.Width, res.Bands))
		}
		copy(unsafe.Slice((*float32)(p), len(sr)), sr)
		*outAlloc = (*C.float)(p)
	}
	if result != nil {
		s, err := capi.Marshal(capi.ResultOf(res, false))
		if err != nil {
			return fail(err)
		}
		setString(result, s)
	}
	return fail(nil)
}

//export omnihsr_upscale_file
func omnihsr_upscale_file(in, out, opts *C.char, result **C.char, cancelFlag *C.int32_t, progress C.omnihsr_progress_fn, user unsafe.Pointer) (status C.int) {
	defer guard(&status)
	if in == nil || out == nil {
		return fail(fmt.Errorf("libomnihsr: %w: input and output paths are required", capi.ErrOption))
	}
	ctx, stop := flagContext(cancelFlag)
	defer stop()
	res, err := capi.UpscaleFile(ctx, C.GoString(in), C.GoString(out), C.GoString(opts), progressFunc(progress, user))
	if err != nil {
		return fail(err)
	}
	s, err := capi.Marshal(capi.ResultOf(res, true))
	if err != nil {
		return fail(err)
	}
	setString(result, s)
	return fail(nil)
}

//export omnihsr_read
func omnihsr_read(path, opts *C.char, cube *C.uintptr_t, meta **C.char) (status C.int) {
	defer guard(&status)
	if path == nil || cube == nil {
		return fail(fmt.Errorf("libomnihsr: %w: a path and a place for the cube handle are required", capi.ErrOption))
	}
	c, info, err := capi.ReadFile(C.GoString(path), C.GoString(opts))
	if err != nil {
		return fail(err)
	}
	s, err := capi.Marshal(capi.MetaOf(c, info))
	if err != nil {
		return fail(err)
	}
	setString(meta, s)
	*cube = C.uintptr_t(capi.KeepCube(c))
	return fail(nil)
}

//export omnihsr_cube_copy
func omnihsr_cube_copy(cube C.uintptr_t, dst *C.float, n C.int64_t) (status C.int) {
	defer guard(&status)
	c, err := capi.CubeOf(cube)
	if err != nil {
		return fail(err)
	}
	if dst == nil {
		return fail(fmt.Errorf("libomnihsr: %w: no buffer (NULL) for the cube's %d samples", capi.ErrOption, len(c.Data)))
	}
	if int64(n) != int64(len(c.Data)) {
		return fail(fmt.Errorf("libomnihsr: %w: the buffer holds %d samples, the cube has %d", capi.ErrOption, n, len(c.Data)))
	}
	copy(unsafe.Slice((*float32)(unsafe.Pointer(dst)), len(c.Data)), c.Data)
	return fail(nil)
}

//export omnihsr_cube_free
func omnihsr_cube_free(cube C.uintptr_t) {
	capi.DropCube(uint64(cube))
}

//export omnihsr_write
func omnihsr_write(in *C.float, h, w, b C.int64_t, meta, path, opts *C.char, result **C.char) (status C.int) {
	defer guard(&status)
	if in == nil || path == nil || h < 1 || w < 1 || b < 1 {
		return fail(fmt.Errorf("libomnihsr: %w: no input or path, or shape %d x %d x %d not positive", capi.ErrOption, h, w, b))
	}
	n, err := hsi.Elems(int(h), int(w), int(b))
	if err != nil {
		return fail(fmt.Errorf("libomnihsr: %w: %w", capi.ErrOption, err))
	}
	data := unsafe.Slice((*float32)(unsafe.Pointer(in)), n)
	res, err := capi.WriteArray(context.Background(), data, int(h), int(w), int(b), C.GoString(meta), C.GoString(path), C.GoString(opts))
	if err != nil {
		return fail(err)
	}
	if result != nil {
		s, err := capi.Marshal(res)
		if err != nil {
			return fail(err)
		}
		setString(result, s)
	}
	return fail(nil)
}

//export omnihsr_read_rows
func omnihsr_read_rows(path, opts *C.char, y0, y1 C.int64_t, dst *C.float, n C.int64_t, meta **C.char) (status C.int) {
	defer guard(&status)
	if path == nil {
		return fail(fmt.Errorf("libomnihsr: %w: a path is required", capi.ErrOption))
	}
	if n < 0 || (dst == nil && n != 0) {
		return fail(fmt.Errorf("libomnihsr: %w: no buffer (NULL) for %d samples", capi.ErrOption, n))
	}
	var buf []float32
	if n > 0 {
		buf = unsafe.Slice((*float32)(unsafe.Pointer(dst)), int(n))
	}
	m, err := capi.ReadRows(C.GoString(path), C.GoString(opts), int(y0), int(y1), buf)
	if err != nil {
		return fail(err)
	}
	if meta != nil {
		s, err := capi.Marshal(m)
		if err != nil {
			return fail(err)
		}
		setString(meta, s)
	}
	return fail(nil)
}
