#!/usr/bin/env bash
# End-to-end tests of `gjk simulate`: the built-in scene, the states file
# (one JSON line per step with the documented fields), determinism of two
# runs, the animation page, and bad input (exit status 2 with a message that
# names the body and the field). Usage: sim_tests.sh GJK SOURCE_DIR
set -u
GJK_BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") SRC=$2
# GJK_WRAP (optional) runs every invocation under a tool, e.g. valgrind;
# SIM_STEPS (optional) shortens the long runs.
gjk() { ${GJK_WRAP:-} "$GJK_BIN" "$@"; }
STEPS=${SIM_STEPS:-600}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# 1. The built-in scene: every 3D shape type, a summary line, exit 0.
gjk simulate --steps "$STEPS" > "$WORK/builtin.txt" 2>&1; st=$?
check "built-in scene exits 0 (got $st)" test "$st" = 0
check "built-in scene prints a summary" grep -q "gjk simulate: built-in scene: .* bodies, $STEPS steps" "$WORK/builtin.txt"
for t in box sphere capsule cylinder cone ellipsoid polytope triangle segment point; do
  check "built-in scene uses a $t" grep -q "\"type\": \"$t\"" "$SRC/tools/scenes/simulation.json"
done

# 2. A small scene: a ball dropped on a static box.
cat > "$WORK/drop.json" <<'JSON'
{"shapes": {"ground": {"type": "box", "half_extents": [2, 2, 0.5]},
            "ball": {"type": "sphere", "radius": 0.5}},
 "world": {"steps": 180},
 "bodies": [{"id": "ground", "shape": "ground", "pose": {"position": [0, 0, -0.5]}, "static": true},
            {"id": "ball", "shape": "ball", "pose": {"position": [0, 0, 2]}, "velocity": [0, 0, 0]}]}
JSON
gjk simulate "$WORK/drop.json" --states "$WORK/drop.jsonl" > "$WORK/out" 2>&1; st=$?
check "drop scene exits 0 (got $st)" test "$st" = 0
check "one states line per step (world.steps = 180)" test "$(wc -l < "$WORK/drop.jsonl")" = 180
check "says where the states are" grep -q "wrote $WORK/drop.jsonl" "$WORK/out"
first=$(head -n 1 "$WORK/drop.jsonl") last=$(tail -n 1 "$WORK/drop.jsonl")
for f in '"step":1,' '"t":0.016666666666666666' '"bodies":[{"id":"ground","position":[0,0,-0.5],"rotation":[1,0,0,0]' \
         '"velocity":' '"angular_velocity":' '"contacts":' '"max_penetration":'; do
  check "first line has $f" grep -qF -- "$f" <<< "$first"
done
check "last line is step 180 at t = 3 s" grep -qE '"step":180,"t":3(,|\.0000000000000)' <<< "$last"
# The ball rests on the ground: its centre 0.5 m up (to 5 mm), at rest.
z=$(sed -n 's/.*"id":"ball","position":\[[^,]*,[^,]*,\([^]]*\)\].*/\1/p' <<< "$last")
check "the ball ends at rest 0.5 m up (z = $z)" awk -v z="$z" 'BEGIN { exit !(z > 0.495 && z < 0.505) }'
check "the ball's contact is counted" grep -qE '"contacts":[1-9]' <<< "$last"
gjk simulate "$WORK/drop.json" --steps 7 --states "$WORK/seven.jsonl" > /dev/null 2>&1
check "--steps overrides world.steps" test "$(wc -l < "$WORK/seven.jsonl")" = 7
check "--steps 7: the same first 7 lines" cmp -s "$WORK/seven.jsonl" <(head -n 7 "$WORK/drop.jsonl")
gjk simulate - --steps 3 --states - < "$WORK/drop.json" > "$WORK/stdout.jsonl" 2>/dev/null
check "scene from stdin, states to stdout" test "$(grep -c '"step"' "$WORK/stdout.jsonl")" = 3

# 3. Determinism: two runs, byte-identical states.
gjk simulate --steps "$STEPS" --states "$WORK/a.jsonl" > /dev/null 2>&1
gjk simulate --steps "$STEPS" --states "$WORK/b.jsonl" > /dev/null 2>&1
check "two runs of the built-in scene give identical states" cmp -s "$WORK/a.jsonl" "$WORK/b.jsonl"
check "the states have one line per step" test "$(wc -l < "$WORK/a.jsonl")" = "$STEPS"

# 4. The animation page.
(cd "$WORK" && gjk simulate "$WORK/drop.json" --html page.html > "$WORK/html.txt" 2>&1); st=$?
check "--html exits 0 (got $st)" test "$st" = 0
check "--html writes the page" grep -qi "<html" "$WORK/page.html"
check "--html says where (absolute path)" grep -q "wrote $WORK/page.html" "$WORK/html.txt"
gjk simulate "$WORK/drop.json" --html "$WORK/no-such-dir/page.html" --states "$WORK/early.jsonl" > /dev/null 2> "$WORK/err"; st=$?
check "--html into a missing directory: exit 2 (got $st)" test "$st" = 2
check "--html into a missing directory: told before the run (no states)" test ! -s "$WORK/early.jsonl"

# 5. Bad input: exit 2, a message naming the body and the field, no states.
reject() { # name, expected message pattern (extended regex), scene text
  printf '%s' "$3" > "$WORK/bad.json"
  gjk simulate "$WORK/bad.json" --states "$WORK/bad.jsonl" > "$WORK/out" 2> "$WORK/err"; st=$?
  check "$1: exit 2 (got $st)" test "$st" = 2
  check "$1: message matches '$2' ($(head -c 200 "$WORK/err"))" grep -qE -- "$2" "$WORK/err"
  check "$1: no states written" test ! -s "$WORK/bad.jsonl"
  rm -f "$WORK/bad.jsonl"
}
S='"shapes": {"ball": {"type": "sphere", "radius": 0.5}, "tri": {"type": "triangle", "a": [0,0,0], "b": [1,0,0], "c": [0,1,0]}, "neg": {"type": "sphere", "radius": -1}}'
reject "unknown shape" 'body "b1": field "shape": unknown shape "ghost"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ghost\"}]}"
reject "zero density" 'body "b1": field "density": must be positive' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"density\": 0}]}"
reject "negative density" 'body "b1": field "density"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"density\": -5}]}"
reject "restitution above 1" 'body "b1": field "restitution": must lie in \[0, 1\]' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"restitution\": 1.5}]}"
reject "negative restitution" 'body "b1": field "restitution"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"restitution\": -0.1}]}"
reject "negative friction" 'body "b1": field "friction": must not be negative' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"friction\": -0.2}]}"
reject "zero dt" 'field "world": field "dt": must be positive' "{$S, \"world\": {\"dt\": 0}, \"bodies\": []}"
reject "negative dt" 'field "world": field "dt"' "{$S, \"world\": {\"dt\": -0.01}, \"bodies\": []}"
reject "infinite velocity" 'body "b1": field "velocity": not a finite number' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"velocity\": [1e999, 0, 0]}]}"
reject "infinite gravity" 'field "world": field "gravity": not a finite number' "{$S, \"world\": {\"gravity\": [0, 0, -1e999]}, \"bodies\": []}"
reject "NaN" 'malformed JSON' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"density\": NaN}]}"
reject "zero quaternion" 'body "b1": field "pose": field "rotation": zero quaternion' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"pose\": {\"rotation\": [0, 0, 0, 0]}}]}"
reject "dynamic triangle" 'body "b1": field "static": .*triangle' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"tri\"}]}"
reject "bad shape" 'body "b1": field "shape": shape "neg": field "radius"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"neg\", \"static\": true}]}"
reject "missing id" 'body "#0": field "id": missing' "{$S, \"bodies\": [{\"shape\": \"ball\"}]}"
reject "duplicate id" 'body "b1": field "id"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\"}, {\"id\": \"b1\", \"shape\": \"ball\", \"pose\": {\"position\": [3, 0, 0]}}]}"
reject "static not a boolean" 'body "b1": field "static"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"static\": 1}]}"
reject "steps not whole" 'field "world": field "steps"' "{$S, \"world\": {\"steps\": 2.5}, \"bodies\": []}"
reject "iterations zero" 'field "world": field "iterations"' "{$S, \"world\": {\"iterations\": 0}, \"bodies\": []}"
reject "bodies not an array" 'field "bodies"' "{$S, \"bodies\": {}}"
reject "2D scene" 'field "dim"' '{"dim": 2, "bodies": []}'
reject "the second body is bad" 'body "b2": field "friction"' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\"}, {\"id\": \"b2\", \"shape\": \"ball\", \"friction\": -1}]}"
reject "a misspelt body field" 'body "b1": field "frcition": not a field here' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"frcition\": 0.3}]}"
reject "a misspelt world field" 'field "world": field "gravty": not a field here' "{$S, \"world\": {\"gravty\": [0, 0, -1]}, \"bodies\": []}"
reject "a misspelt pose field" 'body "b1": field "pose": field "postion": not a field here' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"pose\": {\"postion\": [0, 0, 1]}}]}"
# The program audit's cases: a mass that underflows, a volume that overflows.
reject "tiny density" 'body "b1": its mass .* beyond the numbers' "{$S, \"bodies\": [{\"id\": \"b1\", \"shape\": \"ball\", \"density\": 1e-320}]}"
reject "inertia beyond the range" 'body "b1": its mass .* or its inertia is beyond' '{"shapes": {"big": {"type": "sphere", "radius": 10}}, "bodies": [{"id": "b1", "shape": "big", "density": 1e100}]}'
reject "huge ball" 'body "b1": .*volume is beyond the numbers' '{"shapes": {"big": {"type": "sphere", "radius": 1e200}}, "bodies": [{"id": "b1", "shape": "big"}]}'
# A run the numbers cannot hold, or that the library refuses, stops with a
# message and exit 2, not lines of null states: a step of 1e300 s, a ground
# box 1e300 wide (beyond the library's range: it rejects the contact).
diverge() { # name, expected message pattern, scene text
  printf '%s' "$3" > "$WORK/div.json"
  gjk simulate "$WORK/div.json" --steps 30 --states "$WORK/div.jsonl" > /dev/null 2> "$WORK/err"; st=$?
  check "$1: exit 2 (got $st)" test "$st" = 2
  check "$1: message matches '$2' ($(head -c 200 "$WORK/err"))" grep -qE -- "$2" "$WORK/err"
  check "$1: no null states" bash -c '! grep -q null "$1"' _ "$WORK/div.jsonl"
}
G='"ground": {"type": "box", "half_extents": [5, 5, 0.5]}'
diverge "a step of 1e300 s" 'step [0-9]+: ' "{\"shapes\": {$G, \"ball\": {\"type\": \"sphere\", \"radius\": 0.5}}, \"world\": {\"dt\": 1e300}, \"bodies\": [{\"id\": \"g\", \"shape\": \"ground\", \"static\": true, \"pose\": {\"position\": [0, 0, -0.5]}}, {\"id\": \"b\", \"shape\": \"ball\", \"pose\": {\"position\": [0, 0, 0.4]}}]}"
diverge "a ground 1e300 wide" 'step [0-9]+: the library rejected the contact of bodies 0 and 1' '{"shapes": {"wide": {"type": "box", "half_extents": [1e300, 1e300, 0.5]}, "ball": {"type": "sphere", "radius": 0.5}}, "bodies": [{"id": "g", "shape": "wide", "static": true, "pose": {"position": [0, 0, -0.5]}}, {"id": "b", "shape": "ball", "pose": {"position": [0, 0, 0.6]}}]}'
# A run that fails leaves the --html path as it was: a file there intact, no
# file where there was none (review of this change: it was emptied, then
# removed).
printf 'keep me' > "$WORK/old.html"
gjk simulate "$WORK/div.json" --steps 30 --html "$WORK/old.html" > /dev/null 2>&1; st=$?
check "a failed run with --html: exit 2 (got $st)" test "$st" = 2
check "a failed run keeps the file at the --html path" test "$(cat "$WORK/old.html")" = "keep me"
gjk simulate "$WORK/div.json" --steps 30 --html "$WORK/new.html" > /dev/null 2>&1
check "a failed run leaves no new --html file" test ! -e "$WORK/new.html"
# A static body may have any density, a triangle may be static.
printf '%s' "{$S, \"bodies\": [{\"id\": \"t\", \"shape\": \"tri\", \"static\": true, \"density\": 0}]}" > "$WORK/ok.json"
gjk simulate "$WORK/ok.json" --steps 2 > /dev/null 2>&1; check "static triangle with density 0 is accepted" test $? = 0
gjk simulate "$WORK/no-such-file.json" > /dev/null 2> "$WORK/err"; st=$?
check "missing scene file: exit 2" test "$st" = 2
gjk simulate "$WORK/drop.json" --steps -3 > /dev/null 2>&1; check "--steps -3: exit 2" test $? = 2
gjk simulate "$WORK/drop.json" --frobnicate > /dev/null 2>&1; check "unknown option: exit 2" test $? = 2

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
