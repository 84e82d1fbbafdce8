#!/usr/bin/env bash
# The install step of action.yml, run by the runner with bash on Linux, macOS
# and Windows (Git Bash). Inputs arrive as INPUT_* variables. It downloads the
# release's executable for this runner and the release's SHA256SUMS, checks
# the one against the other, puts the executable first on PATH (GITHUB_PATH)
# as `cpk`, and exports CPK_BASE_URL and CPK_TOKEN (GITHUB_ENV) for the steps
# that follow, the token masked first so that no later log line shows it.
set -euo pipefail

# A workflow command's data escaped as @actions/core escapes it (and the runner
# unescapes it): % first, then CR and LF, so that an input holding a line
# break cannot end the command and start another, and a `%0A` in a token is
# masked as written.
escape_data() {
  local s=${1//%/%25}
  s=${s//$'\r'/%0D}
  s=${s//$'\n'/%0A}
  printf '%s' "$s"
}

die() {
  printf '::error title=cpk install::%s\n' "$(escape_data "$1")"
  exit 1
}

version="${INPUT_VERSION:-}"
base="${INPUT_DOWNLOAD_BASE:-https://github.com/cpk-cli/cpk/releases/download}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || die "version \"$version\" is not x.y.z"

# Mask first: nothing below may print the token before the runner knows to hide it.
if [ -n "${INPUT_TOKEN:-}" ]; then
  case "$INPUT_TOKEN" in
    *$'\n'* | *$'\r'*) die "the token input holds a line break: pass the secret alone" ;;
  esac
  printf '::add-mask::%s\n' "$(escape_data "$INPUT_TOKEN")"
fi

case "${RUNNER_OS:-}-${RUNNER_ARCH:-}" in
  Linux-X64) asset=cpk-linux-x64 ;;
  Linux-ARM64) asset=cpk-linux-arm64 ;;
  Windows-X64) asset=cpk-win-x64.exe ;;
  macOS-ARM64) asset=cpk-darwin-arm64 ;;
  *) die "no cpk executable for ${RUNNER_OS:-an unknown OS} on ${RUNNER_ARCH:-an unknown architecture}: install the npm package instead (npm install -g cpk)" ;;
esac

dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/cpk-$version"
name=cpk
if [ "${RUNNER_OS}" = Windows ]; then name=cpk.exe; fi
rm -rf "$dir"
mkdir -p "$dir"
url="$base/v$version"
curl -fsSL --retry 3 --proto '=https,http,file' -o "$dir/SHA256SUMS" "$url/SHA256SUMS" || die "could not download $url/SHA256SUMS"
curl -fsSL --retry 3 --proto '=https,http,file' -o "$dir/$asset" "$url/$asset" || die "could not download $url/$asset"

expected=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$dir/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS of v$version does not list $asset"
if command -v sha256sum >/dev/null; then
  actual=$(sha256sum "$dir/$asset" | awk '{ print $1 }')
else
  actual=$(shasum -a 256 "$dir/$asset" | awk '{ print $1 }')
fi
if [ "$actual" != "$expected" ]; then
  rm -rf "$dir"
  die "$asset does not match its SHA-256 in SHA256SUMS (expected $expected, got $actual): not installed"
fi
mv "$dir/$asset" "$dir/$name"
rm -f "$dir/SHA256SUMS"
chmod +x "$dir/$name"

echo "$dir" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
echo "path=$dir/$name" >>"${GITHUB_OUTPUT:-/dev/null}"
if [ -n "${INPUT_BASE_URL:-}" ]; then
  case "$INPUT_BASE_URL" in
    *$'\n'* | *$'\r'*) die "the base-url input holds a line break" ;;
  esac
  echo "CPK_BASE_URL=$INPUT_BASE_URL" >>"${GITHUB_ENV:?GITHUB_ENV is not set}"
fi
if [ -n "${INPUT_TOKEN:-}" ]; then echo "CPK_TOKEN=$INPUT_TOKEN" >>"${GITHUB_ENV:?GITHUB_ENV is not set}"; fi
echo "cpk $("$dir/$name" --version) installed in $dir"
