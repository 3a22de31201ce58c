# Sourced by the scripts that look at pages in headless Chromium: sets
# `browser` to Chromium's path, installing Debian's package if it is
# missing (apt-get, as root), and `chromium_flags` to keep it off the
# network and out of the user's profile (give it --user-data-dir).
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "installing chromium (Debian package) ..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    browser=$(command -v chromium)
fi
chromium_flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
    --disable-component-update --disable-sync --no-first-run --disable-quic)
