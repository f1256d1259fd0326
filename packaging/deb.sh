#!/bin/sh
# Builds skillbook_VERSION_ARCH.deb into OUTDIR with dpkg-deb:
#   packaging/deb.sh BINARY VERSION OUTDIR
# Depends come from dpkg-shlibdeps (the libraries ldd shows: the C and C++ runtimes); libcurl,
# libpq and libmicrohttpd are opened on first use, so they are only recommended.
set -eu
binary=$1 version=$2 out=$3
here=$(cd "$(dirname "$0")/.." && pwd)
arch=$(dpkg --print-architecture)
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
umask 022
PREFIX=/usr DESTDIR="$root" ZSH_COMPLETIONS=/usr/share/zsh/vendor-completions DOCS="NOTICE README.md" \
    "$here/packaging/install.sh" "$binary" >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/skillbook"
gzip -9n "$root"/usr/share/man/man1/*.1 "$root"/usr/share/man/man5/*.5
doc=$root/usr/share/doc/skillbook
install -m 0644 "$here/packaging/deb/copyright" "$doc/copyright"
date=$(date -u -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'skillbook (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- The Skillbook authors <skillbook@skillbook.invalid>  %s\n' \
    "$version" "$version" "$date" | gzip -9n > "$doc/changelog.gz"
if [ -s "$here/packaging/deb/lintian-overrides" ]; then
    install -d "$root/usr/share/lintian/overrides"
    install -m 0644 "$here/packaging/deb/lintian-overrides" "$root/usr/share/lintian/overrides/skillbook"
fi
# dpkg-shlibdeps reads debian/control from the current folder.
mkdir -p "$stage/src/debian"
printf 'Source: skillbook\n\nPackage: skillbook\nArchitecture: any\n' > "$stage/src/debian/control"
depends=$(cd "$stage/src" && dpkg-shlibdeps -O "$root/usr/bin/skillbook" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
install -d "$root/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$here/packaging/deb/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
deb=$out/skillbook_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
