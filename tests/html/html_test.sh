#!/usr/bin/env bash
# The simulation's animation page in a real headless browser (Debian's
# chromium; `make test` installs it).
# Usage: html_test.sh TEST_SIM_HTML [PAGE...]
#
# TEST_SIM_HTML writes the pages: a run with every shape type and a run of
# 200 bodies over 600 frames (both must pass), a run without bodies (a blank
# canvas: must be rejected as blank), a page with a script error injected
# (must be rejected for the error) and a page whose canvas a style hides (its
# self-test still counts the pixels drawn into the canvas, but the screenshot
# is blank: must be rejected). PAGEs given after it (pages written by
# `gjk simulate --html`) must pass, with the counts they state. A page
# passes when
#   - the browser loads it and exits 0 (one run: dump of the DOM at the
#     load event and a screenshot);
#   - no script error: the page's error hook (window 'error' and
#     'unhandledrejection' events) leaves #gjk-errors empty, and the
#     browser's console log has no "Uncaught" line;
#   - the player's self-test (#gjk-selftest, written after drawing the first
#     frame from the canvas pixels) is present, counts the frames, bodies and
#     contacts the generator wrote, decoded every pose and contact, and found
#     at least 2% of the canvas pixels different from the background, and
#     pixels of the contact colour when the contacts are shown;
#   - the screenshot is a PNG file in which, decoded by png_pixels.py, at
#     least 2% of the picture's pixels differ from the background;
#   - every control works (all pages but the large one): opened with
#     #selftest, the page drives them with
#     synthetic events (drag to orbit, wheel to zoom, the contacts switch,
#     the slider, the keys, play/pause, the up menu, double-click to reset)
#     and checks their effect on its state and its pixels (#gjk-controls).
# Without a browser the test fails: it is never skipped.
set -u
GEN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0

CHROMIUM=${GJK_CHROMIUM:-}
if [ -z "$CHROMIUM" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" > /dev/null 2>&1; then CHROMIUM=$(command -v "$c"); break; fi
  done
fi
if [ -z "$CHROMIUM" ]; then
  echo "FAIL: no chromium found (Debian package chromium; \`make test\` installs it, or set GJK_CHROMIUM)"
  exit 1
fi

if ! command -v python3 > /dev/null 2>&1; then
  echo "FAIL: python3 is needed to decode the screenshots (Debian package python3; \`make test\` installs it)"
  exit 1
fi

# browser NAME ARGS...: one headless run with a profile of its own (ctest may
# run tests in parallel); as root the sandbox is unavailable. The page draws
# its first frame and its self-test while it loads, so the DOM and the
# screenshot are taken at the load event (no virtual time budget: with the
# player's animation loop running, a budget sometimes never expired). A run
# that hangs is stopped after 40 s and tried once more.
browser() {
  local name=$1 try st; shift
  for try in 1 2; do
    rm -rf "$WORK/profile-$name"
    timeout 40 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
      --no-default-browser-check --disable-extensions --user-data-dir="$WORK/profile-$name" \
      --window-size=800,600 --enable-logging=stderr --v=0 "$@"
    st=$?
    [ "$st" = 124 ] || return "$st"
    echo "  (the browser hung on $name; trying again)" >&2
  done
  return "$st"
}

# open_page NAME: the browser's run on page NAME, in the background: the DOM
# at the load event, its log, a screenshot and its exit status.
open_page() {
  local name=$1
  local fragment='#selftest'
  [ "$name" = large ] && fragment= # its controls are those of every_shape; a draw of it costs the most
  browser "$name" --screenshot="$WORK/$name.png" --dump-dom "file://$WORK/$name.html$fragment" \
    > "$WORK/$name.dom" 2> "$WORK/$name.err"
  echo $? > "$WORK/$name.status"
}

# check_page NAME EXPECTED: REASON is empty when the page passes, else why not.
REASON=
check_page() {
  local name=$1 expected=$2 page="$WORK/$1.html" st
  REASON=
  st=$(cat "$WORK/$name.status")
  if [ "$st" != 0 ]; then REASON="browser exited with $st: $(tail -n 5 "$WORK/$name.err")"; return; fi
  local errors selftest
  errors=$(sed -n 's/.*<span id="gjk-errors">\([^<]*\)<\/span>.*/\1/p' "$WORK/$name.dom")
  selftest=$(sed -n 's/.*<span id="gjk-selftest">\([^<]*\)<\/span>.*/\1/p' "$WORK/$name.dom")
  if [ -n "$errors" ]; then REASON="script error reported by the page: $errors"; return; fi
  if grep -q "Uncaught" "$WORK/$name.err"; then
    REASON="script error in the console: $(grep -m 3 "Uncaught" "$WORK/$name.err")"; return
  fi
  if [ -z "$selftest" ]; then REASON="no self-test result (the player did not run)"; return; fi
  echo "  $name: $selftest"
  # A page given on the command line has no expected counts: its own stand.
  [ "$expected" = any ] && expected=$(sed -n 's/^\(frames=[0-9]* bodies=[0-9]* contacts=[0-9]*\) .*/\1/p' <<< "$selftest")
  case "$selftest" in
    "$expected "*) ;;
    *) REASON="self-test counts differ: expected '$expected', page says '$selftest'"; return ;;
  esac
  local drawn total cpix badq data contacts
  drawn=$(sed -n 's/.* drawn=\([0-9]*\) of \([0-9]*\) .*/\1/p' <<< "$selftest")
  total=$(sed -n 's/.* drawn=\([0-9]*\) of \([0-9]*\) .*/\2/p' <<< "$selftest")
  cpix=$(sed -n 's/.* contact_pixels=\([0-9]*\).*/\1/p' <<< "$selftest")
  badq=$(sed -n 's/.* bad_quaternions=\([0-9]*\).*/\1/p' <<< "$selftest")
  data=$(sed -n 's/.* data=\([a-z]*\).*/\1/p' <<< "$selftest")
  contacts=$(sed -n 's/.*contacts=\([0-9]*\).*/\1/p' <<< "$expected")
  if [ -z "$drawn" ] || [ -z "$total" ] || [ -z "$cpix" ] || [ -z "$badq" ] || [ -z "$data" ]; then
    REASON="unreadable self-test: $selftest"; return
  fi
  if [ "$data" != ok ]; then REASON="the page's data did not decode to the expected sizes"; return; fi
  if [ "$badq" != 0 ]; then REASON="$badq poses decoded to non-unit quaternions"; return; fi
  if [ "$total" -le 0 ] || [ $((drawn * 50)) -lt "$total" ]; then
    REASON="blank canvas: $drawn of $total pixels differ from the background"; return
  fi
  if [ "$contacts" -gt 0 ] && [ "$cpix" -le 0 ]; then REASON="contacts shown but none drawn"; return; fi
  if [ ! -s "$WORK/$name.png" ]; then REASON="no screenshot"; return; fi
  if [ "$(head -c 8 "$WORK/$name.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
    REASON="the screenshot is not a PNG file"; return
  fi
  # The screenshot decoded independently of the page: the picture (below the
  # tool bar, above the status line) must differ from the background too.
  local pixels
  pixels=$(python3 "$HERE/png_pixels.py" "$WORK/$name.png" 244 245 247 40 24) ||
    { REASON="the screenshot could not be decoded"; return; }
  set -- $pixels
  echo "  $name: screenshot $(wc -c < "$WORK/$name.png") bytes, $1 of $2 pixels differ from the background"
  if [ $(($1 * 50)) -lt "$2" ]; then REASON="blank screenshot: $1 of $2 pixels differ from the background"; return; fi
  # The controls, driven by the page's own synthetic events (#selftest).
  local controls want c
  controls=$(sed -n 's/.*<span id="gjk-controls">\([^<]*\)<\/span>.*/\1/p' "$WORK/$name.dom")
  [ "$name" = large ] && return
  echo "  $name: $controls"
  if [ -z "$controls" ]; then REASON="no controls result"; return; fi
  case "$controls" in *=bad*) REASON="a control failed: $controls"; return ;; esac
  want="orbit hover zoom up reset"
  [ "$contacts" -gt 0 ] && want="$want contacts"
  [ "$(sed -n 's/^frames=\([0-9]*\).*/\1/p' <<< "$expected")" -gt 1 ] && want="$want slider keys play"
  for c in $want; do
    case " ${controls#controls: } " in *" $c=ok "*) ;; *) REASON="control $c not checked: $controls"; return ;; esac
  done
}

# The pages: NAME, generator flag, and what the check must say ("pass" or
# a part of the reason for rejecting it).
PAGES=(
  "every_shape||pass"
  "large|--large|pass"
  "no_bodies|--empty|blank canvas"
  "script_error|--script-error|script error"
  "hidden_canvas|--hidden-canvas|blank screenshot"
)
declare -A EXPECTED
for entry in "${PAGES[@]}"; do
  IFS='|' read -r name flag verdict <<< "$entry"
  EXPECTED[$name]=$("$GEN" "$WORK/$name.html" $flag) || { echo "FAIL: $name: the generator failed"; fail=1; }
done
# Pages given after the generator (e.g. written by `gjk simulate --html`)
# must pass too.
n=0
for extra in "${@:2}"; do
  n=$((n + 1))
  if cp "$extra" "$WORK/page$n.html"; then
    PAGES+=("page$n||pass")
    EXPECTED[page$n]=any
    echo "  page$n: $extra"
  else
    echo "FAIL: cannot read $extra"; fail=1
  fi
done
# The browsers run side by side (each with its own profile), as many at a
# time as there are processors, then each page's results are checked.
slots=$(nproc 2> /dev/null || echo 1) running=0
for entry in "${PAGES[@]}"; do
  IFS='|' read -r name flag verdict <<< "$entry"
  open_page "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$slots" ]; then wait -n; running=$((running - 1)); fi
done
wait
for entry in "${PAGES[@]}"; do
  IFS='|' read -r name flag verdict <<< "$entry"
  [ -n "${EXPECTED[$name]}" ] || continue
  check_page "$name" "${EXPECTED[$name]}"
  if [ "$verdict" = pass ]; then
    if [ -n "$REASON" ]; then echo "FAIL: $name: $REASON"; fail=1; else echo "ok: $name passes"; fi
  else
    case "$REASON" in
      *"$verdict"*) echo "ok: $name is rejected ($REASON)" ;;
      "") echo "FAIL: $name: the check accepted a page it must reject"; fail=1 ;;
      *) echo "FAIL: $name: rejected for another reason than '$verdict': $REASON"; fail=1 ;;
    esac
  fi
done
[ "$fail" = 0 ] && echo "all browser checks passed"
exit "$fail"
