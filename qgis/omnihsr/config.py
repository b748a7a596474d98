"""The provider's setting: the path of the omnihsr executable."""

try:  # the Processing plugin's settings (absent only in a bare PyQGIS script)
    from processing.core.ProcessingConfig import ProcessingConfig, Setting
except ImportError:  # pragma: no cover
    ProcessingConfig = Setting = None

# BIN_SETTING is the Processing setting holding the omnihsr executable's
# path (Settings > Options > Processing > Providers > OmniHSR).
BIN_SETTING = "OMNIHSR_EXECUTABLE"


def binary_setting():
    """Returns the executable path the user set, or ""."""
    if ProcessingConfig is None:
        return ""
    return ProcessingConfig.getSetting(BIN_SETTING) or ""
