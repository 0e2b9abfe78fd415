# Sourced, not run: `. .ci/node.sh` puts the Node of .nvmrc first on PATH for the rest of the shell.
# The binary and its headers come from the npm registry's node-<platform>-<arch> package (the registry is the one
# place this machine and CI download from), unpacked into .node/<version>/ (git-ignored) and reused when already
# there. npm_config_nodedir points node-gyp at that Node's headers, for any native module compiled from source:
# the machine's npm config sets nodedir=/usr, the system Node's, and an addon built against those would not load.

lensmate_use_node() {
  local root version platform dir unpack
  root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd) || return 1
  version=$(tr -d '[:space:]v' <"$root/.nvmrc") || return 1
  dir="$root/.node/$version"
  if [ ! -x "$dir/bin/node" ]; then
    platform=$(node -p 'process.platform + "-" + process.arch' 2>/dev/null || echo linux-x64)
    echo "Fetching Node $version (npm package node-$platform@$version) into .node/$version"
    unpack=$(mktemp -d) || return 1
    if ! (cd "$unpack" && npm pack --silent "node-$platform@$version" >/dev/null && tar xzf node-*.tgz); then
      echo "Could not fetch node-$platform@$version from the npm registry" >&2
      rm -rf "$unpack"
      return 1
    fi
    mkdir -p "$root/.node" && rm -rf "$dir" && mv "$unpack/package" "$dir" && rm -rf "$unpack" || return 1
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r 2>/dev/null
  echo "Using Node $(node --version) from .node/$version (npm $(npm --version))"
}

lensmate_use_node
