#!/usr/bin/env bash
# Installs what Partie needs on a fresh Debian/Ubuntu machine (as root, or with sudo):
# Tauri's system libraries, Xvfb and WebKitWebDriver for the end-to-end tests, the Python
# test packages and tauri-driver. Safe to run again: it installs only what is missing.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

APT_PACKAGES=(
  build-essential pkg-config curl file
  libwebkit2gtk-4.1-dev libssl-dev librsvg2-dev libayatana-appindicator3-dev libxdo-dev
  xvfb webkit2gtk-driver procps python3 python3-pip
)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: Rust is needed (https://rustup.rs), then run this again" >&2
  exit 1
fi

if [ "${1:-}" = "--tests" ]; then
  if ! command -v node >/dev/null 2>&1; then
    echo "setup: installing nodejs (for the UI's unit tests)"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q nodejs
  fi
  # axe-core: the end-to-end tests check every screen they take a screenshot of against the
  # accessibility rules (WCAG 2.2 A and AA). Pinned in tests/e2e/package-lock.json.
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup: installing npm (for the accessibility checker of the end-to-end tests)"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q npm
  fi
  e2e="$(cd "$(dirname "$0")/../tests/e2e" && pwd)"
  if [ ! -f "$e2e/node_modules/axe-core/axe.min.js" ]; then
    echo "setup: installing axe-core (the end-to-end tests' accessibility checker)"
    npm ci --prefix "$e2e" --no-audit --no-fund
  fi
  if ! python3 -c "import selenium, pytest" >/dev/null 2>&1; then
    echo "setup: installing selenium and pytest"
    python3 -m pip install -q selenium pytest 2>/dev/null \
      || python3 -m pip install -q --break-system-packages selenium pytest
  fi
  # The big-screen page is tested in a real browser; the league server's tests start a
  # throwaway PostgreSQL cluster of their own; the window is also read as a screen reader
  # reads it, over AT-SPI (a D-Bus session, its accessibility bus, the system Python's pyatspi).
  test_missing=()
  for p in chromium chromium-driver postgresql dbus at-spi2-core python3-pyatspi; do
    dpkg -s "$p" >/dev/null 2>&1 || test_missing+=("$p")
  done
  if [ "${#test_missing[@]}" -gt 0 ]; then
    echo "setup: installing ${test_missing[*]}"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${test_missing[@]}"
  fi
  if ! command -v tauri-driver >/dev/null 2>&1; then
    echo "setup: installing tauri-driver (a few minutes, once)"
    cargo install tauri-driver --locked
  fi
fi
