#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine and runs Partie (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/env.sh
cargo build --release -p partie --features custom-protocol
exec "$CARGO_TARGET_DIR/release/partie-app" "$@"
