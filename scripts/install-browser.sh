#!/usr/bin/env bash
# Install what the real-browser test (tests/test_browser.py) needs: Debian's chromium, its driver and
# CJK fonts for the screenshots. Idempotent: installs only what is missing; safe to call from .ci/run.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || [ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "install ok installed" || need+=(fonts-noto-cjk)

if [ ${#need[@]} -eq 0 ]; then
    echo "install-browser: chromium, chromium-driver and fonts-noto-cjk already installed"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "install-browser: need root (or sudo) to apt-get install ${need[*]}" >&2; exit 1
    fi
fi
echo "install-browser: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
/usr/bin/chromium --version
/usr/bin/chromedriver --version
