#!/bin/sh
# Packs skillbook-VERSION-linux-ARCH.tar.gz (and its .sha256) into OUTDIR:
#   packaging/dist.sh BINARY VERSION OUTDIR
# The archive holds one folder: bin/, share/ (man pages, completions, licence files) and lib/
# (systemd user units) laid out as under /usr/local, with LICENSE, NOTICE, README.md and an
# example workspace (example/Playbooks, example/Skills) beside them.
set -eu
binary=$1 version=$2 out=$3
here=$(cd "$(dirname "$0")/.." && pwd)
name=skillbook-$version-linux-$(uname -m)
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
PREFIX=/usr/local DESTDIR="$stage/root" "$here/packaging/install.sh" "$binary" >/dev/null
mv "$stage/root/usr/local" "$stage/$name"
cp "$here/LICENSE" "$here/NOTICE" "$here/README.md" "$stage/$name/"
mkdir -p "$stage/$name/example"
cp -R "$here/Playbooks" "$here/Skills" "$stage/$name/example/"
# The same bytes for the same tree: sorted names, no owners, one time (the last commit's).
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$name" | gzip -9n > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
