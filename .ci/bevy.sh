#!/usr/bin/env bash
# bevy_platnav's example under Xvfb, as a smoke test: it opens its window,
# renders with Mesa's software Vulkan (lavapipe), builds its four maps in the
# background, opens and closes the door every 60 frames and quits after 300
# frames. The enemies must have started links, and every door edit must have
# reached the maps.
#
# winit dlopens libX11, libXcursor, libXrandr, libXi and libxkbcommon-x11;
# wgpu dlopens libvulkan, which finds lavapipe (mesa-vulkan-drivers). No -dev
# packages are needed.
set -euo pipefail
cd "$(dirname "$0")/../crates/bevy_platnav"

if ! command -v Xvfb >/dev/null || [ ! -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends \
        xvfb xauth libx11-6 libx11-xcb1 libxcursor1 libxrandr2 libxi6 \
        libxkbcommon-x11-0 libvulkan1 mesa-vulkan-drivers >/dev/null
fi

cargo build --example platformer --features example

display=":$((90 + RANDOM % 9))"
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1

out=$(mktemp)
# Lavapipe is the only Vulkan device: wgpu must accept a CPU adapter.
if ! DISPLAY="$display" WGPU_BACKEND=vulkan timeout 300 \
    cargo run --example platformer --features example -- --frames 300 --door-every 60 >"$out" 2>&1; then
    cat "$out"
    echo "bevy smoke: the example failed" >&2
    exit 1
fi
summary=$(grep '^frames 300:' "$out" || true)
edits=$(grep -c '^map ready: .* map edit:' "$out" || true)
links=$(grep -c '^link started:' "$out" || true)
echo "bevy smoke: $summary ($edits map edits, $links links started)"
# Four profiles, a door edit at frames 60, 120 and 180 at least.
if [ -z "$summary" ] || [ "$edits" -lt 12 ] || [ "$links" -lt 1 ]; then
    cat "$out"
    echo "bevy smoke: expected 300 frames, 12 map edits and a link started" >&2
    exit 1
fi
