#!/usr/bin/env sh
# A real-client check of searchlab's Downward Lab export: installs Lab
# (`lab` 8.10 from PyPI) in a virtual environment, loads a result set's
# `properties` file with Lab's own report classes (AbsoluteReport) and
# checks that Lab's coverage table equals searchlab's (scripts/lab_check.py
# prints both and exits 1 on any difference). It needs the network for pip,
# so `cargo test` and CI do not run it.
#
#   scripts/lab-check.sh              runs benches/suites/lab-check.toml
#                                     (a few seconds) into target/lab-check/
#   scripts/lab-check.sh DIR          checks what `searchlab bench --out DIR`
#                                     or `searchlab report ... --out DIR` wrote
#   scripts/lab-check.sh RESULTS.jsonl   writes its report and properties
#                                     with `searchlab report` into
#                                     target/lab-check/NAME/, then checks them
#
# The venv is target/lab-check/venv/ (ignored by git, like all of target/),
# or $LAB_VENV. Lab's own HTML report goes to DIR/lab-report.html.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV="${LAB_VENV:-$ROOT/target/lab-check/venv}"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import lab, sys; sys.exit(lab.__version__ != "8.10")' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet lab==8.10
fi

searchlab() {
    (cd "$ROOT" && cargo run --quiet --release -p searchlab -- "$@")
}

TARGET="${1:-}"
if [ -z "$TARGET" ]; then
    DIR="$ROOT/target/lab-check/suite"
    rm -rf "$DIR"
    searchlab bench benches/suites/lab-check.toml --no-progress --out "$DIR"
elif [ -f "$TARGET" ]; then
    RESULTS=$(cd "$(dirname "$TARGET")" && pwd)/$(basename "$TARGET")
    DIR="$ROOT/target/lab-check/$(basename "$(dirname "$RESULTS")")"
    rm -rf "$DIR"
    searchlab report "$RESULTS" --out "$DIR"
else
    DIR="$TARGET"
fi

echo "lab $("$VENV/bin/python" -c 'import lab; print(lab.__version__)'), $("$VENV/bin/python" --version)"
"$VENV/bin/python" "$ROOT/scripts/lab_check.py" "$DIR"
