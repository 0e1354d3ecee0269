# Sourced by the scripts: one persistent build folder outside the checkout, so that a second
# build (or CI on the same machine) reuses the first one's work. Set CARGO_TARGET_DIR to choose.
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  export CARGO_TARGET_DIR="${HOME}/.cache/partie-target"
fi
mkdir -p "$CARGO_TARGET_DIR"
export PATH="$HOME/.cargo/bin:$PATH"
