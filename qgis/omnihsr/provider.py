"""The OmniHSR Processing provider: its setting and its algorithms."""

import os

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from .algorithms import OUTPUT_EXTS, DegradeAlgorithm, InfoAlgorithm, UpscaleAlgorithm
from .config import BIN_SETTING, TIMEOUT_SETTING, ProcessingConfig, Setting
from .runner import DEFAULT_TIMEOUT_S

PROVIDER_ID = "omnihsr"


class OmniHSRProvider(QgsProcessingProvider):
    def load(self):
        if ProcessingConfig is not None:
            ProcessingConfig.settingIcons[self.name()] = self.icon()
            ProcessingConfig.addSetting(
                Setting(
                    self.name(),
                    BIN_SETTING,
                    self.tr(
                        "omnihsr executable (empty: $OMNIHSR_BIN, else the omnihsr Python package in QGIS's "
                        "Python, else omnihsr on PATH)"
                    ),
                    "",
                    valuetype=Setting.FILE,
                )
            )
            ProcessingConfig.addSetting(
                Setting(
                    self.name(),
                    TIMEOUT_SETTING,
                    self.tr("Timeout: seconds omnihsr may print nothing before it is stopped as hung (0: none)"),
                    DEFAULT_TIMEOUT_S,
                    valuetype=Setting.INT,
                )
            )
            ProcessingConfig.readSettings()
        self.refreshAlgorithms()
        return True

    def unload(self):
        if ProcessingConfig is not None:
            ProcessingConfig.removeSetting(BIN_SETTING)
            ProcessingConfig.removeSetting(TIMEOUT_SETTING)

    def loadAlgorithms(self):  # noqa: N802 (QGIS's name)
        for alg in (UpscaleAlgorithm(), DegradeAlgorithm(), InfoAlgorithm()):
            self.addAlgorithm(alg)

    def id(self):
        return PROVIDER_ID

    def name(self):
        return "OmniHSR"

    def longName(self):  # noqa: N802
        return "OmniHSR hyperspectral super-resolution"

    def icon(self):
        return QIcon(os.path.join(os.path.dirname(__file__), "icon.svg"))

    def supportedOutputRasterLayerExtensions(self):  # noqa: N802
        # What omnihsr writes and QGIS opens with the georeferencing:
        # GeoTIFF, and ENVI (x.img with its x.hdr).
        return list(OUTPUT_EXTS)

    def defaultRasterFileExtension(self):  # noqa: N802
        return "tif"
