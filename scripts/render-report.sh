#!/usr/bin/env bash
# Renders an HTML report with headless Chromium to a PNG, to see it as a
# researcher's browser shows it (tables, inline SVG plots).
#
#   scripts/render-report.sh results/report.html report.png [WIDTH,HEIGHT]
#
# Installs Debian's chromium if it is missing (apt-get, as root). The page
# loads nothing from elsewhere; the flags keep Chromium off the network
# too. Not run by CI.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 REPORT.html OUT.png [WIDTH,HEIGHT]" >&2
    exit 2
fi
report=$1
out=$2
size=${3:-1400,2000}
if [ ! -f "$report" ]; then
    echo "$0: no file $report" >&2
    exit 2
fi

# shellcheck source=scripts/chromium.sh
. "$(dirname "$0")/chromium.sh"

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Chromium resolves the screenshot path against its own working directory.
case $out in
    /*) ;;
    *) out=$PWD/$out ;;
esac
url="file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"

"$browser" "${chromium_flags[@]}" --user-data-dir="$profile" \
    --hide-scrollbars --window-size="$size" --screenshot="$out" "$url" 2>"$profile/stderr" || {
    cat "$profile/stderr" >&2
    exit 1
}
if [ ! -s "$out" ]; then
    cat "$profile/stderr" >&2
    echo "$0: chromium wrote no screenshot" >&2
    exit 1
fi
echo "wrote $out"
