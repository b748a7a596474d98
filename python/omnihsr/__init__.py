"""OmniHSR from Python: super-resolution of hyperspectral images from any
sensor, at any scale, and a reader for the files and products the
``omnihsr`` command reads.

The package calls the OmniHSR library (``libomnihsr.so``, built from the Go
sources with ``-buildmode=c-shared``) through ctypes, and ships the
``omnihsr`` command too (on PATH in the environment the wheel is installed
in).

    >>> import omnihsr
    >>> sr = omnihsr.upscale(cube, scale=4)          # numpy (H, W, B) float32
    >>> da = omnihsr.open("scene.hdr")              # xarray.DataArray (band, y, x)
    >>> da.sel(wavelength=650, method="nearest")     # the band nearest 650 nm
    >>> sr = omnihsr.upscale(da, scale=2)            # wavelengths, CRS, transform kept
    >>> omnihsr.write(sr, "scene_x2.tif")            # wavelengths, CRS, no-data kept
    >>> res = omnihsr.upscale_file("in.tif", "out.tif", scale=4)

One Go runtime runs per process. Do not ``fork()`` a process that has
loaded the library: with ``multiprocessing``, use the "spawn" (or
"forkserver") start method, or import omnihsr in the children only.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from ._lib import Cancelled, NotFoundError, OmniHSRError, OptionError

__all__ = [
    "upscale",
    "write",
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

__version__ = "0.2.0"

Noise = Union[str, float, Sequence[float], None]
ProgressFn = Union[Callable[[int, int], Any], bool, None]
PathLike = Union[str, "os.PathLike[str]"]


def version() -> str:
    """The library's build: version, commit, Go version, platform, GEMM kernel."""
    return _lib.backend().version()


def binary() -> str:
    """The path of the ``omnihsr`` command installed with the package
    ($OMNIHSR_BIN when set; "" when none is found)."""
    return _lib.binary_path()


def _finite(name: str, v: Any) -> float:
    """v as a float, refused (OptionError naming the option) unless it is a
    finite real number."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise OptionError(f"{name} {v!r}: want a number")
    f = float(v)
    if not math.isfinite(f):
        raise OptionError(f"{name} {f}: want a finite number")
    return f


def _scale(scale: Any) -> Optional[float]:
    if scale is None:
        return None
    f = _finite("scale", scale)
    if f <= 0:
        raise OptionError(f"scale {f:g}: want a finite number > 0")
    return f


def _noise(noise: Noise) -> Any:
    if noise is None or isinstance(noise, str):
        return noise
    if isinstance(noise, (int, float, np.floating, np.integer)):
        return _finite("noise", noise)
    try:
        vals = list(noise)
    except TypeError:
        raise OptionError(f"noise {noise!r}: want \"auto\", \"clean\", a number or one number per band") from None
    return [_finite("noise", v) for v in vals]


def _num(v: Optional[float]) -> Any:
    """A float for the library's JSON: NaN and infinities as strings."""
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise OptionError(f"nodata {v!r}: want a number") from None
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def _path(p: Optional[PathLike], what: str = "path") -> Optional[str]:
    """os.fspath(p), refusing a NUL byte as Python's open does."""
    if p is None:
        return None
    s = os.fspath(p)
    if isinstance(s, bytes):
        s = os.fsdecode(s)
    if "\0" in s:
        raise ValueError(f"{what}: embedded null byte")
    return s


def _size(size: Optional[Sequence[int]]) -> Optional[list]:
    if size is None:
        return None
    try:
        vals = list(size)
    except TypeError:
        raise OptionError(f"size {size!r}: want (height, width)") from None
    if len(vals) != 2:
        raise OptionError(f"size {size!r}: want (height, width)")
    out = []
    for v in vals:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(v)) or float(v) != int(v):
            raise OptionError(f"size {tuple(vals)!r}: want two whole numbers (height, width)")
        out.append(int(v))
    if out[0] < 1 or out[1] < 1:
        raise OptionError(f"size {tuple(out)!r}: want a positive height and width")
    return out


def _method(method: Any) -> str:
    if not isinstance(method, str):
        raise OptionError(f"method {method!r}: want \"omnihsr\", \"omnihsr-se\", \"omnihsr-bp\" or \"bicubic\"")
    return method


def _clamp(clamp: str) -> Optional[str]:
    """The library's "clamp" option: unset for none, its default."""
    if clamp not in ("none", "input", "type"):
        raise OptionError(f"clamp {clamp!r}: want \"none\", \"input\" or \"type\"")
    return None if clamp == "none" else clamp


def _units(progress_units: str) -> Optional[str]:
    """The library's "progress" option: unset for rows, its default."""
    if progress_units not in ("rows", "work"):
        raise OptionError(f"progress_units {progress_units!r}: want \"rows\" or \"work\"")
    return None if progress_units == "rows" else progress_units


class _Bar:
    """A tqdm bar over the whole call (the "work" units), when tqdm is
    installed; shown on a terminal or in a notebook, silent elsewhere."""

    def __init__(self, desc: str, force: bool) -> None:
        self.bar = None
        try:
            from tqdm.auto import tqdm
        except ImportError:
            if force:
                raise OptionError("progress=True: tqdm is not installed (pip install tqdm, or apt-get install python3-tqdm)") from None
            return
        bar = tqdm(total=100.0, desc=desc, unit="%", bar_format="{l_bar}{bar}| {n:.0f}% [{elapsed}<{remaining}]",
                   disable=None if not force else False, leave=False)
        if bar.disable:  # not a terminal nor a notebook: no bar, no callback
            bar.close()
            return
        self.bar = bar

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.n = 100.0 * done / total
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _progress(progress: ProgressFn, units: str, desc: str) -> Tuple[Optional[Callable[[int, int], Any]], Optional[str], Optional[_Bar]]:
    """The progress function, the library's units and a bar to close."""
    if progress is None or progress is True:
        bar = _Bar(desc, progress is True)
        if bar.bar is None:
            return None, _units(units), None
        return bar, "work", bar
    if progress is False:
        return None, _units(units), None
    if not callable(progress):
        raise OptionError(f"progress {progress!r}: want a function progress(done, total), True, False or None")
    return progress, _units(units), None


def _looks_bands_first(shape: Tuple[int, ...]) -> bool:
    """A 3-D shape whose first axis is much smaller than the others, as in
    rasterio's (bands, rows, cols) arrays."""
    return len(shape) == 3 and shape[0] * 4 <= min(shape[1], shape[2]) and shape[0] < shape[2]


def upscale(x: Any, scale: Optional[float] = None, size: Optional[Tuple[int, int]] = None,
            method: str = "omnihsr", noise: Noise = "auto", nodata: Optional[float] = None, *,
            layout: Optional[str] = None, noise_file: Optional[PathLike] = None, keep_noisy_bands: bool = False,
            weights: Optional[str] = None, progress: ProgressFn = None, progress_units: str = "rows",
            out: Optional[np.ndarray] = None, return_result: bool = False, clamp: str = "none",
            adapt: Union[int, str] = 0) -> Any:
    """Super-resolves a hyperspectral cube by ``scale`` or to ``size``.

    x: a numpy array, (rows, cols, bands) as SPy orders it ("HWB", the
       default) or (bands, rows, cols) as rasterio does with
       ``layout="BHW"``; any real dtype (taken without a copy when it is
       C-contiguous float32 HWB); a 2-D array is one band. A 3-D array
       whose first axis is much smaller than the others (as every rasterio
       array is) is refused without ``layout=``. A numpy masked array: its
       masked samples are no-data, and the result is a masked array, masked
       where it is no-data. Or an ``xarray.DataArray`` whose dims are found
       by name, in any order: band (band, wavelength), y (y, lat, latitude,
       row) and x (x, lon, longitude, col); a dask-backed one is computed
       once, into float32 (the model's encoder is global: see the docs).
    scale: the factor S > 0 (output side round(S*side), half away from
       zero); fractional factors are fine. Exactly one of scale and size.
    size: the output (height, width) instead, two whole numbers.
    method: "omnihsr" (default), "omnihsr-se", "omnihsr-bp" or "bicubic".
    noise: "auto" (estimate, default), "clean", the noise standard
       deviation in the input's units, or one per band.
    nodata: the no-data value (NaN samples are always no-data); for a
       DataArray, its ``_FillValue`` (``da.rio.nodata``) by default.
    layout: "HWB" or "BHW", the axes of a numpy input and of the result.
    noise_file: a file of the noise standard deviations, one per band (a
       text file of numbers, or an uncertainty cube), instead of noise.
    keep_noisy_bands: keep bands whose noise is far above their neighbours'
       in the noise level (screened out by default).
    weights: an OmniHSR weight file (*.omw) instead of the embedded model.
    clamp: "none" (default), "input" (every band within its input range,
       no-data excluded) or "type", as ``omnihsr upscale -clamp``.
    adapt: per-scene adaptation, as ``-adapt``: "auto", or a number of
       fine-tuning steps on the input itself (0, the default, is off); the
       result's ``adapt`` says what it chose (``choice``) and why
       (``reason``; ``too_small`` is True when the input, or the check's,
       was too small to judge).
    progress: None (default): a tqdm bar over the whole call when tqdm is
       installed, on a terminal or in a notebook; False: none; True: a
       tqdm bar always; or a function called as progress(done, total) from
       the library's threads (an exception it raises cancels the call and
       is raised).
    progress_units: what a progress function counts: "rows" (the output
       rows), or "work", progress(done, 1000000) over the whole call, the
       model's encoding of the input first.
    out: a C-contiguous float32 array of the result's shape to write into.
    return_result: return (output, result) instead, the result a dict as
       upscale_file's (without ``file``): shape, no-data samples filled,
       bad bands, the model chosen and its noise, warnings.

    Returns a float32 numpy array in the input's layout with the values
    ``omnihsr upscale`` writes as float32 for the same input, or, for a
    DataArray, a DataArray in its dim order with the band coordinates and
    attributes kept, x and y at the new pixel centres, and the CRS,
    transform and no-data value set (rioxarray's ``.rio``).

    Raises OptionError (a ValueError) naming the option (scale, size,
    noise, nodata, layout, method, out) on a bad one. The GIL is released
    during the computation; Ctrl-C cancels it.
    """
    opts = dict(scale=_scale(scale), size=_size(size), method=_method(method), noise=_noise(noise),
                noise_file=_path(noise_file, "noise_file"), keep_noisy_bands=keep_noisy_bands or None,
                weights=_path(weights, "weights"), clamp=_clamp(clamp), adapt=adapt or None)
    if scale is None and size is None:
        raise OptionError("give scale (a factor) or size (height, width)")
    if scale is not None and size is not None:
        raise OptionError(f"scale {scale!r} and size {size!r}: set exactly one of scale and size")
    if layout is not None and layout not in ("HWB", "BHW"):
        raise OptionError(f"layout {layout!r}: want \"HWB\" (rows, cols, bands) or \"BHW\" (bands, rows, cols)")
    fn, units, bar = _progress(progress, progress_units, "omnihsr.upscale")
    opts["progress"] = units
    try:
        xr = sys.modules.get("xarray")  # x is no DataArray unless xarray is loaded
        if xr is not None and isinstance(x, xr.DataArray):
            if layout is not None:
                raise OptionError(f"layout {layout!r}: a DataArray's dims say its layout (band, y, x by name)")
            if out is not None:
                raise OptionError("out: for numpy arrays only")
            from ._xr import upscale_dataarray
            da, res = upscale_dataarray(x, opts, fn, nodata)
            return (da, res) if return_result else da
        sr, res = _upscale_numpy(x, opts, fn, nodata, layout, out)
        return (sr, res) if return_result else sr
    finally:
        if bar is not None:
            bar.close()


def _upscale_numpy(x: Any, opts: Dict[str, Any], progress: Any, nodata: Optional[float], layout: Optional[str],
                   out: Optional[np.ndarray]) -> Tuple[np.ndarray, dict]:
    masked = isinstance(x, np.ma.MaskedArray)
    a = np.ma.getdata(x) if masked else np.asarray(x)
    if a.size == 0:
        raise OptionError(f"input of shape {a.shape}: empty (want rows, columns and bands of at least 1)")
    if a.ndim == 2:
        a = a[:, :, None] if layout != "BHW" else a[None]
    if a.ndim != 3:
        raise OptionError(f"input of shape {a.shape}: want (rows, cols, bands), or (bands, rows, cols) with layout=\"BHW\"")
    if layout is None and _looks_bands_first(a.shape):
        raise OptionError(f"input of shape {a.shape} looks like (bands, rows, cols), rasterio's order: pass "
                          f"layout=\"BHW\" (the result is then (bands, rows, cols) too), or layout=\"HWB\" if it "
                          f"is (rows, cols, bands)")
    if not np.issubdtype(a.dtype, np.floating) and not np.issubdtype(a.dtype, np.integer):
        raise OptionError(f"input of dtype {a.dtype}: want real numbers")
    bhw = layout == "BHW"
    if bhw:
        a = a.transpose(1, 2, 0)
    if masked:
        m = np.ma.getmaskarray(x)
        if m.ndim == 2:
            m = m[:, :, None] if not bhw else m[None]
        if bhw:
            m = m.transpose(1, 2, 0)
        a = np.array(a, dtype=np.float32, order="C")  # a copy: the caller's array is not modified
        a[m] = np.nan  # masked samples are no-data
    else:
        a = np.ascontiguousarray(a, dtype=np.float32)  # no copy when already so
    opts = dict(opts, nodata=_num(nodata))
    want = None
    if out is not None and bhw:
        want, out = out, None
    res, sr = _upscale_array(a, opts, progress, out)
    if bhw:
        sr = sr.transpose(2, 0, 1)
        if want is not None:
            if want.shape != sr.shape or want.dtype != np.float32 or not want.flags.writeable:
                raise OptionError(f"out: want a writable float32 array of shape {sr.shape}")
            want[...] = sr
            sr = want
    if masked:
        nd = np.isnan(sr)
        if nodata is not None and not math.isnan(float(nodata)):
            nd |= sr == np.float32(nodata)
        sr = np.ma.MaskedArray(sr, mask=nd, fill_value=x.fill_value)
    return sr, res


def _upscale_array(a: np.ndarray, opts: Dict[str, Any], progress: Any,
                   out: Optional[np.ndarray] = None) -> Tuple[dict, np.ndarray]:
    """Upscales the C-contiguous float32 (H, W, B) array a."""
    be = _lib.backend()
    h, w, b = a.shape
    js = _lib.options_json(opts)
    oh, ow = be.output_size(h, w, js)
    shape = (oh, ow, b)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    elif out.shape != shape or out.dtype != np.float32 or not out.flags.c_contiguous or not out.flags.writeable:
        raise OptionError(f"out: want a writable C-contiguous float32 array of shape {shape}")
    res = be.upscale(a, js, out, progress)
    return res, out


def upscale_file(src: PathLike, dst: PathLike, scale: Optional[float] = None,
                 size: Optional[Tuple[int, int]] = None, method: str = "omnihsr", noise: Noise = "auto", *,
                 scales: Optional[Sequence[float]] = None, noise_file: Optional[PathLike] = None,
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
    "work", every output of scales in one count); clamp and adapt, as for upscale; and the reader options of
    ``open`` (var, layout, height, width, ortho, refuse_nan).

    Returns the typed result as a dict: the output shape (height, width,
    bands), the input size, the method, the no-data samples filled, the
    model chosen and its noise (``model``: sigma, noise_aware, gate, gain,
    screened bands, ``summary``, the plain line the command prints, and
    ``detail``, the technical one of ``-v``), what
    writing reported (``file``, and ``files`` with scales: path, size,
    clamped samples, metadata not written) and ``warnings`` (the command's
    warning lines).

    An output path the call cannot write (a directory, a FIFO, a name too
    long for its temporary) is refused before any work.
    """
    srcs, dsts = _path(src, "src"), _path(dst, "dst")
    opts = dict(scale=_scale(scale), size=_size(size),
                scales=[_scale(v) for v in scales] if scales is not None else None,
                method=_method(method), noise=_noise(noise), noise_file=_path(noise_file, "noise_file"),
                keep_noisy_bands=keep_noisy_bands or None, weights=_path(weights, "weights"), type=type, driver=driver,
                creation=list(creation) if creation else None, overwrite=overwrite or None,
                read=_read_options(reader_options) or None, clamp=_clamp(clamp), adapt=adapt or None)
    if scales is None:
        _check_output(dsts)
    else:
        for p in _scales_outputs(srcs, dsts, opts["scales"]):
            _check_output(p)
    fn, units, bar = _progress(progress, progress_units, "omnihsr.upscale_file")
    opts["progress"] = units
    try:
        return _lib.backend().upscale_file(srcs, dsts, _lib.options_json(opts), fn)
    finally:
        if bar is not None:
            bar.close()


# The temporary beside an output: "." + name + ".omnihsr-tmp-" + pid + "-" +
# up to 10 random digits (internal/atomicfile).
_TMP_EXTRA = len(".omnihsr-tmp-") + 1 + 7 + 1 + 10


def _scale_label(s: float) -> str:
    """The factor as the library names it in output paths (Go's 'g')."""
    r = repr(float(s))
    return r[:-2] if r.endswith(".0") else r


def _scales_outputs(src: str, dst: str, scales: Sequence[float]) -> list:
    """The output paths of upscale_file with scales (omnihsr.go's rule):
    dst with "{scale}" replaced, else files named after src in the
    directory dst."""
    if "{scale}" in dst:
        return [dst.replace("{scale}", _scale_label(s)) for s in scales]
    if not os.path.isdir(dst) and not dst.endswith(os.sep):
        return [dst]
    stem, ext = os.path.splitext(os.path.basename(src))
    if ext == "" or ext.lower() in (".img", ".dat", ".raw"):
        ext = ".hdr"
    return [os.path.join(dst, f"{stem}_x{_scale_label(s)}{ext}") for s in scales]


def _check_output(dst: str, what: str = "dst") -> None:
    """Refuses, before any work, an output path that cannot be written: an
    existing directory or non-regular file, or a name too long for the
    temporary written beside it."""
    try:
        st = os.stat(dst)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OptionError(f"{what} {dst}: {e.strerror}") from None
    if st is not None:
        import stat as _stat
        if _stat.S_ISDIR(st.st_mode):
            raise OptionError(f"{what} {dst}: is a directory (want a file name; a directory is an output only with scales=)")
        if not _stat.S_ISREG(st.st_mode):
            raise OptionError(f"{what} {dst}: not a regular file (a FIFO, device or socket): refused before any work")
    d = os.path.dirname(os.path.abspath(dst))
    e = d
    while not os.path.exists(e) and os.path.dirname(e) != e:
        e = os.path.dirname(e)  # the deepest existing folder: its file system's limit
    try:
        name_max = os.pathconf(e, "PC_NAME_MAX") if hasattr(os, "pathconf") else 255
    except (OSError, ValueError):
        name_max = 255
    for part in d.split(os.sep):  # a folder the library would create (scales= into a directory)
        if len(os.fsencode(part)) > name_max:
            raise OptionError(f"{what} {dst}: the folder name {part[:16]}... is {len(os.fsencode(part))} bytes; "
                              f"the file system allows {name_max}")
    base = os.path.basename(dst)
    if len(os.fsencode(base)) + _TMP_EXTRA > name_max:
        raise OptionError(f"{what} {dst}: the name is {len(os.fsencode(base))} bytes; its temporary beside it needs "
                          f"{_TMP_EXTRA} more and the file system allows {name_max}")


def write(x: Any, path: PathLike, *, layout: Optional[str] = None, type: Optional[str] = None,
          interleave: Optional[str] = None, compression: Optional[str] = None, driver: Optional[str] = None,
          creation: Optional[Sequence[str]] = None, var: Optional[str] = None, nodata: Optional[float] = None,
          wavelengths: Optional[Sequence[float]] = None, fwhm: Optional[Sequence[float]] = None,
          crs: Any = None, transform: Optional[Sequence[float]] = None) -> dict:
    """Writes a cube to path in the format its extension names, as
    ``omnihsr convert`` writes: ENVI (.hdr/.img), GeoTIFF (.tif; COG with
    driver="COG"), NumPy (.npy), MATLAB (.mat), PNG preview (.png).

    x: a DataArray (dims found by name, as upscale finds them; its
       wavelength, fwhm, bad_band, band_name, scale and offset coords, its
       attrs wavelength_units, description, reflectance_scale and envi_*
       fields, its no-data value (``.rio.nodata``, or ``.rio.encoded_nodata``
       with NaN samples written as it), CRS and transform are written where
       the format holds them), or a numpy array (layout as for upscale) with
       the metadata as keywords: nodata, wavelengths, fwhm, crs (WKT, EPSG
       code or anything with ``to_wkt()``), transform (GDAL's geotransform,
       or an affine.Affine).
    type: the sample type on disk ("float32" default, "float64", "uint8",
       "uint16", "int16", "int32"); values are rounded and clamped.
    interleave: ENVI's "bsq" (default), "bil" or "bip"; compression: MAT
       and TIFF "deflate" (TIFF also "lzw", "zstd"); driver: "GTiff" or
       "COG"; creation: GDAL-style TIFF creation options ("KEY=VALUE");
       var: the MATLAB variable. An option the format does not use is
       refused.

    The file is written atomically (a temporary renamed). Returns a dict:
    path, and dropped, the metadata the format cannot hold (also warned).
    """
    import json
    p = _path(path)
    xr = sys.modules.get("xarray")
    if xr is not None and isinstance(x, xr.DataArray):
        if layout is not None:
            raise OptionError(f"layout {layout!r}: a DataArray's dims say its layout (band, y, x by name)")
        from ._xr import write_meta
        a, meta = write_meta(x)
        if nodata is not None:
            meta["nodata"] = _num(nodata)
    else:
        a = np.ma.getdata(x) if isinstance(x, np.ma.MaskedArray) else np.asarray(x)
        if a.ndim == 2:
            a = a[:, :, None] if layout != "BHW" else a[None]
        if layout not in (None, "HWB", "BHW"):
            raise OptionError(f"layout {layout!r}: want \"HWB\" (rows, cols, bands) or \"BHW\" (bands, rows, cols)")
        if a.ndim != 3 or a.size == 0:
            raise OptionError(f"input of shape {a.shape}: want (rows, cols, bands), or (bands, rows, cols) with layout=\"BHW\"")
        if layout is None and _looks_bands_first(a.shape):
            raise OptionError(f"input of shape {a.shape} looks like (bands, rows, cols), rasterio's order: pass "
                              f"layout=\"BHW\", or layout=\"HWB\" if it is (rows, cols, bands)")
        if layout == "BHW":
            a = a.transpose(1, 2, 0)
        a = np.ascontiguousarray(a, dtype=np.float32)
        if isinstance(x, np.ma.MaskedArray):
            m = np.ma.getmaskarray(x)
            m = m.transpose(1, 2, 0) if layout == "BHW" and m.ndim == 3 else m.reshape(a.shape)
            if m.any():
                if nodata is None:
                    raise OptionError("nodata: a masked array's masked samples need a no-data value to be written as")
                a = a.copy()
                a[m] = nodata
        meta = {"nodata": _num(nodata)}
        if wavelengths is not None:
            meta["wavelengths"] = [float(v) for v in wavelengths]
            meta["wavelength_units"] = "Nanometers"
        if fwhm is not None:
            meta["fwhm"] = [float(v) for v in fwhm]
        if crs is not None:
            from ._xr import crs_wkt
            meta["crs_wkt"] = crs_wkt(crs)
        if transform is not None:
            t = transform.to_gdal() if hasattr(transform, "to_gdal") else transform
            meta["transform"] = [float(v) for v in t]
    opts = dict(type=type, interleave=interleave, compression=compression, driver=driver,
                creation=list(creation) if creation else None, var=var)
    _check_output(p, "path")
    mjs = json.dumps({k: v for k, v in meta.items() if v is not None}, allow_nan=True).encode()
    res = _lib.backend().write(a, mjs, p, _lib.options_json(opts))
    if res.get("dropped"):
        import warnings
        warnings.warn(f"omnihsr.write: {p}: not written (the format cannot hold it): {'; '.join(res['dropped'])}",
                      stacklevel=2)
    return res


_READ_KEYS = ("var", "layout", "height", "width", "ortho", "refuse_nan")


def _read_options(o: Dict[str, Any]) -> Dict[str, Any]:
    bad = sorted(set(o) - set(_READ_KEYS))
    if bad:
        raise OptionError(f"unknown reader option(s) {bad}: want {list(_READ_KEYS)}")
    return {k: v for k, v in o.items() if v is not None}


def read(path: PathLike, **reader_options: Any) -> Tuple[np.ndarray, dict]:
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
    p = _path(path)
    return _lib.backend().read(p, _lib.options_json(_read_options(reader_options)))


def open(path: PathLike, **reader_options: Any) -> Any:  # noqa: A001 - the name asked for
    """Reads a hyperspectral file or product as an ``xarray.DataArray``
    shaped as rioxarray's.

    Every format and product the ``omnihsr`` command reads: ENVI, GeoTIFF,
    MATLAB, NumPy, HDF5/NetCDF, EMIT (``ortho=True`` for the map grid),
    PRISMA, EnMAP, DESIS, AVIRIS-NG, NEON.

    The DataArray has dims (band, y, x) and float32 stored values; band
    numbered from 1, as rioxarray numbers bands; coords wavelength
    (indexed: ``da.sel(wavelength=650, method="nearest")``), fwhm, bad_band
    (True: bad), band_name, scale and offset along band when the file
    states them; x and y at pixel centres, and the CRS, transform and
    no-data value as rioxarray reads them (``da.rio.crs``,
    ``da.rio.transform()``, ``da.rio.nodata``) when the file has them;
    attrs wavelength_units, reflectance_scale, description, product and the
    file's other header fields (``envi_...``); the file's path and format
    in ``da.encoding``. The data is a view of the (H, W, B) array
    ``read`` returns (``da.transpose("y", "x", "band").values`` is it).
    """
    from ._xr import dataarray
    data, m = read(path, **reader_options)
    return dataarray(data, m, os.fspath(path))


try:  # registers da.hsi (selection by wavelength) when xarray is installed
    from . import _xr  # noqa: E402,F401
except ImportError:
    pass
