# SPDX-License-Identifier: BSD-3-Clause
"""setup.py - the gpulz wheel: the project's Autotools build, packaged.

setuptools is only the driver: build_py configures and builds the C library,
the HDF5 plugin and the gpulz command with the project's own configure and
make (the targets the wheel carries, nothing else), then copies them into the
package beside the Python modules:

    gpulz/plugins/libH5Zgpulz.so   the HDF5 plugin (PLUGIN_PATH: this folder alone)
    gpulz/_libs/libgpulz.so.1      the codec library, for ctypes
    gpulz/_bin/gpulz               the command (the console script runs it)
    gpulz/include/                 gpulz.h and gpulz_cd.h (slot numbers are read from them)
    gpulz/data/                    the gpulz 0.1 fixture file, for `python -m gpulz.test`

Environment (python/build-wheel.sh sets these from its options):
    GPULZ_CUDA        no (default): CPU-only, the wheel "gpulz"; yes or a CUDA folder:
                      the CUDA build, the wheel "gpulz-cu<major>" (CUDA runtime static)
    GPULZ_BUILD_DIR   an already configured and built tree to take the files from
                      (its configure options decide CPU or CUDA); default: configure
                      one under setuptools' build folder
    GPULZ_MAKE_JOBS   make -j (default: the number of cores)
    GPULZ_SOURCE_DIR  the gpulz source tree (default: the parent of this folder)

The plugin links no libhdf5 (it binds to the HDF5 that loads it), so one
wheel serves every Python 3: the tag is py3-none-<platform>, as hdf5plugin's.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
# the gpulz source tree: python/'s parent, or GPULZ_SOURCE_DIR where
# build-wheel.sh builds from a copy of python/ (the source tree stays clean)
TOP = os.path.abspath(os.environ.get("GPULZ_SOURCE_DIR") or os.path.dirname(HERE))


def configure_ac_version():
    with open(os.path.join(TOP, "configure.ac")) as f:
        m = re.search(r"AC_INIT\(\[gpulz\],\s*\[([^\]]+)\]", f.read())
    if not m:
        sys.exit("setup.py: no version in configure.ac")
    return m.group(1)


def cuda_choice():
    """(configure's --with-cuda value, the distribution name)."""
    cuda = os.environ.get("GPULZ_CUDA", "no").strip() or "no"
    if os.environ.get("GPULZ_BUILD_DIR"):
        cfg = os.path.join(os.environ["GPULZ_BUILD_DIR"], "config.h")
        if os.path.isfile(cfg):
            with open(cfg) as f:
                cuda = "yes" if re.search(r"^#define GPULZ_HAVE_CUDA\b", f.read(), re.M) else "no"
    if cuda == "no":
        return cuda, "gpulz"
    home = cuda if cuda != "yes" else os.environ.get("CUDA_HOME", "/usr/local/cuda")
    nvcc = os.path.join(home, "bin", "nvcc")
    if not os.path.exists(nvcc):
        nvcc = shutil.which("nvcc") or nvcc
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True).stdout
        major = re.search(r"release (\d+)\.", out).group(1)
    except (OSError, subprocess.CalledProcessError, AttributeError):
        sys.exit("setup.py: GPULZ_CUDA=%s but no working nvcc (%s)" % (cuda, nvcc))
    return cuda, "gpulz-cu" + major


CUDA, NAME = cuda_choice()


def run(cmd, cwd):
    print("setup.py: (cd %s && %s)" % (cwd, " ".join(cmd)), flush=True)
    subprocess.run(cmd, cwd=cwd, check=True)


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


class BuildPy(build_py):
    """build_py, after the Autotools build of the native files."""

    def run(self):
        super().run()
        bdir = os.environ.get("GPULZ_BUILD_DIR")
        if bdir:
            bdir = os.path.abspath(bdir)
            if not os.path.isfile(os.path.join(bdir, "config.status")):
                sys.exit("setup.py: GPULZ_BUILD_DIR=%s is not a configured build tree" % bdir)
        else:
            bdir = os.path.abspath(os.path.join(self.get_finalized_command("build").build_temp,
                                                "autotools-" + NAME))
            self.configure(bdir)
        jobs = os.environ.get("GPULZ_MAKE_JOBS") or str(os.cpu_count() or 1)
        targets = ["libgpulz.la", "libH5Zgpulz.la", "gpulz"]
        # a registered filter ID: the second module answers for the provisional one
        with open(os.path.join(bdir, "plugin", "gpulz_cd.h")) as f:
            ids = dict(re.findall(r"^#define (H5Z_FILTER_GPULZ\w*) (\d+)", f.read(), re.M))
        provisional = ids["H5Z_FILTER_GPULZ"] != ids["H5Z_FILTER_GPULZ_PROVISIONAL"]
        if provisional:
            targets.append("libH5Zgpulz_provisional.la")
        run(["make", "-j" + jobs] + targets, bdir)
        self.install_native(bdir, provisional)

    def configure(self, bdir):
        if not os.path.exists(os.path.join(TOP, "configure")):
            run(["autoreconf", "-fi"], TOP)
        os.makedirs(bdir, exist_ok=True)
        if not os.path.exists(os.path.join(bdir, "config.status")):
            run([os.path.join(TOP, "configure"), "--with-cuda=" + CUDA], bdir)

    def install_native(self, bdir, provisional):
        pkg = os.path.join(self.build_lib, "gpulz")
        for old in ("_libs", "plugins", "_bin", "include", "data"):  # an earlier build's
            shutil.rmtree(os.path.join(pkg, old), ignore_errors=True)
        libs = os.path.join(bdir, ".libs")
        files = {
            os.path.realpath(os.path.join(libs, "libgpulz.so")): "_libs/libgpulz.so.1",
            os.path.realpath(os.path.join(libs, "libH5Zgpulz.so")): "plugins/libH5Zgpulz.so",
            os.path.join(bdir, "gpulz"): "_bin/gpulz",
            os.path.join(TOP, "kernels", "gpulz.h"): "include/gpulz.h",
            os.path.join(bdir, "plugin", "gpulz_cd.h"): "include/gpulz_cd.h",
            os.path.join(TOP, "h5tests", "expected", "gpulz-0.1-fixture.h5"):
                "data/gpulz-0.1-fixture.h5",
            os.path.join(TOP, "LICENSE"): "LICENSE",
        }
        if provisional:
            files[os.path.realpath(os.path.join(libs, "libH5Zgpulz_provisional.so"))] = \
                "plugins/libH5Zgpulz_provisional.so"
        if not is_elf(os.path.join(bdir, "gpulz")):
            sys.exit("setup.py: %s/gpulz is not a program (a libtool wrapper?)" % bdir)
        strip = shutil.which("strip")
        for src, rel in files.items():
            dst = os.path.join(pkg, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            if strip and is_elf(dst):
                subprocess.run([strip, "--strip-unneeded", dst], check=True)
        with open(os.path.join(bdir, "config.h")) as f:
            cuda_built = bool(re.search(r"^#define GPULZ_HAVE_CUDA\b", f.read(), re.M))
        with open(os.path.join(pkg, "_build_info.py"), "w") as f:
            f.write("# SPDX-License-Identifier: BSD-3-Clause\n"
                    "# written by setup.py when the wheel was built\n"
                    "DISTRIBUTION = %r\nCUDA_BUILT = %r\n" % (NAME, cuda_built))


class BinaryDistribution(Distribution):
    """Native files inside: installed to platlib, never purelib."""

    def has_ext_modules(self):
        return True


class BdistWheel(bdist_wheel):
    """A platform wheel for every Python 3: py3-none-<platform>."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        return ("py3", "none") + tuple(super().get_tag()[2:])


with open(os.path.join(HERE, "README.md")) as f:
    long_description = f.read()

setup(
    name=NAME,
    version=configure_ac_version(),
    description="gpulz: lossless multi-byte LZSS + rANS compression for HDF5, numpy and Zarr "
                "(HDF5 filter plugin, codec library and command)",
    long_description=long_description,
    long_description_content_type="text/markdown",
    url="https://github.com/gpulz/gpulz",
    license="BSD-3-Clause",
    packages=["gpulz"],
    python_requires=">=3.8",
    install_requires=["numpy"],
    extras_require={"h5py": ["h5py>=3"], "numcodecs": ["numcodecs"], "zarr": ["zarr>=3"]},
    entry_points={
        "console_scripts": ["gpulz = gpulz._cli:main"],
        "numcodecs.codecs": ["gpulz = gpulz.numcodecs_codec:GpulzCodec"],
        "zarr.codecs": ["gpulz = gpulz.zarr_codec:GpulzZarrCodec"],
    },
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel},
    distclass=BinaryDistribution,
    zip_safe=False,
)
