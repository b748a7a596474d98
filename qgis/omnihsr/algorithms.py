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
from .config import binary_setting, timeout_setting

# METHODS are upscale's -method values, in the order of the METHOD enum.
METHODS = ("omnihsr", "omnihsr-bp", "omnihsr-se", "bicubic")

# SUBDATASET is a GDAL subdataset source (a NetCDF or HDF5 variable):
# omnihsr reads the file with -var.
SUBDATASET = re.compile(r'^(?:NETCDF|HDF5):"(.+)":(.+)$')

# CLAMPS are upscale's -clamp values, in the order of the CLAMP enum (the
# first, the default, passes no flag).
CLAMPS = ("none", "input", "type")

# TYPES are the output data types offered, -type's values: the first is
# the default (float32, no flag).
TYPES = ("float32", "same", "uint8", "int8", "uint16", "int16", "uint32", "int32", "float64")

# COMPRESSIONS are -co COMPRESS= values for a TIFF output; the first (no
# compression, GDAL's default for GTiff) passes no flag.
COMPRESSIONS = ("NONE", "DEFLATE", "LZW", "ZSTD")

# OUTPUT_EXTS are the output extensions the algorithms write: what omnihsr
# writes and QGIS opens with the georeferencing (GeoTIFF; ENVI, x.img with
# its x.hdr). The provider offers the same list.
OUTPUT_EXTS = ("tif", "tiff", "img")

# HELP_URL is the plugin's documentation; each algorithm links to its
# section.
HELP_URL = "https://github.com/omnihsr/omnihsr/blob/main/qgis/README.md"

# INPUT_FILE_FILTER is the file dialog's filter of INPUT_FILE.
INPUT_FILE_FILTER = (
    "Files omnihsr reads (*.hdr *.img *.dat *.npy *.mat *.h5 *.hdf5 *.he5 *.nc *.tif *.tiff *.TIF *.XML *.xml);;"
    "All files (*)"
)


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


def output_problem(path):
    """Returns why the algorithms do not write path, or "" when they do:
    a PNG is the false-colour preview omnihsr convert makes (three bands,
    8 bits, stretched), not the super-resolved bands, and QGIS would load
    it as the result."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext in OUTPUT_EXTS:
        return ""
    if ext == "png":
        return (
            "OUTPUT %s: a .png is a false-colour preview (three bands, 8 bits, stretched), not the "
            "super-resolved raster: write a GeoTIFF (.tif) or ENVI (.img) output, then make a preview with "
            "`omnihsr convert -in OUTPUT -out preview.png`" % path
        )
    return "OUTPUT %s: want a GeoTIFF (.tif, .tiff) or ENVI (.img) output, the formats QGIS opens with the CRS" % path


def creation_options(value):
    """Returns the KEY=VALUE creation options of a string separated by |,
    ; or white space (QGIS's raster options use |)."""
    opts = [o for o in re.split(r"[|;\s]+", value or "") if o]
    for o in opts:
        key, sep, val = o.partition("=")
        if not (sep and key and val):
            raise QgsProcessingException(
                "creation option %r: want KEY=VALUE (e.g. COMPRESS=ZSTD|PREDICTOR=3), as omnihsr's -co" % o
            )
    return opts


def size_flag(value):
    """Returns HxW from a target size "HxW" (or "H W", "H,W"), or "" for
    none; anything else is an error naming the parameter."""
    v = (value or "").strip().lower()
    if not v:
        return ""
    m = re.match(r"^(\d+)\s*[x, ]\s*(\d+)$", v)
    if not m or int(m.group(1)) <= 0 or int(m.group(2)) <= 0:
        raise QgsProcessingException("SIZE %r: want HEIGHTxWIDTH in pixels, e.g. 704x698" % value)
    return "%sx%s" % (m.group(1), m.group(2))


def adapt_flag(value):
    """Returns -adapt's value for ADAPT: "auto", a step count, or "" for
    none (empty or 0); anything else is an error naming the parameter."""
    v = (value or "").strip().lower()
    if v in ("", "0"):
        return ""
    if v == "auto" or (v.isdigit() and 0 < int(v) <= 100000):
        return v if v == "auto" else str(int(v))
    raise QgsProcessingException("ADAPT %r: want auto, 0 (off) or a step count up to 100000" % value)


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
    """Runs omnihsr with args; errors become QgsProcessingException. The
    Processing log says which executable runs and which source gave it."""
    try:
        binary, where = runner.locate(binary_setting())
        feedback.pushInfo("omnihsr executable: %s (from %s)" % (binary, where))
        return runner.run(binary, args, feedback, outputs, timeout_s=timeout_setting())
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

    def helpUrl(self):  # noqa: N802
        return "%s#omnihsr%s" % (HELP_URL, self.name())


class _RasterAlgorithm(_Algorithm):
    """upscale and degrade: one raster in (a layer, or any file omnihsr
    reads), one raster out, with the reading and writing options the two
    commands share."""

    INPUT, INPUT_FILE, VAR, ORTHO, SIZE, TYPE, COMPRESS, OPTIONS, OUTPUT = (
        "INPUT", "INPUT_FILE", "VAR", "ORTHO", "SIZE", "TYPE", "COMPRESS", "OPTIONS", "OUTPUT")

    def add_input_parameters(self, what):
        self.addParameter(QgsProcessingParameterRasterLayer(self.INPUT, what + " raster layer", optional=True))
        self.addParameter(
            QgsProcessingParameterFile(
                self.INPUT_FILE,
                what + " file, instead of a layer (ENVI .hdr, NPY, MAT, HDF5/NetCDF, GeoTIFF, mission products)",
                optional=True,
                fileFilter=INPUT_FILE_FILTER,
            )
        )
        self.addParameter(QgsProcessingParameterString(self.VAR, "Variable (MAT, HDF5, NetCDF)", optional=True))
        self.addParameter(
            QgsProcessingParameterBoolean(self.ORTHO, "EMIT: georeferenced grid (-ortho)", defaultValue=False, optional=True)
        )

    def add_output_parameters(self, what):
        self.addParameter(
            QgsProcessingParameterString(self.SIZE, "Target size HEIGHTxWIDTH (instead of the factor)", optional=True)
        )
        self.addParameter(
            QgsProcessingParameterEnum(self.TYPE, "Output data type", options=list(TYPES), defaultValue=0, optional=True)
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                self.COMPRESS, "Compression (GeoTIFF)", options=list(COMPRESSIONS), defaultValue=0, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterString(self.OPTIONS, "Creation options (GeoTIFF, KEY=VALUE|KEY=VALUE, as -co)", optional=True)
        )
        self.addParameter(QgsProcessingParameterRasterDestination(self.OUTPUT, what))

    def checkParameterValues(self, parameters, context):  # noqa: N802
        ok, msg = super().checkParameterValues(parameters, context)
        if not ok:
            return ok, msg
        # The dialog fills INPUT with the current layer: a file chosen
        # beside it is what the user means, so INPUT_FILE wins.
        has_layer = parameters.get(self.INPUT) not in (None, "")
        has_file = bool(self.parameterAsFile(parameters, self.INPUT_FILE, context))
        if not (has_layer or has_file):
            return False, "give an input: INPUT (a raster layer) or INPUT_FILE (any file omnihsr reads)"
        return True, msg

    def input_args(self, parameters, context):
        """Returns the flags naming the input: -in FILE (INPUT_FILE if
        given, else INPUT's file), -var and -ortho."""
        path = self.parameterAsFile(parameters, self.INPUT_FILE, context)
        var = ""
        if path:
            if not os.path.isfile(path):
                raise QgsProcessingException("INPUT_FILE: %s is not a file" % path)
        else:
            layer = self.parameterAsRasterLayer(parameters, self.INPUT, context)
            if layer is None:
                raise QgsProcessingException(self.invalidRasterError(parameters, self.INPUT))
            path, var = layer_file(layer, self.INPUT)
        var = self.parameterAsString(parameters, self.VAR, context).strip() or var
        # -in takes the next argument whole, so a name starting with "-"
        # is never read as a flag.
        args = ["-in", path]
        if var:
            args += ["-var", var]
        if self.parameterAsBoolean(parameters, self.ORTHO, context):
            args.append("-ortho")
        return args

    def output_args(self, parameters, context):
        """Returns (out, flags): the output path and -out, -size, -type,
        -co; an output QGIS cannot load as the result is refused."""
        out = self.parameterAsOutputLayer(parameters, self.OUTPUT, context)
        problem = output_problem(out)
        if problem:
            raise QgsProcessingException(problem)
        args = ["-out", out]
        size = size_flag(self.parameterAsString(parameters, self.SIZE, context))
        if size:
            args += ["-size", size]
        typ = TYPES[self.parameterAsEnum(parameters, self.TYPE, context)]
        if typ != TYPES[0]:
            args += ["-type", typ]
        comp = COMPRESSIONS[self.parameterAsEnum(parameters, self.COMPRESS, context)]
        opts = creation_options(self.parameterAsString(parameters, self.OPTIONS, context))
        if comp != COMPRESSIONS[0]:
            opts = ["COMPRESS=" + comp] + [o for o in opts if not o.upper().startswith("COMPRESS=")]
        for o in opts:
            args += ["-co", o]
        return out, args


class UpscaleAlgorithm(_RasterAlgorithm):
    SCALE, METHOD, NOISE, CLAMP, ADAPT = "SCALE", "METHOD", "NOISE", "CLAMP", "ADAPT"

    def name(self):
        return "upscale"

    def displayName(self):  # noqa: N802
        return "Super-resolve raster"

    def shortHelpString(self):  # noqa: N802
        return (
            "Super-resolves every band of a raster by the factor SCALE (output side round(SCALE x side), "
            "any SCALE > 0), or to SIZE (HEIGHTxWIDTH pixels, per-axis factors), with the OmniHSR model, "
            "which takes any band count and needs no wavelengths, or bicubic interpolation. The output keeps "
            "the input's CRS and footprint (pixel size divided by the factor), band metadata and no-data value.\n\n"
            "Input: a raster layer (INPUT), or any file omnihsr reads (INPUT_FILE): ENVI .hdr, NPY, MAT, "
            "HDF5/NetCDF (VAR names the variable), GeoTIFF and the EMIT, PRISMA, EnMAP, DESIS, NEON and "
            "AVIRIS-NG products (ORTHO: EMIT on its georeferenced grid).\n"
            "METHOD: omnihsr (default), omnihsr-bp (one back-projection step; better on clean or blurred "
            "inputs), omnihsr-se (the mean over 8 flips and rotations, 8x the time) or bicubic.\n"
            "NOISE: auto (estimated band by band; a noisy input is rendered by the noise-aware model), "
            "clean, or the noise standard deviation in the input's units.\n"
            "ADAPT: per-scene adaptation, 0 (default, off), auto, or a step count: a copy of the model is "
            "fine-tuned on the input itself and used when a check one scale down says it pays (seconds to a "
            "minute of CPU; the model methods only).\n"
            "CLAMP: none (default, the values as rendered), input (every band within its input range, "
            "no-data excluded) or type (an integer TYPE's range).\n"
            "Output: GeoTIFF (.tif) or ENVI (.img); TYPE float32 (default), the input's (same) or an integer "
            "type (clamped as gdal_translate -ot does); COMPRESS and OPTIONS (KEY=VALUE|..., e.g. "
            "PREDICTOR=3|TILED=YES) for a GeoTIFF, as GDAL's creation options.\n\n"
            "Runs `omnihsr upscale`; see `omnihsr help upscale`."
        )

    def initAlgorithm(self, config=None):  # noqa: N802
        self.add_input_parameters("Input")
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
        self.addParameter(
            QgsProcessingParameterString(
                self.ADAPT, "Per-scene adaptation (0 off, auto, or a step count)", defaultValue="0", optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(self.CLAMP, "Clamp values", options=list(CLAMPS), defaultValue=0, optional=True)
        )
        self.add_output_parameters("Super-resolved raster")

    def checkParameterValues(self, parameters, context):  # noqa: N802
        ok, msg = super().checkParameterValues(parameters, context)
        if ok:
            problem = noise_problem(self.parameterAsString(parameters, self.NOISE, context))
            if problem:
                return False, problem
        return ok, msg

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        args = ["upscale"] + self.input_args(parameters, context)
        method = METHODS[self.parameterAsEnum(parameters, self.METHOD, context)]
        noise = self.parameterAsString(parameters, self.NOISE, context).strip() or "auto"
        problem = noise_problem(noise)
        if problem:
            raise QgsProcessingException(problem)
        out, out_args = self.output_args(parameters, context)
        args += out_args
        if "-size" not in out_args:
            args += ["-scale", num(self.parameterAsDouble(parameters, self.SCALE, context))]
        args += ["-method", method, "-noise", noise]
        adapt = adapt_flag(self.parameterAsString(parameters, self.ADAPT, context))
        if adapt:
            args += ["-adapt", adapt]
        clamp = CLAMPS[self.parameterAsEnum(parameters, self.CLAMP, context)]
        if clamp != CLAMPS[0]:
            args += ["-clamp", clamp]
        args.append("--")
        run_cli(args, feedback, [out])
        return {self.OUTPUT: out}


class DegradeAlgorithm(_RasterAlgorithm):
    SCALE, BLUR, BAND_BLUR, NOISE, SEED, AREA = "SCALE", "BLUR", "BAND_BLUR", "NOISE", "SEED", "AREA"

    def name(self):
        return "degrade"

    def displayName(self):  # noqa: N802
        return "Degrade raster"

    def shortHelpString(self):  # noqa: N802
        return (
            "Makes a low-resolution raster, identically for every band, in this order: BLUR, a Gaussian "
            "blur of sigma BLUR x SCALE high-resolution pixels; BAND_BLUR, band b of B blurred by "
            "BAND_BLUR x SCALE x (b-1)/(B-1); downsampling to round(side / SCALE), or to SIZE "
            "(HEIGHTxWIDTH pixels), antialiased bicubic (PyTorch F.interpolate antialias=True) or with AREA "
            "the block mean; NOISE, Gaussian noise of that standard deviation seeded by SEED. The "
            "georeferencing is scaled to the new grid and no-data is kept.\n\n"
            "Input: a raster layer (INPUT), or any file omnihsr reads (INPUT_FILE), as for Super-resolve "
            "raster. Output: GeoTIFF (.tif) or ENVI (.img), TYPE float32 (default), the input's (same) or an "
            "integer type (clamped), COMPRESS and OPTIONS for a GeoTIFF.\n\n"
            "Runs `omnihsr degrade`; see `omnihsr help degrade`."
        )

    def initAlgorithm(self, config=None):  # noqa: N802
        double = QgsProcessingParameterNumber.Double
        self.add_input_parameters("Input (high-resolution)")
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
        self.add_output_parameters("Degraded raster")

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        args = ["degrade"] + self.input_args(parameters, context)
        out, out_args = self.output_args(parameters, context)
        args += out_args + ["-scale", num(self.parameterAsDouble(parameters, self.SCALE, context))]
        for flag, key in (("-blur", self.BLUR), ("-band-blur", self.BAND_BLUR), ("-noise", self.NOISE)):
            v = self.parameterAsDouble(parameters, key, context)
            if v:
                args += [flag, num(v)]
        seed = self.parameterAsInt(parameters, self.SEED, context)
        if seed:
            args += ["-seed", str(seed)]
        if self.parameterAsBoolean(parameters, self.AREA, context):
            args.append("-area")
        run_cli(args + ["--"], feedback, [out])
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
        # "--" before the path: a file named "-x.hdr" is not read as a flag.
        text = run_cli(args + ["--", path], feedback)
        results = {self.INFO: text}
        out = self.parameterAsFileOutput(parameters, self.OUTPUT, context)
        if out:
            with open(out, "w", encoding="utf-8") as f:
                f.write(info_html(path, text))
            results[self.OUTPUT] = out
        return results
