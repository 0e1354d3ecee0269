#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine and runs every test: formatting, lints, the Rust tests
# (rules, scenarios, store, properties, IPC), the `partie check` contract on the project's and
# the shared scenarios, and the end-to-end tests of the real app under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --tests
. scripts/env.sh
step() { printf '\n=== %s\n' "$*"; }

step "cargo fmt"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test"
cargo test --workspace

step "partie check: the project's scenarios"
cargo run -q -p partie-core --bin partie -- check tests/scenarios

# The shared examples of the games this build implements (the other games join with their issue).
# Not beside the checkout (a clone on its own): said where it shows, not passed over in silence.
if [ -d ../shared/scenarios ]; then
  step "partie check: the shared example scenarios"
  cargo run -q -p partie-core --bin partie -- check ../shared/scenarios
else
  echo "WARNING: ../shared/scenarios is not beside the checkout: the shared match scenarios were NOT run" >&2
fi
if [ -d ../shared/tournament-scenarios ]; then
  step "partie check: the shared example tournaments"
  cargo run -q -p partie-core --bin partie -- check ../shared/tournament-scenarios
else
  echo "WARNING: ../shared/tournament-scenarios is not beside the checkout: the shared tournament scenarios were NOT run" >&2
fi

step "UI strings (node --test)"
node --test tests/ui/

step "UI modules parsed by the window's own engine (JavaScriptCore)"
cc tests/ui/jsc-syntax.c -o "$CARGO_TARGET_DIR/jsc-syntax" $(pkg-config --cflags --libs javascriptcoregtk-4.1)
"$CARGO_TARGET_DIR/jsc-syntax" ui/js/*.js ui/js/screens/*.js

step "end-to-end (screenshots in tests/e2e/screenshots/)"
cargo build -p partie
python3 -m pytest tests/e2e -q
