#!/usr/bin/env bash
# The Python bindings (benches/python), end to end on a fresh virtual
# environment: the crate's formatting and lints, the wheel built with
# maturin and installed with pip beside Unified Planning and Fast Downward
# (up-fast-downward: the factory must pick searchlab over it), the type
# stub checked against the module (mypy's stubtest), pytest on
# benches/python/tests (plans equal to the `searchlab` CLI's, the UP
# engine, bad input, Python heuristics, suites, docstrings), and the
# README's Python examples run as written. Prints the wheel's build time.
#
#   scripts/python-check.sh
#
# The venv and the wheel go to target/python-check/ (made anew each run);
# the build shares the workspace's target directory (CARGO_TARGET_DIR, or
# target/), so crates it has built already are not built again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${CARGO_TARGET_DIR:-$root/target}
work="$root/target/python-check"
manifest=benches/python/Cargo.toml

# Pinned for reproducible checks.
maturin_version=1.16.0
up_version=1.3.0
up_fast_downward_version=1.0.0
mypy_version=2.4.1
pytest_version=9.2.0
pandas_version=3.1.1

echo "== the Python crate's formatting and lints"
cargo fmt --manifest-path "$manifest" -- --check
CARGO_TARGET_DIR="$target" cargo clippy --manifest-path "$manifest" --locked --all-targets -- -D warnings

echo "== a fresh virtual environment in $work/venv"
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"
python="$work/venv/bin/python"
"$python" -m pip install --quiet --disable-pip-version-check \
    "maturin==$maturin_version" "unified-planning==$up_version" \
    "up-fast-downward==$up_fast_downward_version" "mypy==$mypy_version" \
    "pytest==$pytest_version" "pandas==$pandas_version"

echo "== the wheel (maturin build --release)"
began=$(date +%s%N)
CARGO_TARGET_DIR="$target" "$work/venv/bin/maturin" build --release --locked \
    -m "$manifest" --out "$work/wheels" --interpreter "$python"
elapsed_ms=$((($(date +%s%N) - began) / 1000000))
wheel=$(ls "$work"/wheels/searchlab-*.whl)
printf 'wheel built in %d.%d s: %s (%s)\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)) \
    "${wheel#"$root"/}" "$(du -h "$wheel" | cut -f1)"
"$python" -m pip install --quiet --disable-pip-version-check "$wheel"

echo "== the type stub against the module (stubtest)"
# From another folder, so that the module is the installed wheel's. The
# stub marks the native classes @final (they cannot be subclassed) and
# leaves PEP 800's @disjoint_base out (it would need typing_extensions).
(cd "$work" && "$python" -m mypy.stubtest searchlab._searchlab --ignore-disjoint-bases)

echo "== the searchlab CLI the tests compare with"
CARGO_TARGET_DIR="$target" cargo build --quiet -p searchlab
export SEARCHLAB_CLI="$target/debug/searchlab"

echo "== pytest"
# From another folder, so that `import searchlab` is the installed wheel.
(cd "$work" && "$python" -m pytest -p no:cacheprovider -q "$root/benches/python/tests")

echo "== the README's Python examples, as written"
"$python" - "$root/README.md" "$work/readme" <<'EOF'
import pathlib
import re
import sys

readme, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
blocks = re.findall(r"^```python\n(.*?)^```", readme.read_text(), re.S | re.M)
assert blocks, "README.md has no ```python block"
out.mkdir(parents=True, exist_ok=True)
for i, block in enumerate(blocks, 1):
    (out / f"example{i}.py").write_text(block)
print(f"{len(blocks)} examples")
EOF
for example in "$work"/readme/example*.py; do
    echo "-- ${example#"$root"/}"
    "$python" "$example"
done
echo "python check passed"
