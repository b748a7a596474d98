"""The provider's settings: the path of the omnihsr executable and the
timeout after which a silent omnihsr is taken as hung."""

from .runner import DEFAULT_TIMEOUT_S

try:  # the Processing plugin's settings (absent only in a bare PyQGIS script)
    from processing.core.ProcessingConfig import ProcessingConfig, Setting
except ImportError:  # pragma: no cover
    ProcessingConfig = Setting = None

# BIN_SETTING is the Processing setting holding the omnihsr executable's
# path (Settings > Options > Processing > Providers > OmniHSR).
BIN_SETTING = "OMNIHSR_EXECUTABLE"

# TIMEOUT_SETTING is the Processing setting holding the seconds omnihsr
# may go without printing a line before it is stopped (0: no limit).
TIMEOUT_SETTING = "OMNIHSR_TIMEOUT"


def binary_setting():
    """Returns the executable path the user set, or ""."""
    if ProcessingConfig is None:
        return ""
    return ProcessingConfig.getSetting(BIN_SETTING) or ""


def timeout_setting():
    """Returns the timeout in seconds (0: none); a value that is no number
    >= 0 gives the default."""
    if ProcessingConfig is None:
        return DEFAULT_TIMEOUT_S
    v = ProcessingConfig.getSetting(TIMEOUT_SETTING)
    try:
        t = float(v)
    except (TypeError, ValueError):
        return DEFAULT_TIMEOUT_S
    return t if t >= 0 else DEFAULT_TIMEOUT_S
