"""Build of the C extension blokus._core from every C file under csrc/ (its layers: core, engine,
puzzles, python).

Incremental and parallel (CONTRIBUTING.md): `python setup.py build_ext --inplace` compiles, on every
core, only the C files whose object is stale, then links."""
import glob
import os
import platform
from concurrent.futures import ThreadPoolExecutor

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# BLOKUS_SANITIZE=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer
# (the CI's second build); BLOKUS_CFLAGS adds any other flags.
flags = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]
# Move generation counts bits all the time; every x86-64 CPU since 2008 has POPCNT. Set
# BLOKUS_PORTABLE=1 to build for older ones.
if platform.machine().lower() in ("x86_64", "amd64") and not os.environ.get("BLOKUS_PORTABLE"):
    flags.append("-mpopcnt")
link = []
if os.environ.get("BLOKUS_SANITIZE"):
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
    # -UNDEBUG: Python's own flags define NDEBUG; the engine's invariants are asserted here.
    flags = [f for f in flags if f != "-O3"] + ["-O1", "-g", "-UNDEBUG"] + sanitize
    link += sanitize
flags += os.environ.get("BLOKUS_CFLAGS", "").split()



def _stale(obj: str, command: list[str]) -> bool:
    """Whether obj must be compiled again: it is missing, was compiled by another command (other
    flags), or is older than its source or a header it includes (the compiler's -MMD list)."""
    try:
        with open(obj + ".cmd") as f:
            if f.read() != "\n".join(command):
                return True
        with open(obj + ".d") as f:  # "obj: src hdr ...", lines continued with a backslash
            inputs = f.read().replace("\\\n", " ").split(":", 1)[1].split()
        built = os.path.getmtime(obj)
        return any(os.path.getmtime(path) > built for path in inputs)
    except (OSError, IndexError):
        return True


class IncrementalBuildExt(build_ext):
    """build_ext that compiles stale objects only (see _stale), in parallel: -j N threads, all
    cores by default. distutils itself recompiles every file of an extension, one after another."""

    def build_extension(self, ext):
        if self.force or self.compiler.compiler_type != "unix":  # gcc and clang: -MMD writes the header list
            return super().build_extension(ext)
        self.compiler.compile = self._compile_stale
        self.compiler.force = False  # links only when an object is newer than the module
        # Each object's staleness decides, not distutils' dates of the sources against the module
        # (which would miss changed flags, such as BLOKUS_SANITIZE=1 in the same checkout).
        self.force = True
        try:
            super().build_extension(ext)
        finally:
            self.force = False

    def _compile_stale(self, sources, output_dir=None, macros=None, include_dirs=None, debug=False,
                       extra_preargs=None, extra_postargs=None, depends=None):
        cc = self.compiler
        _, objects, extra, pp_opts, build = cc._setup_compile(output_dir, macros, include_dirs, sources, depends,
                                                              extra_postargs)
        cc_args = cc._get_cc_args(pp_opts, debug, extra_preargs)

        def compile_one(obj):
            src, ext = build[obj]
            command = cc.compiler_so + cc_args + [src] + extra
            if _stale(obj, command):
                if os.path.exists(obj + ".cmd"):  # until this compile succeeds
                    os.remove(obj + ".cmd")
                cc._compile(obj, src, ext, cc_args, extra + ["-MMD", "-MF", obj + ".d"], pp_opts)
                with open(obj + ".cmd", "w") as f:
                    f.write("\n".join(command))

        workers = self.parallel if isinstance(self.parallel, int) and self.parallel > 0 else os.cpu_count() or 1
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(compile_one, objects))  # list(): a compile error is raised here
        return objects


setup(
    cmdclass={"build_ext": IncrementalBuildExt},
    ext_modules=[
        Extension(
            "blokus._core",
            sources=sorted(glob.glob("csrc/**/*.c", recursive=True)),
            depends=sorted(glob.glob("csrc/**/*.h", recursive=True)),
            include_dirs=["csrc", numpy.get_include()],
            extra_compile_args=flags,
            extra_link_args=link,
            libraries=["m"],  # engine/mcts.c: sqrt, log, tanh; engine/prior.c: sqrtf, exp
        )
    ]
)
