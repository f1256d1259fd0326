#!/bin/sh
# Installs (or, with --uninstall, removes) skillbook under $DESTDIR$PREFIX: the binary, the man
# pages and completions it generates, the systemd user units and the licence files.
#   packaging/install.sh [--uninstall] BINARY
# Environment: PREFIX (default /usr/local), DESTDIR, ZSH_COMPLETIONS (default
# $PREFIX/share/zsh/site-functions), DOCS (default: LICENSE NOTICE README.md).
set -eu
mode=install
if [ "${1:-}" = "--uninstall" ]; then mode=uninstall; shift; fi
binary=${1:?usage: packaging/install.sh [--uninstall] BINARY}
here=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}
bindir=$prefix/bin
mandir=$prefix/share/man
bashdir=$prefix/share/bash-completion/completions
zshdir=${ZSH_COMPLETIONS:-$prefix/share/zsh/site-functions}
fishdir=$prefix/share/fish/vendor_completions.d
unitdir=$prefix/lib/systemd/user
docdir=$prefix/share/doc/skillbook
docs=${DOCS:-LICENSE NOTICE README.md}

if [ "$mode" = uninstall ]; then
    rm -f "$root$bindir/skillbook" "$root$bashdir/skillbook" "$root$zshdir/_skillbook" "$root$fishdir/skillbook.fish"
    rm -f "$root$mandir/man1/skillbook.1" "$root$mandir"/man1/skillbook-*.1 "$root$mandir/man5/skillbook-playbook.5"
    rm -f "$root$unitdir/skillbook-daemon.service" "$root$unitdir/skillbook-serve.service"
    for doc in $docs; do rm -f "$root$docdir/$doc"; done
    rmdir "$root$docdir" 2>/dev/null || true
    echo "skillbook: removed from $root$prefix"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$binary" __man "$work/man" >/dev/null
for shell in bash zsh fish; do "$binary" completion $shell > "$work/completion.$shell"; done

install -d "$root$bindir" "$root$mandir/man1" "$root$mandir/man5" "$root$bashdir" "$root$zshdir" "$root$fishdir" "$root$unitdir" "$root$docdir"
install -m 0755 "$binary" "$root$bindir/skillbook"
install -m 0644 "$work"/man/man1/*.1 "$root$mandir/man1/"
install -m 0644 "$work"/man/man5/*.5 "$root$mandir/man5/"
install -m 0644 "$work/completion.bash" "$root$bashdir/skillbook"
install -m 0644 "$work/completion.zsh" "$root$zshdir/_skillbook"
install -m 0644 "$work/completion.fish" "$root$fishdir/skillbook.fish"
for unit in skillbook-daemon skillbook-serve; do
    sed "s|@BINDIR@|$bindir|g" "$here/packaging/$unit.service.in" > "$work/$unit.service"
    install -m 0644 "$work/$unit.service" "$root$unitdir/$unit.service"
done
for doc in $docs; do install -m 0644 "$here/$doc" "$root$docdir/$doc"; done
echo "skillbook: installed in $root$prefix"
