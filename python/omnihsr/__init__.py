"""OmniHSR from Python: super-resolution of hyperspectral images from any
sensor, at any scale, and a reader for the files and products the
``omnihsr`` command reads.

The package calls the OmniHSR library (``libomnihsr.so``, built from the Go
sources with ``-buildmode=c-shared``) through ctypes, and ships the
``omnihsr`` command too (on PATH in the environment the wheel is installed
in).

    >>> import omnihsr
    >>> sr = omnihsr.upscale(cube, scale=4)          # numpy (H, W, B) float32
    >>> da = omnihsr.open("scene.hdr")              # xarray.DataArray (y, x, band)
    >>> sr = omnihsr.upscale(da, scale=2)            # wavelengths, CRS, transform kept
    >>> res = omnihsr.upscale_file("in.tif", "out.tif", scale=4)

One Go runtime runs per process. Do not ``fork()`` a process that has
loaded the library: with ``multiprocessing``, use the "spawn" (or
"forkserver") start method, or import omnihsr in the children only.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from ._lib import Cancelled, NotFoundError, OmniHSRError, OptionError

__all__ = [
    "upscale",
    "upscale_file",
    "open",
    "read",
    "version",
    "binary",
    "OmniHSRError",
    "OptionError",
    "Cancelled",
    "NotFoundError",
]

__version__ = "0.1.0"

Noise = Union[str, float, Sequence[float], None]
ProgressFn = Optional[Callable[[int, int], Any]]


def version() -> str:
    """The library's build: version, commit, Go version, platform, GEMM kernel."""
    return _lib.version()


def binary() -> str:
    """The path of the ``omnihsr`` command installed with the package
    ($OMNIHSR_BIN when set; "" when none is found)."""
    return _lib.binary_path()


def _noise(noise: Noise) -> Any:
    if noise is None or isinstance(noise, str):
        return noise
    if isinstance(noise, (int, float, np.floating, np.integer)):
        return float(noise)
    return [float(v) for v in noise]


def _num(v: Optional[float]) -> Any:
    """A float for the library's JSON: NaN and infinities as strings."""
    if v is None:
        return None
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def _path(p: Optional[Union[str, os.PathLike]]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def _size(size: Optional[Sequence[int]]) -> Optional[list]:
    if size is None:
        return None
    if len(size) != 2:
        raise OptionError(f"size {size!r}: want (height, width)")
    return [int(size[0]), int(size[1])]


def upscale(x: Any, scale: Optional[float] = None, size: Optional[Tuple[int, int]] = None,
            method: str = "omnihsr", noise: Noise = "auto", nodata: Optional[float] = None, *,
            noise_file: Optional[Union[str, os.PathLike]] = None, keep_noisy_bands: bool = False,
            weights: Optional[str] = None, progress: ProgressFn = None, progress_units: str = "rows",
            out: Optional[np.ndarray] = None, return_result: bool = False, clamp: str = "none",
            adapt: Union[int, str] = 0) -> Any:
    """Super-resolves a hyperspectral cube by ``scale`` or to ``size``.

    x: a numpy array (H, W, B) (any real dtype; taken without a copy when
       it is C-contiguous float32), or an ``xarray.DataArray`` with dims
       y, x and band (in any order; other names: the last dim is the band).
    scale: the factor S > 0 (output side round(S*side), half away from
       zero); fractional factors are fine. Exactly one of scale and size.
    size: the output (height, width) instead.
    method: "omnihsr" (default), "omnihsr-se", "omnihsr-bp" or "bicubic".
    noise: "auto" (estimate, default), "clean", the noise standard
       deviation in the input's units, or one per band.
    noise_file: a file of the noise standard deviations, one per band (a
       text file of numbers, or an uncertainty cube), instead of noise.
    nodata: the no-data value (NaN samples are always no-data); for a
       DataArray, its rioxarray no-data (``_FillValue``) by default.
    keep_noisy_bands: keep bands whose noise is far above their neighbours'
       in the noise level (screened out by default).
    weights: an OmniHSR weight file (*.omw) instead of the embedded model.
    clamp: "none" (default), "input" (every band within its input range,
       no-data excluded) or "type", as ``omnihsr upscale -clamp``.
    adapt: per-scene adaptation, as ``-adapt``: "auto", or a number of
       fine-tuning steps on the input itself (0, the default, is off); the
       result's ``adapt`` says what it chose and why.
    progress: called as progress(rows_done, rows_total) from the library's
       threads; an exception it raises cancels the call and is raised.
    progress_units: what progress counts: "rows" (the output rows), or
       "work", progress(done, 1000000) over the whole call, the model's
       encoding of the input first (so a bar moves before the first row).
    out: a C-contiguous float32 array of the output's shape to write into.
    return_result: return (output, result) instead, the result a dict as
       upscale_file's (without ``file``): shape, no-data samples filled,
       bad bands, the model chosen and its noise, warnings.

    Returns a float32 numpy array (H', W', B) with the values ``omnihsr
    upscale`` writes as float32 for the same input, or, for a DataArray, a
    DataArray with the band coordinates and attributes kept, x and y set to
    the new pixel centres, and the CRS and transform carried (rioxarray).
    The GIL is released during the computation; Ctrl-C cancels it.
    """
    xr = sys.modules.get("xarray")  # x is no DataArray unless xarray is loaded
    if xr is not None and isinstance(x, xr.DataArray):
        from ._xr import upscale_dataarray
        da, res = upscale_dataarray(x, scale=scale, size=size, method=method, noise=noise, nodata=nodata,
                                    noise_file=_path(noise_file), keep_noisy_bands=keep_noisy_bands,
                                    weights=weights, progress=progress, progress_units=progress_units,
                                    clamp=clamp, adapt=adapt)
        return (da, res) if return_result else da
    a = np.asarray(x)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3:
        raise OptionError(f"input of shape {a.shape}: want (height, width, bands)")
    if not np.issubdtype(a.dtype, np.floating) and not np.issubdtype(a.dtype, np.integer):
        raise OptionError(f"input of dtype {a.dtype}: want real numbers")
    a = np.ascontiguousarray(a, dtype=np.float32)  # no copy when already so
    res, sr = _upscale_array(a, dict(scale=scale, size=_size(size), method=method, noise=_noise(noise),
                                     noise_file=_path(noise_file), nodata=_num(nodata),
                                     keep_noisy_bands=keep_noisy_bands or None, weights=weights,
                                     progress=_units(progress_units), clamp=_clamp(clamp), adapt=adapt or None), progress, out)
    return (sr, res) if return_result else sr


def _clamp(clamp: str) -> Optional[str]:
    """The library's "clamp" option: unset for none, its default."""
    return None if clamp == "none" else clamp


def _units(progress_units: str) -> Optional[str]:
    """The library's "progress" option: unset for rows, its default."""
    return None if progress_units == "rows" else progress_units


def _upscale_array(a: np.ndarray, opts: Dict[str, Any], progress: ProgressFn,
                   out: Optional[np.ndarray] = None) -> Tuple[dict, np.ndarray]:
    L = _lib.lib()
    h, w, b = a.shape
    js = _lib.options_json(opts)
    oh, ow = ctypes.c_int64(), ctypes.c_int64()
    _lib.call(L.omnihsr_output_size, h, w, js, ctypes.byref(oh), ctypes.byref(ow))
    shape = (oh.value, ow.value, b)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    elif out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous or not out.flags.writeable:
        raise OptionError(f"out: want a writable C-contiguous float32 array of shape {shape}")
    result = ctypes.c_void_p()
    cancel = ctypes.c_int32(0)
    cb = _lib.Progress(progress, cancel)
    try:
        _lib.call(L.omnihsr_upscale, a.ctypes.data, h, w, b, js, out.ctypes.data, out.size, None,
                  ctypes.byref(result), ctypes.byref(cancel), cb.c, None, cancel=cancel, progress=cb)
    finally:
        res = _lib.loads(_lib.take_string(result))
    return res, out


def upscale_file(src: Union[str, os.PathLike], dst: Union[str, os.PathLike], scale: Optional[float] = None,
                 size: Optional[Tuple[int, int]] = None, method: str = "omnihsr", noise: Noise = "auto", *,
                 scales: Optional[Sequence[float]] = None, noise_file: Optional[Union[str, os.PathLike]] = None,
                 keep_noisy_bands: bool = False, weights: Optional[str] = None, type: Optional[str] = None,
                 driver: Optional[str] = None, creation: Optional[Sequence[str]] = None,
                 overwrite: bool = False, progress: ProgressFn = None, progress_units: str = "rows",
                 clamp: str = "none", adapt: Union[int, str] = 0, **reader_options: Any) -> dict:
    """Super-resolves the file src into dst, exactly as
    ``omnihsr upscale -in src -out dst`` does (the same bytes), streaming.

    The options are those of upscale, plus: scales, several factors
    rendered from one encoding of the input (exactly one of scale, size and
    scales; dst is then a pattern holding "{scale}", "sr_x{scale}.hdr", or a
    directory); noise_file="auto", an EMIT granule's uncertainty companion
    (as ``-noise-file auto``); type, the output sample type
    ("float32" default, "float64", "uint8", "uint16", "int16", "int32" or
    "same"); driver ("GTiff" or "COG") and creation (GDAL-style "KEY=VALUE"
    TIFF creation options) for TIFF outputs; overwrite, to allow an output
    that is the input; progress and progress_units, as for upscale (with
    "work", every output of scales in one count); adapt, as for upscale; and the reader options of
    ``open`` (var, layout, height, width, ortho).

    Returns the typed result as a dict: the output shape (height, width,
    bands), the input size, the method, the no-data samples filled, the
    model chosen and its noise (``model``: sigma, noise_aware, gate, gain,
    screened bands, ``summary``, the plain line the command prints, and
    ``detail``, the technical one of ``-v``), what
    writing reported (``file``, and ``files`` with scales: path, size,
    clamped samples, metadata not written) and ``warnings`` (the command's
    warning lines).
    """
    opts = dict(scale=scale, size=_size(size), scales=[float(v) for v in scales] if scales is not None else None,
                method=method, noise=_noise(noise), noise_file=_path(noise_file),
                keep_noisy_bands=keep_noisy_bands or None, weights=weights, type=type, driver=driver,
                creation=list(creation) if creation else None, overwrite=overwrite or None,
                read=_read_options(reader_options) or None, progress=_units(progress_units),
                clamp=_clamp(clamp), adapt=adapt or None)
    L = _lib.lib()
    result = ctypes.c_void_p()
    cancel = ctypes.c_int32(0)
    cb = _lib.Progress(progress, cancel)
    try:
        _lib.call(L.omnihsr_upscale_file, os.fsencode(src), os.fsencode(dst), _lib.options_json(opts),
                  ctypes.byref(result), ctypes.byref(cancel), cb.c, None, cancel=cancel, progress=cb)
    finally:
        res = _lib.loads(_lib.take_string(result))
    return res


_READ_KEYS = ("var", "layout", "height", "width", "ortho", "refuse_nan")


def _read_options(o: Dict[str, Any]) -> Dict[str, Any]:
    bad = sorted(set(o) - set(_READ_KEYS))
    if bad:
        raise OptionError(f"unknown reader option(s) {bad}: want {list(_READ_KEYS)}")
    return {k: v for k, v in o.items() if v is not None}


def read(path: Union[str, os.PathLike], **reader_options: Any) -> Tuple[np.ndarray, dict]:
    """Reads a hyperspectral file as ``omnihsr upscale`` reads its input.

    Returns the cube as a float32 numpy array (H, W, B) (stored values;
    NaN samples are no-data) and its metadata as a dict: shape, format,
    data_type, product, wavelengths, wavelength_units, fwhm, bad_bands,
    band_names, nodata, scale, offset, reflectance_scale, description,
    extra (other header fields), crs_wkt, crs_epsg and transform (GDAL's
    geotransform, or None).

    The cube is held twice for a moment: the library's copy, then numpy's
    (the library's is released once copied). Ctrl-C waits for the read.

    reader_options: var (the MATLAB/HDF5 array), layout ("HWB",
    "B_HW_colmajor", "HDF5_BWH"), height and width (of a bands x pixels
    matrix), ortho (EMIT: the orthorectified grid), refuse_nan (a NaN
    sample is an error instead of no-data).
    """
    L = _lib.lib()
    handle = ctypes.c_uint64()
    meta = ctypes.c_void_p()
    _lib.call(L.omnihsr_read, os.fsencode(path), _lib.options_json(_read_options(reader_options)),
              ctypes.byref(handle), ctypes.byref(meta))
    try:
        m = _lib.loads(_lib.take_string(meta))
        data = np.empty(tuple(m["shape"]), dtype=np.float32)
        _lib.call(L.omnihsr_cube_copy, handle.value, data.ctypes.data, data.size)
    finally:
        L.omnihsr_cube_free(handle.value)
    return data, m


def open(path: Union[str, os.PathLike], **reader_options: Any) -> Any:  # noqa: A001 - the name asked for
    """Reads a hyperspectral file or product as an ``xarray.DataArray``.

    Every format and product the ``omnihsr`` command reads: ENVI, GeoTIFF,
    MATLAB, NumPy, HDF5/NetCDF, EMIT (``ortho=True`` for the map grid),
    PRISMA, EnMAP, DESIS, AVIRIS-NG, NEON.

    The DataArray has dims (y, x, band) and float32 stored values; coords
    wavelength, fwhm, bad_band and band_name along band when the file
    states them; x and y (pixel centres) and the CRS and transform as
    rioxarray reads them (``da.rio.crs``, ``da.rio.transform()``) when the
    grid is georeferenced; attrs: the no-data value (``_FillValue``),
    per-band scale and offset as coords ``scale`` and ``offset``,
    wavelength_units, reflectance_scale, description, the source format
    and product, and the file's other header fields.
    """
    from ._xr import dataarray
    data, m = read(path, **reader_options)
    return dataarray(data, m, os.fspath(path))
