#!/usr/bin/env bash
# Build the clockbot image where no container registry can be reached.
#
#   deploy/build-image.sh [TAG]          (default localhost/clockbot:local)
#
# 1. mmdebstrap makes a minimal Debian base (this host's release, from this
#    host's apt sources) with Python 3 and its venv module;
# 2. podman imports it as localhost/clockbot-base:<release> (kept: the next
#    build reuses it);
# 3. podman builds deploy/Dockerfile on top, with BASE set to that image.
# Elsewhere the same Dockerfile builds on python:3.12-slim:
#   docker build -f deploy/Dockerfile -t clockbot .
# Needs root (or a podman set up for rootless use), mmdebstrap, podman and
# network access to the apt sources and to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-localhost/clockbot:local}"
for tool in mmdebstrap podman; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is not installed" >&2; exit 2; }
done
release="$(. /etc/os-release && echo "${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}")"
base="localhost/clockbot-base:${release}"

if ! podman image exists "$base"; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mmdebstrap --quiet --variant=minbase \
    --include=python3,python3-venv,ca-certificates,passwd \
    "$release" "$work/base.tar"
  podman import --quiet "$work/base.tar" "$base" >/dev/null
fi
# Host networking and the host's CA bundle: the build's pip reaches PyPI as this
# host does (through a TLS-inspecting proxy too). Neither ends up in the image.
trust=()
if [[ -r /etc/ssl/certs/ca-certificates.crt ]]; then
  trust=(--volume /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro
         --build-arg PIP_CERT=/run/host-ca.crt)
fi
podman build --quiet --network host "${trust[@]}" --build-arg BASE="$base" \
  -f deploy/Dockerfile -t "$tag" .
echo "built $tag on $base"
