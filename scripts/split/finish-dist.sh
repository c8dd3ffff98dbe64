#!/usr/bin/env bash
# After `trunk build`: add the split chunks (left by scripts/split/wasm-bindgen in
# target/wasm-split/dist) to dist/, each named by its content hash, and tie their loader to
# Trunk's glue. The glue and the loader import each other, so they share one name hash, taken
# over the main wasm, every chunk and the loader: any change renames both. index.html gets the
# glue's new name and integrity hash, and a preload of the loader beside the glue's
# (otherwise the loader is found only once the glue is parsed, a round trip later). The
# wasm's preload loses Trunk's `integrity`: Chromium ignores it for `as="fetch"` and warns
# in the console on every load (crbug.com/981419).
# (Fetching and compiling the wasm from a script at the top of <head> was tried too: no
# measurable change on a first visit, so Trunk's preload and init stay as they are.)
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
sri() { echo "sha384-$(openssl dgst -sha384 -binary "$1" | base64 -w0)"; }
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
new_integrity="integrity=\"$(sri "$dist/$new_glue")\""
sed -i "s#/$(basename "$glue")#/$new_glue#g" "$dist/index.html"
if [ -n "$old_integrity" ]; then
  sed -i "s#$old_integrity#$new_integrity#" "$dist/index.html"
fi
grep -q "$new_glue" "$dist/index.html" || { echo "finish-dist: index.html lost the glue" >&2; exit 1; }

glue_preload=$(grep -o "<link rel=\"modulepreload\" href=\"/$new_glue\"[^>]*>" "$dist/index.html")
loader_preload="<link rel=\"modulepreload\" href=\"/$new_loader\" crossorigin=\"anonymous\" integrity=\"$(sri "$dist/$new_loader")\">"
python3 - "$dist/index.html" "$glue_preload" "$loader_preload" <<'PY'
import re, sys
path, glue_preload, loader_preload = sys.argv[1:]
html = open(path).read()
if html.count(glue_preload) != 1:
    sys.exit("finish-dist: index.html has no single preload of the glue")
html = html.replace(glue_preload, glue_preload + "\n" + loader_preload)
html, count = re.subn(r'(<link rel="preload" href="/[^"]*_bg\.wasm"[^>]*?) integrity="[^"]*"', r"\1", html)
if count != 1:
    sys.exit("finish-dist: index.html has no single preload of the wasm")
open(path, "w").write(html)
PY
