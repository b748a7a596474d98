"""ctypes binding of libomnihsr (the C ABI of cmd/libomnihsr).

Private: use the functions of the ``omnihsr`` package. Every call runs in a
worker thread; ctypes releases the GIL for its duration, and a
KeyboardInterrupt in the calling thread sets the call's cancel flag, waits
for the library to stop (between bands of rows) and is raised again.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import sys
import sysconfig
import threading
from typing import Any, Callable, Optional, Tuple

_HERE = os.path.dirname(os.path.abspath(__file__))

STATUS_OK = 0
STATUS_ERROR = 1
STATUS_OPTION = 2
STATUS_CANCELED = 3
STATUS_NOT_FOUND = 4


class OmniHSRError(RuntimeError):
    """An error of the OmniHSR library; the message is the Go error's."""


class OptionError(OmniHSRError, ValueError):
    """Invalid options, shape or arguments."""


class Cancelled(OmniHSRError):
    """The call was cancelled (its cancel flag was set)."""


class NotFoundError(OmniHSRError, FileNotFoundError):
    """A file does not exist."""


_ERRORS = {
    STATUS_ERROR: OmniHSRError,
    STATUS_OPTION: OptionError,
    STATUS_CANCELED: Cancelled,
    STATUS_NOT_FOUND: NotFoundError,
}

PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)

_c_float_p = ctypes.POINTER(ctypes.c_float)
_c_int32_p = ctypes.POINTER(ctypes.c_int32)
_c_char_pp = ctypes.POINTER(ctypes.c_void_p)


# The library's file name on each platform (build.sh builds the first).
_LIBNAME = {"darwin": "libomnihsr.dylib", "win32": "omnihsr.dll"}.get(sys.platform, "libomnihsr.so")


def library_path() -> str:
    """The shared library used: $OMNIHSR_LIB, else the one in the package."""
    return os.environ.get("OMNIHSR_LIB") or os.path.join(_HERE, "_bin", _LIBNAME)


def binary_path() -> str:
    """The omnihsr command: $OMNIHSR_BIN, else the one the wheel installed
    into this environment's scripts, else the one on PATH ("" if none)."""
    if os.environ.get("OMNIHSR_BIN"):
        return os.environ["OMNIHSR_BIN"]
    p = os.path.join(sysconfig.get_path("scripts"), "omnihsr.exe" if sys.platform == "win32" else "omnihsr")
    if os.path.exists(p):
        return p
    return shutil.which("omnihsr") or ""


_lib: Optional[ctypes.CDLL] = None
_lib_lock = threading.Lock()


def lib() -> ctypes.CDLL:
    """Loads the library once per process (one Go runtime per process)."""
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        path = library_path()
        if not os.path.exists(path):
            raise OmniHSRError(f"{path}: libomnihsr not found (build the wheel with python/build.sh, or set OMNIHSR_LIB)")
        if _forked():
            raise OmniHSRError("omnihsr: the OmniHSR library cannot be loaded in a forked child of a process that "
                               "loaded it: use multiprocessing.set_start_method(\"spawn\")")
        L = ctypes.CDLL(path)
        L.omnihsr_version.restype = ctypes.c_void_p
        L.omnihsr_version.argtypes = []
        L.omnihsr_last_error.restype = ctypes.c_char_p
        L.omnihsr_last_error.argtypes = []
        L.omnihsr_free.restype = None
        L.omnihsr_free.argtypes = [ctypes.c_void_p]
        L.omnihsr_output_size.restype = ctypes.c_int
        L.omnihsr_output_size.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_char_p,
                                          ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]
        L.omnihsr_upscale.restype = ctypes.c_int
        L.omnihsr_upscale.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_char_p,
                                      ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(_c_float_p), _c_char_pp,
                                      _c_int32_p, PROGRESS, ctypes.c_void_p]
        L.omnihsr_upscale_file.restype = ctypes.c_int
        L.omnihsr_upscale_file.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _c_char_pp,
                                           _c_int32_p, PROGRESS, ctypes.c_void_p]
        L.omnihsr_read.restype = ctypes.c_int
        L.omnihsr_read.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64), _c_char_pp]
        L.omnihsr_cube_copy.restype = ctypes.c_int
        L.omnihsr_cube_copy.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_int64]
        L.omnihsr_write.restype = ctypes.c_int
        L.omnihsr_write.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_char_p,
                                    ctypes.c_char_p, ctypes.c_char_p, _c_char_pp]
        L.omnihsr_read_rows.restype = ctypes.c_int
        L.omnihsr_read_rows.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                                        ctypes.c_int64, _c_char_pp]
        L.omnihsr_cube_free.restype = None
        L.omnihsr_cube_free.argtypes = [ctypes.c_uint64]
        global _loaded_pid
        _loaded_pid = os.getpid()
        _lib = L
        return L


def take_string(p: ctypes.c_void_p) -> str:
    """Returns the C string p (library-allocated) and frees it."""
    if not p.value:
        return ""
    try:
        return ctypes.string_at(p.value).decode("utf-8", "replace")
    finally:
        lib().omnihsr_free(p.value)


def version() -> str:
    """The library's build, as ``omnihsr version -short`` prints it."""
    return take_string(ctypes.c_void_p(lib().omnihsr_version()))


class LibraryBackend:
    """The library (ctypes) backend: libomnihsr in this process."""

    name = "library"

    def version(self) -> str:
        return version()

    def output_size(self, h: int, w: int, js: bytes) -> Tuple[int, int]:
        L = lib()
        oh, ow = ctypes.c_int64(), ctypes.c_int64()
        call(L.omnihsr_output_size, h, w, js, ctypes.byref(oh), ctypes.byref(ow))
        return oh.value, ow.value

    def upscale(self, a: Any, js: bytes, out: Any, progress: Optional[Callable[[int, int], Any]]) -> dict:
        """Upscales the C-contiguous float32 (H, W, B) array a into out."""
        L = lib()
        h, w, b = a.shape
        result = ctypes.c_void_p()
        cancel = ctypes.c_int32(0)
        cb = Progress(progress, cancel)
        try:
            call(L.omnihsr_upscale, a.ctypes.data, h, w, b, js, out.ctypes.data, out.size, None,
                 ctypes.byref(result), ctypes.byref(cancel), cb.c, None, cancel=cancel, progress=cb)
        finally:
            res = loads(take_string(result))
        return res

    def upscale_file(self, src: str, dst: str, js: bytes, progress: Optional[Callable[[int, int], Any]]) -> dict:
        L = lib()
        result = ctypes.c_void_p()
        cancel = ctypes.c_int32(0)
        cb = Progress(progress, cancel)
        try:
            call(L.omnihsr_upscale_file, os.fsencode(src), os.fsencode(dst), js,
                 ctypes.byref(result), ctypes.byref(cancel), cb.c, None, cancel=cancel, progress=cb)
        finally:
            res = loads(take_string(result))
        return res

    def read(self, path: str, js: bytes) -> Tuple[Any, dict]:
        import numpy as np
        L = lib()
        handle = ctypes.c_uint64()
        meta = ctypes.c_void_p()
        call(L.omnihsr_read, os.fsencode(path), js, ctypes.byref(handle), ctypes.byref(meta))
        try:
            m = loads(take_string(meta))
            data = np.empty(tuple(m["shape"]), dtype=np.float32)
            call(L.omnihsr_cube_copy, handle.value, data.ctypes.data, data.size)
        finally:
            L.omnihsr_cube_free(handle.value)
        return data, m


    def write(self, a: Any, meta: bytes, path: str, js: bytes) -> dict:
        """Writes the C-contiguous float32 (H, W, B) array a to path."""
        L = lib()
        h, w, b = a.shape
        result = ctypes.c_void_p()
        try:
            call(L.omnihsr_write, a.ctypes.data, h, w, b, meta, os.fsencode(path), js, ctypes.byref(result))
        finally:
            res = loads(take_string(result))
        return res


    def read_rows(self, path: str, js: bytes, y0: int, y1: int, w: int, b: int) -> Tuple[Any, dict]:
        """Rows [y0, y1) of an image that streams (ENVI, PNG, C-order NPY,
        TIFF, HDF5/NetCDF-4; the others: "cannot be read a window at a
        time"), (y1-y0, W, B) float32, and its metadata (y0 == y1: the
        metadata only; w and b: the image's)."""
        import numpy as np
        L = lib()
        data = np.empty((y1 - y0, w, b), dtype=np.float32)
        meta = ctypes.c_void_p()
        try:
            call(L.omnihsr_read_rows, os.fsencode(path), js, y0, y1, data.ctypes.data if data.size else None,
                 data.size, ctypes.byref(meta))
        finally:
            m = loads(take_string(meta))
        return data, m


_library_backend = LibraryBackend()


def backend() -> Any:
    """The backend of this call: the library, unless OMNIHSR_BACKEND says
    "subprocess", this process is a fork of one that loaded it, or the
    package holds no library (the macOS wheels) but the command."""
    want = os.environ.get("OMNIHSR_BACKEND", "").strip().lower()
    if want in ("", "library", "ctypes"):
        if _forked():
            return _fork_backend()
        if want == "" and _lib is None and not os.path.exists(library_path()) and binary_path():
            # A wheel without the library (macOS: no C cross-compiler
            # builds it here) runs the bundled command.
            from ._subprocess import SubprocessBackend
            return SubprocessBackend.get()
        return _library_backend
    if want == "subprocess":
        if _forked():
            return _fork_backend()
        from ._subprocess import SubprocessBackend
        return SubprocessBackend.get()
    raise OptionError(f"OMNIHSR_BACKEND={want!r}: want \"library\" (default) or \"subprocess\"")


# The process that loaded the library (0: not loaded). A forked child of it
# has a copy of the Go runtime's memory without its threads: any call into
# it would hang forever, so the child is served by the subprocess backend.
_loaded_pid = 0


def _after_fork_in_child() -> None:
    global _lib_lock
    _lib_lock = threading.Lock()  # another thread may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _forked() -> bool:
    return _loaded_pid != 0 and os.getpid() != _loaded_pid


def _fork_backend() -> Any:
    from ._subprocess import SubprocessBackend
    exe = binary_path()
    if not exe or not os.path.exists(exe):
        raise OmniHSRError("omnihsr: this process is a fork of one that loaded the OmniHSR library, whose Go runtime "
                           "cannot run in a forked child, and the omnihsr command (the fallback) is not installed: use "
                           "multiprocessing.set_start_method(\"spawn\") (or a \"spawn\" context), or load omnihsr "
                           "in the children only")
    return SubprocessBackend.get()


def loads(s: str) -> Any:
    """Parses the library's JSON (NaN and Infinity as bare words)."""
    return json.loads(s) if s else None


def call(fn: Callable[..., int], *args: Any, cancel: Optional[ctypes.c_int32] = None,
         progress: Optional["Progress"] = None) -> None:
    """Runs fn(*args) in a worker thread and raises the library's error.

    The GIL is released while the library runs. On KeyboardInterrupt in the
    calling thread the cancel flag is set, the call is waited for (the
    library stops between bands of rows) and KeyboardInterrupt is raised.
    """
    box: dict = {}
    done = threading.Event()

    def run() -> None:
        try:
            st = fn(*args)
            box["status"] = st
            if st != STATUS_OK:
                box["message"] = (lib().omnihsr_last_error() or b"").decode("utf-8", "replace")
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["exc"] = e
        finally:
            done.set()

    t = threading.Thread(target=run, name="omnihsr-call", daemon=True)
    t.start()
    interrupted = False
    # Event.wait, not Thread.join: a KeyboardInterrupt inside join() can
    # leave the thread marked as stopped while it runs (CPython bpo-45274).
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            interrupted = True
            if cancel is not None:
                cancel.value = 1
    if "exc" in box:
        raise box["exc"]
    st = box["status"]
    err = None
    if st != STATUS_OK:
        err = _ERRORS.get(st, OmniHSRError)(box["message"] or f"libomnihsr: status {st}")
    if interrupted and st != STATUS_OK:
        # Cancelled: KeyboardInterrupt, as Ctrl-C raises everywhere. A call
        # that completed before the library saw the flag returns its
        # complete result instead (its output is whole).
        raise KeyboardInterrupt from err
    if progress is not None and progress.error is not None:
        raise progress.error
    if err is not None:
        raise err


def options_json(opts: dict) -> bytes:
    """Encodes options for the library, dropping unset ones (None)."""
    return json.dumps({k: v for k, v in opts.items() if v is not None}, allow_nan=True).encode()


class Progress:
    """A Python progress function as the library's callback.

    An exception raised by the function cancels the call, and call()
    raises it once the library has stopped.
    """

    def __init__(self, fn: Optional[Callable[[int, int], Any]], cancel: ctypes.c_int32) -> None:
        self.error: Optional[BaseException] = None
        if fn is None:
            self.c = PROGRESS()  # NULL
            return

        def cb(done: int, total: int, _user: Any) -> None:
            if self.error is not None:
                return
            try:
                fn(done, total)
            except BaseException as e:  # noqa: BLE001 - must not unwind into C
                self.error = e
                cancel.value = 1

        self.c = PROGRESS(cb)
