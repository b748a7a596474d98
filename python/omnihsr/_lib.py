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
from typing import Any, Callable, Optional

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
        L.omnihsr_cube_free.restype = None
        L.omnihsr_cube_free.argtypes = [ctypes.c_uint64]
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
    if interrupted:
        # Cancelled (or finished before the flag was seen): Ctrl-C wins.
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
