"""The xarray backend ``engine="omnihsr"``:
``xr.open_dataarray(path, engine="omnihsr", chunks={"y": 256})``.

The data variable is ``band_data`` (as rioxarray's engine names it), dims
("band", "y", "x") and the coordinates and attributes of ``omnihsr.open``.
It is lazy: nothing but the header is read at open for the formats whose
Go readers stream, whose windows are then read from disk as they are
indexed (``chunks=``: one read of the rows each dask chunk covers): ENVI,
PNG (8 or 16 bits, not interlaced, no palette), C-order NPY, TIFF (only
the strips or tiles that hold the rows are decoded) and HDF5/NetCDF-4
cubes stored in one dataset (generic datasets, EMIT swaths: only the
chunks that hold the rows; ``chunks={}`` makes dask chunks of whole strip,
tile or chunk rows, ``encoding["preferred_chunks"]``, as xarray's other
engines do, grouped to at least ``CHUNK_BYTES``). The others are read
whole on first access and
their windows served from memory: MATLAB files, Fortran-order NPY arrays
(each row is scattered over the whole file) and the products assembled
from several datasets or files (EnMAP, DESIS, PRISMA, NEON, EMIT with
``ortho``); ``da.encoding["omnihsr_streams"]`` says which.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Optional, Tuple

import numpy as np
import xarray as xr
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

from . import _lib

VAR = "band_data"


class OmniHSRArray(BackendArray):
    """A (band, y, x) float32 window reader over one file."""

    def __init__(self, path: str, js: bytes, shape: Tuple[int, int, int], stream: bool,
                 whole: Optional[np.ndarray] = None) -> None:
        h, w, b = shape
        self.path, self.js, self.stream = path, js, stream
        self.shape = (b, h, w)
        self.dtype = np.dtype(np.float32)
        self._whole = whole  # (H, W, B), for formats that cannot stream
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:  # dask pickles the array: not its lock
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __getitem__(self, key: indexing.ExplicitIndexer) -> np.ndarray:
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.BASIC, self._raw)

    def _raw(self, key: Tuple[Any, ...]) -> np.ndarray:
        kb, ky, kx = key
        b, h, w = self.shape
        if not self.stream:
            with self._lock:
                if self._whole is None:
                    from . import read
                    self._whole, _ = read(self.path, **_options(self.js))
            return np.ascontiguousarray(self._whole.transpose(2, 0, 1)[kb, ky, kx])
        ys = np.arange(h)[ky]
        if np.ndim(ys) == 0:
            y0, y1, iy = int(ys), int(ys) + 1, 0
        elif ys.size == 0:
            return np.empty((b, 0, w), np.float32)[kb, :, kx]
        else:
            y0, y1 = int(ys.min()), int(ys.max()) + 1
            iy = ys - y0
        rows, _ = _lib.backend().read_rows(self.path, self.js, y0, y1, w, b)  # (y1-y0, W, B)
        sel = rows[iy][..., kx, :]
        return np.ascontiguousarray(np.moveaxis(sel, -1, 0)[kb])


def _options(js: bytes) -> dict:
    import json
    return json.loads(js.decode()) if js else {}


def open_lazy(path: str, reader_options: dict) -> xr.DataArray:
    """The DataArray of path, lazily indexed (see the module's docs)."""
    from . import _read_options
    from ._xr import dataarray
    ro = _read_options(reader_options)
    js = _lib.options_json(ro)
    be = _lib.backend()
    stream = True
    m = None
    try:
        _, m = be.read_rows(path, js, 0, 0, 0, 0)
    except _lib.OmniHSRError as e:
        if "cannot be read a window at a time" not in str(e):
            raise
        stream = False
    whole = None
    if m is None:
        whole, m = be.read(path, js)
    h, w, b = m["shape"]
    arr = indexing.LazilyIndexedArray(OmniHSRArray(path, js, (h, w, b), stream, whole))
    da = dataarray(arr, m, path, lazy=True)
    da.encoding["omnihsr_streams"] = stream
    rows = preferred_rows(int(m.get("block_rows") or 0) if stream else 0, h, w, b)
    if 0 < rows < h:
        # Whole blocks of the file's reader (a TIFF's strip or tile rows,
        # an HDF5 dataset's chunk rows): chunks={} follows them, and xarray
        # warns when chunks= splits them.
        da.encoding["preferred_chunks"] = {"band": b, "y": rows, "x": w}
    return da


#: The least a preferred chunk holds, in bytes: small strips (GDAL writes
#: strips of about 8 KB) are grouped, so that chunks={} does not make a
#: dask task of each.
CHUNK_BYTES = 8 << 20


def preferred_rows(block: int, h: int, w: int, b: int) -> int:
    """The rows of a preferred chunk: the least multiple of the file's
    block rows holding CHUNK_BYTES of float32 (at most h); 0 without
    blocks."""
    if block <= 0:
        return 0
    row = max(1, w * b * 4)
    k = max(1, -(-CHUNK_BYTES // (block * row)))
    return min(h, block * k)


class OmniHSRBackendEntrypoint(BackendEntrypoint):
    """xarray's ``engine="omnihsr"``: every file and product ``omnihsr``
    reads, as ``omnihsr.open`` shapes it (variable ``band_data``)."""

    description = "Hyperspectral files and products through OmniHSR (ENVI, PNG, NPY, TIFF and HDF5 stream window by window)"
    url = "https://github.com/omnihsr/omnihsr/blob/main/python/README.md"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "var", "layout", "height", "width", "ortho",
                               "refuse_nan")

    def open_dataset(self, filename_or_obj: Any, *, drop_variables: Optional[Iterable[str]] = None,
                     var: Optional[str] = None, layout: Optional[str] = None, height: Optional[int] = None,
                     width: Optional[int] = None, ortho: Optional[bool] = None,
                     refuse_nan: Optional[bool] = None) -> xr.Dataset:
        from . import _path
        path = _path(filename_or_obj)
        da = open_lazy(path, dict(var=var, layout=layout, height=height, width=width, ortho=ortho or None,
                                  refuse_nan=refuse_nan or None))
        ds = da.to_dataset(name=VAR)
        ds[VAR].encoding = dict(da.encoding)
        ds.encoding["source"] = path
        if drop_variables:
            ds = ds.drop_vars(list(drop_variables), errors="ignore")
        return ds

    def guess_can_open(self, filename_or_obj: Any) -> bool:
        # Only when asked by name: ".nc", ".h5" and ".tif" belong to other
        # engines by default.
        return False

