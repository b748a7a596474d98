"""The OmniHSR Processing algorithms; each runs one omnihsr command."""

import html
import math
import os
import re

from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterDestination,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
)

from . import runner
from .config import binary_setting

# METHODS are upscale's -method values, in the order of the METHOD enum.
METHODS = ("omnihsr", "omnihsr-bp", "omnihsr-se", "bicubic")

# SUBDATASET is a GDAL subdataset source (a NetCDF or HDF5 variable):
# omnihsr reads the file with -var.
SUBDATASET = re.compile(r'^(?:NETCDF|HDF5):"(.+)":(.+)$')


def layer_file(layer, what):
    """Returns (file, variable) that omnihsr reads for a raster layer:
    the file of a GDAL layer, with the variable of a NetCDF or HDF5
    subdataset ("" otherwise)."""
    if layer.providerType() != "gdal":
        raise QgsProcessingException(
            '%s: layer "%s" comes from the %s provider, not a file: omnihsr reads files '
            "(GeoTIFF, ENVI, NetCDF/HDF5, MAT, NPY)" % (what, layer.name(), layer.providerType())
        )
    src = layer.source().split("|")[0]
    var = ""
    m = SUBDATASET.match(src)
    if m:
        src, var = m.group(1), "/" + m.group(2).lstrip("/")
    if not os.path.isfile(src):
        raise QgsProcessingException('%s: layer "%s": %s is not a file' % (what, layer.name(), src))
    return src, var


def noise_problem(value):
    """Returns why NOISE is not auto, clean or a standard deviation >= 0,
    or "" when it is."""
    v = (value or "").strip().lower()
    if v in ("", "auto", "clean"):
        return ""
    try:
        f = float(v)
    except ValueError:
        f = -1
    if not (f >= 0 and math.isfinite(f)):
        return "NOISE %r: want auto, clean or the noise standard deviation (a number >= 0)" % value
    return ""


def run_cli(args, feedback, outputs=()):
    """Runs omnihsr with args; errors become QgsProcessingException."""
    try:
        return runner.run(runner.find_binary(binary_setting()), args, feedback, outputs)
    except runner.CliError as e:
        raise QgsProcessingException(str(e)) from e


def num(x):
    """Formats a number for a command-line flag, exactly."""
    return repr(float(x)) if not float(x).is_integer() else str(int(x))


class _Algorithm(QgsProcessingAlgorithm):
    def group(self):
        return ""

    def groupId(self):  # noqa: N802 (QGIS's name)
        return ""

    def createInstance(self):  # noqa: N802
        return type(self)()


class UpscaleAlgorithm(_Algorithm):
    INPUT, SCALE, METHOD, NOISE, OUTPUT = "INPUT", "SCALE", "METHOD", "NOISE", "OUTPUT"

    def name(self):
        return "upscale"

    def displayName(self):  # noqa: N802
        return "Super-resolve raster"

    def shortHelpString(self):  # noqa: N802
        return (
            "Super-resolves every band of a raster by the factor SCALE (output side round(SCALE x side), "
            "any SCALE > 0) with the OmniHSR model, which takes any band count and needs no wavelengths, "
            "or bicubic interpolation. The output keeps the input's CRS and footprint (pixel size divided "
            "by SCALE), band metadata and no-data value, and is float32.\n\n"
            "METHOD: omnihsr (default), omnihsr-bp (one back-projection step; better on clean or blurred "
            "inputs), omnihsr-se (the mean over 8 flips and rotations, 8x the time) or bicubic.\n"
            "NOISE: auto (estimated band by band; a noisy input is rendered by the noise-aware model), "
            "clean, or the noise standard deviation in the input's units.\n\n"
            "Runs `omnihsr upscale`; see `omnihsr help upscale`."
        )

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterRasterLayer(self.INPUT, "Input raster"))
        self.addParameter(
            QgsProcessingParameterNumber(
                self.SCALE, "Scale factor", QgsProcessingParameterNumber.Double, defaultValue=2.0, minValue=0.001
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(self.METHOD, "Method", options=list(METHODS), defaultValue=0, optional=True)
        )
        self.addParameter(
            QgsProcessingParameterString(
                self.NOISE, "Input noise (auto, clean or a standard deviation)", defaultValue="auto", optional=True
            )
        )
        self.addParameter(QgsProcessingParameterRasterDestination(self.OUTPUT, "Super-resolved raster"))

    def checkParameterValues(self, parameters, context):  # noqa: N802
        ok, msg = super().checkParameterValues(parameters, context)
        if ok:
            problem = noise_problem(self.parameterAsString(parameters, self.NOISE, context))
            if problem:
                return False, problem
        return ok, msg

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        layer = self.parameterAsRasterLayer(parameters, self.INPUT, context)
        if layer is None:
            raise QgsProcessingException(self.invalidRasterError(parameters, self.INPUT))
        src, var = layer_file(layer, self.INPUT)
        scale = self.parameterAsDouble(parameters, self.SCALE, context)
        method = METHODS[self.parameterAsEnum(parameters, self.METHOD, context)]
        noise = self.parameterAsString(parameters, self.NOISE, context).strip() or "auto"
        problem = noise_problem(noise)
        if problem:
            raise QgsProcessingException(problem)
        out = self.parameterAsOutputLayer(parameters, self.OUTPUT, context)
        args = ["upscale", "-in", src, "-out", out, "-scale", num(scale), "-method", method, "-noise", noise]
        if var:
            args += ["-var", var]
        run_cli(args, feedback, [out])
        return {self.OUTPUT: out}


class DegradeAlgorithm(_Algorithm):
    INPUT, SCALE, BLUR, BAND_BLUR, NOISE, SEED, AREA, OUTPUT = (
        "INPUT", "SCALE", "BLUR", "BAND_BLUR", "NOISE", "SEED", "AREA", "OUTPUT")

    def name(self):
        return "degrade"

    def displayName(self):  # noqa: N802
        return "Degrade raster"

    def shortHelpString(self):  # noqa: N802
        return (
            "Makes a low-resolution raster, identically for every band, in this order: BLUR, a Gaussian "
            "blur of sigma BLUR x SCALE high-resolution pixels; BAND_BLUR, band b of B blurred by "
            "BAND_BLUR x SCALE x (b-1)/(B-1); downsampling to round(side / SCALE), antialiased bicubic "
            "(PyTorch F.interpolate antialias=True) or with AREA the block mean; NOISE, Gaussian noise of "
            "that standard deviation seeded by SEED. The georeferencing is scaled to the new grid and "
            "no-data is kept. The output is float32.\n\n"
            "Runs `omnihsr degrade`; see `omnihsr help degrade`."
        )

    def initAlgorithm(self, config=None):  # noqa: N802
        double = QgsProcessingParameterNumber.Double
        self.addParameter(QgsProcessingParameterRasterLayer(self.INPUT, "Input (high-resolution) raster"))
        self.addParameter(
            QgsProcessingParameterNumber(self.SCALE, "Downsampling factor", double, defaultValue=2.0, minValue=0.001)
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.BLUR, "Blur sigma (x factor, high-res pixels)", double, defaultValue=0.0, minValue=0.0, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.BAND_BLUR, "Band-dependent blur kappa", double, defaultValue=0.0, minValue=0.0, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.NOISE, "Noise standard deviation", double, defaultValue=0.0, minValue=0.0, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterNumber(
                self.SEED, "Noise seed", QgsProcessingParameterNumber.Integer, defaultValue=0, minValue=0, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterBoolean(self.AREA, "Block mean instead of antialiased bicubic", defaultValue=False)
        )
        self.addParameter(QgsProcessingParameterRasterDestination(self.OUTPUT, "Degraded raster"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        layer = self.parameterAsRasterLayer(parameters, self.INPUT, context)
        if layer is None:
            raise QgsProcessingException(self.invalidRasterError(parameters, self.INPUT))
        src, var = layer_file(layer, self.INPUT)
        out = self.parameterAsOutputLayer(parameters, self.OUTPUT, context)
        args = ["degrade", "-in", src, "-out", out, "-scale", num(self.parameterAsDouble(parameters, self.SCALE, context))]
        for flag, key in (("-blur", self.BLUR), ("-band-blur", self.BAND_BLUR), ("-noise", self.NOISE)):
            v = self.parameterAsDouble(parameters, key, context)
            if v:
                args += [flag, num(v)]
        seed = self.parameterAsInt(parameters, self.SEED, context)
        if seed:
            args += ["-seed", str(seed)]
        if self.parameterAsBoolean(parameters, self.AREA, context):
            args.append("-area")
        if var:
            args += ["-var", var]
        run_cli(args, feedback, [out])
        return {self.OUTPUT: out}


def info_html(path, text):
    """Returns the HTML page of `omnihsr info`'s "key: value" lines."""
    rows = []
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key and not key.startswith(" "):
            rows.append("<tr><th align='left'>%s</th><td>%s</td></tr>" % (html.escape(key), html.escape(value.strip())))
        else:
            rows.append("<tr><td></td><td>%s</td></tr>" % html.escape(line.strip()))
    return (
        "<html><head><meta charset='utf-8'><title>%s</title></head><body><h2>%s</h2><table>%s</table></body></html>\n"
        % (html.escape(os.path.basename(path)), html.escape(path), "\n".join(rows))
    )


class InfoAlgorithm(_Algorithm):
    INPUT, VAR, ORTHO, OUTPUT, INFO = "INPUT", "VAR", "ORTHO", "OUTPUT", "INFO"

    def name(self):
        return "info"

    def displayName(self):  # noqa: N802
        return "Describe hyperspectral file"

    def shortHelpString(self):  # noqa: N802
        return (
            "Describes a hyperspectral file or product (ENVI, GeoTIFF, NetCDF/HDF5 with EMIT, PRISMA, "
            "NEON, EnMAP and DESIS products, MAT, NPY): format, shape, data type, value range, "
            "wavelengths, bad and noisy bands, no-data value and georeferencing. The description is the "
            "INFO string output and, if asked, an HTML page (OUTPUT).\n\n"
            "VAR: the variable of a MAT, HDF5 or NetCDF file (default: found by itself). ORTHO: EMIT, "
            "describe the georeferenced grid instead of the swath.\n\n"
            "Runs `omnihsr info`; see `omnihsr help info`."
        )

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterFile(self.INPUT, "Hyperspectral file"))
        self.addParameter(QgsProcessingParameterString(self.VAR, "Variable (MAT, HDF5, NetCDF)", optional=True))
        self.addParameter(QgsProcessingParameterBoolean(self.ORTHO, "EMIT: georeferenced grid (-ortho)", defaultValue=False))
        self.addParameter(
            QgsProcessingParameterFileDestination(
                self.OUTPUT, "Description (HTML)", "HTML files (*.html)", optional=True, createByDefault=False
            )
        )
        self.addOutput(QgsProcessingOutputString(self.INFO, "Description"))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        path = self.parameterAsFile(parameters, self.INPUT, context)
        args = ["info"]
        var = self.parameterAsString(parameters, self.VAR, context).strip()
        if var:
            args += ["-var", var]
        if self.parameterAsBoolean(parameters, self.ORTHO, context):
            args.append("-ortho")
        text = run_cli(args + [path], feedback)
        results = {self.INFO: text}
        out = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        if out:
            with open(out, "w", encoding="utf-8") as f:
                f.write(info_html(path, text))
            results[self.OUTPUT] = out
        return results
