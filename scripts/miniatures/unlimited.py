#!/usr/bin/python3
"""Write miniature NetCDF-4 / HDF5 cubes with unlimited dimensions, in each
chunk index libhdf5 gives them, and their goldens.

Run with Debian's python3 (python3-netcdf4, python3-h5py, python3-numpy):

    /usr/bin/python3 scripts/miniatures/unlimited.py hsi/products/testdata

HDF5 file format specification, "Data Layout Message" (version 4): a
chunked dataset with one unlimited dimension is indexed by an extensible
array (chunk indexing type 4), one with several unlimited dimensions by a
version 2 B-tree (type 5, records of type 10 unfiltered and 11 filtered),
when the file is written with libver 1.10 or later (h5py libver="latest";
netCDF-C with its default "earliest" bounds keeps the version 1 B-tree of
layout version 3 instead, which netCDF4-python 1.6 with libhdf5 1.10 here
writes).

Files (float32 cube of 6 bands x 5 rows x 4 columns, band axis first,
chunks (2, 3, 4), values 1000*band + 10*row + column, _FillValue -9999 in
the pixel at row 4, column 3 of every band; a `band` coordinate variable
holding wavelengths in nm):
- unlimited_nc4.nc (netCDF4-python): `band` unlimited, written in two
  appends (bands 0-3, then 4-5), shuffle + deflate;
- unlimited_ea.nc (h5py, libver="latest"): the same variable and
  dimensions as HDF5 dimension scales (netCDF-C reads them as NetCDF-4
  dimensions), `band` unlimited -> extensible array; deflate; and
  `reflectance_hwb`, the cube stored (y, x, band) with chunks (3, 2, 4),
  whose unlimited axis is the last;
- unlimited_bt2.nc (h5py, libver="latest"): `band` and `y` unlimited ->
  version 2 B-tree; `reflectance` deflated (type 11 records) and
  `reflectance_raw` not (type 10);
- unlimited_sparse.h5 (h5py, libver="latest"): int32 (70000, 3) with the
  first axis unlimited and chunks (1, 3), written only in rows 0-9,
  40000 and 69000-69009: 70000 chunk slots put most of the extensible
  array in paged data blocks (more than 1024 elements each) of which only
  the written pages exist.

goldens (unlimited_golden.json): every variable as netCDF4-python reads it
(set_auto_mask(False): the fill value as stored), flattened in C order, with
its shape; the sparse file as h5py reads it, as the list of non-zero
(index, value) pairs.
"""
import json
import os
import sys

import h5py
import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
B, H, W = 6, 5, 4
WL = np.array([450.0, 500.5, 550.0, 600.25, 650.0, 700.0])


def cube():
    b, y, x = np.meshgrid(np.arange(B), np.arange(H), np.arange(W), indexing="ij")
    c = (1000.0 * b + 10.0 * y + x).astype(np.float32)
    c[:, 4, 3] = -9999.0
    return c


def nc4(path):
    c = cube()
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        ds.createDimension("band", None)
        ds.createDimension("y", H)
        ds.createDimension("x", W)
        wv = ds.createVariable("band", "f8", ("band",))
        wv.units = "nm"
        v = ds.createVariable("reflectance", "f4", ("band", "y", "x"), fill_value=-9999.0,
                              zlib=True, shuffle=True, chunksizes=(2, 3, 4))
        wv[0:4] = WL[0:4]
        v[0:4] = c[0:4]
        wv[4:6] = WL[4:6]
        v[4:6] = c[4:6]


def h5latest(path, unlimited, variables):
    c = cube()
    with h5py.File(path, "w", libver="latest") as f:
        maxshape = tuple(None if i in unlimited else n for i, n in enumerate((B, H, W)))
        scales = []
        for i, (name, n) in enumerate((("band", B), ("y", H), ("x", W))):
            data = WL if name == "band" else np.arange(n, dtype=np.float64)
            s = f.create_dataset(name, data=data, maxshape=(None,) if i in unlimited else (n,),
                                 chunks=(n,) if i in unlimited else None)
            if name == "band":
                s.attrs["units"] = np.bytes_("nm")
            s.make_scale(name)
            scales.append(s)
        for name, comp in variables:
            d = f.create_dataset(name, data=c, maxshape=maxshape, chunks=(2, 3, 4), compression=comp)
            d.attrs["_FillValue"] = np.float32(-9999.0)
            for i, s in enumerate(scales):
                d.dims[i].attach_scale(s)
            if unlimited == {0}:
                # the band axis last, and unlimited: libhdf5 moves the
                # unlimited dimension first to number the chunks
                t = np.ascontiguousarray(np.transpose(c, (1, 2, 0)))
                d = f.create_dataset(name + "_hwb", data=t, maxshape=(H, W, None), chunks=(3, 2, 4), compression=comp)
                d.attrs["_FillValue"] = np.float32(-9999.0)
                for i, s in enumerate((scales[1], scales[2], scales[0])):
                    d.dims[i].attach_scale(s)


def sparse(path):
    with h5py.File(path, "w", libver="latest") as f:
        d = f.create_dataset("sparse", shape=(70000, 3), dtype="i4", maxshape=(None, 3), chunks=(1, 3))
        d[0:10] = np.arange(30).reshape(10, 3) + 1
        d[40000] = 7
        d[69000:69010] = np.arange(30).reshape(10, 3) + 100


def main():
    os.makedirs(OUT, exist_ok=True)
    nc4(os.path.join(OUT, "unlimited_nc4.nc"))
    h5latest(os.path.join(OUT, "unlimited_ea.nc"), {0}, [("reflectance", "gzip")])
    h5latest(os.path.join(OUT, "unlimited_bt2.nc"), {0, 1}, [("reflectance", "gzip"), ("reflectance_raw", None)])
    sparse(os.path.join(OUT, "unlimited_sparse.h5"))
    golden = {}
    for name in ("unlimited_nc4.nc", "unlimited_ea.nc", "unlimited_bt2.nc"):
        with netCDF4.Dataset(os.path.join(OUT, name)) as ds:
            ds.set_auto_mask(False)
            for var in ("reflectance", "reflectance_raw", "reflectance_hwb"):
                if var in ds.variables:
                    v = ds[var]
                    golden[name + ":" + var] = {
                        "shape": list(v.shape),
                        "dims": list(v.dimensions),
                        "unlimited": [d for d in v.dimensions if ds.dimensions[d].isunlimited()],
                        "values": np.asarray(v[:], np.float64).ravel().tolist(),
                        "wavelengths": np.asarray(ds["band"][:], np.float64).tolist(),
                    }
    with h5py.File(os.path.join(OUT, "unlimited_sparse.h5")) as f:
        a = f["sparse"][()].ravel()
        nz = np.nonzero(a)[0]
        golden["unlimited_sparse.h5:sparse"] = {
            "shape": list(f["sparse"].shape),
            "nonzero": [[int(i), int(a[i])] for i in nz],
        }
    with open(os.path.join(OUT, "unlimited_golden.json"), "w") as fh:
        json.dump(golden, fh)


if __name__ == "__main__":
    main()
