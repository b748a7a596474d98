"""The plugin's zip as the QGIS plugin repository's upload validator sees
it (plugins.qgis.org, qgis-django plugins/validator.py): every check that
needs no network (the repository also fetches the homepage, tracker and
repository links, which CI cannot)."""

import configparser
import io
import os
import re
import subprocess
import zipfile

import pytest

from conftest import QGIS_DIR, REPO

# The metadata fields the repository refuses an upload without.
REQUIRED = ("name", "description", "version", "qgisMinimumVersion", "author", "email", "about", "tracker",
            "repository")


@pytest.fixture(scope="module")
def plugin_zip():
    subprocess.run(["sh", os.path.join(QGIS_DIR, "build.sh")], check=True, capture_output=True)
    with open(os.path.join(QGIS_DIR, "omnihsr", "metadata.txt"), encoding="utf-8") as f:
        version = re.search(r"^version=(.+)$", f.read(), re.M).group(1)
    return os.path.join(QGIS_DIR, "dist", "omnihsr-qgis-%s.zip" % version)


def test_zip_passes_the_repository_checks(plugin_zip):
    assert os.path.getsize(plugin_zip) <= 25_000_000
    z = zipfile.ZipFile(plugin_zip)
    assert z.testzip() is None
    names = z.namelist()
    for n in names:
        assert ".." not in n and not n.startswith("/") and "\\" not in n and not re.match(r"^[A-Za-z]:", n), n
        assert ".pyc" not in n, n
        assert not {"__MACOSX", ".git", "__pycache__"} & set(n.split("/")), n
    assert {n.split("/")[0] for n in names} == {"omnihsr"}
    package = names[0][: names[0].index("/")]
    assert package.isidentifier() and re.match(r"^[A-Za-z][A-Za-z0-9-_]+$", package)
    assert package + "/__init__.py" in names
    parser = configparser.ConfigParser()
    parser.optionxform = str  # the validator's: field names are case-sensitive
    parser.read_file(io.StringIO(z.read(package + "/metadata.txt").decode("utf-8")))
    meta = dict(parser.items("general"))
    for field in REQUIRED:
        assert meta.get(field, "").strip(), "metadata.txt lacks %s" % field
    for field, placeholder in (("tracker", "http://bugs"), ("repository", "http://repo"), ("homepage", "http://homepage")):
        assert meta[field].startswith("https://") and meta[field] != placeholder
    assert re.match(r"^[^/]+$", meta["author"])
    assert tuple(int(x) for x in meta["qgisMinimumVersion"].split(".")) >= (3, 22)
    assert meta["hasProcessingProvider"].lower() in ("yes", "true")
    assert meta["license"] == "Apache-2.0"
    assert meta["icon"] and package + "/" + meta["icon"] in names
    assert package + "/LICENSE" in names
    with open(os.path.join(REPO, "LICENSE"), "rb") as f:
        assert z.read(package + "/LICENSE") == f.read()
