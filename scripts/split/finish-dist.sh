#!/usr/bin/env bash
# After `trunk build`: add the split chunks (left by scripts/split/wasm-bindgen in
# target/wasm-split/dist) to dist/, each named by its content hash, and tie their loader to
# Trunk's glue. The glue and the loader import each other, so they share one name hash, taken
# over the main wasm, every chunk and the loader: any change renames both. index.html gets the
# glue's new name and integrity hash.
#   finish-dist.sh DIST EXTRAS
set -euo pipefail
dist=$1
extras=$2
shopt -s nullglob
glues=("$dist"/holdbay-app-*.js)
wasms=("$dist"/holdbay-app-*_bg.wasm)
if [ ${#glues[@]} -ne 1 ] || [ ${#wasms[@]} -ne 1 ] || ! [ -f "$extras/__wasm_split.js" ]; then
  echo "finish-dist: expected one glue, one main wasm and a split loader" >&2
  exit 1
fi
glue=${glues[0]}
loader="$extras/__wasm_split.js"

for chunk in "$extras"/*.wasm; do
  stem=$(basename "$chunk" .wasm)
  hash=$(sha256sum "$chunk" | cut -c1-16)
  cp "$chunk" "$dist/$stem-$hash.wasm"
  sed -i "s#\"\./$stem\.wasm\"#\"./$stem-$hash.wasm\"#g" "$loader"
done

build=$(cat "${wasms[0]}" "$loader" "$glue" | sha256sum | cut -c1-16)
new_glue="holdbay-app-$build.js"
new_loader="__wasm_split-$build.js"
sed "s#from \"\./holdbay-app\.js\"#from \"./$new_glue\"#" "$loader" >"$dist/$new_loader"
sed "s#from \"\./__wasm_split\.js\"#from \"./$new_loader\"#g" "$glue" >"$dist/$new_glue"
rm "$glue"

old_integrity=$(grep -o "href=\"/$(basename "$glue")\"[^>]*integrity=\"[^\"]*\"" "$dist/index.html" |
  grep -o 'integrity="[^"]*"' || true)
new_integrity="integrity=\"sha384-$(openssl dgst -sha384 -binary "$dist/$new_glue" | base64 -w0)\""
sed -i "s#/$(basename "$glue")#/$new_glue#g" "$dist/index.html"
if [ -n "$old_integrity" ]; then
  sed -i "s#$old_integrity#$new_integrity#" "$dist/index.html"
fi
grep -q "$new_glue" "$dist/index.html" || { echo "finish-dist: index.html lost the glue" >&2; exit 1; }
