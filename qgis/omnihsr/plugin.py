"""The plugin object QGIS loads: it registers the Processing provider."""

from qgis.core import QgsApplication

from .provider import OmniHSRProvider


class OmniHSRPlugin:
    """Adds the OmniHSR provider to the Processing registry (no GUI of its own)."""

    def __init__(self, iface):
        self.iface = iface
        self.provider = None

    def initProcessing(self):  # noqa: N802 (QGIS's name)
        """Registers the provider; qgis_process calls this without initGui."""
        if self.provider is None:
            self.provider = OmniHSRProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self):  # noqa: N802
        self.initProcessing()

    def unload(self):
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
