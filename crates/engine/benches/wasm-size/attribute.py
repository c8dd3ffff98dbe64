"""Attribute a wasm's bytes to crates, from twiggy's CSV output.

usage: attribute.py TOP.csv DOMINATORS.csv
  TOP.csv        twiggy top -f csv MODULE.wasm
  DOMINATORS.csv twiggy dominators -f csv MODULE.wasm
MODULE.wasm must keep its name section (wasm-opt -g). Shallow bytes are summed by the first
crate a function's demangled name mentions; "retained" sums twiggy's retained size of every
engine-named item whose immediate dominator is not engine-named, i.e. the bytes that are
reachable only through holdbay_engine / rmcp / sse_stream code.
"""
import csv, re, sys, collections
top = list(csv.DictReader(open(sys.argv[1])))
dom = {r['Id']: r for r in csv.DictReader(open(sys.argv[2]))}
ENGINE = re.compile(r'holdbay_engine|rmcp|sse_stream')
def cat(n):
    if re.search(r'holdbay_engine', n): return 'holdbay_engine'
    if 'rmcp' in n: return 'rmcp'
    if 'sse_stream' in n: return 'sse_stream'
    if n.startswith('"') or n.startswith('data segment') or n.startswith('custom section') or n in ('table[0]','elem[0]') or n.startswith('type[') or n.startswith('import ') or n.startswith('export ') or n.startswith('global[') or n.startswith('memory['): return 'non-code: ' + ('names' if 'names' in n else 'data/other')
    if re.search(r'^(<)?holdbay::', n) or re.search(r'<holdbay::', n): return 'app (holdbay::)'
    if re.search(r'leptos|tachys|reactive_graph|any_spawner|throw_error|or_poisoned|either_of|next_tuple|oco_ref|send_wrapper|guardian|slotmap', n): return 'leptos'
    if re.search(r'serde_json|serde_core|serde::', n): return 'serde/serde_json'
    if re.search(r'wasm_bindgen|js_sys|web_sys', n): return 'wasm-bindgen/js-sys/web-sys'
    if re.search(r'^(<)?(core|alloc|std|dlmalloc|hashbrown)', n) or re.search(r'(core|alloc|std)::', n): return 'std/core/alloc'
    return 'other'
sizes = collections.Counter()
for r in top:
    sizes[cat(r['Name'])] += int(r['ShallowSize'])
total = sum(sizes.values())
names = sizes['non-code: names']
print(f"module {total} bytes, of which name section {names}; without names {total-names}")
for k, v in sizes.most_common():
    if k == 'non-code: names': continue
    print(f"  {k:32s} {v:8d}  {100*v/(total-names):5.1f}%")
eng = sum(v for k, v in sizes.items() if k in ('holdbay_engine','rmcp','sse_stream'))
print(f"engine-attributed (holdbay_engine+rmcp+sse_stream names, shallow): {eng} bytes ({100*eng/(total-names):.1f}% of code+data)")
# dominators: items whose name is engine-ish and whose immediate dominator is not engine-ish
ret = 0; count = 0
for i, r in dom.items():
    if ENGINE.search(r['Name']):
        d = dom.get(r['ImmediateDominator'])
        if d is None or not ENGINE.search(d['Name']):
            ret += int(r['RetainedSize'] or 0); count += 1
print(f"retained by engine-named items (dominator roots, {count} items): {ret} bytes")
