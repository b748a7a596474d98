"""Tests of the Processing algorithms inside a headless QGIS (python3-qgis):
each algorithm gives the bytes the command line gives for the same options,
outputs load as layers with their CRS, bad input is a clear error and
cancelling stops omnihsr and leaves no output."""

import glob
import os
import subprocess
import threading
import time

import pytest

from conftest import omnihsr_bin
from omnihsr.algorithms import COMPRESSIONS, TYPES

qgis_core = pytest.importorskip("qgis.core", reason="python3-qgis is not installed")
from qgis.core import (  # noqa: E402
    QgsApplication,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingOutputLayerDefinition,
    QgsProject,
    QgsRasterLayer,
)


class Feedback(QgsProcessingFeedback):
    """Records progress, messages and the error; cancels on request."""

    def __init__(self, cancel_at=None):
        super().__init__()
        self.progress, self.info, self.errors = [], [], []
        self.cancel_at, self.cancelled_at = cancel_at, None
        self.progressChanged.connect(self._progress)

    def _progress(self, p):
        self.progress.append(p)
        if self.cancel_at is not None and p >= self.cancel_at and self.cancelled_at is None:
            self.cancelled_at = time.monotonic()
            self.cancel()

    def pushInfo(self, s):  # noqa: N802
        self.info.append(s)

    def reportError(self, s, fatalError=False):  # noqa: N802, N803
        self.errors.append(s)


def run_alg(alg_id, params, feedback=None):
    """Runs a registered algorithm; returns (results, ok, feedback, context)."""
    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    assert alg is not None, alg_id + " is not registered"
    fb = feedback or Feedback()
    ctx = QgsProcessingContext()
    ctx.setProject(QgsProject.instance())
    ok, msg = alg.checkParameterValues(params, ctx)
    if not ok:
        return {}, False, fb, msg
    res, ok = alg.run(params, ctx, fb)
    return res, ok, fb, ctx


def cli(*args):
    subprocess.run([omnihsr_bin()] + list(args), check=True, capture_output=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def test_provider_registered(qgis_app):
    reg = QgsApplication.processingRegistry()
    p = reg.providerById("omnihsr")
    assert p is not None and p.name() == "OmniHSR"
    ids = sorted(a.id() for a in p.algorithms())
    assert ids == ["omnihsr:degrade", "omnihsr:info", "omnihsr:upscale"]
    assert reg.algorithmById("omnihsr:upscale").displayName() == "Super-resolve raster"


def test_upscale_loads_as_layer_with_crs(qgis_app, tmp_path, sample):
    out = str(tmp_path / "q.tif")
    dest = QgsProcessingOutputLayerDefinition(out, QgsProject.instance())
    res, ok, fb, ctx = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 2, "OUTPUT": dest})
    assert ok, fb.errors
    assert res["OUTPUT"] == out
    assert fb.progress and fb.progress[-1] == 100.0
    assert ctx.willLoadLayerOnCompletion(out)  # the GUI adds it to the map
    inp, lay = QgsRasterLayer(sample, "in"), QgsRasterLayer(out, "out")
    assert lay.isValid()
    assert lay.crs().authid() == "EPSG:31985" == inp.crs().authid()
    assert (lay.width(), lay.height(), lay.bandCount()) == (2 * inp.width(), 2 * inp.height(), inp.bandCount())
    assert lay.rasterUnitsPerPixelX() == pytest.approx(inp.rasterUnitsPerPixelX() / 2, rel=1e-12)
    assert lay.extent().toString(6) == inp.extent().toString(6)
    want = str(tmp_path / "cli.tif")
    cli("upscale", "-in", sample, "-out", want, "-scale", "2")
    assert read(out) == read(want)


@pytest.mark.parametrize(
    "params, flags",
    [
        ({"SCALE": 3, "METHOD": 3, "NOISE": "clean"}, ["-scale", "3", "-method", "bicubic", "-noise", "clean"]),
        ({"SCALE": 1.5, "METHOD": 1, "NOISE": "2.5"}, ["-scale", "1.5", "-method", "omnihsr-bp", "-noise", "2.5"]),
        ({"SCALE": 2, "CLAMP": 1}, ["-scale", "2", "-clamp", "input"]),
        ({"SCALE": 2, "ADAPT": "2"}, ["-scale", "2", "-adapt", "2"]),
    ],
)
def test_upscale_options_match_cli(qgis_app, tmp_path, sample, params, flags):
    out = str(tmp_path / "q.tif")
    res, ok, fb, _ = run_alg("omnihsr:upscale", dict(params, INPUT=sample, OUTPUT=out))
    assert ok, fb.errors
    want = str(tmp_path / "cli.tif")
    cli("upscale", "-in", sample, "-out", want, *flags)
    assert read(out) == read(want)


def test_envi_output(qgis_app, tmp_path, sample):
    # An .img output is ENVI: omnihsr writes q.img and q.hdr, QGIS opens
    # q.img with the map info and CRS of the header.
    out = str(tmp_path / "q.img")
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 2, "METHOD": 3, "OUTPUT": out})
    assert ok, fb.errors
    assert os.path.exists(str(tmp_path / "q.hdr"))
    lay = QgsRasterLayer(out, "q")
    assert lay.isValid() and lay.crs().authid() == "EPSG:31985"
    assert (lay.width(), lay.height(), lay.bandCount()) == (698, 704, 6)


def test_degrade_matches_cli(qgis_app, tmp_path, sample):
    out = str(tmp_path / "d.tif")
    params = {"INPUT": sample, "SCALE": 2.5, "BLUR": 0.4, "NOISE": 1.5, "SEED": 7, "AREA": False, "OUTPUT": out}
    res, ok, fb, _ = run_alg("omnihsr:degrade", params)
    assert ok, fb.errors
    assert fb.progress[-1] == 100.0
    want = str(tmp_path / "cli.tif")
    cli("degrade", "-in", sample, "-out", want, "-scale", "2.5", "-blur", "0.4", "-noise", "1.5", "-seed", "7")
    assert read(out) == read(want)
    lay = QgsRasterLayer(out, "d")
    assert lay.crs().authid() == "EPSG:31985" and lay.width() == round(349 / 2.5)


def test_info(qgis_app, tmp_path, sample):
    page = str(tmp_path / "info.html")
    res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": sample, "OUTPUT": page})
    assert ok, fb.errors
    assert "352 x 349 x 6" in res["INFO"] and "EPSG:31985" in res["INFO"]
    html = open(page, encoding="utf-8").read()
    assert "<th align='left'>crs</th><td>SIRGAS 2000 / UTM zone 25S (EPSG:31985)</td>" in html
    res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": sample})  # no page asked: the string only
    assert ok and "OUTPUT" not in res and "uint8" in res["INFO"]


def test_bad_input_is_a_clear_error(qgis_app, tmp_path, sample):
    gdal = pytest.importorskip("osgeo.gdal", reason="python3-gdal is not installed")
    import numpy as np

    bad = str(tmp_path / "inf.tif")
    ds = gdal.GetDriverByName("GTiff").Create(bad, 8, 6, 2, gdal.GDT_Float32)
    ds.SetGeoTransform((500000, 30, 0, 9000000, 0, -30))
    a = np.arange(48, dtype=np.float32).reshape(6, 8)
    ds.GetRasterBand(1).WriteArray(a)
    a[3, 4] = np.inf
    ds.GetRasterBand(2).WriteArray(a)
    ds = None
    out = str(tmp_path / "q.tif")
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": bad, "SCALE": 2, "OUTPUT": out})
    assert not ok
    msg = "\n".join(fb.errors)
    assert "omnihsr upscale: " + bad in msg and "infinite" in msg, msg
    assert not os.path.exists(out)
    # A NOISE that is neither auto, clean nor a number is refused before running.
    res, ok, fb, msg = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 2, "NOISE": "loud", "OUTPUT": out})
    assert not ok and "NOISE 'loud': want auto, clean or" in msg
    # info on a file that is no hyperspectral file.
    junk = tmp_path / "notes.hdr"
    junk.write_text("not a header\n")
    res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": str(junk)})
    assert not ok and "omnihsr info: " in "\n".join(fb.errors) and str(junk) in "\n".join(fb.errors)


def test_setting_comes_before_env(qgis_app, tmp_path, sample, monkeypatch):
    from processing.core.ProcessingConfig import ProcessingConfig

    from omnihsr.config import BIN_SETTING

    real = omnihsr_bin()
    monkeypatch.setenv("OMNIHSR_BIN", "/no/such/omnihsr")
    ProcessingConfig.setSettingValue(BIN_SETTING, real)
    try:
        res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": sample})
        assert ok, fb.errors
        ProcessingConfig.setSettingValue(BIN_SETTING, "")
        res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": sample})
        assert not ok and "OMNIHSR_BIN names '/no/such/omnihsr'" in "\n".join(fb.errors)
    finally:
        ProcessingConfig.setSettingValue(BIN_SETTING, "")


def leftovers(d):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*")) + glob.glob(os.path.join(d, ".*")))


@pytest.mark.parametrize("when", ["at the first progress", "while encoding"])
def test_cancel_leaves_no_output(qgis_app, tmp_path, sample, when):
    # x8 of the sample: about 1 s of encoding, then 2816 rows rendered in
    # bands of about 500 (progress lines 0.176, 0.352, ...), 4-5 s in all.
    d = tmp_path / "out"
    d.mkdir()
    out = str(d / "q8.tif")
    if when == "at the first progress":
        fb = Feedback(cancel_at=0.001)
    else:
        fb = Feedback()

        def cancel():
            fb.cancelled_at = time.monotonic()
            fb.cancel()

        threading.Timer(0.3, cancel).start()
    t0 = time.monotonic()
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 8, "OUTPUT": out}, fb)
    t1 = time.monotonic()
    assert not ok and fb.cancelled_at is not None
    assert "cancelled: omnihsr stopped" in "\n".join(fb.errors)
    assert leftovers(str(d)) == [], "left in the output folder: %s" % leftovers(str(d))
    stop = t1 - fb.cancelled_at
    print("cancel %s: %.2f s after the start, returned %.3f s after cancel" % (when, fb.cancelled_at - t0, stop))
    assert stop < 2, "returned %.2f s after cancel" % stop


def test_netcdf_subdataset_layer(qgis_app, tmp_path):
    # A NetCDF-4 file with two variables: QGIS opens one as the layer
    # NETCDF:"file":reflectance, which omnihsr reads as the file with -var.
    netCDF4 = pytest.importorskip("netCDF4", reason="python3-netcdf4 is not installed")
    import numpy as np

    nc = str(tmp_path / "two.nc")
    d = netCDF4.Dataset(nc, "w")
    for name, n in (("bands", 5), ("y", 12), ("x", 10)):
        d.createDimension(name, n)
    d.createVariable("reflectance", "f4", ("bands", "y", "x"))[:] = np.arange(600, dtype=np.float32).reshape(5, 12, 10) % 17
    d.createVariable("mask", "f4", ("y", "x"))[:] = 1
    d.close()
    layer = QgsRasterLayer('NETCDF:"%s":reflectance' % nc, "refl", "gdal")
    assert layer.isValid() and layer.bandCount() == 5
    QgsProject.instance().addMapLayer(layer)
    try:
        out = str(tmp_path / "q.tif")
        res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": layer.id(), "SCALE": 2, "METHOD": 3, "OUTPUT": out})
        assert ok, fb.errors
        want = str(tmp_path / "cli.tif")
        cli("upscale", "-in", nc, "-var", "/reflectance", "-out", want, "-scale", "2", "-method", "bicubic")
        assert read(out) == read(want)
        lay = QgsRasterLayer(out, "q")
        assert (lay.width(), lay.height(), lay.bandCount()) == (20, 24, 5)
    finally:
        QgsProject.instance().removeMapLayer(layer.id())


def gdal_info(path):
    """(width, height, bands, data type name, EPSG code, compression, predictor) of a raster."""
    from osgeo import gdal, osr

    ds = gdal.Open(path)
    srs = osr.SpatialReference(ds.GetProjection()) if ds.GetProjection() else None
    md = ds.GetMetadata("IMAGE_STRUCTURE")
    return (
        ds.RasterXSize, ds.RasterYSize, ds.RasterCount, gdal.GetDataTypeName(ds.GetRasterBand(1).DataType),
        srs.GetAuthorityCode(None) if srs else None, md.get("COMPRESSION"), md.get("PREDICTOR"),
    )


def test_file_inputs_envi_and_npy(qgis_app, tmp_path, sample):
    # INPUT_FILE takes what QGIS cannot open as a layer: an ENVI header
    # (georeferenced: the output carries its CRS) and an NPY array (no
    # georeferencing to carry); the bytes are the command line's.
    hdr, npy = str(tmp_path / "g.hdr"), str(tmp_path / "g.npy")
    cli("convert", "-in", sample, "-out", hdr)
    cli("convert", "-in", sample, "-out", npy)
    for src, epsg in ((hdr, "31985"), (npy, None)):
        out = str(tmp_path / ("q_" + os.path.basename(src) + ".tif"))
        res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT_FILE": src, "SCALE": 2, "METHOD": 3, "OUTPUT": out})
        assert ok, fb.errors
        assert gdal_info(out)[:5] == (698, 704, 6, "Float32", epsg)
        want = str(tmp_path / "cli.tif")
        cli("upscale", "-in", src, "-out", want, "-scale", "2", "-method", "bicubic")
        assert read(out) == read(want)
    # degrade takes a file too, and SIZE.
    out = str(tmp_path / "d.tif")
    res, ok, fb, _ = run_alg("omnihsr:degrade", {"INPUT_FILE": hdr, "SIZE": "100x90", "OUTPUT": out})
    assert ok, fb.errors
    assert gdal_info(out)[:5] == (90, 100, 6, "Float32", "31985")


def test_an_input_is_required_and_the_file_wins(qgis_app, tmp_path, sample):
    # Neither INPUT nor INPUT_FILE: refused. Both (the dialog fills INPUT
    # with the current layer): INPUT_FILE is read, here an NPY array
    # without georeferencing, so the output has no CRS.
    out = str(tmp_path / "q.tif")
    for alg in ("omnihsr:upscale", "omnihsr:degrade"):
        res, ok, fb, msg = run_alg(alg, {"SCALE": 2, "OUTPUT": out})
        assert not ok and "give an input: INPUT (a raster layer) or INPUT_FILE" in msg, (alg, msg)
    assert not os.path.exists(out)
    npy = str(tmp_path / "g.npy")
    cli("convert", "-in", sample, "-out", npy)
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": sample, "INPUT_FILE": npy, "SCALE": 2, "METHOD": 3, "OUTPUT": out})
    assert ok, fb.errors
    assert gdal_info(out)[:5] == (698, 704, 6, "Float32", None)


def test_type_size_and_compression_reach_the_output(qgis_app, tmp_path, sample):
    out = str(tmp_path / "q.tif")
    params = {"INPUT": sample, "SIZE": "500x400", "METHOD": 3, "TYPE": TYPES.index("uint16"),
              "COMPRESS": COMPRESSIONS.index("ZSTD"), "OPTIONS": "PREDICTOR=2|TILED=YES", "OUTPUT": out}
    res, ok, fb, _ = run_alg("omnihsr:upscale", params)
    assert ok, fb.errors
    assert gdal_info(out) == (400, 500, 6, "UInt16", "31985", "ZSTD", "2")
    want = str(tmp_path / "cli.tif")
    cli("upscale", "-in", sample, "-out", want, "-size", "500x400", "-method", "bicubic", "-type", "uint16",
        "-co", "COMPRESS=ZSTD", "-co", "PREDICTOR=2", "-co", "TILED=YES")
    assert read(out) == read(want)
    # An output type on degrade (the block mean: bicubic overshoots the
    # uint8 range, which degrade refuses); bad SIZE and OPTIONS are
    # refused before omnihsr runs.
    res, ok, fb, _ = run_alg("omnihsr:degrade", {"INPUT": sample, "SCALE": 2, "AREA": True, "TYPE": TYPES.index("same"),
                                                  "COMPRESS": COMPRESSIONS.index("LZW"), "OPTIONS": "PREDICTOR=2",
                                                  "OUTPUT": str(tmp_path / "d.tif")})
    assert ok, fb.errors
    assert gdal_info(str(tmp_path / "d.tif")) == (175, 176, 6, "Byte", "31985", "LZW", "2")  # the sample's uint8
    res, ok, fb, _ = run_alg("omnihsr:upscale", dict(params, OPTIONS="PREDICTOR", OUTPUT=str(tmp_path / "b.tif")))
    assert not ok and "creation option 'PREDICTOR': want KEY=VALUE" in "\n".join(fb.errors)
    res, ok, fb, _ = run_alg("omnihsr:upscale", dict(params, SIZE="big", OUTPUT=str(tmp_path / "b.tif")))
    assert not ok and "SIZE 'big': want HEIGHTxWIDTH" in "\n".join(fb.errors)
    res, ok, fb, _ = run_alg("omnihsr:upscale", dict(params, ADAPT="some", OUTPUT=str(tmp_path / "b.tif")))
    assert not ok and "ADAPT 'some': want auto, 0 (off) or a step count" in "\n".join(fb.errors)
    assert not os.path.exists(str(tmp_path / "b.tif"))


def test_png_output_is_refused(qgis_app, tmp_path, sample):
    # A .png would be omnihsr's false-colour preview, loaded by QGIS as if
    # it were the super-resolved raster: refused, saying what to do.
    for alg in ("omnihsr:upscale", "omnihsr:degrade"):
        out = str(tmp_path / "q.png")
        res, ok, fb, _ = run_alg(alg, {"INPUT": sample, "SCALE": 2, "OUTPUT": out})
        errors = "\n".join(fb.errors)
        assert not ok and "false-colour preview" in errors and "omnihsr convert" in errors, errors
        assert not os.path.exists(out)
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 2, "OUTPUT": str(tmp_path / "q.npy")})
    assert not ok and "want a GeoTIFF (.tif, .tiff) or ENVI (.img) output" in "\n".join(fb.errors)


def test_file_names_starting_with_a_dash(qgis_app, tmp_path, sample, monkeypatch):
    # Relative names starting with "-": info passes "--" before the path,
    # upscale and degrade give paths as the values of -in and -out.
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copyfile(sample, "-g.tif")
    res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": "-g.tif"})
    assert ok, fb.errors
    assert "352 x 349 x 6" in res["INFO"]
    res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT_FILE": "-g.tif", "SCALE": 2, "METHOD": 3, "OUTPUT": "-q.tif"})
    assert ok, fb.errors
    assert gdal_info("-q.tif")[:3] == (698, 704, 6)
    res, ok, fb, _ = run_alg("omnihsr:degrade", {"INPUT_FILE": "-q.tif", "SCALE": 2, "OUTPUT": "-d.tif"})
    assert ok, fb.errors
    assert gdal_info("-d.tif")[:3] == (349, 352, 6)


def test_log_names_the_executable_and_help_links(qgis_app, tmp_path, sample):
    res, ok, fb, _ = run_alg("omnihsr:info", {"INPUT": sample})
    assert ok, fb.errors
    assert "omnihsr executable: %s (from the environment variable OMNIHSR_BIN)" % omnihsr_bin() in fb.info
    with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for name in ("upscale", "degrade", "info"):
        url = QgsApplication.processingRegistry().algorithmById("omnihsr:" + name).helpUrl()
        assert url == "https://github.com/omnihsr/omnihsr/blob/main/qgis/README.md#omnihsr" + name
        # GitHub's anchor of the heading "### `omnihsr:NAME`".
        assert "\n### `omnihsr:%s`" % name in readme


def test_timeout_setting_stops_a_hung_executable(qgis_app, tmp_path, sample):
    from processing.core.ProcessingConfig import ProcessingConfig

    from omnihsr.config import BIN_SETTING, TIMEOUT_SETTING, timeout_setting

    hung = tmp_path / "hung-omnihsr"
    hung.write_text("#!/bin/sh\nexec sleep 600\n")
    hung.chmod(0o755)
    assert timeout_setting() == 600  # the default (QSettings may hold it as a string)
    ProcessingConfig.setSettingValue(BIN_SETTING, str(hung))
    ProcessingConfig.setSettingValue(TIMEOUT_SETTING, 1)
    try:
        t0 = time.monotonic()
        res, ok, fb, _ = run_alg("omnihsr:upscale", {"INPUT": sample, "SCALE": 2, "OUTPUT": str(tmp_path / "q.tif")})
        assert time.monotonic() - t0 < 60, "the algorithm did not return"
        errors = "\n".join(fb.errors)
        assert not ok and "printed nothing for 1 s" in errors and "taken as hung and stopped" in errors, errors
    finally:
        ProcessingConfig.setSettingValue(BIN_SETTING, "")
        ProcessingConfig.setSettingValue(TIMEOUT_SETTING, 600)
