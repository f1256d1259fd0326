#!/bin/sh
# Unpacks the release archive and the Debian package of VERSION from OUTDIR and runs what they
# hold: --version, validate of the example workspace, one run. Also checks the archive's SHA-256,
# and the package with lintian when it is installed.
#   packaging/check-dist.sh VERSION OUTDIR
set -eu
version=$1 out=$2
name=skillbook-$version-linux-$(uname -m)
deb=$out/skillbook_${version}_$(dpkg --print-architecture).deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "sha256sum -c $name.tar.gz.sha256"
(cd "$out" && sha256sum -c "$name.tar.gz.sha256")
step "tar -xzf $name.tar.gz"
tar -C "$work" -xzf "$out/$name.tar.gz"
(cd "$work" && find "$name" -type f | sort | grep -v '^[^/]*/example/' | sed 's/^/  /')

check() {  # BINARY LABEL
    step "$2: --version"
    "$1" --version
    step "$2: validate (example workspace)"
    (cd "$work/$name/example" && "$1" validate --state "$work/state-$2")
    step "$2: run hello-notes -i name=Ada"
    (cd "$work/$name/example" && "$1" run hello-notes -i name=Ada --state "$work/state-$2" --no-color)
    step "$2: completion (bash -n of the script, __complete run hel)"
    "$1" completion bash | bash -n
    (cd "$work/$name/example" && "$1" __complete run hel)
}
check "$work/$name/bin/skillbook" tarball

if [ -f "$deb" ]; then
    step "dpkg-deb -x $(basename "$deb")"
    dpkg-deb -f "$deb" Package Version Architecture Depends Recommends
    dpkg-deb -x "$deb" "$work/deb"
    check "$work/deb/usr/bin/skillbook" deb
    if command -v lintian >/dev/null 2>&1; then
        step "lintian --fail-on error,warning $(basename "$deb")"
        lintian --fail-on error,warning --display-info "$deb" && echo "lintian: clean at the warning level"
    fi
else
    step "no $deb (run 'make deb')"
fi
step "check-dist: all good"
