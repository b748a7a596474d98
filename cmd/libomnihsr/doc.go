// Command libomnihsr is the C ABI of the OmniHSR library (package omnihsr),
// built as a shared library for Python (ctypes, package python/omnihsr) and
// other languages:
//
//	go build -buildmode=c-shared -o libomnihsr.so ./cmd/libomnihsr
//
// writes libomnihsr.so and its header libomnihsr.h (python/build.sh does
// this). The functions are in export.go, built only with cgo; without cgo
// (CGO_ENABLED=0, cross-compiling) the package is an empty program, so that
// the pure-Go builds of the module keep working.
//
// # Functions
//
// Every function that can fail returns a status: 0 success, 1 an error
// (a bad file or bad data), 2 invalid options or arguments, 3 cancelled,
// 4 a file that does not exist. omnihsr_last_error then returns the
// message of the calling thread's last failed call (valid until that
// thread's next call; "" after a success), cut to 4 KiB. A panic inside a
// call is returned as status 1 ("internal error"), never passed on to the
// host process.
//
//	char *omnihsr_version(void);
//	const char *omnihsr_last_error(void);
//	void omnihsr_free(void *p);
//	int omnihsr_output_size(int64_t h, int64_t w, const char *opts, int64_t *oh, int64_t *ow);
//	int omnihsr_upscale(const float *in, int64_t h, int64_t w, int64_t b, const char *opts,
//	                    float *out, int64_t out_len, float **out_alloc, char **result,
//	                    int32_t *cancel, omnihsr_progress_fn progress, void *user);
//	int omnihsr_upscale_file(const char *in, const char *out, const char *opts, char **result,
//	                         int32_t *cancel, omnihsr_progress_fn progress, void *user);
//	int omnihsr_read(const char *path, const char *opts, uintptr_t *cube, char **meta);
//	int omnihsr_cube_copy(uintptr_t cube, float *dst, int64_t n);
//	int omnihsr_write(const float *in, int64_t h, int64_t w, int64_t b, const char *meta,
//	                  const char *path, const char *opts, char **result);
//	void omnihsr_cube_free(uintptr_t cube);
//
// (The generated header declares the const parameters without const, as
// cgo writes them; the library never writes through them, nor keeps them
// after the call returns.)
//
// Strings the library returns (version, result and metadata JSON) and
// buffers it allocates (out_alloc) are allocated with malloc and freed by
// the caller with omnihsr_free.
//
// omnihsr_upscale super-resolves h x w x b float32 samples in C order
// (each pixel's spectrum contiguous: in[(y*w+x)*b+k], numpy's C-contiguous
// (H, W, B)), which it reads in place and does not modify, with the values
// `omnihsr upscale` writes as float32 for the same samples. The output
// goes into out (out_len samples: omnihsr_output_size gives its height and
// width) or, when out is NULL, into a buffer the library allocates and
// stores in *out_alloc; out's size is checked before any work. The output
// is rendered in Go's memory and then copied, so it is held twice at the
// end of the call (the input never is): before any work, twice the
// output's float32 size is checked against the memory available (physical
// memory, the cgroup's limit, and the address space RLIMIT_AS and
// RLIMIT_DATA leave the process; internal/memlimit), so that an output
// too large is an error (status 1), not an abort of the host process.
// result, when not NULL, receives the result as JSON.
// omnihsr_upscale_file is omnihsr.UpscaleFile: the same bytes as `omnihsr
// upscale -in in -out out`, streaming, no file left on any error.
// omnihsr_read reads a file as `omnihsr upscale` reads its input and
// returns a handle to the cube and its metadata as JSON (shape, format,
// product, wavelengths, FWHM, bad bands, band names, no-data, scale and
// offset, CRS WKT and EPSG code, GDAL geotransform, other header fields);
// omnihsr_cube_copy copies its samples into the caller's buffer and
// omnihsr_cube_free releases it.
//
// opts is a JSON object (NULL or "" for none; unknown keys are an error;
// at most 4 MiB): "scale" or "size" (exactly [height, width], each from 1
// to 2^31-1), "method", "noise" ("auto",
// "clean", a number or one number per band), "noise_file" (a file of
// them, or "auto", as -noise-file), "keep_noisy_bands", "weights",
// "clamp" ("none", "input" or "type", as -clamp), "adapt" (per-scene
// adaptation as -adapt: "auto", or a step count; 0 = off),
// "progress" (what the progress callback counts: "rows", the default, or
// "work"); for
// arrays "nodata", "wavelengths" and "bad_bands"; for files "scales" (out
// then a pattern with {scale} or a directory, as Options.Scales), "type",
// "driver", "creation", "overwrite" and "read" ({"var", "layout",
// "height", "width", "ortho", "refuse_nan"}, also omnihsr_read's opts). Numbers may be
// given as strings ("nan", "inf": then refused as a scale, naming it). The JSON the library returns writes
// NaN and infinities as NaN, Infinity and -Infinity, as Python's json
// module reads them.
//
// cancel, when not NULL, points to an int32 the caller owns and sets to
// nonzero, from any thread, to stop the call: the library polls it every
// 10 ms and stops between bands of rows, with status 3. progress, when not
// NULL, is called as progress(rows_done, rows_total, user) from the
// library's threads (not necessarily the calling one); with "progress":
// "work" as progress(done, 1000000, user) instead, done/1000000 the
// fraction of the whole call, the model's encoding of the input first and
// then every output's rows (omnihsr.Options.Completion), ending at 1000000
// when the call succeeds.
//
// No Go pointer is kept by C: cubes are kept by Go behind integer handles,
// and what C receives is copied into C memory. The cgo pointer checks
// (GODEBUG=cgocheck=1, the default) hold.
//
// # A Go runtime inside another process
//
// Loading the library starts a Go runtime in the process, with its own
// threads; the facts to know:
//
//   - One Go runtime per process: load one copy of libomnihsr, once. Two
//     Go shared libraries in one process (two copies of this one, or this
//     and another Go library) are not supported by Go.
//   - No fork() after loading: a forked child has only the forking thread,
//     not the Go runtime's, and a call into the library there may hang.
//     Python's multiprocessing must use the "spawn" or "forkserver" start
//     method (multiprocessing.set_start_method("spawn")), or the children
//     load the library themselves after the fork. fork followed by exec
//     (subprocess) is fine.
//   - Signals: a c-shared Go runtime installs handlers for the synchronous
//     signals (SIGSEGV, SIGBUS, SIGFPE) and SIGPIPE only, with SA_ONSTACK,
//     and keeps the process's own handlers for the others: Python's SIGINT
//     handler stays, so Ctrl-C raises KeyboardInterrupt in Python's main
//     thread, where the Python package sets the running call's cancel
//     flag. A handler the host installs later must use SA_ONSTACK (Go
//     runs with small stacks and an alternate signal stack).
package main
