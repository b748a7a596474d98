#!/usr/bin/python3
"""Write a miniature EnMAP L2A product (GeoTIFF + METADATA.XML) and goldens.

Run with Debian's python3 (python3-gdal, python3-numpy):

    /usr/bin/python3 scripts/miniatures/enmap_l2a.py hsi/products/testdata

Structure, as in a real ENMAP01-____L2A-DT..._COG delivery (1000 x 1000
pixels, 224 bands):
- <name>-SPECTRAL_IMAGE.TIF: int16 GeoTIFF, pixel interleaved, UTM (WGS 84),
  30 m, no-data -32768 (GDAL nodata tag), bands in wavelength order;
- <name>-METADATA.XML, root <level_X>, with one
  specific/bandCharacterisation/bandID element per band holding
  wavelengthCenterOfBand, FWHMOfBand, GainOfBand and OffsetOfBand, and
  product/bandStatistics/bandID elements (mean, stdDeviation) -- the paths
  EnMAP-Box's importenmapl2aalgorithm.py reads (reflectance = DN * gain +
  offset; its "exclude no data bands" drops the bands whose statistics
  say they hold no data: mean -1000000, stdDeviation 0); the acquisition
  time in base/temporalCoverage/startTime. Other <bandID> elements (the
  statistics) live outside the band characterisation, so a reader must
  scope its search to specific/bandCharacterisation.

Values: band 3 is no-data everywhere (a bad band); pixel (0, 0) is no-data
in every band.

Background variants: the real METADATA.XML (pre-launch schema 00-02-00,
../shared/data/products-real/enmap) states specific/backgroundValue 0, the
DN of the pixels outside the scene. enmap_background/ has that element and
a background edge (row 3, every band, DN 0) with the GeoTIFF's nodata tag
-32768; enmap_background_notag/ the same without the nodata tag. Their
goldens (enmap_background_golden.json): DN * gain + offset, -32768 where
the DN is -32768 or the background value 0.

goldens (enmap_golden.json): the cube (rows, cols, bands) as DN * gain +
offset in float64 rounded to float32, -32768 kept where the DN is
-32768; the wavelengths, FWHM, bad bands (all no-data) and the GDAL
geotransform and EPSG code of the TIF.
"""
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "ENMAP01-____L2A-DT0000004950_20221103T102316Z_001_V010303_20221104T083010Z"
H, W, B = 4, 5, 6
NODATA = -32768


def write(out, name, nbands_xml=B, background=None, tag=True):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(3)
    dn = rng.integers(-200, 10000, (H, W, B)).astype(np.int16)
    dn[:, :, 3] = NODATA
    dn[0, 0, :] = NODATA
    if background is not None:
        dn[dn == background] = 1  # only the edge holds the background value
        dn[H - 1, :, :] = background
    wl = [418.416, 423.874, 429.295, 434.749, 2438.6, 2445.2]
    fwhm = [6.995, 6.949, 6.908, 6.874, 7.9, 8.1]
    gain = [0.0001] * B
    offset = [0.0] * B
    gain[5] = 0.0002
    offset[5] = -0.01
    tif = os.path.join(out, name + "-SPECTRAL_IMAGE.TIF")
    drv = gdal.GetDriverByName("GTiff")
    ds = drv.Create(tif, W, H, B, gdal.GDT_Int16, ["INTERLEAVE=PIXEL", "COMPRESS=DEFLATE"])
    ds.SetGeoTransform([399960.0, 30.0, 0.0, 5700000.0, 0.0, -30.0])
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32633)
    ds.SetProjection(srs.ExportToWkt())
    for b in range(B):
        band = ds.GetRasterBand(b + 1)
        if tag:
            band.SetNoDataValue(NODATA)
        band.WriteArray(dn[:, :, b])
    ds = None
    chars = []
    for b in range(nbands_xml):
        chars.append(
            f'      <bandID number="{b + 1}">\n'
            f"        <wavelengthCenterOfBand>{wl[b]}</wavelengthCenterOfBand>\n"
            f"        <FWHMOfBand>{fwhm[b]}</FWHMOfBand>\n"
            f"        <GainOfBand>{gain[b]}</GainOfBand>\n"
            f"        <OffsetOfBand>{offset[b]}</OffsetOfBand>\n"
            f"      </bandID>\n")
    stats = []
    for b in range(B):
        bad = b == 3
        stats.append(
            f'      <bandID number="{b + 1}">\n'
            f"        <mean>{-1000000 if bad else 0.2}</mean>\n"
            f"        <stdDeviation>{0 if bad else 0.05}</stdDeviation>\n"
            f"      </bandID>\n")
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<level_X>\n"
        "  <metadata>\n"
        "    <schema><processingLevel>L2A</processingLevel></schema>\n"
        f"    <name>{name}</name>\n"
        "  </metadata>\n"
        "  <base>\n"
        "    <temporalCoverage>\n"
        "      <startTime>2022-11-03T10:23:16.000000Z</startTime>\n"
        "      <stopTime>2022-11-03T10:23:20.000000Z</stopTime>\n"
        "    </temporalCoverage>\n"
        "  </base>\n"
        "  <specific>\n" +
        ("" if background is None else f"    <backgroundValue>{background}</backgroundValue>\n") +
        "    <bandCharacterisation>\n" + "".join(chars) +
        "    </bandCharacterisation>\n"
        "  </specific>\n"
        "  <product>\n"
        "    <bandStatistics>\n" + "".join(stats) +
        "    </bandStatistics>\n"
        "  </product>\n"
        "</level_X>\n")
    with open(os.path.join(out, name + "-METADATA.XML"), "w") as fh:
        fh.write(xml)
    return tif, dn, wl, fwhm, gain, offset


def main():
    tif, dn, wl, fwhm, gain, offset = write(OUT, NAME)
    ds = gdal.Open(tif)
    arr = np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(B)], axis=-1).astype(np.float64)
    phys = arr * np.array(gain) + np.array(offset)
    phys[arr == NODATA] = NODATA
    bad = [bool(np.all(arr[:, :, b] == NODATA)) for b in range(B)]
    srs = osr.SpatialReference(wkt=ds.GetProjection())
    golden = {"tif": os.path.basename(tif), "xml": NAME + "-METADATA.XML",
              "cube": phys.astype(np.float32).tolist(), "wavelengths": wl, "fwhm": fwhm, "bad": bad,
              "geotransform": list(ds.GetGeoTransform()), "epsg": int(srs.GetAuthorityCode(None))}
    with open(os.path.join(OUT, "enmap_golden.json"), "w") as fh:
        json.dump(golden, fh)
    # Damaged variants: an XML listing one band too few; a TIF without its XML.
    bad_dir = os.path.join(OUT, "enmap_short_xml")
    write(bad_dir, NAME, nbands_xml=B - 1)
    lone = os.path.join(OUT, "enmap_no_xml")
    write(lone, NAME)
    os.remove(os.path.join(lone, NAME + "-METADATA.XML"))
    # The background value of the METADATA.XML, with and without the nodata tag.
    bg = {}
    for d, tag in [("enmap_background", True), ("enmap_background_notag", False)]:
        tif, dn, wl, fwhm, gain, offset = write(os.path.join(OUT, d), NAME, background=0, tag=tag)
        ds = gdal.Open(tif)
        arr = np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(B)], axis=-1).astype(np.float64)
        assert (ds.GetRasterBand(1).GetNoDataValue() is not None) == tag
        phys = arr * np.array(gain) + np.array(offset)
        phys[(arr == NODATA) | (arr == 0)] = NODATA
        bg[d] = {"cube": phys.astype(np.float32).tolist(),
                 "bad": [bool(np.all((arr[:, :, b] == NODATA) | (arr[:, :, b] == 0))) for b in range(B)]}
    with open(os.path.join(OUT, "enmap_background_golden.json"), "w") as fh:
        json.dump(bg, fh)


if __name__ == "__main__":
    main()
