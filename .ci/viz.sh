#!/usr/bin/env bash
# Visualizer smoke test under Xvfb (called by .ci/run).
#
# macroquad (audio off) links no system library at build time; miniquad
# dlopens libX11.so.6, libXi.so.6 and libGL.so.1 at run time, and Xvfb needs
# Mesa's software GL (llvmpipe, in libgl1-mesa-dri). No -dev packages and no
# libasound are needed.
set -euo pipefail

if ! command -v Xvfb >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends \
        xvfb xauth libgl1 libgl1-mesa-dri libx11-6 libxi6 >/dev/null
fi

# The smoke test runs target/debug/examples/visualizer: build it with the
# same (test) profile first, then run the test (it starts its own Xvfb).
cargo build -p platnav --profile test --example visualizer --features viz
cargo test -p platnav --features viz --test visualizer_smoke
