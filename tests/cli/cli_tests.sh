#!/usr/bin/env bash
# End-to-end tests of the gjk program: golden output of the demo scenes, the
# demo itself, bad input of every kind, and well-formed traces with one frame
# per iteration. Usage: cli_tests.sh GJK JSONL_COMPARE SOURCE_DIR FLOAT(0|1)
set -u
GJK_BIN=$1 CMP=$2 SRC=$3 FLOAT=$4
# GJK_WRAP (optional) runs every invocation under a tool, e.g. valgrind.
gjk() { ${GJK_WRAP:-} "$GJK_BIN" "$@"; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

if [ "$FLOAT" = 1 ]; then TOL=2e-3 IGNORE=iterations,epa_iterations; else TOL=1e-9 IGNORE=; fi

# 1. Golden output of the built-in scenes (the same files the demo embeds).
for s in demo3d demo2d; do
  gjk query "$SRC/tools/scenes/$s.json" > "$WORK/$s.jsonl"; st=$?
  check "$s exits 0 (got $st)" test "$st" = 0
  check "$s matches tests/cli/golden/$s.jsonl" "$CMP" "$SRC/tests/cli/golden/$s.jsonl" "$WORK/$s.jsonl" "$TOL" "$IGNORE"
done
gjk query - < "$SRC/tools/scenes/demo3d.json" > "$WORK/stdin.jsonl"
check "query reads standard input" cmp -s "$WORK/stdin.jsonl" "$WORK/demo3d.jsonl"

# 2. The demo: a table, two trace pages, where they are.
mkdir "$WORK/demo"
gjk demo --out "$WORK/demo" > "$WORK/demo.txt" 2>&1; st=$?
check "demo exits 0 (got $st)" test "$st" = 0
check "demo prints a table row per query" test "$(grep -cE '^(2D|3D) ' "$WORK/demo.txt")" = \
  "$(( $(grep -c '"op"' "$SRC/tools/scenes/demo3d.json") + $(grep -c '"op"' "$SRC/tools/scenes/demo2d.json") ))"
for f in gjk-trace-3d.html gjk-trace-2d.html; do
  check "demo wrote $f" test -s "$WORK/demo/$f"
  check "demo says where $f is" grep -q "wrote $WORK/demo/$f" "$WORK/demo.txt"
  check "$f is well-formed" xmllint --noout "$WORK/demo/$f"
done

# 3. Traces: well-formed SVG and HTML, one frame per GJK and EPA iteration.
for q in crate-on-ground:demo3d tilted-crate-above:demo3d box-wheel:demo2d oval-pill:demo2d; do
  id=${q%%:*} scene=${q##*:}
  line=$(gjk trace "$SRC/tools/scenes/$scene.json" --id "$id" -o "$WORK/$id.svg" 2>/dev/null)
  check "trace $id exits 0" test $? = 0
  check "trace $id: SVG parses as XML" xmllint --noout "$WORK/$id.svg"
  iters=$(echo "$line" | sed -n 's/.*"iterations":\([0-9]*\).*/\1/p')
  epa=$(echo "$line" | sed -n 's/.*"epa_iterations":\([0-9]*\).*/\1/p')
  frames=$(grep -o 'class="frame"' "$WORK/$id.svg" | wc -l)
  check "trace $id: $frames frames for $iters + ${epa:-0} iterations" test "$frames" = "$((iters + ${epa:-0}))"
  gjk trace "$SRC/tools/scenes/$scene.json" --id "$id" -o "$WORK/$id.html" >/dev/null 2>&1
  check "trace $id: the HTML page is well-formed" xmllint --noout "$WORK/$id.html"
  check "trace $id: the HTML page has the frames" test "$(grep -o 'class="frame"' "$WORK/$id.html" | wc -l)" = "$frames"
done
gjk trace "$SRC/tools/scenes/demo3d.json" --id no-such-query -o "$WORK/x.svg" 2>"$WORK/err"
check "trace of an unknown id exits 2" test $? = 2
check "trace of an unknown id names it" grep -q 'no-such-query' "$WORK/err"

# 4. Fatal input: a message on stderr and exit status 2.
fatal() { # name, expected stderr pattern, then the command's input file
  gjk query "$3" > "$WORK/out" 2> "$WORK/err"; st=$?
  check "$1: exit 2 (got $st)" test "$st" = 2
  check "$1: message matches '$2'" grep -qE "$2" "$WORK/err"
  check "$1: no output" test ! -s "$WORK/out"
}
fatal "missing file" "cannot read .*no-such-file" "$WORK/no-such-file.json"
: > "$WORK/empty.json";         fatal "empty file" "empty" "$WORK/empty.json"
printf '  \n\n' > "$WORK/blank.json"; fatal "blank file" "empty" "$WORK/blank.json"
printf '{"shapes": {"a": {"type": "box",\n  "half_extents": [1, 1, 1]}},\n  "queries": [ }' > "$WORK/bad.json"
fatal "malformed JSON" "malformed JSON at line 3, column" "$WORK/bad.json"
printf '[1, 2, 3]' > "$WORK/array.json";   fatal "not an object" "must be a JSON object" "$WORK/array.json"
printf '{"dim": 4}' > "$WORK/dim.json";     fatal "bad dim" "dim" "$WORK/dim.json"
printf '{"queries": {}}' > "$WORK/q.json"; fatal "queries not an array" "queries" "$WORK/q.json"

# 5. Bad shapes and queries: an error line each, every other query answered, exit 1.
cat > "$WORK/mixed.json" <<'JSON'
{"shapes": {
  "box": {"type": "box", "half_extents": [1, 1, 1]},
  "neg": {"type": "sphere", "radius": -1},
  "short": {"type": "box", "half_extents": [1, 1]},
  "what": {"type": "blob"},
  "empty": {"type": "polytope", "vertices": []},
  "huge": {"type": "sphere", "radius": 1e999},
  "nomargin": {"type": "sphere", "radius": 1, "margin": -0.5},
  "noradius": {"type": "capsule", "a": [0, 0, 0], "b": [1, 0, 0]}
 },
 "queries": [
  {"id": "good1", "op": "distance", "a": "box", "b": "box", "pose_b": {"position": [3, 0, 0]}},
  {"id": "q-neg", "op": "distance", "a": "box", "b": "neg"},
  {"id": "q-short", "op": "intersect", "a": "short", "b": "box"},
  {"id": "q-what", "op": "intersect", "a": "what", "b": "box"},
  {"id": "q-empty", "op": "penetration", "a": "box", "b": "empty"},
  {"id": "q-huge", "op": "distance", "a": "huge", "b": "box"},
  {"id": "q-margin", "op": "distance", "a": "nomargin", "b": "box"},
  {"id": "q-missing", "op": "distance", "a": "noradius", "b": "box"},
  {"id": "q-unknown-shape", "op": "distance", "a": "box", "b": "ghost"},
  {"id": "q-unknown-op", "op": "collide", "a": "box", "b": "box"},
  {"id": "q-zero-quat", "op": "distance", "a": "box", "b": "box", "pose_b": {"rotation": [0, 0, 0, 0]}},
  {"id": "q-bad-pos", "op": "distance", "a": "box", "b": "box", "pose_b": {"position": [1, "x", 0]}},
  {"id": "q-no-b", "op": "distance", "a": "box"},
  {"id": "good2", "op": "penetration", "a": "box", "b": "box", "pose_b": {"position": [1.5, 0, 0]}},
  {"id": "q-spec", "op": "contact", "a": "box", "b": "box", "speculative_distance": -1},
  {"id": "q-end", "op": "time_of_impact", "a": "box", "b": "box", "pose_b_end": {"rotation": [0, 0, 0, 0]}},
  {"id": "q-target", "op": "shapecast", "a": "box", "b": "box", "translation_b": [1, 0, 0], "target_separation": -0.1},
  {"id": "q-aabb", "op": "aabb", "a": "neg"},
  {"id": "good3", "op": "aabb", "a": "box", "pose_a": {"position": [2, 0, 0]}},
  {"id": "good6", "op": "aabb", "a": "box", "pose_a": {"position": [2, 0, 0], "rotation": [1e-200, 0, 0, 0]}},
  {"id": "good4", "op": "contact", "a": "box", "b": "box", "pose_b": {"position": [3, 0, 0]}},
  {"id": "good5", "op": "time_of_impact", "a": "box", "b": "box", "pose_b": {"position": [4, 0, 0]},
   "pose_b_end": {"position": [0, 0, 0]}, "target_separation": 0.5}
 ]}
JSON
gjk query "$WORK/mixed.json" > "$WORK/mixed.out" 2>"$WORK/mixed.err"; st=$?
check "bad queries: exit 1 (got $st)" test "$st" = 1
check "bad queries: one line per query" test "$(wc -l < "$WORK/mixed.out")" = 22
expect_line() { # id, then patterns the line must contain
  local id=$1; shift
  local l; l=$(grep "\"id\":\"$id\"" "$WORK/mixed.out")
  for p in "$@"; do check "$id line has $p" grep -qF -- "$p" <<< "$l"; done
}
expect_line good1 '"status":"separated"' '"distance":1'
expect_line good2 '"status":"penetrating"' '"depth":0.5'
expect_line q-neg '"status":"error"' 'query \"q-neg\"' 'shape \"neg\"' 'field \"radius\"'
expect_line q-short '"status":"error"' 'shape \"short\"' 'field \"half_extents\"' '3 numbers'
expect_line q-what '"status":"error"' 'shape \"what\"' 'unknown 3D shape type \"blob\"'
expect_line q-empty '"status":"error"' 'shape \"empty\"' 'empty vertex list'
expect_line q-huge '"status":"error"' 'shape \"huge\"' 'not a finite number'
expect_line q-margin '"status":"error"' 'shape \"nomargin\"' 'field \"margin\"'
expect_line q-missing '"status":"error"' 'shape \"noradius\"' 'field \"radius\": missing'
expect_line q-unknown-shape '"status":"error"' 'unknown shape \"ghost\"'
expect_line q-unknown-op '"status":"error"' 'unknown op \"collide\"'
expect_line q-zero-quat '"status":"error"' 'field \"pose_b\"' 'zero quaternion'
expect_line q-bad-pos '"status":"error"' 'field \"pose_b\"' 'field \"position\"'
expect_line q-no-b '"status":"error"' 'field \"b\": missing'
expect_line q-spec '"status":"error"' 'field \"speculative_distance\"' 'must not be negative'
expect_line q-end '"status":"error"' 'field \"pose_b_end\"' 'zero quaternion'
expect_line q-target '"status":"error"' 'field \"target_separation\"' 'must not be negative'
expect_line q-aabb '"status":"error"' 'shape \"neg\"' 'field \"radius\"'
# A unit box at x = 2; apart by 1 beyond a speculative distance of 0: no
# points; B moving from x = 4 to 0 stops 0.5 short of A's face at x = 1 +
# 0.5: its centre at 2.5, t = 3/8.
expect_line good3 '"status":"ok"' '"lower":[1,-1,-1]' '"upper":[3,1,1]'
# A tiny quaternion is a rotation (here the identity), not a zero one.
expect_line good6 '"status":"ok"' '"lower":[1,-1,-1]' '"upper":[3,1,1]'
expect_line good4 '"status":"separated"' '"points":[]'
expect_line good5 '"status":"hit"' '"t":0.375'

# 5b. The program audit's cases: a rejected input carries the message alone;
# a cap reached names the cap and keeps the best answer (a time of impact's
# safe t: a rod standing up on its end 1e-9 above a floor, whose gap stays
# 1e-9 while every bound on its turn lets it close); a touching penetration
# line intersects, as the intersect query.
cat > "$WORK/audit.json" <<'JSON'
{"shapes": {"huge": {"type": "box", "half_extents": [1e200, 1, 1]},
            "box": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
            "ball": {"type": "sphere", "radius": 0.5},
            "egg": {"type": "ellipsoid", "radii": [0.8409443611689449, 0.34294005381461995, 0.4820806696182821]},
            "cone": {"type": "cone", "radius": 0.6663639967861181, "half_height": 0.30974023223558333},
            "floor": {"type": "box", "half_extents": [2, 2, 0.5]},
            "rod": {"type": "segment", "a": [0, 0, 0], "b": [1, 0, 0]}},
 "queries": [
  {"id": "rej-i", "op": "intersect", "a": "huge", "b": "box"},
  {"id": "rej-p", "op": "penetration", "a": "huge", "b": "box"},
  {"id": "touch-i", "op": "intersect", "a": "ball", "b": "box", "pose_b": {"position": [1.000000000001, 0.1, 0]}},
  {"id": "touch-p", "op": "penetration", "a": "ball", "b": "box", "pose_b": {"position": [1.000000000001, 0.1, 0]}},
  {"id": "epa-cap", "op": "penetration", "a": "egg", "b": "cone",
   "pose_a": {"rotation": [-0.49929449015107563, -0.22430664918799592, -0.8695475002685955, 0.36852468318715825]},
   "pose_b": {"position": [-0.1338016325315845, 0.243472209161951, 0.1969296995890576], "rotation": [0.8154954501499778, 0.19229589345452025, 0.23651561243285313, 0.8509193046639729]}},
  {"id": "toi-cap", "op": "time_of_impact", "a": "floor", "b": "rod",
   "pose_a": {"position": [0, 0, -0.5]}, "pose_a_end": {"position": [0, 0, -0.5]},
   "pose_b": {"position": [0, 0, 1e-9]},
   "pose_b_end": {"position": [0, 0, 1e-9], "rotation": [0.8253356149096783, 0, -0.5646424733950354, 0]}}
 ]}
JSON
gjk query "$WORK/audit.json" > "$WORK/audit.out" 2>&1
expect_audit() { # id, then patterns the line must contain (! pattern: must not)
  local id=$1; shift
  local l; l=$(grep "\"id\":\"$id\"" "$WORK/audit.out")
  for p in "$@"; do
    if [ "${p#!}" != "$p" ]; then check "$id line lacks ${p#!}" bash -c '! grep -qF -- "$1" <<< "$2"' _ "${p#!}" "$l"
    else check "$id line has $p" grep -qF -- "$p" <<< "$l"; fi
  done
}
expect_audit rej-i '"status":"error"' 'rejected the input' '!"intersect":'
expect_audit rej-p '"status":"error"' 'rejected the input' '!"intersect":' '!"normal":' '!"depth":'
expect_audit touch-i '"status":"touching"' '"intersect":true'
expect_audit touch-p '"status":"touching"' '"intersect":true'
if [ "$FLOAT" = 0 ]; then # (caps met in double; float's rounding ends these runs otherwise)
  expect_audit epa-cap '"status":"error"' 'iteration cap (EPA 250)' '"depth"' '"epa_iterations":250'
  expect_audit toi-cap '"status":"error"' 'time of impact steps 256' '"hit":false' '"t":0.0095'
fi
gjk trace "$WORK/audit.json" --id rej-p -o "$WORK/rej.svg" > /dev/null 2>&1; st=$?
check "trace of a rejected query exits 1 (got $st)" test "$st" = 1
check "trace of a rejected query draws nothing" test ! -e "$WORK/rej.svg"

# A field that does not belong where it stands is an error naming it.
cat > "$WORK/fields.json" <<'JSON'
{"shapes": {"box": {"type": "box", "half_extents": [1, 1, 1]},
            "odd": {"type": "box", "half_extents": [1, 1, 1], "radius": 2}},
 "queries": [{"id": "typo", "op": "distance", "a": "box", "b": "box", "pose_b": {"postion": [3, 0, 0]}},
             {"id": "extra", "op": "aabb", "a": "box", "pose_b": {"position": [1, 0, 0]}},
             {"id": "shape", "op": "aabb", "a": "odd"},
             {"id": "fine", "op": "distance", "a": "box", "b": "box", "pose_b": {"position": [3, 0, 0]}}]}
JSON
gjk query "$WORK/fields.json" > "$WORK/fields.out" 2>/dev/null; st=$?
check "unknown fields: exit 1 (got $st)" test "$st" = 1
check "a misspelt pose field" grep -qF '"id":"typo","op":"distance","status":"error","error":"query \"typo\": field \"pose_b\": field \"postion\": not a field here"' "$WORK/fields.out"
check "a field of another op" grep -qF 'query \"extra\": field \"pose_b\": not a field here' "$WORK/fields.out"
check "a field of another shape type" grep -qF 'shape \"odd\": field \"radius\": not a field here' "$WORK/fields.out"
check "the other queries answered" grep -qF '"id":"fine","op":"distance","status":"separated","distance":1' "$WORK/fields.out"

# Many shapes: references found by name among 3000 (sorted, not scanned);
# a name given twice is its first shape.
{
  printf '{"shapes": {"dup": {"type": "sphere", "radius": 1}, "dup": {"type": "sphere", "radius": 2}'
  for i in $(seq 0 2999); do printf ', "s%d": {"type": "sphere", "radius": %d.5}' "$i" "$i"; done
  printf '}, "queries": [{"id": "last", "op": "distance", "a": "s2999", "b": "s0", "pose_b": {"position": [4000, 0, 0]}},'
  printf ' {"id": "mid", "op": "distance", "a": "s1234", "b": "dup", "pose_b": {"position": [2000, 0, 0]}},'
  printf ' {"id": "none", "op": "distance", "a": "s3000", "b": "dup"}]}'
} > "$WORK/many.json"
gjk query "$WORK/many.json" > "$WORK/many.out" 2>/dev/null
check "many shapes: the last one" grep -qF '"id":"last","op":"distance","status":"separated","distance":1000,' "$WORK/many.out"
check "many shapes: a name given twice is the first" grep -qF '"id":"mid","op":"distance","status":"separated","distance":764.5' "$WORK/many.out"
check "many shapes: an unknown name" grep -qF 'unknown shape \"s3000\"' "$WORK/many.out"

if [ -w /dev/full ]; then # output that cannot be written: exit 2 with a message
  gjk query "$SRC/tools/scenes/demo3d.json" > /dev/full 2> "$WORK/err"; st=$?
  check "query to a full device: exit 2 (got $st)" test "$st" = 2
  check "query to a full device: a message" grep -q "cannot write" "$WORK/err"
  gjk demo --out "$WORK/demo" > /dev/full 2> "$WORK/err"; st=$?
  check "demo to a full device: exit 2 (got $st)" test "$st" = 2
fi

# 6. Usage errors.
gjk > /dev/null 2>&1; check "no command: exit 2" test $? = 2
gjk frobnicate > /dev/null 2>&1; check "unknown command: exit 2" test $? = 2
gjk --version | grep -q "^gjk "; check "--version" test $? = 0

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
