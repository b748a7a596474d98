#!/usr/bin/python3
"""Write small HDF5 / NetCDF-4 cubes written in part, whose chunks never
written read as the dataset's fill value, into hsi/products/testdata/fill/,
with the values h5py reads from them (fill_golden.json).

Run with Debian's python3 (python3-h5py, python3-netcdf4, python3-numpy):

    /usr/bin/python3 scripts/miniatures/fill_hdf5.py hsi/products/testdata

Every cube is (6, 5, 2) (rows, columns, bands), chunked (2, 2, 2), with the
chunks of rows 0-1 columns 0-1 and of rows 4-5 columns 2-3 written (1, 2,
... and -1, -2, ...), the other chunks never written (no entry in the chunk
index). HDF5 reads those as the fill value of the dataset (its Fill Value
message), and so do h5py and netCDF.

Files:
- explicit_fill.h5 (h5py): /cube float32, fillvalue -9999 (no _FillValue
  attribute: -9999 is a value like any other).
- nc_fillvalue.nc (netCDF4): variable `reflectance` float32 on (y, x, band)
  with _FillValue -9999 (netCDF sets the HDF5 fill value to it): the
  unwritten chunks are no-data.
- nc_default.nc (netCDF4): the same without _FillValue: netCDF sets the
  HDF5 fill value to its default float fill, 9.969209968386869e+36.
- int16_fill7.h5 (h5py): /cube int16, fillvalue 7.
- int16_scaled.h5 (h5py): /cube int16, fillvalue 7, with CF attributes
  scale_factor 0.5 and add_offset 1 (no _FillValue): the unwritten samples
  read as 7 * 0.5 + 1 = 4.5, as a stored 7 would.
- contig_fill.h5 (h5py): /cube (3, 4, 2) float32, contiguous, fillvalue
  -9999, never written (no storage allocated).
- latest_fill.h5 (h5py, libver latest): explicit_fill.h5's cube in the
  newest file format (version 2 object headers, Fill Value message version
  3). h5py's default (explicit_fill.h5 and the int16 files) writes the Fill
  Value message version 2 with the old message beside it; netCDF-4 writes
  version 3.

fill_golden.json: for each file, the dataset, its shape (as stored), the
fill value h5py reports, the CF scale and offset a reader applies, the
no-data value (_FillValue) when there is one, and every value h5py reads,
in C order.
"""
import json
import os
import sys

import h5py
import netCDF4
import numpy as np

SHAPE = (6, 5, 2)
CHUNK = (2, 2, 2)


def written():
    """The two written chunks' slices and values."""
    a = np.arange(1, 9, dtype=np.float64).reshape(2, 2, 2)
    return [((slice(0, 2), slice(0, 2), slice(0, 2)), a),
            ((slice(4, 6), slice(2, 4), slice(0, 2)), -a)]


def h5cube(path, dtype, fill, attrs=None, libver=None):
    kw = {"libver": libver} if libver else {}
    with h5py.File(path, "w", **kw) as f:
        d = f.create_dataset("cube", SHAPE, dtype=dtype, chunks=CHUNK, fillvalue=fill)
        for k, v in (attrs or {}).items():
            d.attrs[k] = v
        for sl, v in written():
            d[sl] = v.astype(dtype)


def nccube(path, fill):
    with netCDF4.Dataset(path, "w", format="NETCDF4") as f:
        for n, s in zip(("y", "x", "band"), SHAPE):
            f.createDimension(n, s)
        kw = {} if fill is None else {"fill_value": fill}
        v = f.createVariable("reflectance", "f4", ("y", "x", "band"), chunksizes=CHUNK, **kw)
        for sl, a in written():
            v[sl] = a.astype(np.float32)


def main():
    td = sys.argv[1] if len(sys.argv) > 1 else "."
    out = os.path.join(td, "fill")
    os.makedirs(out, exist_ok=True)

    def p(n):
        return os.path.join(out, n)

    h5cube(p("explicit_fill.h5"), "f4", -9999)
    nccube(p("nc_fillvalue.nc"), -9999.0)
    nccube(p("nc_default.nc"), None)
    h5cube(p("int16_fill7.h5"), "i2", 7)
    h5cube(p("int16_scaled.h5"), "i2", 7, {"scale_factor": 0.5, "add_offset": 1.0})
    h5cube(p("latest_fill.h5"), "f4", -9999, libver="latest")
    with h5py.File(p("contig_fill.h5"), "w") as f:
        f.create_dataset("cube", (3, 4, 2), dtype="f4", fillvalue=-9999)

    golden = []
    for n in sorted(os.listdir(out)):
        if not n.endswith((".h5", ".nc")):
            continue
        with h5py.File(p(n), "r") as f:
            name = "cube" if "cube" in f else "reflectance"
            d = f[name]
            a = d.attrs
            g = {
                "file": n,
                "dataset": "/" + name,
                "shape": list(d.shape),
                "dtype": str(d.dtype),
                "fill": float(d.fillvalue),
                "scale": float(a["scale_factor"]) if "scale_factor" in a else 1.0,
                "offset": float(a["add_offset"]) if "add_offset" in a else 0.0,
                "nodata": float(a["_FillValue"][0]) if "_FillValue" in a else None,
                "chunks_written": d.id.get_num_chunks() if d.chunks else 0,
                "values": [float(x) for x in d[()].ravel()],
            }
            golden.append(g)
    with open(os.path.join(out, "fill_golden.json"), "w") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
