"""OmniHSR QGIS plugin: a Processing provider that runs the omnihsr command line."""


def classFactory(iface):  # noqa: N802 (QGIS's name)
    """Returns the plugin; QGIS calls it, with iface None under qgis_process."""
    from .plugin import OmniHSRPlugin

    return OmniHSRPlugin(iface)
