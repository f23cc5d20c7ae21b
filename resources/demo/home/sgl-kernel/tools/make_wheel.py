# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 KernelForge authors
"""Packs the demo build into a wheel, as `pip wheel .` with scikit-build-core would: the python
package and the libraries the build made (sgl_kernel/*.so), with the .dist-info pip installs
from. Standard library only (the demo host has no build backends).

  python3 tools/make_wheel.py BUILD_DIR DIST_DIR

Earlier wheels in DIST_DIR are removed, so it holds the one this build made.
"""
import base64
import hashlib
import os
import sys
import sysconfig
import zipfile

NAME, VERSION = "sgl_kernel", "0.3.16.demo"


def main():
    build, dist = sys.argv[1], sys.argv[2]
    tag = "cp%d%d" % sys.version_info[:2]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    members = []
    for root, _dirs, names in os.walk(os.path.join("python", NAME)):
        for n in sorted(names):
            if n.endswith(".py"):
                path = os.path.join(root, n)
                members.append((os.path.relpath(path, "python"), open(path, "rb").read()))
    libraries = sorted(n for n in os.listdir(build) if n.endswith(".so"))
    if not libraries:
        sys.stderr.write("make_wheel: no library in %s\n" % build)
        return 1
    for n in libraries:
        members.append(("%s/%s" % (NAME, n), open(os.path.join(build, n), "rb").read()))
    info = "%s-%s.dist-info" % (NAME, VERSION)
    members.append((info + "/METADATA", ("Metadata-Version: 2.1\nName: sgl-kernel\nVersion: %s\n" % VERSION).encode()))
    members.append((info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: kernelforge-demo\nRoot-Is-Purelib: false\n"
                                      "Tag: %s-%s-%s\n" % (tag, tag, plat)).encode()))
    record = ""
    for arc, data in members:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (arc, digest, len(data))
    record += info + "/RECORD,,\n"
    members.append((info + "/RECORD", record.encode()))
    os.makedirs(dist, exist_ok=True)
    for old in os.listdir(dist):
        if old.endswith(".whl"):
            os.remove(os.path.join(dist, old))
    wheel = os.path.join(dist, "%s-%s-%s-%s-%s.whl" % (NAME, VERSION, tag, tag, plat))
    with zipfile.ZipFile(wheel + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in members:
            z.writestr(arc, data)
    os.replace(wheel + ".tmp", wheel)
    print("wheel: %s (%d libraries)" % (wheel, len(libraries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
