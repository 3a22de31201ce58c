#!/usr/bin/env bash
# Checks `searchlab plan --trace html` in headless Chromium: the page's
# script draws every node of the trace, and the open list before the first
# expansion (`#step=0`) holds the start alone, after the last one what the
# search left open. Writes a screenshot beside the page to look at.
#
#   scripts/trace-check.sh [PROBLEM.toml] [OUT_DIR]
#
# Builds the debug `searchlab`; installs Debian's chromium if it is
# missing (apt-get, as root). Not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
problem=${1:-problems/hungry_agent.toml}
out=${2:-target/trace-check}
mkdir -p "$out"
cargo build -q -p searchlab
target/debug/searchlab plan "$problem" --trace html --trace-out "$out/trace.html" >/dev/null

# shellcheck source=scripts/chromium.sh
. scripts/chromium.sh
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
url="file://$(cd "$out" && pwd)/trace.html"
dom() {
    "$browser" "${chromium_flags[@]}" --user-data-dir="$profile" --dump-dom "$url#step=$1" 2>"$profile/stderr"
}
dom 0 >"$out/step0.html"
dom 9999 >"$out/last.html"
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
page = open(f"{out}/trace.html").read()
data = json.loads(page.split('id="trace-data">')[1].split("</script>")[0])
nodes = len(data["nodes"])
def check(name, expect_open):
    dom = open(f"{out}/{name}.html").read()
    drawn = re.search(r'data-rendered="(\d+)"', dom)
    assert drawn, f"{name}: the page's script did not run"
    assert int(drawn.group(1)) == nodes, f"{name}: drew {drawn.group(1)} of {nodes} nodes"
    rows = re.search(r'<tbody id="open-body">(.*?)</tbody>', dom, re.S).group(1).count("<tr>")
    assert rows == expect_open, f"{name}: {rows} open nodes, expected {expect_open}"
start_open = 1
last = data["steps"]
born = lambda n: 0 if n["parent"] is None else next(
    (p["exp"] for p in data["nodes"] if p["id"] == n["parent"] and p["exp"] is not None), 10**9)
left_open = sum(1 for n in data["nodes"]
                if born(n) <= last and (n["exp"] is None or n["exp"] > last)
                and not n["dead"] and not n["dominated"])
check("step0", start_open)
check("last", left_open)
print(f"trace page checked: {nodes} nodes drawn, {data['steps']} steps, open list {start_open} then {left_open}")
PY
"$browser" "${chromium_flags[@]}" --user-data-dir="$profile" --hide-scrollbars --window-size=1400,900 --screenshot="$(pwd)/$out/trace.png" "$url" 2>/dev/null
echo "wrote $out/trace.html and $out/trace.png"
