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
# Minified (esbuild keeps the exports and the import paths): 2.4 KB less brotli before the
# first screen. Before the integrity hashes below are taken.
for script in "$dist/$new_glue" "$dist/$new_loader"; do
  # (wasm-bindgen names the loader once per split import, the same module each time.)
  esbuild --minify --format=esm --log-level=warning --log-override:duplicate-object-key=silent \
    --allow-overwrite "$script" --outfile="$script"
done

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

# index.html's inline styles minified (1.7 KB less brotli in the page); the later style sheets
# (in <template id="later-styles">) minified into one file, one request instead of seven;
# the icon inlined; HTML comments dropped; the preloads moved up.
python3 - "$dist" <<'PY'
import base64, hashlib, pathlib, re, subprocess, sys, urllib.parse
dist = pathlib.Path(sys.argv[1])
def minify_css(css):
    return subprocess.run(["esbuild", "--loader=css", "--minify", "--log-level=warning"],
                          input=css, capture_output=True, text=True, check=True).stdout.strip()
page = dist / "index.html"
html = page.read_text()
html = re.sub(r"<style>(.*?)</style>", lambda m: "<style>" + minify_css(m.group(1)) + "</style>",
              html, flags=re.S)
template = re.search(r'<template id="later-styles">(.*?)</template>', html, flags=re.S)
sheets = re.findall(r'<link rel="stylesheet" href="/([^"]+\.css)"[^>]*>', template.group(1)) if template else []
if not sheets:
    sys.exit("finish-dist: index.html has no later style sheets")
later = "\n".join(minify_css((dist / sheet).read_text()) for sheet in sheets).encode()
name = f"later-{hashlib.sha256(later).hexdigest()[:16]}.css"
(dist / name).write_bytes(later)
for sheet in sheets:
    (dist / sheet).unlink()
integrity = "sha384-" + base64.b64encode(hashlib.sha384(later).digest()).decode()
link = f'<link rel="stylesheet" href="/{name}" integrity="{integrity}"/>'
html = html.replace(template.group(0), f'<template id="later-styles">{link}</template>')
# The icon as a data URL (the policy allows data: images): one request fewer before the tool
# list. /favicon.ico still answers, from the server.
icon = re.search(r'<link rel="icon" href="/([^"]+\.svg)"[^>]*>', html)
if not icon:
    sys.exit("finish-dist: index.html has no svg icon")
svg = (dist / icon.group(1)).read_text().strip().replace('"', "'")
html = html.replace(icon.group(0), '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,'
                    + urllib.parse.quote(svg, safe=" /=:'.,;()") + '">')
(dist / icon.group(1)).unlink()
html = re.sub(r"\s*<!--.*?-->", "", html, flags=re.S)
# The preloads first in <head>, before the styles: the wasm's download starts at once.
preloads = re.findall(r'<link rel="(?:modulepreload|preload)" [^>]*>', html)
if len(preloads) != 3:
    sys.exit("finish-dist: expected the glue's, the loader's and the wasm's preloads")
for preload in preloads:
    html = html.replace(preload, "", 1)
html = html.replace("<title>", "\n".join(preloads) + "\n<title>", 1)
page.write_text(html)
PY
