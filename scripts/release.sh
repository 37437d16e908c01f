#!/usr/bin/env bash
# Publishes adcp-decode to the npm registry with provenance, after the gates CI runs: `npm test`
# (build, Biome, knip, every test), then publint and @arethetypeswrong/cli on the tarball that is
# then published as it is (what was checked is what ships).
#
#   scripts/release.sh            publish (in CI only, see below)
#   scripts/release.sh --dry-run  every gate, then `npm publish --dry-run` on the tarball: no token, anywhere
#
# Run it after `npm ci`, with what `npm test` needs (redis-server, Chromium: see .ci/run). Publishing
# refuses, before any gate runs, unless:
# - it runs in GitHub Actions (with `permissions: id-token: write`) or GitLab CI: npm builds the
#   provenance statement from that CI's OIDC token, and refuses `--provenance` anywhere else;
# - a registry token is there: NODE_AUTH_TOKEN (handed to npm through a temporary userconfig that
#   names the variable, never its value), or an .npmrc holding an `_authToken`;
# - the work tree is clean and HEAD is tagged `v<version>`, so the provenance names a tagged commit;
# - that version is not on the registry yet, and the registry accepts the token (`npm whoami`).
set -euo pipefail
cd "$(dirname "$0")/.."

dry_run=false
case "$#:${1:-}" in
  0:) ;;
  1:--dry-run) dry_run=true ;;
  *)
    echo "usage: scripts/release.sh [--dry-run]" >&2
    exit 2
    ;;
esac

refuse() {
  echo "release: refused: $*" >&2
  exit 1
}

name=$(node -p "require('./package.json').name")
version=$(node -p "require('./package.json').version")
registry=https://registry.npmjs.org/

if ! $dry_run; then
  if [ "${GITHUB_ACTIONS:-}" != true ] && [ "${GITLAB_CI:-}" != true ]; then
    refuse "npm publishes with --provenance only from GitHub Actions (id-token: write) or GitLab CI; run scripts/release.sh --dry-run here"
  fi
  userconfig="${NPM_CONFIG_USERCONFIG:-${HOME:-}/.npmrc}"
  if [ -n "${NODE_AUTH_TOKEN:-}" ]; then
    if ! grep -qs '_authToken' "$userconfig" .npmrc; then
      npmrc=$(mktemp)
      trap 'rm -f "$npmrc"' EXIT
      # shellcheck disable=SC2016 # npm expands ${NODE_AUTH_TOKEN} itself when it reads the file.
      printf '//registry.npmjs.org/:_authToken=${NODE_AUTH_TOKEN}\n' >"$npmrc"
      export NPM_CONFIG_USERCONFIG="$npmrc"
    fi
  elif ! grep -qs '_authToken' "$userconfig" .npmrc; then
    refuse "no registry token: set NODE_AUTH_TOKEN, or put //registry.npmjs.org/:_authToken in an .npmrc"
  fi
  [ -z "$(git status --porcelain)" ] || refuse "the work tree has changes; publish a committed, tagged tree"
  git tag --points-at HEAD | grep -qx "v$version" || refuse "HEAD is not tagged v$version"
  if published=$(npm view "$name@$version" version --registry "$registry" 2>/dev/null) && [ -n "$published" ]; then
    refuse "$name@$version is already on the registry"
  fi
  npm whoami --registry "$registry" >/dev/null || refuse "the registry does not accept the token (npm whoami failed)"
fi

started=$SECONDS
step() {
  echo "release: $1 (at $((SECONDS - started)) s)" >&2
}

step "npm test: build, lint, knip, every test (the CI gate)"
npm test

work=$(mktemp -d)
trap 'rm -rf "$work" ${npmrc:+"$npmrc"}' EXIT
step "npm pack (prepack builds from the same tree)"
npm pack --pack-destination "$work" >/dev/null
tarball="$work/$name-$version.tgz"
[ -f "$tarball" ] || refuse "npm pack wrote no $name-$version.tgz"

step "publint --strict on the tarball"
npx --no-install publint run "$tarball" --strict
step "attw --profile esm-only on the tarball"
npx --no-install attw "$tarball" --profile esm-only --no-definitely-typed --format table-flipped

if $dry_run; then
  step "npm publish --dry-run"
  npm publish "$tarball" --dry-run --access public --registry "$registry"
else
  step "npm publish --provenance"
  npm publish "$tarball" --provenance --access public --registry "$registry"
fi
