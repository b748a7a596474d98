#!/usr/bin/python3
"""Write a miniature EMIT L2A reflectance uncertainty granule (NetCDF4), the
RFLUNCERT companion of the RFL miniature, and its goldens.

Run with Debian's python3 (python3-netcdf4, python3-numpy), after
emit_l2a_rfl.py (the GLT, geotransform and band parameters are read from the
RFL miniature, so that the two are one acquisition as LP DAAC delivers it):

    /usr/bin/python3 scripts/miniatures/emit_l2a_rfluncert.py hsi/products/testdata

Structure, as in a real EMIT_L2A_RFLUNCERT_001_*.nc granule (1280 x 1242 x
285, the same acquisition name as its EMIT_L2A_RFL_001_*.nc):
- root variable `reflectance_uncertainty` float32 (downtrack, crosstrack,
  bands), _FillValue -9999, long_name "Surface Reflectance Uncertainty",
  units "unitless" -- emit-sds-l2a's DAAC converter writes it with
  daac_converter.add_variable (fill_value = NODATA = -9999) on the same
  dimensions as `reflectance`; the netCDF listing of a real granule in
  STARS-Data-Fusion/EMIT-L2A-RFL (EMITL2ARFLUNCERTNetCDF.py) shows the
  variable, the groups and the global attributes below;
- groups `sensor_band_parameters` (wavelengths, fwhm, good_wavelengths)
  and `location` (lat, lon, elev, glt_x, glt_y), global attributes
  `geotransform`, `spatial_ref` and the NCEI swath template's, with the
  title "EMIT L2A Estimated Surface Reflectance Uncertainty 60 m V001" --
  the same listing;
- values are fractions (the listing's summary: "Reflectance uncertainty
  values are reported as fractions (relative to 1)"), chunked and deflated
  as the RFL cube.

Values: uncertainty = 0.002 + 0.0004 * band + 0.0003 * row + 0.0001 * column;
the pixel that is fill in the RFL miniature (row 1, column 2) is fill here.

goldens (emit_uncert_golden.json): the swath as netCDF4 reads it (fill
unmasked), the ortho cube as emit_tools.apply_glt builds it, and the
per-band root mean square over the valid (not fill) samples of the swath,
computed from the float32 values in float64.
"""
import json
import os
import sys

import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
RFL = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"
NAME = "EMIT_L2A_RFLUNCERT_001_20230801T101112_2321307_002.nc"


def main():
    with netCDF4.Dataset(os.path.join(OUT, RFL)) as src:
        H = len(src.dimensions["downtrack"])
        W = len(src.dimensions["crosstrack"])
        B = len(src.dimensions["bands"])
        gattrs = {k: src.getncattr(k) for k in src.ncattrs()}
        sbp = {k: (v.dtype, v[:].data) for k, v in src["sensor_band_parameters"].variables.items()}
        sbp_attrs = {k: {a: v.getncattr(a) for a in v.ncattrs()} for k, v in src["sensor_band_parameters"].variables.items()}
        loc = {k: (v.dtype, v.dimensions, v[:].data) for k, v in src["location"].variables.items()}
        OH, OW = len(src["location"].dimensions["ortho_y"]), len(src["location"].dimensions["ortho_x"])

    yy, xx, bb = np.meshgrid(np.arange(H), np.arange(W), np.arange(B), indexing="ij")
    unc = (0.002 + 0.0004 * bb + 0.0003 * yy + 0.0001 * xx).astype(np.float32)
    unc[1, 2, :] = -9999.0

    path = os.path.join(OUT, NAME)
    gattrs["title"] = "EMIT L2A Estimated Surface Reflectance Uncertainty 60 m V001"
    gattrs["summary"] = ("The Earth Surface Mineral Dust Source Investigation (EMIT) ... This file contains L2A "
                         "estimated surface reflectance uncertainties and geolocation data. Reflectance uncertainty "
                         "values are reported as fractions (relative to 1).")
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        for k, v in gattrs.items():
            ds.setncattr(k, v)
        ds.createDimension("downtrack", H)
        ds.createDimension("crosstrack", W)
        ds.createDimension("bands", B)
        v = ds.createVariable("reflectance_uncertainty", "f4", ("downtrack", "crosstrack", "bands"),
                              fill_value=-9999.0, zlib=True, complevel=4, chunksizes=(2, 2, B))
        v.long_name = "Surface Reflectance Uncertainty"
        v.units = "unitless"
        v[:] = unc
        g = ds.createGroup("sensor_band_parameters")
        for k, (dt, arr) in sbp.items():
            vv = g.createVariable(k, dt, ("bands",))
            vv[:] = arr
            for a, av in sbp_attrs[k].items():
                vv.setncattr(a, av)
        lg = ds.createGroup("location")
        lg.createDimension("ortho_y", OH)
        lg.createDimension("ortho_x", OW)
        for k, (dt, dims, arr) in loc.items():
            vv = lg.createVariable(k, dt, dims, fill_value=0 if k.startswith("glt") else -9999.0)
            vv[:] = arr

    with netCDF4.Dataset(path) as ds:
        ds.set_auto_mask(False)
        swath = np.array(ds["reflectance_uncertainty"][:], np.float32)
        gx = np.array(ds["location"]["glt_x"][:])
        gy = np.array(ds["location"]["glt_y"][:])
    glt = np.stack([gx, gy], axis=-1)
    ortho = np.full((OH, OW, B), -9999.0, np.float32)
    valid = np.all(glt != 0, axis=-1)
    g2 = glt.copy()
    g2[valid] -= 1
    ortho[valid, :] = swath[g2[valid, 1], g2[valid, 0], :]
    s64 = swath.astype(np.float64).reshape(-1, B)
    ok = s64 != -9999.0
    rms = [float(np.sqrt(np.mean(s64[ok[:, b], b] ** 2))) for b in range(B)]
    golden = {
        "file": NAME,
        "swath": swath.tolist(),
        "ortho": ortho.tolist(),
        "rms": rms,
        "count": [int(ok[:, b].sum()) for b in range(B)],
    }
    with open(os.path.join(OUT, "emit_uncert_golden.json"), "w") as fh:
        json.dump(golden, fh)


if __name__ == "__main__":
    main()
