#!/usr/bin/python3
"""Write a miniature EMIT L2A reflectance granule (NetCDF4) and its goldens.

Run with Debian's python3 (python3-netcdf4, python3-numpy):

    /usr/bin/python3 scripts/miniatures/emit_l2a_rfl.py hsi/products/testdata

Structure, as in a real EMIT_L2A_RFL_001_*.nc granule (1242 x 1280 x 285):
- root variable `reflectance` float32 (downtrack, crosstrack, bands),
  _FillValue -9999 -- NASA EMIT-Data-Resources, python/modules/emit_tools.py
  (emit_xarray opens the root group and takes `reflectance` with those
  dimension names; ortho_xr fills with -9999);
- group `sensor_band_parameters`: `wavelengths`, `fwhm` (float32, nm) and
  `good_wavelengths` (uint8, 0 = bad band) on dimension `bands` --
  emit_tools.emit_xarray merges this group into the dataset and band_mask
  / the ENVI writer use good_wavelengths as the bad band list;
- group `location`: `lat`, `lon`, `elev` (float64, downtrack x crosstrack)
  and `glt_x`, `glt_y` (int32, ortho_y x ortho_x), 1-based swath column and
  row, 0 = no data -- emit_tools.apply_glt: out[valid] =
  swath[glt_y-1, glt_x-1], valid = both indexes != 0;
- global attributes `geotransform` (6 float64, GDAL order, pixel-corner
  origin: emit_tools.get_pixel_center_coords adds half a pixel to reach
  centres) and `spatial_ref` (WKT of EPSG:4326), `time_coverage_start`,
  `platform`, `sensor`, `title` and the rest of the ~40 NCEI global
  attributes (enough of them that libhdf5 stores them densely, in a
  fractal heap, as it does for the real granule);
- the reflectance is chunked and deflated, as the granules NASA serves
  are (EMIT-Data-Resources issue #34 discusses reading those chunks).

Values: reflectance = a smooth spectrum per pixel; one pixel (row 1,
column 2) is fill (-9999) in every band; `good_wavelengths` marks the
water-vapour bands 2 and 5 bad. The GLT maps a 6 x 5 ortho grid onto the
4 x 3 swath with a row of no-data (0) at the top and left.

goldens (emit_golden.json): the swath cube (rows, cols, bands) as read by
netCDF4 with the fill masked (written as null), and the ortho cube built
exactly as emit_tools.apply_glt does.
"""
import json
import os
import sys

import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"

H, W, B = 4, 3, 7  # downtrack, crosstrack, bands
OH, OW = 6, 5  # ortho grid


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, NAME)
    wl = np.linspace(381.0, 2493.0, B).astype(np.float32)
    fwhm = np.full(B, 8.5, np.float32) + np.arange(B, dtype=np.float32) * 0.1
    good = np.ones(B, np.uint8)
    good[[2, 5]] = 0
    yy, xx, bb = np.meshgrid(np.arange(H), np.arange(W), np.arange(B), indexing="ij")
    refl = (0.05 + 0.01 * yy + 0.02 * xx + 0.03 * np.sin(bb)).astype(np.float32)
    refl[1, 2, :] = -9999.0

    glt_x = np.zeros((OH, OW), np.int32)
    glt_y = np.zeros((OH, OW), np.int32)
    for r in range(1, OH):
        for c in range(1, OW):
            # a rotated, stretched swath: each ortho cell picks one swath pixel
            glt_y[r, c] = 1 + (r - 1 + c) % H
            glt_x[r, c] = 1 + (c - 1 + r // 2) % W
    gt = [-118.25, 0.000542232520256367, 0.0, 34.1, 0.0, -0.000542232520256367]
    wkt = ('GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,'
           'AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,'
           'AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],'
           'AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]')

    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        attrs = {
            "ncei_template_version": "NCEI_NetCDF_Swath_Template_v2.0",
            "summary": "The Earth Surface Mineral Dust Source Investigation (EMIT) ... surface reflectance",
            "keywords": "Imaging Spectroscopy, minerals, EMIT, dust, radiative forcing",
            "Conventions": "CF-1.63",
            "sensor": "EMIT (Earth Surface Mineral Dust Source Investigation)",
            "instrument": "EMIT",
            "platform": "ISS",
            "institution": "NASA Jet Propulsion Laboratory/California Institute of Technology",
            "license": "https://science.nasa.gov/earth-science/earth-science-data/data-information-policy/",
            "naming_authority": "LPDAAC",
            "date_created": "2023-08-02T05:41:26Z",
            "keywords_vocabulary": "NASA Global Change Master Directory (GCMD) Science Keywords",
            "stdname_vocabulary": "NetCDF Climate and Forecast (CF) Metadata Convention",
            "creator_name": "Jet Propulsion Laboratory/California Institute of Technology",
            "creator_url": "https://earth.jpl.nasa.gov/emit/",
            "project": "Earth Surface Mineral Dust Source Investigation",
            "project_url": "https://earth.jpl.nasa.gov/emit/",
            "publisher_name": "NASA LPDAAC",
            "publisher_url": "https://lpdaac.usgs.gov",
            "publisher_email": "lpdaac@usgs.gov",
            "identifier_product_doi_authority": "https://doi.org",
            "flight_line": "emit20230801t101112_o21307_s002",
            "time_coverage_start": "2023-08-01T10:11:12+0000",
            "time_coverage_end": "2023-08-01T10:11:24+0000",
            "software_build_version": "010610",
            "software_delivery_version": "010610",
            "product_version": "V001",
            "history": "PGE Run Command: {python /beegfs/store/emit/ops/repos/emit-sds-l2a/...}",
            "crosstrack_orientation": "as seen on ground",
            "easternmost_longitude": -118.2473,
            "northernmost_latitude": 34.1,
            "westernmost_longitude": -118.25,
            "southernmost_latitude": 34.0967,
            "spatialResolution": 0.000542232520256367,
            "spatial_ref": wkt,
            "geotransform": np.array(gt, np.float64),
            "day_night_flag": "Day",
            "title": "EMIT L2A Estimated Surface Reflectance 60 m V001",
        }
        for k, v in attrs.items():
            ds.setncattr(k, v)
        ds.createDimension("downtrack", H)
        ds.createDimension("crosstrack", W)
        ds.createDimension("bands", B)
        v = ds.createVariable("reflectance", "f4", ("downtrack", "crosstrack", "bands"),
                              fill_value=-9999.0, zlib=True, complevel=4, chunksizes=(2, 2, B))
        v.long_name = "Surface Reflectance"
        v.units = "unitless"
        v[:] = refl
        g = ds.createGroup("sensor_band_parameters")
        g.createVariable("wavelengths", "f4", ("bands",))[:] = wl
        g["wavelengths"].long_name = "Wavelength Centers"
        g["wavelengths"].units = "nm"
        g.createVariable("fwhm", "f4", ("bands",))[:] = fwhm
        g["fwhm"].units = "nm"
        g.createVariable("good_wavelengths", "u1", ("bands",))[:] = good
        loc = ds.createGroup("location")
        loc.createDimension("ortho_y", OH)
        loc.createDimension("ortho_x", OW)
        lat = 34.1 - 0.0005 * yy[:, :, 0] - 0.0001 * xx[:, :, 0]
        lon = -118.25 + 0.0005 * xx[:, :, 0] + 0.0001 * yy[:, :, 0]
        for name, arr in (("lat", lat), ("lon", lon), ("elev", 100.0 + yy[:, :, 0] + xx[:, :, 0])):
            vv = loc.createVariable(name, "f8", ("downtrack", "crosstrack"), fill_value=-9999.0)
            vv[:] = arr
        for name, arr in (("glt_x", glt_x), ("glt_y", glt_y)):
            vv = loc.createVariable(name, "i4", ("ortho_y", "ortho_x"), fill_value=0)
            vv[:] = arr

    # Goldens, read back the way emit_tools reads the file.
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_mask(False)
        swath = np.array(ds["reflectance"][:], np.float32)
        gx = np.array(ds["location"]["glt_x"][:])
        gy = np.array(ds["location"]["glt_y"][:])
        good_r = np.array(ds["sensor_band_parameters"]["good_wavelengths"][:])
        wl_r = np.array(ds["sensor_band_parameters"]["wavelengths"][:])
        fw_r = np.array(ds["sensor_band_parameters"]["fwhm"][:])
        gt_r = [float(x) for x in ds.getncattr("geotransform")]
    glt = np.stack([gx, gy], axis=-1)
    ortho = np.full((OH, OW, B), -9999.0, np.float32)
    valid = np.all(glt != 0, axis=-1)
    g2 = glt.copy()
    g2[valid] -= 1
    ortho[valid, :] = swath[g2[valid, 1], g2[valid, 0], :]
    golden = {
        "file": NAME,
        "swath": swath.tolist(),
        "ortho": ortho.tolist(),
        "wavelengths": wl_r.astype(float).tolist(),
        "fwhm": fw_r.astype(float).tolist(),
        "good_wavelengths": good_r.astype(int).tolist(),
        "geotransform": gt_r,
        "fill": -9999.0,
    }
    with open(os.path.join(OUT, "emit_golden.json"), "w") as fh:
        json.dump(golden, fh)


if __name__ == "__main__":
    main()
