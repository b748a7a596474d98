"""xarray and rioxarray glue of the omnihsr package: the DataArray's shape
(docs/PYTHON.md lists every convention beside rioxarray's and SPy's)."""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import xarray as xr

from ._lib import OptionError

# The names by which an input DataArray's dims are found (issue 39 item 6).
BAND_DIMS = ("band", "wavelength", "bands")
Y_DIMS = ("y", "lat", "latitude", "row", "rows", "line", "lines")
X_DIMS = ("x", "lon", "longitude", "col", "cols", "column", "columns", "sample", "samples")

# Attributes that describe a file, not the array: never on open's result.
_FILE_ATTRS = ("source", "format", "data_type", "layout", "variable")


def _rio() -> bool:
    """Whether rioxarray (and its .rio accessor) is importable."""
    try:
        import rioxarray  # noqa: F401 - registers the .rio accessor
    except ImportError:
        return False
    return True


def _affine(gt: Sequence[float]) -> Any:
    from affine import Affine  # a dependency of rioxarray and rasterio
    return Affine.from_gdal(*gt)


def _centres(gt: Sequence[float], h: int, w: int) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """The x and y pixel-centre coordinates of an unrotated grid."""
    if gt[2] != 0 or gt[4] != 0:
        return None
    x = gt[0] + (np.arange(w) + 0.5) * gt[1]
    y = gt[3] + (np.arange(h) + 0.5) * gt[5]
    return x, y


def georeference(da: xr.DataArray, wkt: str, gt: Optional[Sequence[float]]) -> xr.DataArray:
    """Sets the CRS and transform as rioxarray reads them (attrs crs_wkt and
    transform without rioxarray)."""
    if not _rio():
        if wkt:
            da.attrs["crs_wkt"] = wkt
        if gt is not None:
            da.attrs["transform"] = tuple(gt)
        return da
    if wkt:
        da = da.rio.write_crs(wkt)
    if gt is not None:
        da = da.rio.write_transform(_affine(gt))
    return da


def set_nodata(da: xr.DataArray, nodata: Optional[float]) -> xr.DataArray:
    """Sets the no-data value as rioxarray does (attrs _FillValue)."""
    if nodata is None:
        return da
    if _rio():
        return da.rio.write_nodata(nodata, encoded=False)
    da.attrs["_FillValue"] = nodata
    return da


_INDEX_OK: Optional[bool] = None


def wavelength_index_ok() -> bool:
    """Whether this xarray can carry a second index on the band dim (the
    wavelength's beside the band number's) through alignment: xarray up to
    at least 2023.01 cannot (``da + da``, ``where`` and rioxarray's
    ``clip_box`` then raise "conflicting indexes", pydata/xarray#7695), and
    the wavelength is then left unindexed (``da.hsi.sel`` selects by it)."""
    global _INDEX_OK
    if _INDEX_OK is None:
        try:
            p = xr.DataArray([1.0, 2.0], dims="band", coords={"band": [1, 2], "wavelength": ("band", [4.0, 5.0])})
            p = p.set_xindex("wavelength")
            q = p.assign_coords(z=0)
            _INDEX_OK = bool((q + q).where(q > 0).notnull().all())
        except Exception:  # noqa: BLE001 - any failure: not supported
            _INDEX_OK = False
    return _INDEX_OK


def index_wavelength(da: xr.DataArray) -> xr.DataArray:
    """Indexes the wavelength coordinate of the band dim, so that
    ``da.sel(wavelength=650, method="nearest")`` works, where this xarray
    allows it (wavelength_index_ok)."""
    c = da.coords.get("wavelength")
    if c is None or "wavelength" in da.dims or c.ndim != 1 or "wavelength" in da.indexes or not wavelength_index_ok():
        return da
    try:
        return da.set_xindex("wavelength")
    except Exception:  # noqa: BLE001 - the coordinate stays, unindexed
        return da


@xr.register_dataarray_accessor("hsi")
class HSIAccessor:
    """``da.hsi``: band selection by wavelength on any xarray (omnihsr)."""

    def __init__(self, da: xr.DataArray) -> None:
        self._da = da

    def sel(self, wavelength: Any = None, method: Optional[str] = None, tolerance: Optional[float] = None,
            **kw: Any) -> xr.DataArray:
        """The bands at the given wavelength(s), as
        ``da.sel(wavelength=..., method=..., tolerance=...)`` does with an
        index: a scalar drops the band dim, a list or slice keeps it;
        method None (exact) or "nearest". Other keywords go to ``da.sel``."""
        da = self._da
        if kw:
            da = da.sel(**kw)
        if wavelength is None:
            return da
        if "wavelength" not in da.coords:
            raise KeyError("no wavelength coordinate (the file states no wavelengths)")
        c = da.coords["wavelength"]
        (dim,) = c.dims
        wl = np.asarray(c.values, dtype=np.float64)
        if isinstance(wavelength, slice):
            lo = -np.inf if wavelength.start is None else float(wavelength.start)
            hi = np.inf if wavelength.stop is None else float(wavelength.stop)
            return da.isel({dim: np.flatnonzero((wl >= lo) & (wl <= hi))})
        scalar = np.ndim(wavelength) == 0
        want = np.atleast_1d(np.asarray(wavelength, dtype=np.float64))
        idx = []
        for v in want:
            if method == "nearest":
                i = int(np.argmin(np.abs(wl - v)))
            elif method is None:
                hit = np.flatnonzero(wl == v)
                if hit.size == 0:
                    raise KeyError(f"wavelength {v:g}: no band has it exactly (method=\"nearest\" takes the nearest)")
                i = int(hit[0])
            else:
                raise ValueError(f"method {method!r}: want None or \"nearest\"")
            if tolerance is not None and abs(wl[i] - v) > tolerance:
                raise KeyError(f"wavelength {v:g}: the nearest band ({wl[i]:g}) is beyond tolerance {tolerance:g}")
            idx.append(i)
        return da.isel({dim: idx[0] if scalar else idx})


def dataarray(data: Any, m: Dict[str, Any], path: str, lazy: bool = False) -> xr.DataArray:
    """The DataArray of a cube (H, W, B) and its metadata (omnihsr.read's):
    dims (band, y, x), a view of data (no copy); lazy: data is already a
    (B, H, W) lazily indexed array (the xarray backend's)."""
    h, w, b = m["shape"]
    coords: Dict[str, Any] = {"band": np.arange(1, b + 1)}
    for key, name in (("wavelengths", "wavelength"), ("fwhm", "fwhm"), ("bad_bands", "bad_band"),
                      ("band_names", "band_name"), ("scale", "scale"), ("offset", "offset")):
        v = m.get(key)
        if v and len(v) == b:
            coords[name] = ("band", np.asarray(v, dtype=bool if name == "bad_band" else None))
    gt = m.get("transform")
    if gt is not None:
        c = _centres(gt, h, w)
        if c is not None:
            coords["x"], coords["y"] = c[0], c[1]
    attrs: Dict[str, Any] = {}
    for key in ("product", "wavelength_units", "description"):
        if m.get(key):
            attrs[key] = m[key]
    if m.get("reflectance_scale"):
        attrs["reflectance_scale"] = m["reflectance_scale"]
    for f in m.get("extra") or []:
        attrs.setdefault("envi_" + f["key"].replace(" ", "_"), f["value"])
    if m.get("crs_note"):
        attrs["crs_note"] = m["crs_note"]
    da = xr.DataArray(data if lazy else data.transpose(2, 0, 1), dims=("band", "y", "x"), coords=coords, attrs=attrs)
    # What the file was: xarray's place for it (encoding["source"]), not attrs.
    da.encoding.update({"source": path, "omnihsr_format": m.get("format") or "",
                        "omnihsr_data_type": m.get("data_type") or ""})
    da = set_nodata(da, m.get("nodata"))
    da = index_wavelength(da)
    return georeference(da, m.get("crs_wkt") or "", gt)


def find_dims(da: xr.DataArray) -> Tuple[str, str, str]:
    """The (y, x, band) dims of da, found by name; OptionError naming the
    dims found when they are not three of the known names."""
    def pick(names: Sequence[str], what: str) -> Optional[str]:
        hit = [d for d in da.dims if str(d).lower() in names]
        if len(hit) > 1:
            raise OptionError(f"DataArray with dims {tuple(da.dims)}: {len(hit)} dims {tuple(hit)} name the {what} axis")
        return hit[0] if hit else None

    if da.ndim != 3:
        raise OptionError(f"DataArray with dims {tuple(da.dims)}: want three, a band dim ({'/'.join(BAND_DIMS)}), "
                          f"y ({'/'.join(Y_DIMS)}) and x ({'/'.join(X_DIMS)})")
    b, y, x = pick(BAND_DIMS, "band"), pick(Y_DIMS, "y"), pick(X_DIMS, "x")
    if b is None or y is None or x is None:
        raise OptionError(f"DataArray with dims {tuple(da.dims)}: cannot tell the band, y and x dims by their names "
                          f"(band: {'/'.join(BAND_DIMS)}; y: {'/'.join(Y_DIMS)}; x: {'/'.join(X_DIMS)}); "
                          f"rename them (da.rename(...))")
    return y, x, b


def _axis(da: xr.DataArray, dim: str) -> Optional[Tuple[float, float]]:
    """The first centre and the step of dim's 1-D coordinate (None when it
    has none, or one value); OptionError when it is not a regular grid."""
    if dim not in da.coords:
        return None
    c = da.coords[dim]
    v = np.asarray(c.values)
    if v.dtype.kind not in "iuf":
        raise OptionError(f"coordinate {dim!r} of dtype {v.dtype}: not a regular numeric grid "
                          f"(drop it with da.drop_vars({dim!r}) to upscale the array as a plain grid)")
    if v.size < 2:
        return None
    # The rounding the coordinates' type allows: float32 centres of a
    # regular grid step unevenly by a few units in their last place.
    eps = np.finfo(v.dtype).eps if v.dtype.kind == "f" else 0.0
    v = v.astype(np.float64)
    d = np.diff(v)
    step = (v[-1] - v[0]) / (v.size - 1)
    tol = 1e-6 * abs(step) + 4 * eps * float(np.max(np.abs(v)))
    if step == 0 or not np.all(np.isfinite(d)) or np.max(np.abs(d - step)) > tol:
        raise OptionError(f"coordinate {dim!r} is not a regular grid (steps from {np.min(d):g} to {np.max(d):g}): "
                          f"omnihsr upscales regular grids only (drop it with da.drop_vars({dim!r}) to upscale "
                          f"the array as a plain grid)")
    return float(v[0]), float(step)


def transform_of(da: xr.DataArray, ydim: str, xdim: str) -> Optional[Tuple[float, ...]]:
    """GDAL's geotransform of da's grid: rioxarray's stored one, else from
    its y/x coordinates (which must be regular), else None."""
    xs, ys = _axis(da, xdim), _axis(da, ydim)
    gt: Optional[Tuple[float, ...]] = None
    if _rio() and (ydim, xdim) == ("y", "x"):
        try:
            t = da.rio.transform(recalc=False)
            if not t.is_identity:
                gt = tuple(t.to_gdal())
        except Exception:  # noqa: BLE001 - no usable transform
            gt = None
    if gt is None and xs is not None and ys is not None:
        gt = (xs[0] - xs[1] / 2, xs[1], 0.0, ys[0] - ys[1] / 2, 0.0, ys[1])
    return gt


def _fill(key: str, v: Any, where: str) -> Optional[float]:
    if isinstance(v, (bytes, str)):
        t = v.decode() if isinstance(v, bytes) else v
        if t.strip().lower() in ("", "none", "null"):
            return None
        try:
            return float(t)
        except ValueError:
            raise OptionError(f"{key} {v!r} in the DataArray's {where}: not a number (pass nodata=)") from None
    try:
        return float(np.asarray(v).reshape(-1)[0])
    except (TypeError, ValueError, IndexError):
        raise OptionError(f"{key} {v!r} in the DataArray's {where}: not a number (pass nodata=)") from None


def fill_value(da: xr.DataArray) -> Optional[float]:
    """The no-data value of da's samples: attrs _FillValue (rioxarray's
    ``.rio.nodata``), nodata or missing_value; OptionError on one that is
    not a number ("none" is none). An encoded no-data value (encoding
    _FillValue, rioxarray's ``masked=True``) is not the samples': they hold
    NaN there, which is always no-data."""
    for key in ("_FillValue", "nodata", "missing_value"):
        if da.attrs.get(key) is not None:
            return _fill(key, da.attrs[key], "attrs")
    return None


_TRUE = ("1", "true", "yes", "bad", "t", "y")
_FALSE = ("0", "false", "no", "good", "f", "n", "")


def bad_bands(c: xr.DataArray) -> List[bool]:
    """The values of a bad_band coordinate as booleans (True: bad);
    OptionError on values that are not booleans, 0/1 or their words."""
    v = np.asarray(c.values)
    if v.dtype == bool:
        return [bool(x) for x in v]
    if v.dtype.kind in "iuf":
        if not np.all(np.isin(v, (0, 1))):
            raise OptionError(f"coordinate 'bad_band' holds {sorted(set(v.tolist()))[:5]}: want booleans (True: bad) or 0/1")
        return [bool(x) for x in v]
    out = []
    for x in v:
        s = (x.decode() if isinstance(x, bytes) else str(x)).strip().lower()
        if s in _TRUE:
            out.append(True)
        elif s in _FALSE:
            out.append(False)
        else:
            raise OptionError(f"coordinate 'bad_band' holds {x!r}: want booleans (True: bad) or 0/1")
    return out


def upscale_dataarray(da: xr.DataArray, opts: Dict[str, Any], progress: Any,
                      nodata: Optional[float]) -> Tuple[xr.DataArray, dict]:
    """omnihsr.upscale of a DataArray, and the library's result."""
    from . import _num, _upscale_array
    ydim, xdim, bdim = find_dims(da)
    if nodata is None:
        nodata = fill_value(da)
    bad = da.coords.get("bad_band")
    gt = transform_of(da, ydim, xdim)  # refuses irregular grids before any work
    src = da.transpose(ydim, xdim, bdim)
    if getattr(src.variable, "chunks", None) is not None:
        # A dask array: the model's encoder is global (ESSA attention sums
        # over every pixel), so windows would change the result; computed
        # whole, once, straight into float32.
        warnings.warn("omnihsr.upscale: the input is a dask array; it is computed into memory first, once "
                      f"({src.size * 4 / 2**20:.0f} MiB as float32): the model's encoder is global, so the "
                      "result cannot be made window by window (docs/PYTHON.md); the result is a numpy-backed "
                      "DataArray", stacklevel=3)
        import dask.array
        a = np.empty(src.shape, dtype=np.float32)  # the only copy: dask stores its chunks into it
        dask.array.store(src.data.astype(np.float32), a, lock=False)
    else:
        a = np.ascontiguousarray(src.values, dtype=np.float32)  # no copy when already C-contiguous float32
    opts = dict(opts, nodata=_num(nodata))
    if bad is not None and bad.dims == (bdim,):
        opts["bad_bands"] = bad_bands(bad)
    res, sr = _upscale_array(a, opts, progress)
    oh, ow = sr.shape[0], sr.shape[1]
    h, w = a.shape[0], a.shape[1]
    coords: Dict[str, Any] = {}
    dropped = []
    for name, c in src.coords.items():
        if c.dims == (bdim,) or c.dims == ():
            coords[name] = c.variable
        elif name not in (xdim, ydim):
            dropped.append(name)
    if dropped:
        warnings.warn(f"omnihsr.upscale: coordinates {dropped} span the grid and were left out of the result", stacklevel=3)
    coords.pop("spatial_ref", None)
    attrs = {k: v for k, v in da.attrs.items() if k not in _FILE_ATTRS and k not in ("transform", "crs_wkt")}
    out = xr.DataArray(sr, dims=(ydim, xdim, bdim), coords=coords, attrs=attrs)
    out.encoding.update({k: v for k, v in da.encoding.items() if k in ("_FillValue",)})
    if "wavelength" in da.indexes and "wavelength" != bdim:
        out = index_wavelength(out)
    if gt is not None:
        ngt = (gt[0], gt[1] * w / ow, gt[2] * h / oh, gt[3], gt[4] * w / ow, gt[5] * h / oh)
        c = _centres(ngt, oh, ow)
        if c is not None:
            out = out.assign_coords({xdim: c[0], ydim: c[1]})
        wkt = ""
        if _rio():
            try:
                crs = src.rio.crs
                wkt = crs.to_wkt() if crs is not None else ""
            except Exception:  # noqa: BLE001 - no CRS rioxarray can read
                wkt = ""
        elif da.attrs.get("crs_wkt"):
            wkt = da.attrs["crs_wkt"]
        out = georeference(out, wkt, ngt if (ydim, xdim) == ("y", "x") or not _rio() else None)
    if nodata is not None:  # the value the output's no-data samples hold
        out = set_nodata(out, nodata)
    return out.transpose(*da.dims), res


def crs_wkt(crs: Any) -> str:
    """The WKT of crs: a WKT string, "EPSG:n", an EPSG code, or anything
    with ``to_wkt()`` (rasterio's and pyproj's CRS)."""
    if crs is None:
        return ""
    if hasattr(crs, "to_wkt"):
        return crs.to_wkt()
    if isinstance(crs, (int, np.integer)) or (isinstance(crs, str) and crs.strip().upper().startswith("EPSG:")):
        try:
            from rasterio.crs import CRS
        except ImportError:
            raise OptionError(f"crs {crs!r}: an EPSG code needs rasterio to become WKT; give the WKT") from None
        return CRS.from_user_input(crs).to_wkt()
    if isinstance(crs, str):
        return crs
    raise OptionError(f"crs {crs!r}: want WKT, \"EPSG:n\", an EPSG code or a CRS object")


def write_meta(da: xr.DataArray) -> Tuple[np.ndarray, Dict[str, Any]]:
    """The C-contiguous float32 (H, W, B) samples of da and its metadata as
    omnihsr_write takes it."""
    ydim, xdim, bdim = find_dims(da)
    gt = transform_of(da, ydim, xdim)
    src = da.transpose(ydim, xdim, bdim)
    a = np.ascontiguousarray(np.asarray(src.data.compute() if hasattr(src.data, "compute") else src.values),
                             dtype=np.float32)
    meta: Dict[str, Any] = {}
    for name, key in (("wavelength", "wavelengths"), ("fwhm", "fwhm"), ("scale", "scale"), ("offset", "offset")):
        c = src.coords.get(name)
        if c is not None and c.dims == (bdim,):
            meta[key] = [float(v) for v in np.asarray(c.values, dtype=np.float64)]
    if bdim == "wavelength" and "wavelength" in src.coords:
        meta["wavelengths"] = [float(v) for v in np.asarray(src["wavelength"].values, dtype=np.float64)]
    c = src.coords.get("bad_band")
    if c is not None and c.dims == (bdim,):
        meta["bad_bands"] = bad_bands(c)
    c = src.coords.get("band_name")
    if c is not None and c.dims == (bdim,):
        meta["band_names"] = [str(v) for v in c.values]
    for key in ("wavelength_units", "description"):
        if isinstance(da.attrs.get(key), str) and da.attrs[key]:
            meta[key] = da.attrs[key]
    if da.attrs.get("reflectance_scale"):
        meta["reflectance_scale"] = float(da.attrs["reflectance_scale"])
    extra = [{"key": k[5:].replace("_", " "), "value": str(v)} for k, v in da.attrs.items() if k.startswith("envi_")]
    if extra:
        meta["extra"] = extra
    from . import _num
    nodata = fill_value(da)
    enc = da.encoding.get("_FillValue")
    if nodata is None and enc is not None:
        # rioxarray's masked=True: NaN in memory, written as the encoded value.
        nodata = _fill("_FillValue", enc, "encoding")
        if nodata is not None:
            a = a.copy()
            a[np.isnan(a)] = nodata
    meta["nodata"] = _num(nodata)
    if gt is not None:
        meta["transform"] = [float(v) for v in gt]
        wkt = ""
        if _rio() and (ydim, xdim) == ("y", "x"):
            try:
                wkt = crs_wkt(da.rio.crs)
            except Exception:  # noqa: BLE001 - none rioxarray reads
                wkt = ""
        if not wkt and isinstance(da.attrs.get("crs_wkt"), str):
            wkt = da.attrs["crs_wkt"]
        if wkt:
            meta["crs_wkt"] = wkt
    return a, meta
