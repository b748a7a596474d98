#!/usr/bin/python3
"""Write miniature generic HDF5 / NetCDF-4 cubes and damaged variants.

Run with Debian's python3 (python3-h5py, python3-netcdf4, python3-numpy):

    /usr/bin/python3 scripts/miniatures/generic_hdf5.py hsi/products/testdata

Files:
- generic_bhw.h5 (h5py): /data/cube uint16 stored (band, y, x), chunked
  (2, 3, 4) with shuffle + gzip, CF packing attributes scale_factor 1e-4,
  add_offset 0.01, _FillValue 0 (CF conventions section 8.1: unpacked =
  packed * scale_factor + add_offset; the fill value is compared with the
  packed value), and HDF5 dimension scales (h5py dims[].attach_scale, the
  DIMENSION_LIST / REFERENCE_LIST convention GDAL's HDF5 and netCDF drivers
  read) named `wavelength` (a coordinate holding nm values, units "nm"),
  `y` and `x`; a sibling /data/fwhm.
- generic_hwb.nc (netCDF4): variable `radiance` float32 on dimensions
  (line, sample, wavelength) with a `wavelength` coordinate variable in
  micrometres, _FillValue NaN-free -1.
- nan_scale.h5: like generic_bhw.h5 with scale_factor NaN.
- bad_chunk.h5: generic_bhw.h5 with the compressed bytes of its first
  chunk overwritten (offset from h5py's get_chunk_info).
- emit_bad_glt.nc, emit_no_wavelengths.nc: the EMIT miniature with a GLT
  index past the swath, and without sensor_band_parameters/wavelengths.

goldens (generic_golden.json): each cube as (rows, cols, bands) read with
h5py / netCDF4 and unpacked the CF way, fill kept as the packed fill.
"""
import json
import os
import shutil
import sys

import h5py
import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
EMIT = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"


def bhw(path, scale):
    B, H, W = 5, 4, 6
    rng = np.random.default_rng(7)
    raw = rng.integers(100, 9000, (B, H, W)).astype(np.uint16)
    raw[:, 0, 0] = 0  # fill in every band
    wl = np.array([450.5, 550.25, 650.0, 750.75, 850.0])
    with h5py.File(path, "w") as f:
        g = f.create_group("data")
        d = g.create_dataset("cube", data=raw, chunks=(2, 3, 4), compression="gzip", shuffle=True)
        d.attrs["scale_factor"] = np.float32(scale)
        d.attrs["add_offset"] = np.float32(0.01)
        d.attrs["_FillValue"] = np.uint16(0)
        d.attrs["units"] = np.bytes_("1")
        w = g.create_dataset("wavelength", data=wl)
        w.attrs["units"] = np.bytes_("nm")
        w.make_scale("wavelength")
        y = g.create_dataset("y", data=np.arange(H, dtype=np.float64))
        y.make_scale("y")
        x = g.create_dataset("x", data=np.arange(W, dtype=np.float64))
        x.make_scale("x")
        d.dims[0].attach_scale(w)
        d.dims[1].attach_scale(y)
        d.dims[2].attach_scale(x)
        g.create_dataset("fwhm", data=np.full(B, 10.0))
    with h5py.File(path, "r") as f:
        d = f["data/cube"]
        r = d[()].astype(np.float64)
        s, o, fill = float(d.attrs["scale_factor"]), float(d.attrs["add_offset"]), float(d.attrs["_FillValue"])
        phys = np.where(r == fill, fill, r * s + o).astype(np.float32)
        return {"cube": np.transpose(phys, (1, 2, 0)).tolist(), "wavelengths": wl.tolist(), "fill": fill}


def hwb_nc(path):
    H, W, B = 3, 2, 4
    with netCDF4.Dataset(path, "w") as ds:
        ds.createDimension("line", H)
        ds.createDimension("sample", W)
        ds.createDimension("wavelength", B)
        wv = ds.createVariable("wavelength", "f8", ("wavelength",))
        wv.units = "micrometers"
        wv[:] = [0.45, 0.55, 0.65, 0.75]
        v = ds.createVariable("radiance", "f4", ("line", "sample", "wavelength"), fill_value=-1.0)
        v[:] = (np.arange(H * W * B, dtype=np.float32).reshape(H, W, B) + 1) / 10
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_mask(False)
        return {"cube": np.array(ds["radiance"][:], np.float32).tolist(),
                "wavelengths": [float(x) for x in ds["wavelength"][:]], "fill": -1.0}


def main():
    os.makedirs(OUT, exist_ok=True)
    gold = {
        "generic_bhw.h5": bhw(os.path.join(OUT, "generic_bhw.h5"), 1e-4),
        "generic_hwb.nc": hwb_nc(os.path.join(OUT, "generic_hwb.nc")),
    }
    bhw(os.path.join(OUT, "nan_scale.h5"), float("nan"))
    good = os.path.join(OUT, "generic_bhw.h5")
    with h5py.File(good, "r") as f:
        info = f["data/cube"].id.get_chunk_info(0)
    b = bytearray(open(good, "rb").read())
    b[info.byte_offset + 2:info.byte_offset + info.size] = b"\x55" * (info.size - 2)
    with open(os.path.join(OUT, "bad_chunk.h5"), "wb") as fh:
        fh.write(b)
    src = os.path.join(OUT, EMIT)
    if os.path.exists(src):
        bad = os.path.join(OUT, "emit_bad_glt.nc")
        shutil.copy(src, bad)
        with netCDF4.Dataset(bad, "a") as ds:
            ds["location"]["glt_x"][2, 3] = 99
        nowl = os.path.join(OUT, "emit_no_wavelengths.nc")
        with netCDF4.Dataset(src) as s, netCDF4.Dataset(nowl, "w") as d:
            d.setncatts({k: s.getncattr(k) for k in s.ncattrs()})
            for n, dim in s.dimensions.items():
                d.createDimension(n, len(dim))
            v = d.createVariable("reflectance", "f4", ("downtrack", "crosstrack", "bands"), fill_value=-9999.0)
            v[:] = s["reflectance"][:]
            g = d.createGroup("sensor_band_parameters")
            g.createVariable("fwhm", "f4", ("bands",))[:] = s["sensor_band_parameters"]["fwhm"][:]
            loc = d.createGroup("location")
            for n, dim in s["location"].dimensions.items():
                loc.createDimension(n, len(dim))
            for n in ("glt_x", "glt_y"):
                loc.createVariable(n, "i4", ("ortho_y", "ortho_x"), fill_value=0)[:] = s["location"][n][:]
    with open(os.path.join(OUT, "generic_golden.json"), "w") as fh:
        json.dump(gold, fh)


if __name__ == "__main__":
    main()
