"""xarray and rioxarray glue of the omnihsr package."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
import xarray as xr

from ._lib import OptionError


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


def _georeference(da: xr.DataArray, wkt: str, gt: Optional[Sequence[float]]) -> xr.DataArray:
    """Sets the CRS and transform as rioxarray reads them."""
    try:
        import rioxarray  # noqa: F401 - registers the .rio accessor
    except ImportError:  # the coordinates are set; the CRS goes into attrs
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


def dataarray(data: np.ndarray, m: Dict[str, Any], path: str) -> xr.DataArray:
    """The DataArray of a cube and its metadata (omnihsr.read's)."""
    h, w, b = data.shape
    coords: Dict[str, Any] = {"band": np.arange(b)}
    for key, name in (("wavelengths", "wavelength"), ("fwhm", "fwhm"), ("bad_bands", "bad_band"),
                      ("band_names", "band_name"), ("scale", "scale"), ("offset", "offset"),
                      ("noise", "noise")):
        v = m.get(key)
        if v and len(v) == b:
            coords[name] = ("band", np.asarray(v))
    gt = m.get("transform")
    if gt is not None:
        c = _centres(gt, h, w)
        if c is not None:
            coords["x"], coords["y"] = c[0], c[1]
    attrs: Dict[str, Any] = {"source": path}
    for key in ("format", "data_type", "layout", "variable", "product", "wavelength_units", "description"):
        if m.get(key):
            attrs[key] = m[key]
    if m.get("reflectance_scale"):
        attrs["reflectance_scale"] = m["reflectance_scale"]
    if m.get("nodata") is not None:
        attrs["_FillValue"] = m["nodata"]
    for f in m.get("extra") or []:
        attrs.setdefault("envi_" + f["key"].replace(" ", "_"), f["value"])
    if m.get("crs_note"):
        attrs["crs_note"] = m["crs_note"]
    da = xr.DataArray(data, dims=("y", "x", "band"), coords=coords, attrs=attrs)
    if m.get("nodata") is not None:
        try:
            import rioxarray  # noqa: F401
            da = da.rio.write_nodata(m["nodata"], encoded=False)
        except ImportError:
            pass
    return _georeference(da, m.get("crs_wkt") or "", gt)


def _transform_of(da: xr.DataArray) -> Optional[Tuple[float, ...]]:
    """GDAL's geotransform of da's grid: rioxarray's, else from its x/y
    coordinates, else None."""
    try:
        import rioxarray  # noqa: F401
        if "x" in da.coords and "y" in da.coords or da.rio.crs is not None:
            t = da.rio.transform(recalc=False)
            if not t.is_identity:
                return tuple(t.to_gdal())
    except Exception:  # noqa: BLE001 - no usable transform
        pass
    if "x" in da.coords and "y" in da.coords and da.sizes.get("x", 0) > 1 and da.sizes.get("y", 0) > 1:
        x, y = np.asarray(da["x"], dtype=float), np.asarray(da["y"], dtype=float)
        dx, dy = x[1] - x[0], y[1] - y[0]
        return (x[0] - dx / 2, dx, 0.0, y[0] - dy / 2, 0.0, dy)
    return None


def _dims(da: xr.DataArray) -> Tuple[str, str, str]:
    """The (y, x, band) dims of da."""
    if da.ndim != 3:
        raise OptionError(f"DataArray with dims {da.dims}: want three (y, x, band)")
    if {"y", "x"} <= set(da.dims):
        rest = [d for d in da.dims if d not in ("y", "x")]
        return "y", "x", rest[0]
    return da.dims[0], da.dims[1], da.dims[2]


def upscale_dataarray(da: xr.DataArray, *, scale: Optional[float], size: Optional[Tuple[int, int]], method: str,
                      noise: Any, nodata: Optional[float], noise_file: Optional[str], keep_noisy_bands: bool,
                      weights: Optional[str], progress: Any, progress_units: str = "rows",
                      clamp: str = "none", adapt: Any = 0) -> Tuple[xr.DataArray, dict]:
    """omnihsr.upscale of a DataArray, and the library's result."""
    from . import _clamp, _noise, _num, _size, _units, _upscale_array
    ydim, xdim, bdim = _dims(da)
    if nodata is None:
        nodata = da.attrs.get("_FillValue")
        if nodata is None:
            try:
                import rioxarray  # noqa: F401
                nodata = da.rio.nodata
            except Exception:  # noqa: BLE001
                nodata = None
    bad = da.coords.get("bad_band")
    src = da.transpose(ydim, xdim, bdim)
    a = np.ascontiguousarray(src.values, dtype=np.float32)  # no copy when already C-contiguous float32
    opts = dict(scale=scale, size=_size(size), method=method, noise=_noise(noise), noise_file=noise_file,
                nodata=_num(nodata),
                keep_noisy_bands=keep_noisy_bands or None, weights=weights, progress=_units(progress_units),
                clamp=_clamp(clamp), adapt=adapt or None)
    if bad is not None and bad.dims == (bdim,):
        opts["bad_bands"] = [bool(v) for v in np.asarray(bad)]
    res, sr = _upscale_array(a, opts, progress)
    oh, ow = sr.shape[0], sr.shape[1]
    h, w = a.shape[0], a.shape[1]
    coords: Dict[str, Any] = {}
    for name, c in src.coords.items():
        if c.dims == (bdim,):
            coords[name] = c
        elif c.dims == ():
            coords[name] = c
    coords.pop("spatial_ref", None)
    gt = _transform_of(src)
    out = xr.DataArray(sr, dims=(ydim, xdim, bdim), coords=coords, attrs=dict(da.attrs))
    if gt is not None:
        ngt = (gt[0], gt[1] * w / ow, gt[2] * h / oh, gt[3], gt[4] * w / ow, gt[5] * h / oh)
        c = _centres(ngt, oh, ow)
        if c is not None:
            out = out.assign_coords({xdim: c[0], ydim: c[1]})
        wkt = ""
        try:
            import rioxarray  # noqa: F401
            crs = src.rio.crs
            wkt = crs.to_wkt() if crs is not None else ""
        except Exception:  # noqa: BLE001
            wkt = ""
        out = _georeference(out, wkt, ngt)
    return out.transpose(*da.dims), res
