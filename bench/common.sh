# Shared set-up of the side-by-side benchmark scripts (sourced, not run):
# go to the crate root, install the peer tool named in $1 with cargo if it
# is missing, build gamecert, make a scratch directory $dir (removed on
# exit) and define `seconds CMD...`, the wall time of one run of CMD.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v "$1" >/dev/null || cargo install "$1"
cargo build --release --quiet
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
seconds() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }
