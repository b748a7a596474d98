#!/usr/bin/python3
"""Write a miniature DESIS L2A product (GeoTIFF + METADATA.xml, and a
variant with the SPECTRAL_IMAGE.hdr some deliveries add) and goldens.

Run with Debian's python3 (python3-gdal, python3-numpy):

    /usr/bin/python3 scripts/miniatures/desis_l2a.py hsi/products/testdata

Structure, as in a real DESIS-HSI-L2A-DT<datatake>_<tile>-<time>-V<version>
delivery (1024 x 1024 pixels, 235 bands, 400-1000 nm):
- <name>-SPECTRAL_IMAGE.tif: int16 GeoTIFF, pixel interleaved, UTM (WGS 84),
  30 m, bands in wavelength order;
- <name>-METADATA.xml with one specific/bandCharacterisation/band element per
  band holding bandNumber, wavelengthCenterOfBand, wavelengthWidthOfBand
  (FWHM), gainOfBand and offsetOfBand -- the tags a community reader
  (fluomapper's DESISReader) takes, value = DN * gain + offset. Other <band>
  elements (here under product/quicklook) lie outside the band
  characterisation, so a reader must scope its search; the bands are listed
  out of order, so it must go by bandNumber;
- <name>-SPECTRAL_IMAGE.hdr (second variant): an ENVI header with
  wavelength, fwhm, data gain values and data offset values, where
  EnMAP-Box's importdesisl2aalgorithm.py reads them.
The no-data value is the GeoTIFF's GDAL nodata tag (0 here), which GDAL
and so EnMAP-Box use. The XML states the background value in a
backgroundValue element: ACOLITE's DESIS metadata reader
(acolite/desis/metadata_QV.py) takes the first element of that name
anywhere in the document, so its place in the tree is not known from
public material; here it sits under <specific>.
- desis_background (third variant): the TIF without the GDAL nodata tag,
  so that the XML's backgroundValue is the only statement of the no-data
  value.

Values: band 2 is no-data everywhere (a bad band); pixel (0, 0) is no-data in
every band.
"""
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
NAME = "DESIS-HSI-L2A-DT0865788448_017-20230607T153935-V0220"
H, W, B = 4, 5, 5
NODATA = 0


def write(out, name, nbands_xml=B, hdr=False, nodata_tag=True):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(5)
    dn = rng.integers(1, 9000, (H, W, B)).astype(np.int16)
    dn[:, :, 2] = NODATA
    dn[0, 0, :] = NODATA
    wl = [401.9, 404.5, 407.0, 409.6, 998.8]
    fwhm = [3.5, 3.5, 3.6, 3.5, 3.9]
    gain = [0.0001] * B
    offset = [0.0] * B
    gain[4] = 0.00012
    offset[4] = -0.002
    tif = os.path.join(out, name + "-SPECTRAL_IMAGE.tif")
    ds = gdal.GetDriverByName("GTiff").Create(tif, W, H, B, gdal.GDT_Int16, ["INTERLEAVE=PIXEL", "COMPRESS=DEFLATE"])
    ds.SetGeoTransform([600000.0, 30.0, 0.0, 4800000.0, 0.0, -30.0])
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32610)
    ds.SetProjection(srs.ExportToWkt())
    for b in range(B):
        band = ds.GetRasterBand(b + 1)
        if nodata_tag:
            band.SetNoDataValue(NODATA)
        band.WriteArray(dn[:, :, b])
    ds = None
    order = list(range(nbands_xml))[::-1]  # listed out of order
    chars = "".join(
        f"      <band>\n"
        f"        <bandNumber>{b + 1}</bandNumber>\n"
        f"        <wavelengthCenterOfBand>{wl[b]}</wavelengthCenterOfBand>\n"
        f"        <wavelengthWidthOfBand>{fwhm[b]}</wavelengthWidthOfBand>\n"
        f"        <gainOfBand>{gain[b]}</gainOfBand>\n"
        f"        <offsetOfBand>{offset[b]}</offsetOfBand>\n"
        f"      </band>\n" for b in order)
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<hsi_doc>\n'
           "  <base><temporalCoverage><startTime>2023-06-07T15:39:35Z</startTime></temporalCoverage></base>\n"
           "  <specific>\n    <backgroundValue>%d</backgroundValue>\n    <bandCharacterisation>\n" % NODATA + chars + "    </bandCharacterisation>\n  </specific>\n"
           "  <product>\n    <quicklook>\n      <band><bandNumber>99</bandNumber><wavelengthCenterOfBand>640</wavelengthCenterOfBand></band>\n"
           "    </quicklook>\n  </product>\n</hsi_doc>\n")
    with open(os.path.join(out, name + "-METADATA.xml"), "w") as fh:
        fh.write(xml)
    if hdr:
        lst = lambda v: "{" + ", ".join(str(x) for x in v) + "}"
        with open(os.path.join(out, name + "-SPECTRAL_IMAGE.hdr"), "w") as fh:
            fh.write("ENVI\nsamples = %d\nlines = %d\nbands = %d\nheader offset = 0\nfile type = TIFF\n"
                     "data type = 2\ninterleave = bip\nbyte order = 0\nwavelength units = Nanometers\n"
                     "wavelength = %s\nfwhm = %s\ndata gain values = %s\ndata offset values = %s\n"
                     % (W, H, B, lst(wl), lst(fwhm), lst(gain), lst(offset)))
    return tif, dn, wl, fwhm, gain, offset


def golden(tif, wl, fwhm, gain, offset):
    ds = gdal.Open(tif)
    arr = np.stack([ds.GetRasterBand(b + 1).ReadAsArray() for b in range(B)], axis=-1).astype(np.float64)
    phys = arr * np.array(gain) + np.array(offset)
    phys[arr == NODATA] = NODATA
    srs = osr.SpatialReference(wkt=ds.GetProjection())
    return {"cube": phys.astype(np.float32).tolist(), "wavelengths": wl, "fwhm": fwhm,
            "bad": [bool(np.all(arr[:, :, b] == NODATA)) for b in range(B)],
            "geotransform": list(ds.GetGeoTransform()), "epsg": int(srs.GetAuthorityCode(None))}


def main():
    out = os.path.join(OUT, "desis_xml")
    tif, dn, wl, fwhm, gain, offset = write(out, NAME)
    g = {"xml": golden(tif, wl, fwhm, gain, offset)}
    out = os.path.join(OUT, "desis_hdr")
    tif, dn, wl, fwhm, gain, offset = write(out, NAME, hdr=True)
    g["hdr"] = golden(tif, wl, fwhm, gain, offset)
    out = os.path.join(OUT, "desis_background")
    tif, dn, wl, fwhm, gain, offset = write(out, NAME, nodata_tag=False)
    g["background"] = golden(tif, wl, fwhm, gain, offset)
    write(os.path.join(OUT, "desis_short_xml"), NAME, nbands_xml=B - 1)
    lone = os.path.join(OUT, "desis_no_xml")
    write(lone, NAME)
    os.remove(os.path.join(lone, NAME + "-METADATA.xml"))
    with open(os.path.join(OUT, "desis_golden.json"), "w") as fh:
        json.dump(g, fh)


if __name__ == "__main__":
    main()
