//go:build cgo && (linux || freebsd || darwin)

package gemm

/*
#cgo linux LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

typedef void (*omnihsr_sgemm_fn)(int, int, int, int, int, int, float, const float*, int,
                                 const float*, int, float, float*, int);
typedef void (*omnihsr_setthreads_fn)(int);
typedef int (*omnihsr_getthreads_fn)(void);
typedef char *(*omnihsr_getconfig_fn)(void);
typedef char *(*omnihsr_getcorename_fn)(void);

static omnihsr_sgemm_fn omnihsr_sgemm_ptr;
static omnihsr_setthreads_fn omnihsr_setthreads_ptr;
static omnihsr_getthreads_fn omnihsr_getthreads_ptr;
static omnihsr_getconfig_fn omnihsr_getconfig_ptr;
static omnihsr_getcorename_fn omnihsr_getcorename_ptr;

// omnihsr_open loads the library and resolves its symbols. It returns 0 on
// success, 1 when the library cannot be loaded and 2 when it has no
// cblas_sgemm. The handle is never closed: the symbols are used for the
// life of the process.
static int omnihsr_open(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) return 1;
	omnihsr_sgemm_fn f = (omnihsr_sgemm_fn)dlsym(h, "cblas_sgemm");
	if (f == NULL) { dlclose(h); return 2; }
	omnihsr_sgemm_ptr = f;
	omnihsr_setthreads_ptr = (omnihsr_setthreads_fn)dlsym(h, "openblas_set_num_threads");
	omnihsr_getthreads_ptr = (omnihsr_getthreads_fn)dlsym(h, "openblas_get_num_threads");
	omnihsr_getconfig_ptr = (omnihsr_getconfig_fn)dlsym(h, "openblas_get_config");
	omnihsr_getcorename_ptr = (omnihsr_getcorename_fn)dlsym(h, "openblas_get_corename");
	return 0;
}

static const char *omnihsr_dlerror(void) {
	const char *e = dlerror();
	return e ? e : "unknown error";
}

static void omnihsr_set_threads(int n) {
	if (omnihsr_setthreads_ptr) omnihsr_setthreads_ptr(n);
}

static int omnihsr_get_threads(void) {
	return omnihsr_getthreads_ptr ? omnihsr_getthreads_ptr() : -1;
}

static const char *omnihsr_get_config(void) {
	return omnihsr_getconfig_ptr ? omnihsr_getconfig_ptr() : "";
}

static const char *omnihsr_get_corename(void) {
	return omnihsr_getcorename_ptr ? omnihsr_getcorename_ptr() : "";
}

// CBLAS enums: CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112.
static void omnihsr_sgemm(int ta, int tb, int m, int n, int k, float alpha,
                          const float *a, int lda, const float *b, int ldb,
                          float beta, float *c, int ldc) {
	omnihsr_sgemm_ptr(101, ta ? 112 : 111, tb ? 112 : 111, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

const cgoEnabled = true

// loadOpenBLAS dlopens the first of names that loads and has cblas_sgemm,
// and sets OpenBLAS to one thread: parallelism is done by this package
// (see parallel), so that callers running Sgemm from several goroutines do
// not oversubscribe the cores.
func loadOpenBLAS(names []string) (*openblas, error) {
	var errs []string
	for _, name := range names {
		cs := C.CString(name)
		rc := C.omnihsr_open(cs)
		C.free(unsafe.Pointer(cs))
		switch rc {
		case 0:
			C.omnihsr_set_threads(1)
			return &openblas{
				lib:     name,
				config:  C.GoString(C.omnihsr_get_config()),
				core:    C.GoString(C.omnihsr_get_corename()),
				threads: int(C.omnihsr_get_threads()),
			}, nil
		case 1:
			errs = append(errs, C.GoString(C.omnihsr_dlerror()))
		default:
			errs = append(errs, name+": no symbol cblas_sgemm")
		}
	}
	return nil, fmt.Errorf("gemm: OpenBLAS not loaded: %v", errs)
}

type openblas struct {
	lib     string // the name dlopen succeeded with
	config  string // openblas_get_config()
	core    string // openblas_get_corename(): the kernel set chosen for this CPU
	threads int    // OpenBLAS's own thread count (1: we split the work)
}

func (o *openblas) name() string { return "openblas" }

// sgemm is one single-threaded cblas_sgemm call. Dimensions are checked by
// the caller; they must fit in a C int.
func (o *openblas) sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m > math.MaxInt32 || n > math.MaxInt32 || k > math.MaxInt32 || lda > math.MaxInt32 || ldb > math.MaxInt32 || ldc > math.MaxInt32 {
		panic("gemm: dimension too large for cblas_sgemm")
	}
	var pa, pb *float32
	if k > 0 {
		pa, pb = &a[0], &b[0]
	}
	C.omnihsr_sgemm(cbool(transA), cbool(transB), C.int(m), C.int(n), C.int(k), C.float(alpha),
		(*C.float)(unsafe.Pointer(pa)), C.int(lda), (*C.float)(unsafe.Pointer(pb)), C.int(ldb),
		C.float(beta), (*C.float)(unsafe.Pointer(&c[0])), C.int(ldc))
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// setLibThreads sets OpenBLAS's own thread count (benchmarks compare its
// threading with this package's split).
func setLibThreads(n int) { C.omnihsr_set_threads(C.int(n)) }
