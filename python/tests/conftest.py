"""Shared helpers of the pytest suite (run by scripts/test; see python/README.md)."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def unique(request):
    """A channel name no other test (or run) uses."""
    return f"py-{request.node.name[:40]}-{os.getpid()}"


def spawn_python(code, *args):
    """Runs `code` in another Python process (stdout piped, line-buffered)."""
    return subprocess.Popen(
        [sys.executable, "-u", "-c", code, *args],
        stdout=subprocess.PIPE,
        text=True,
    )


def expect_line(proc, prefix, limit=200):
    """Reads the child's stdout up to a line starting with `prefix`; returns the rest."""
    for _ in range(limit):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"child exited (code {proc.poll()}) before printing {prefix!r}")
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    raise AssertionError(f"no line starting with {prefix!r}")


def compile_c(src, exe):
    """Compiles `src` (relative to the repository) as the README says a user does:
    cc app.c $(pkg-config --cflags --libs handoff), with PKG_CONFIG_PATH pointing at a
    build's target/<profile>/pkgconfig (scripts/test sets it)."""
    cc = shutil.which("cc")
    if cc is None or shutil.which("pkg-config") is None:
        pytest.fail("the C tests need `cc` and `pkg-config` (apt-get install gcc pkg-config)")
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "handoff"], capture_output=True, text=True
    )
    if flags.returncode != 0:
        pytest.fail(
            "pkg-config does not know handoff: build it (cargo build -p handoff-capi) and "
            "export PKG_CONFIG_PATH=$PWD/target/debug/pkgconfig\n" + flags.stderr
        )
    subprocess.run(
        [cc, "-std=gnu11", "-O1", "-o", str(exe), str(REPO / src), *flags.stdout.split()],
        check=True,
    )
    return exe


@pytest.fixture(scope="session")
def c_roundtrip(tmp_path_factory):
    """crates/handoff-capi/tests/c/roundtrip.c, compiled."""
    exe = tmp_path_factory.mktemp("c") / "roundtrip"
    return compile_c("crates/handoff-capi/tests/c/roundtrip.c", exe)


@pytest.fixture(scope="session")
def c_simulation(tmp_path_factory):
    """examples/c/simulation.c, compiled."""
    exe = tmp_path_factory.mktemp("c") / "simulation"
    return compile_c("examples/c/simulation.c", exe)
