#!/bin/sh
# make.sh DIR [partial-clone]: build the hostile git repository in DIR (an empty or missing folder). The files
# are committed with no filter, then config, attributes and hooks are planted and every tracked
# file's time is moved, so `git status` must re-read each file through its clean filter.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
cd "$1"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
git init -q .
printf 'plain\n' >a.txt
printf 'slow\n' >b.slow
printf 'process\n' >c.proc
printf 'info\n' >d.info
printf 'submodule summary bait\n' >e.txt
git add a.txt b.slow c.proc d.info e.txt
if [ "${2:-}" = partial-clone ]; then
	mkdir sub
	printf 'lazy\n' >sub/f.txt
	git add sub/f.txt
fi
git -c core.hooksPath=/dev/null -c user.name=zoneline -c user.email=test@zoneline.invalid commit -q -m init
cp "$here/gitattributes" .gitattributes
cat "$here/config" >>.git/config
mkdir -p .git/info .git/evil-hooks
printf '*.info filter=evil\n' >.git/info/attributes
for h in post-index-change pre-commit post-checkout reference-transaction fsmonitor-watchman; do
	cp "$here/hook" ".git/hooks/$h"
	cp "$here/hook" ".git/evil-hooks/$h"
	chmod +x ".git/hooks/$h" ".git/evil-hooks/$h"
done
touch -d 2001-01-01T00:00:00 a.txt b.slow c.proc d.info e.txt
printf 'untracked\n' >new.txt
# make.sh DIR partial-clone: also a partial clone whose promisor remote's uploadpack (and
# sshCommand, credential helper, insteadOf target) writes PWNED-*, with an object of HEAD
# and the index gone, so a plain `git status` lazily fetches through it.
if [ "${2:-}" = partial-clone ]; then
	obj=$(git rev-parse HEAD:sub)
	rm -f ".git/objects/$(echo "$obj" | cut -c1-2)/$(echo "$obj" | cut -c3-)" .git/index
	git config core.repositoryformatversion 1
	git config extensions.partialClone origin
	git config remote.origin.url ssh://promisor.invalid/x
	git config remote.origin.promisor true
	git config remote.origin.uploadpack "sh -c 'touch PWNED-uploadpack; exit 1' #"
	git config url./x.insteadOf ssh://promisor.invalid/x
	git config credential.helper "!sh -c 'touch PWNED-credential'"
fi
