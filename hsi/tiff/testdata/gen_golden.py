#!/usr/bin/python3
"""Generate the TIFF/GeoTIFF goldens of package tiff.

Run with Debian's python3 (python3-gdal, python3-numpy, python3-tifffile):

    cd hsi/tiff/testdata && /usr/bin/python3 gen_golden.py

GDAL writes small multi-band GeoTIFFs in every combination the reader must
handle: uint8/uint16/int16/float32 (and int8, uint32, int32, float64),
INTERLEAVE=PIXEL and BAND, strips and TILED=YES (with partial edge tiles),
COMPRESS=NONE/DEFLATE/LZW/PACKBITS, PREDICTOR=2 and 3, little- and
big-endian, BigTIFF, a geotransform with EPSG:32613 (so GeoKeys exist) or
EPSG:4326 with PixelIsPoint, a no-data value, band descriptions and
wavelengths. tifffile writes multi-page TIFFs (one band per page). Every
file's expected content goes into expected.json: the cube in row-major
H x W x B order (through a named source array), the geo tags as GDAL wrote
them and the metadata. The Go tests read those; they never run Python.
"""
import json
import os

import numpy as np
import tifffile
from osgeo import gdal, osr

HERE = os.path.dirname(os.path.abspath(__file__))
H, W, B = 7, 9, 5  # odd sizes: partial strips and tiles

gdal.UseExceptions()

GDT = {
    "uint8": gdal.GDT_Byte,
    "uint16": gdal.GDT_UInt16,
    "int16": gdal.GDT_Int16,
    "uint32": gdal.GDT_UInt32,
    "int32": gdal.GDT_Int32,
    "float32": gdal.GDT_Float32,
    "float64": gdal.GDT_Float64,
}


def source(dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = (rng.standard_normal((H, W, B)) * 1000).astype(dt)
        a[0, 0, 0] = 0
        a[0, 1, 0] = -1.5
    else:
        info = np.iinfo(dt)
        lo, hi = max(info.min, -(2**24)), min(info.max, 2**24)
        a = rng.integers(lo, hi, (H, W, B), endpoint=True, dtype=np.int64).astype(dt)
        a[0, 0, 0] = lo
        a[0, 1, 0] = hi
        # A smooth ramp in band 1 so that predictors have something to do.
        a[:, :, 1] = (np.add.outer(np.arange(H), np.arange(W)) * 3 + lo // 2 + 7).astype(dt) if dt.kind != "u" else (np.add.outer(np.arange(H), np.arange(W)) * 3).astype(dt)
    return a


SOURCES = {}
EXPECTED = {"sources": {}, "files": {}}


def src(dtype):
    if dtype not in SOURCES:
        SOURCES[dtype] = source(dtype, len(SOURCES) + 1)
        a = SOURCES[dtype]
        EXPECTED["sources"][dtype] = {"shape": list(a.shape), "values": [float(x) for x in a.ravel()]}
    return SOURCES[dtype]


def gdal_file(name, dtype, opts, geo="utm", meta=True, nodata=None):
    a = src(dtype)
    path = os.path.join(HERE, name)
    mem = gdal.GetDriverByName("MEM").Create("", W, H, B, GDT[dtype])
    for b in range(B):
        band = mem.GetRasterBand(b + 1)
        band.WriteArray(a[:, :, b])
        if meta:
            band.SetDescription("band %d" % b)
            band.SetMetadataItem("wavelength", "%g" % (400 + 25.5 * b))
            band.SetMetadataItem("wavelength_units", "Nanometers")
        if nodata is not None:
            band.SetNoDataValue(nodata)
    srs = osr.SpatialReference()
    if geo == "utm":
        mem.SetGeoTransform([500000.0, 30.0, 0.0, 4200000.0, 0.0, -30.0])
        srs.ImportFromEPSG(32613)
        mem.SetProjection(srs.ExportToWkt())
    elif geo == "point":
        mem.SetGeoTransform([10.0, 0.25, 0.0, 50.0, 0.0, -0.25])
        srs.ImportFromEPSG(4326)
        mem.SetProjection(srs.ExportToWkt())
        mem.SetMetadataItem("AREA_OR_POINT", "Point")
    elif geo == "rotated":
        mem.SetGeoTransform([500000.0, 30.0, 5.0, 4200000.0, 4.0, -30.0])
        srs.ImportFromEPSG(32613)
        mem.SetProjection(srs.ExportToWkt())
    gdal.GetDriverByName("GTiff").CreateCopy(path, mem, options=opts)
    mem = None
    record(name, dtype, path)


def record(name, dtype, path):
    """Read the file back with GDAL (and check it), and note its tags."""
    ds = gdal.Open(path)
    a = src(dtype)
    back = np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(ds.RasterCount)], axis=2)
    assert back.shape == a.shape and np.array_equal(back, a), name
    e = {"source": dtype, "bands": ds.RasterCount}
    nd = ds.GetRasterBand(1).GetNoDataValue()
    if nd is not None:
        e["nodata"] = nd
    gt = ds.GetGeoTransform(can_return_null=True)
    if gt is not None:
        e["geotransform"] = list(gt)
        e["point"] = ds.GetMetadataItem("AREA_OR_POINT") == "Point"
    wl = ds.GetRasterBand(1).GetMetadataItem("wavelength")
    if wl is not None:
        e["wavelengths"] = [float(ds.GetRasterBand(b + 1).GetMetadataItem("wavelength")) for b in range(ds.RasterCount)]
        e["band_names"] = [ds.GetRasterBand(b + 1).GetDescription() for b in range(ds.RasterCount)]
    ds = None
    # The raw GeoTIFF tags, as tifffile sees them, for the Go geo test.
    with tifffile.TiffFile(path) as tf:
        tags = tf.pages[0].tags
        for code, key in [(33550, "pixel_scale"), (33922, "tiepoints"), (34264, "transformation"),
                          (34735, "geokeys"), (34736, "geodoubles"), (34737, "geoascii")]:
            if code in tags:
                v = tags[code].value
                e[key] = v if isinstance(v, str) else [float(x) for x in v]
    EXPECTED["files"][name] = e


def main():
    for f in os.listdir(HERE):
        if f.endswith(".tif"):
            os.remove(os.path.join(HERE, f))
    # Strip / pixel-interleaved and band-separate, every type, no compression.
    for dt in ["uint8", "uint16", "int16", "float32"]:
        gdal_file("%s_pixel.tif" % dt, dt, ["INTERLEAVE=PIXEL"])
        gdal_file("%s_band.tif" % dt, dt, ["INTERLEAVE=BAND"], meta=False)
    for dt in ["uint32", "int32", "float64"]:
        gdal_file("%s_pixel.tif" % dt, dt, ["INTERLEAVE=PIXEL"], geo=None, meta=False)
    # Compression and predictors.
    gdal_file("uint16_deflate_pred2_band.tif", "uint16", ["INTERLEAVE=BAND", "COMPRESS=DEFLATE", "PREDICTOR=2"])
    gdal_file("int16_lzw_pred2_pixel.tif", "int16", ["INTERLEAVE=PIXEL", "COMPRESS=LZW", "PREDICTOR=2"])
    gdal_file("uint8_lzw_pixel.tif", "uint8", ["INTERLEAVE=PIXEL", "COMPRESS=LZW"])
    gdal_file("float32_lzw_pred3_band.tif", "float32", ["INTERLEAVE=BAND", "COMPRESS=LZW", "PREDICTOR=3"])
    gdal_file("float32_deflate_pred3_pixel.tif", "float32", ["INTERLEAVE=PIXEL", "COMPRESS=DEFLATE", "PREDICTOR=3"])
    gdal_file("float32_deflate_pred2_pixel.tif", "float32", ["INTERLEAVE=PIXEL", "COMPRESS=DEFLATE", "PREDICTOR=2"], meta=False)
    gdal_file("int16_packbits_band.tif", "int16", ["INTERLEAVE=BAND", "COMPRESS=PACKBITS"], meta=False)
    gdal_file("uint16_strips2_deflate_pixel.tif", "uint16", ["INTERLEAVE=PIXEL", "COMPRESS=DEFLATE", "BLOCKYSIZE=2"], meta=False)
    # Tiles (16x16 tiles over a 7x9 image: every tile is partial).
    gdal_file("uint16_tiled_pixel.tif", "uint16", ["TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16", "INTERLEAVE=PIXEL"])
    gdal_file("float32_tiled_deflate_pred3_band.tif", "float32", ["TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16", "INTERLEAVE=BAND", "COMPRESS=DEFLATE", "PREDICTOR=3"])
    gdal_file("int16_tiled_lzw_pred2_band.tif", "int16", ["TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16", "INTERLEAVE=BAND", "COMPRESS=LZW", "PREDICTOR=2"], meta=False)
    # Byte order and BigTIFF.
    gdal_file("float32_bigendian_pixel.tif", "float32", ["ENDIANNESS=BIG", "INTERLEAVE=PIXEL"], meta=False)
    gdal_file("int16_bigendian_lzw_pred2_band.tif", "int16", ["ENDIANNESS=BIG", "INTERLEAVE=BAND", "COMPRESS=LZW", "PREDICTOR=2"], meta=False)
    gdal_file("uint16_bigtiff_tiled_band.tif", "uint16", ["BIGTIFF=YES", "TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16", "INTERLEAVE=BAND", "COMPRESS=DEFLATE"], meta=False)
    # Geo variants and no-data.
    gdal_file("float32_point_nodata.tif", "float32", ["INTERLEAVE=BAND"], geo="point", meta=False, nodata=-9999.0)
    gdal_file("int16_rotated.tif", "int16", ["INTERLEAVE=PIXEL"], geo="rotated", meta=False, nodata=-32768)
    gdal_file("uint8_nogeo.tif", "uint8", ["INTERLEAVE=PIXEL"], geo=None, meta=False)
    # Multi-page TIFFs: one band per page, written by tifffile.
    for dt, name, kw in [
        ("float32", "float32_pages.tif", {}),
        ("uint16", "uint16_pages_deflate_be.tif", {"compression": "zlib", "byteorder": ">"}),
    ]:
        a = src(dt)
        path = os.path.join(HERE, name)
        with tifffile.TiffWriter(path, byteorder=kw.pop("byteorder", "<")) as tw:
            for b in range(B):
                tw.write(np.ascontiguousarray(a[:, :, b]), photometric="minisblack", metadata=None, **kw)
        with tifffile.TiffFile(path) as tf:
            assert len(tf.pages) == B
            back = np.stack([p.asarray() for p in tf.pages], axis=2)
            assert np.array_equal(back, a), name
        EXPECTED["files"][name] = {"source": dt, "bands": B, "pages": B}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(EXPECTED, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, n)) for n in os.listdir(HERE))
    print("%d files, %d bytes" % (len(os.listdir(HERE)), total))


if __name__ == "__main__":
    main()
