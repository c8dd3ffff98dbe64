#!/usr/bin/env bash
# The docs check (part of test.sh's checks layer): README.md's first 40 lines carry the two
# commands; no markdown table line in README.md or docs/*.md is over 300 characters; every
# relative link and image there points to a file that exists (http(s) and mailto links and pure
# #anchors are not checked; a #fragment is dropped). Needs only bash, coreutils, grep and awk.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

max_table=300
failed=0
shopt -s nullglob
files=(README.md docs/*.md)

first_screen=$(head -n 40 README.md)
for command in 'bash scripts/serve.sh' 'bash scripts/test.sh'; do
  if ! grep -qF "$command" <<< "$first_screen"; then
    echo "README.md: its first 40 lines lack \`$command\`"
    failed=1
  fi
done

# Characters, not bytes: UTF-8 continuation bytes (0x80-0xBF) are not counted.
long_tables=$(LC_ALL=C awk -v max="$max_table" '
  /^\|/ { s = $0; gsub(/[\200-\277]/, "", s)
          if (length(s) > max) printf "%s:%d: a table line of %d characters (at most %d)\n", FILENAME, FNR, length(s), max }
' "${files[@]}")
if [ -n "$long_tables" ]; then
  echo "$long_tables"
  echo "turn long table cells into a short table plus bullet lists or subsections below it"
  failed=1
fi

# Every relative link target, as "file<TAB>line<TAB>target": inline links and images, outside
# fenced code blocks and inline code, and reference definitions ("[name]: target").
links=$(awk '
  FNR == 1 { fence = 0 }
  /^[ \t]*(```|~~~)/ { fence = !fence; next }
  fence { next }
  {
    line = $0
    gsub(/`[^`]*`/, "", line)
    if (match(line, /^[ \t]*\[[^]]+\]:[ \t]+[^ \t]+/)) {
      t = substr(line, RSTART, RLENGTH); sub(/^[ \t]*\[[^]]+\]:[ \t]+/, "", t)
      printf "%s\t%d\t%s\n", FILENAME, FNR, t
    }
    while (match(line, /\]\([^)]*\)/)) {
      t = substr(line, RSTART + 2, RLENGTH - 3)
      line = substr(line, RSTART + RLENGTH)
      sub(/^[ \t]+/, "", t); sub(/[ \t]+".*$/, "", t); sub(/^</, "", t); sub(/>$/, "", t)
      printf "%s\t%d\t%s\n", FILENAME, FNR, t
    }
  }
' "${files[@]}")

checked=0
while IFS=$'\t' read -r file line target; do
  [ -n "$file" ] || continue
  case "$target" in
    '' | '#'* | http://* | https://* | mailto:*) continue ;;
  esac
  path=${target%%#*}
  case "$path" in
    /*) resolved=".$path" ;;
    *) resolved="$(dirname "$file")/$path" ;;
  esac
  checked=$((checked + 1))
  if [ ! -e "$resolved" ]; then
    echo "$file:$line: the link to '$target' points to no file ($resolved)"
    failed=1
  fi
done <<< "$links"

if [ "$failed" -ne 0 ]; then
  echo "check-docs: failed"
  exit 1
fi
echo "check-docs: ok (${#files[@]} files, $checked relative links, table lines at most $max_table characters)"
