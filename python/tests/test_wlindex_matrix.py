"""What analysts do with the band dim, on an array whose ``wavelength`` is
indexed by a candidate index versus the array the package makes on xarray
2023.01 (Debian 12's, CI's): ``band`` indexed, ``wavelength`` a plain
coordinate (issue 42; docs/PYTHON.md, "Why da.sel(wavelength=...) needs a
recent xarray").

xarray up to 2023.01 refuses to align objects with two indexes on one dim
(pydata/xarray#7695), so ``set_xindex("wavelength")`` beside band's index
breaks ``da + da``. The candidate here, BandIndex, is ONE index over both
coordinates of the band dim (band number and wavelength), which alignment
accepts. The matrix runs every row on both arrays and sorts the outcome:

  same    equal results (or the same exception)
  better  the plain array raises or differs from the right answer, the
          candidate gives the right answer
  fixerr  the candidate raises where the plain array works, and the message
          names the fix
  error   the candidate raises where the plain array works, the message does
          not name the fix
  wrong   the candidate returns a different result, or one carrying an index
          whose dim is not its coordinates' (a stale index): silent

The measured table (EXPECTED) is why the package does NOT use BandIndex,
and no index can do better on 2023.01 without patching xarray:
- ``da.sel(wavelength=...)`` finds its index by the coordinate's name
  (xarray/core/indexing.py, group_indexers_by_index: a coordinate with no
  index is "no index found"), so ``wavelength`` must carry one;
- the aligner matches indexes by (their coordinates' names and dims, their
  type) (core/alignment.py, find_matching_indexes) and refuses two keys on
  one dim (assert_no_index_conflict); an index that covers ``wavelength``
  never matches band's usual PandasIndex on the other array, so
  ``da + rioxarray.open_rasterio(...)``, ``xr.align``, ``reindex_like`` and
  ``reindex(band=[...])`` raise "conflicting indexes", whatever the index.
- ``swap_dims(band="wavelength")`` keeps the index object as is
  (Dataset.swap_dims copies ``_indexes[k]`` and calls no Index hook), so the
  result carries an index whose dim is gone; no Index method can tell the
  stale state from the sound one (``sel`` gets the labels only), so the
  ``sel`` that follows fails with "Dimensions {'band'} do not exist".
The package ships the rule "``da.hsi.sel`` everywhere, ``da.sel(wavelength=
...)`` where wavelength_index_ok()" instead.

Run as a script to print the table.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from xarray.core.indexes import Index, PandasIndex
from xarray.core.indexing import IndexSelResult

import omnihsr
from omnihsr import _xr

WL = [450.0, 520.0, 600.0, 655.0, 710.0, 860.0, 1240.0, 2200.0]
FIX = "drop_indexes"  # the fix the candidate's messages name


class BandIndex(Index):
    """The candidate: one index over the band dim's number coordinate and
    its wavelength coordinate; ``sel`` by either (wavelength: None, or
    "nearest" with tolerance; scalar, list or slice)."""

    def __init__(self, band: PandasIndex, wl: PandasIndex) -> None:
        self.band, self.wl = band, wl
        self.dim = band.dim

    @classmethod
    def from_variables(cls, variables: Dict[Any, Any], *, options: Any) -> "BandIndex":
        if len(variables) != 2:
            raise ValueError(f"BandIndex takes the band dim's coordinate and its wavelength, got {list(variables)}")
        dims = {v.dims for v in variables.values()}
        if len(dims) != 1 or len(next(iter(dims))) != 1:
            raise ValueError("BandIndex: both coordinates must lie along the one band dim")
        (dim,) = next(iter(dims))
        if dim not in variables:
            raise ValueError(f"BandIndex: no coordinate named for the dim {dim!r}")
        (wname,) = [n for n in variables if n != dim]
        return cls(PandasIndex.from_variables({dim: variables[dim]}, options=options),
                   PandasIndex.from_variables({wname: variables[wname]}, options=options))

    @property
    def names(self) -> Tuple[Any, Any]:
        return self.band.index.name, self.wl.index.name

    @classmethod
    def concat(cls, indexes: Any, dim: Any, positions: Any = None) -> "BandIndex":
        return cls(PandasIndex.concat([i.band for i in indexes], dim, positions),
                   PandasIndex.concat([i.wl for i in indexes], dim, positions))

    def create_variables(self, variables: Any = None) -> Dict[Any, Any]:
        variables = variables or {}
        out = dict(self.band.create_variables({k: v for k, v in variables.items() if k == self.names[0]}))
        out.update(self.wl.create_variables({k: v for k, v in variables.items() if k == self.names[1]}))
        return out

    def to_pandas_index(self) -> pd.Index:
        return self.band.index

    def isel(self, indexers: Dict[Any, Any]) -> Optional["BandIndex"]:
        # One dim: its indexer, whatever the dim is called now.
        ((dim, ix),) = indexers.items()
        b = self.band.rename({}, {self.dim: dim}).isel({dim: ix})
        w = self.wl.rename({}, {self.dim: dim}).isel({dim: ix})
        return None if b is None or w is None else type(self)(b, w)

    def sel(self, labels: Dict[Any, Any], method: Any = None, tolerance: Any = None) -> IndexSelResult:
        bname, wname = self.names
        if wname not in labels:
            return self.band.sel(labels, method=method, tolerance=tolerance)
        if len(labels) > 1:
            raise ValueError(f"select by {bname!r} or by {wname!r}, not both")
        v = labels[wname]
        wl = np.asarray(self.wl.index.values, dtype=np.float64)
        if isinstance(v, slice):
            lo = -np.inf if v.start is None else float(v.start)
            hi = np.inf if v.stop is None else float(v.stop)
            return IndexSelResult({self.dim: np.flatnonzero((wl >= lo) & (wl <= hi))})
        scalar = np.ndim(v) == 0
        pos = []
        for x in np.atleast_1d(np.asarray(v, dtype=np.float64)):
            d = np.abs(wl - x)
            if method is None:
                hit = np.flatnonzero(d == 0)
                if hit.size == 0:
                    raise KeyError(f"{wname} {x:g}: no band has it exactly (method=\"nearest\" takes the nearest)")
                i = int(hit[0])
            elif method == "nearest":
                i = int(np.argmin(d))
                if tolerance is not None and d[i] > tolerance:
                    raise KeyError(f"{wname} {x:g}: the nearest band ({wl[i]:g}) is beyond tolerance {tolerance:g}")
            else:
                raise ValueError(f"{wname} selection: method {method!r}; use None or \"nearest\"")
            pos.append(i)
        return IndexSelResult({self.dim: pos[0] if scalar else np.asarray(pos)})

    def equals(self, other: Any) -> bool:
        return isinstance(other, BandIndex) and self.band.equals(other.band) and self.wl.equals(other.wl)

    def join(self, other: "BandIndex", how: str = "inner") -> "BandIndex":
        b = self.band.join(other.band, how=how)
        m: Dict[Any, float] = {}
        for idx in (self, other):  # the wavelengths follow the band numbers; a conflict is refused
            for n, w in zip(idx.band.index.values, idx.wl.index.values):
                if n in m and not (m[n] == w or (np.isnan(m[n]) and np.isnan(w))):
                    raise ValueError(f"band {n}: {self.names[1]} {m[n]} in one array, {w} in the other")
                m[n] = w
        return type(self)(b, PandasIndex(pd.Index([m[n] for n in b.index.values], name=self.names[1]), self.dim))

    def reindex_like(self, other: "BandIndex") -> Dict[Any, Any]:
        return self.band.reindex_like(other.band)

    def roll(self, shifts: Dict[Any, int]) -> "BandIndex":
        return type(self)(self.band.roll(shifts), self.wl.roll(shifts))

    def rename(self, name_dict: Any, dims_dict: Any) -> "BandIndex":
        return type(self)(self.band.rename(name_dict, dims_dict), self.wl.rename(name_dict, dims_dict))

    def _copy(self, deep: bool = True, memo: Any = None) -> "BandIndex":
        return type(self)(self.band._copy(deep=deep, memo=memo), self.wl._copy(deep=deep, memo=memo))

    def copy(self, deep: bool = True) -> "BandIndex":
        return self._copy(deep=deep)

    def __getitem__(self, indexer: Any) -> "BandIndex":
        return type(self)(self.band[indexer], self.wl[indexer])

    def __repr__(self) -> str:
        # xarray's "would corrupt the following index" errors print this.
        b, w = self.names
        return (f"BandIndex({b!r}, {w!r}) (omnihsr's index of the band dim); to drop or replace {w!r}, "
                f"first: da = da.{FIX}([{b!r}, {w!r}]).set_xindex({b!r})")

    def _repr_inline_(self, max_width: int) -> str:
        return "BandIndex (band number, wavelength)"


def candidate(da: xr.DataArray) -> xr.DataArray:
    """da with BandIndex over band and wavelength."""
    return da.drop_indexes("band").set_xindex(["band", "wavelength"], BandIndex)


def plain(da: xr.DataArray) -> xr.DataArray:
    """da as the package makes it on xarray 2023.01: band indexed,
    wavelength not."""
    return da.drop_indexes("wavelength") if "wavelength" in da.xindexes else da


def scene(tmp_path: Path) -> xr.DataArray:
    """omnihsr.open of a small georeferenced ENVI scene with wavelengths,
    FWHM, bad bands and no-data."""
    from conftest import write_envi
    h, w = 12, 10
    y, x = np.mgrid[0:h, 0:w]
    a = np.stack([1 + np.sin(x / 3 + b) * np.cos(y / 4) + b / 10 for b in range(len(WL))], axis=-1).astype(np.float32)
    a[2, 3, :] = -9999
    hdr = write_envi(tmp_path / "scene", a, wavelength_units="Nanometers",
                     wavelength="{" + ", ".join(map(str, WL)) + "}",
                     fwhm="{" + ", ".join("10" for _ in WL) + "}",
                     bbl="{" + ", ".join("0" if i == 5 else "1" for i in range(len(WL))) + "}",
                     data_ignore_value="-9999",
                     map_info="{UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84}")
    return plain(omnihsr.open(hdr))


# The right answer of selecting by wavelength, from band positions.
def nearest(da: xr.DataArray, v: Any, name: str = "wavelength") -> xr.DataArray:
    wl = np.asarray(da[name].values, dtype=np.float64)
    if np.ndim(v) == 0:
        return da.isel(band=int(np.argmin(np.abs(wl - v))))
    return da.isel(band=[int(np.argmin(np.abs(wl - x))) for x in v])


def wl_slice(da: xr.DataArray, lo: float, hi: float) -> xr.DataArray:
    wl = np.asarray(da["wavelength"].values)
    return da.isel(band=np.flatnonzero((wl >= lo) & (wl <= hi)))


def sel650(da: xr.DataArray) -> xr.DataArray:
    return da.sel(wavelength=650, method="nearest")


class Ctx:
    """What a row gets besides the array: the variant maker (plain or
    candidate), a scratch directory, and a counter for file names."""

    def __init__(self, make: Callable[[xr.DataArray], xr.DataArray], tmp: Path) -> None:
        self.make, self.tmp, self.n = make, tmp, 0

    def path(self, suffix: str) -> Path:
        self.n += 1
        return self.tmp / f"f{self.n}{suffix}"


def _to_raster(a: xr.DataArray, c: Ctx) -> xr.DataArray:
    import rasterio
    p = c.path(".tif")
    a.rio.to_raster(p)
    with rasterio.open(p) as f:
        return xr.DataArray(f.read(), dims=("band", "y", "x"),
                            attrs={"crs": f.crs.to_wkt(), "transform": tuple(f.transform), "tags": str(f.tags())})


def _netcdf(a: xr.DataArray, c: Ctx) -> xr.DataArray:
    p = c.path(".nc")
    a.drop_vars("spatial_ref").to_netcdf(p)
    with xr.open_dataarray(p) as r:
        return r.load()


def _write_open(a: xr.DataArray, c: Ctx, ext: str) -> xr.DataArray:
    p = c.path(ext)
    omnihsr.write(a, p)
    return plain(omnihsr.open(p))


def _rio_open(a: xr.DataArray) -> xr.DataArray:
    """rioxarray.open_rasterio of a's file: band numbered from 1 and
    indexed, no wavelength coordinate."""
    import rioxarray
    with rioxarray.open_rasterio(a.encoding["source"].replace(".hdr", ".img")) as r:
        return r.load().astype(np.float32).drop_vars("spatial_ref")


def _other_wl(a: xr.DataArray, c: Ctx) -> xr.DataArray:
    """A second sensor's cube: the same band numbers, other wavelengths."""
    p = plain_of(a)
    return c.make(p.assign_coords(wavelength=("band", p["wavelength"].values + 3)))


def plain_of(a: xr.DataArray) -> xr.DataArray:
    """a with BandIndex (if any) replaced by band's PandasIndex."""
    names = {k for k, i in a.xindexes.items() if isinstance(i, BandIndex)}
    if not names:
        return a
    a = a.drop_indexes(sorted(names))
    return a.set_xindex([d for d in names if d in a.dims][0]) if any(d in a.dims for d in names) else a


# Each row: (name, f(a, ctx), right(plain, ctx) or None: the right answer
# when the plain array's own outcome is not it). Names say what is done.
Row = Tuple[str, Callable[[xr.DataArray, Ctx], Any], Optional[Callable[[xr.DataArray, Ctx], Any]]]
ROWS: List[Row] = [
    # Selection by band number and position.
    ("isel(band=3)", lambda a, c: a.isel(band=3), None),
    ("isel(band=[4, 0, 2])", lambda a, c: a.isel(band=[4, 0, 2]), None),
    ("isel(band=slice(2, 5))", lambda a, c: a.isel(band=slice(2, 5)), None),
    ("sel(band=4)", lambda a, c: a.sel(band=4), None),
    ("sel(band=[5, 1])", lambda a, c: a.sel(band=[5, 1]), None),
    ("sel(band=slice(2, 4))", lambda a, c: a.sel(band=slice(2, 4)), None),
    ("sel(band=3.6, method='nearest')", lambda a, c: a.sel(band=3.6, method="nearest"), None),
    ("sel(band=99) (KeyError)", lambda a, c: a.sel(band=99), None),
    # Selection by wavelength.
    ("sel(wavelength=650, method='nearest')", lambda a, c: sel650(a), lambda a, c: nearest(a, 650)),
    ("sel(wavelength=[440, 870], method='nearest')", lambda a, c: a.sel(wavelength=[440, 870], method="nearest"),
     lambda a, c: nearest(a, [440, 870])),
    ("sel(wavelength=slice(500, 700))", lambda a, c: a.sel(wavelength=slice(500, 700)),
     lambda a, c: wl_slice(a, 500, 700)),
    ("sel(wavelength=655) (exact)", lambda a, c: a.sel(wavelength=655), lambda a, c: nearest(a, 655)),
    ("sel(wavelength=650) (exact, KeyError)", lambda a, c: a.sel(wavelength=650),
     lambda a, c: a.hsi.sel(wavelength=650)),
    ("sel(wavelength=650, nearest, tolerance=2) (KeyError)",
     lambda a, c: a.sel(wavelength=650, method="nearest", tolerance=2),
     lambda a, c: a.hsi.sel(wavelength=650, method="nearest", tolerance=2)),
    ("isel(band=slice(1, 6)) then sel(wavelength)", lambda a, c: sel650(a.isel(band=slice(1, 6))),
     lambda a, c: nearest(a.isel(band=slice(1, 6)), 650)),
    ("hsi.sel(wavelength=650, method='nearest')", lambda a, c: a.hsi.sel(wavelength=650, method="nearest"), None),
    # Arithmetic and alignment.
    ("a + a", lambda a, c: a + a, None),
    ("a + a.isel(band=slice(1, 4)) (inner join)", lambda a, c: a + a.isel(band=slice(1, 4)), None),
    ("a.isel(band=[0, 1, 2]) + a.isel(band=[2, 3, 4])", lambda a, c: a.isel(band=[0, 1, 2]) + a.isel(band=[2, 3, 4]),
     None),
    ("a.isel(band=[2, 0]) + a.isel(band=[0, 2]) (order)", lambda a, c: a.isel(band=[2, 0]) + a.isel(band=[0, 2]), None),
    ("xr.align(join='outer')", lambda a, c: xr.Dataset(dict(zip("pq", xr.align(
        a.isel(band=[0, 1, 2]), a.isel(band=[2, 3, 4]), join="outer")))), None),
    ("a - a.mean('band') (broadcast)", lambda a, c: a - a.mean("band"), None),
    ("(a + a) then sel(wavelength)", lambda a, c: sel650(a + a), lambda a, c: nearest(a + a, 650)),
    ("a + other sensor (same band numbers, other wavelengths)", lambda a, c: a + _other_wl(a, c), None),
    # xarray drops a coordinate whose values conflict; an indexed one stays.
    ("a / a.sel(band=3) (ratio)", lambda a, c: a / a.sel(band=3),
     lambda a, c: a / a.sel(band=3).drop_vars(["band", "wavelength"])),
    # The other array has band's plain index: rioxarray's, or one built by hand.
    ("a + rioxarray.open_rasterio of the same file", lambda a, c: a + _rio_open(a), None),
    ("xr.align(a, b) (b: band's plain index)", lambda a, c: xr.Dataset(dict(zip("pq", xr.align(a, _rio_open(a))))),
     None),
    ("a.reindex_like(b) (b: band's plain index)", lambda a, c: a.reindex_like(_rio_open(a).isel(band=[0, 2])), None),
    # where.
    ("where(a > 1)", lambda a, c: a.where(a > 1), None),
    ("where(wavelength > 600, drop=True)", lambda a, c: a.where(a["wavelength"] > 600, drop=True), None),
    ("xr.where(a > 1, a, 0)", lambda a, c: xr.where(a > 1, a, 0), None),
    ("where(a > 1) then sel(wavelength)", lambda a, c: sel650(a.where(a > 1)),
     lambda a, c: nearest(a.where(a > 1), 650)),
    # concat.
    ("xr.concat along band", lambda a, c: xr.concat([a.isel(band=slice(0, 3)), a.isel(band=slice(3, None))], "band"),
     None),
    ("xr.concat along band, unsorted", lambda a, c: xr.concat([a.isel(band=slice(3, None)), a.isel(band=slice(0, 3))],
                                                              "band"), None),
    ("xr.concat along band then sel(wavelength)",
     lambda a, c: sel650(xr.concat([a.isel(band=slice(0, 3)), a.isel(band=slice(3, None))], "band")),
     lambda a, c: nearest(a, 650)),
    ("xr.concat along a new dim", lambda a, c: xr.concat([a, 2 * a], "time"), None),
    # swap_dims, drop_vars, assign_coords, rename, indexes.
    ("swap_dims(band='wavelength')", lambda a, c: a.swap_dims(band="wavelength"), None),
    ("swap_dims then sel(wavelength=650, nearest)", lambda a, c: sel650(a.swap_dims(band="wavelength")), None),
    ("swap_dims then isel(wavelength=3)", lambda a, c: a.swap_dims(band="wavelength").isel(wavelength=3), None),
    ("swap_dims then s + s.isel(wavelength=slice(1, 4))",
     lambda a, c: (lambda s: s + s.isel(wavelength=slice(1, 4)))(a.swap_dims(band="wavelength")), None),
    ("drop_vars('wavelength')", lambda a, c: a.drop_vars("wavelength"), None),
    ("drop_vars(['band', 'wavelength'])", lambda a, c: a.drop_vars(["band", "wavelength"]), None),
    ("drop_vars('fwhm')", lambda a, c: a.drop_vars("fwhm"), None),
    ("assign_coords(wavelength=('band', um)) then sel",
     lambda a, c: a.assign_coords(wavelength=("band", a["wavelength"].values / 1000))
     .sel(wavelength=0.65, method="nearest"),
     lambda a, c: nearest(a.assign_coords(wavelength=("band", a["wavelength"].values / 1000)), 0.65)),
    ("assign_coords(band=band + 10)", lambda a, c: a.assign_coords(band=a["band"].values + 10), None),
    ("assign_coords(fwhm=...)", lambda a, c: a.assign_coords(fwhm=("band", a["fwhm"].values * 2)), None),
    ("rename(band='b') then sel(b=4)", lambda a, c: a.rename(band="b").sel(b=4), None),
    ("rename(wavelength='wl') then sel(wl=650, nearest)",
     lambda a, c: a.rename(wavelength="wl").sel(wl=650, method="nearest"),
     lambda a, c: nearest(a.rename(wavelength="wl"), 650, "wl")),
    ("reset_index('band')", lambda a, c: a.reset_index("band"), None),
    ("set_xindex('wavelength') then sel", lambda a, c: sel650(a.set_xindex("wavelength")),
     lambda a, c: nearest(a, 650)),
    ("sortby('wavelength', ascending=False)", lambda a, c: a.sortby("wavelength", ascending=False), None),
    ("reindex(band=[1, 3, 99])", lambda a, c: a.reindex(band=[1, 3, 99]), None),
    ("roll(band=1, roll_coords=True)", lambda a, c: a.roll(band=1, roll_coords=True), None),
    ("shift(band=1)", lambda a, c: a.shift(band=1), None),
    ("interp(band=2.5)", lambda a, c: a.interp(band=2.5), None),
    ("transpose('y', 'x', 'band') then sel(wavelength)", lambda a, c: sel650(a.transpose("y", "x", "band")),
     lambda a, c: nearest(a.transpose("y", "x", "band"), 650)),
    ("stack(pix=('y', 'x'))", lambda a, c: a.stack(pix=("y", "x")), None),
    ("expand_dims(time=1)", lambda a, c: a.expand_dims(time=1), None),
    ("to_dataframe", lambda a, c: a.drop_vars("spatial_ref").to_dataframe(name="v").reset_index(), None),
    # Datasets and files.
    ("to_dataset(name='r')['r']", lambda a, c: a.to_dataset(name="r")["r"], None),
    ("to_dataset then ds.sel(wavelength)", lambda a, c: sel650(a.to_dataset(name="r"))["r"],
     lambda a, c: nearest(a, 650).rename("r")),
    ("to_netcdf, open_dataarray", _netcdf, None),
    ("xr.merge of two arrays", lambda a, c: xr.merge([a.to_dataset(name="r"), (2 * a).to_dataset(name="s")]), None),
    ("xr.merge of two band subsets (outer)", lambda a, c: xr.merge(
        [a.isel(band=[0, 1]).to_dataset(name="r"), a.isel(band=[1, 2]).to_dataset(name="s")]), None),
    ("pickle", lambda a, c: pickle.loads(pickle.dumps(a)), None),
    ("pickle then sel(wavelength)", lambda a, c: sel650(pickle.loads(pickle.dumps(a))), lambda a, c: nearest(a, 650)),
    ("copy(deep=True)", lambda a, c: a.copy(deep=True), None),
    # rioxarray.
    ("rio.clip_box", lambda a, c: a.rio.clip_box(500000, 4199800, 500150, 4200000), None),
    ("rio.clip_box then sel(wavelength)", lambda a, c: sel650(a.rio.clip_box(500000, 4199800, 500150, 4200000)),
     lambda a, c: nearest(a.rio.clip_box(500000, 4199800, 500150, 4200000), 650)),
    ("rio.reproject('EPSG:4326')", lambda a, c: a.rio.reproject("EPSG:4326"), None),
    ("rio.to_raster, rasterio read", _to_raster, None),
    # dask.
    ("chunk({'band': 3}).compute()", lambda a, c: a.chunk({"band": 3}).compute(), None),
    ("chunk then sel(wavelength) then compute", lambda a, c: sel650(a.chunk({"band": 3})).compute(),
     lambda a, c: nearest(a, 650)),
    ("chunk then a + a.isel(band=slice(1, 4))",
     lambda a, c: (lambda d: d + d.isel(band=slice(1, 4)))(a.chunk({"y": 4})).compute(), None),
    # Reductions and groupby.
    ("mean('band')", lambda a, c: a.mean("band"), None),
    ("sel(band=slice(2, 5)).mean('band')", lambda a, c: a.sel(band=slice(2, 5)).mean("band"), None),
    ("idxmax('band')", lambda a, c: a.idxmax("band"), None),
    ("groupby_bins('wavelength', [400, 700, 2300]).mean()",
     lambda a, c: a.groupby_bins("wavelength", [400, 700, 2300]).mean(), None),
    ("groupby('bad_band').mean()", lambda a, c: a.groupby("bad_band").mean(), None),
    ("coarsen(band=2).mean()", lambda a, c: a.coarsen(band=2).mean(), None),
    # omnihsr.
    ("omnihsr.upscale(a, scale=2)", lambda a, c: omnihsr.upscale(a, scale=2, method="bicubic", progress=False), None),
    ("omnihsr.upscale then sel(wavelength)",
     lambda a, c: sel650(omnihsr.upscale(a, scale=2, method="bicubic", progress=False)),
     lambda a, c: nearest(omnihsr.upscale(a, scale=2, method="bicubic", progress=False), 650)),
    ("omnihsr.write ENVI, omnihsr.open", lambda a, c: _write_open(a, c, ".hdr"), None),
    ("omnihsr.write GeoTIFF of a band subset, omnihsr.open",
     lambda a, c: _write_open(a.isel(band=[1, 3, 6]), c, ".tif"), None),
]


def stale(r: Any) -> Optional[str]:
    """Why r carries a BandIndex that no longer describes its coordinates
    (its dim is not theirs), or None."""
    objs = list(r.data_vars.values()) + [r] if isinstance(r, xr.Dataset) else [r]
    for o in objs:
        if not isinstance(o, (xr.DataArray, xr.Dataset)):
            continue
        for k, i in o.xindexes.items():
            if isinstance(i, BandIndex) and o[k].dims != (i.dim,):
                return f"coordinate {k!r} has dims {o[k].dims}, its BandIndex dim {i.dim!r}"
    return None


def normal(r: Any) -> Any:
    """r with every BandIndex replaced by band's PandasIndex (the candidate's
    result compared as data and coordinates)."""
    if isinstance(r, xr.Dataset):
        names = {k for k, i in r.xindexes.items() if isinstance(i, BandIndex)}
        if names:
            r = r.drop_indexes(sorted(names))
            for d in names & set(r.dims):
                r = r.set_xindex(d)
        return r
    if isinstance(r, xr.DataArray):
        return normal(r.to_dataset(name="__v"))["__v"].rename(r.name)
    return r


def outcome(f: Callable[[xr.DataArray, Ctx], Any], a: xr.DataArray, c: Ctx) -> Tuple[str, Any]:
    try:
        return "ok", f(a, c)
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return "raise", e


def same(x: Tuple[str, Any], y: Tuple[str, Any]) -> bool:
    if x[0] != y[0]:
        return False
    if x[0] == "raise":
        return type(x[1]) is type(y[1])
    a, b = normal(x[1]), normal(y[1])
    if type(a) is not type(b):
        return False
    if isinstance(a, pd.DataFrame):  # the columns' order is not compared
        return a.sort_index(axis=1).equals(b.sort_index(axis=1))
    try:
        xr.testing.assert_identical(a, b)
    except AssertionError:
        return False
    return True


def verdict(row: Row, tmp: Path, base: xr.DataArray) -> Tuple[str, str]:
    """The row's class (module docstring) and the candidate's message or
    the difference."""
    name, f, right = row
    p = outcome(f, base, Ctx(lambda d: d, tmp))
    r = outcome(right, base, Ctx(lambda d: d, tmp)) if right is not None else p
    cand = outcome(f, candidate(base), Ctx(candidate, tmp))
    if cand[0] == "ok" and stale(cand[1]):
        return "wrong", "stale index: " + stale(cand[1])
    if same(cand, r):
        return ("same" if same(p, r) else "better"), ""
    if same(cand, p):
        return "same", ""
    if cand[0] == "raise":
        msg = f"{type(cand[1]).__name__}: {str(cand[1]).splitlines()[0][:200]}"
        return ("fixerr" if FIX in str(cand[1]) else "error"), msg
    return "wrong", "a different result" + (f" (plain: {type(p[1]).__name__})" if p[0] == "raise" else "")


# The matrix as measured on xarray 2023.01 (the rows not named are "same").
EXPECTED: Dict[str, str] = {
    # What the index is for.
    "sel(wavelength=650, method='nearest')": "better",
    "sel(wavelength=[440, 870], method='nearest')": "better",
    "sel(wavelength=slice(500, 700))": "better",
    "sel(wavelength=655) (exact)": "better",
    "isel(band=slice(1, 6)) then sel(wavelength)": "better",
    "(a + a) then sel(wavelength)": "better",
    "where(a > 1) then sel(wavelength)": "better",
    "xr.concat along band then sel(wavelength)": "better",
    "rename(wavelength='wl') then sel(wl=650, nearest)": "better",
    "transpose('y', 'x', 'band') then sel(wavelength)": "better",
    "to_dataset then ds.sel(wavelength)": "better",
    "pickle then sel(wavelength)": "better",
    "rio.clip_box then sel(wavelength)": "better",
    "chunk then sel(wavelength) then compute": "better",
    "a / a.sel(band=3) (ratio)": "better",  # the wavelength coordinate is kept
    # The index's join refuses band numbers whose wavelengths differ (the
    # plain array drops the conflicting coordinate).
    "a + other sensor (same band numbers, other wavelengths)": "error",
    # xarray 2023.01 refuses to align a BandIndex with band's PandasIndex on
    # the other array: "conflicting indexes" (pydata/xarray#7695 again).
    "a + rioxarray.open_rasterio of the same file": "error",
    "xr.align(a, b) (b: band's plain index)": "error",
    "a.reindex_like(b) (b: band's plain index)": "error",
    "reindex(band=[1, 3, 99])": "error",
    # swap_dims keeps the index object, whose dim is gone: no Index hook runs.
    "swap_dims(band='wavelength')": "wrong",
    "swap_dims then sel(wavelength=650, nearest)": "error",
    "swap_dims then s + s.isel(wavelength=slice(1, 4))": "error",
    # xarray refuses to drop or replace one coordinate of a multi-coordinate
    # index; its message prints the index, whose repr names the fix.
    "drop_vars('wavelength')": "fixerr",
    "assign_coords(wavelength=('band', um)) then sel": "fixerr",
    "assign_coords(band=band + 10)": "fixerr",
    # "those coordinates already have an index".
    "set_xindex('wavelength') then sel": "error",
}


def table(tmp: Path) -> List[Tuple[str, str, str]]:
    base = scene(tmp)
    return [(row[0], *verdict(row, tmp, base)) for row in ROWS]


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Tuple[str, str]]:
    pytest.importorskip("rioxarray")
    pytest.importorskip("dask")
    if _xr.wavelength_index_ok():
        pytest.skip("this xarray aligns two indexes on one dim: the package indexes wavelength itself "
                    "(index_wavelength); the matrix records xarray 2023.01's behaviour")
    return {n: (v, m) for n, v, m in table(tmp_path_factory.mktemp("wlmatrix"))}


@pytest.mark.parametrize("name", [r[0] for r in ROWS])
def test_band_dim_matrix(matrix: Dict[str, Tuple[str, str]], name: str) -> None:
    got, msg = matrix[name]
    assert got == EXPECTED.get(name, "same"), f"{name}: {got} ({msg})"


if __name__ == "__main__":
    import tempfile
    sys.path.insert(0, str(Path(__file__).parent))
    with tempfile.TemporaryDirectory() as d:
        for n, v, m in table(Path(d)):
            print(f"{v:7} {n}" + (f"  [{m}]" if m else ""))
