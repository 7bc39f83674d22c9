#!/usr/bin/env bash
# The simulation's animation page in a real headless browser (Debian's
# chromium; `make test` installs it). Usage: html_test.sh TEST_SIM_HTML
#
# TEST_SIM_HTML writes the pages: a run with every shape type (must pass), a
# run without bodies (a blank canvas: must be rejected as blank) and a page
# with a script error injected (must be rejected for the error). A page
# passes when
#   - the browser loads it and exits 0 (dump of the DOM and a screenshot);
#   - no script error: the page's error hook (window 'error' and
#     'unhandledrejection' events) leaves #gjk-errors empty, and the
#     browser's console log has no "Uncaught" line;
#   - the player's self-test (#gjk-selftest, written after drawing the first
#     frame from the canvas pixels) is present, counts the frames, bodies and
#     contacts the generator wrote, decoded every pose and contact, and found
#     at least 2% of the canvas pixels different from the background, and
#     pixels of the contact colour when the contacts are shown;
#   - the screenshot is a PNG file of non-trivial size.
# Without a browser the test fails: it is never skipped.
set -u
GEN=$1
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

# check_page NAME EXPECTED: REASON is empty when the page passes, else why not.
REASON=
check_page() {
  local name=$1 expected=$2 page="$WORK/$1.html" st
  REASON=
  browser "$name" --dump-dom "file://$page" > "$WORK/$name.dom" 2> "$WORK/$name.err"
  st=$?
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
  browser "$name-shot" --screenshot="$WORK/$name.png" "file://$page" \
    > "$WORK/$name-shot.out" 2>&1
  st=$?
  if [ "$st" != 0 ] || [ ! -s "$WORK/$name.png" ]; then REASON="no screenshot (browser exited with $st)"; return; fi
  if [ "$(head -c 8 "$WORK/$name.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
    REASON="the screenshot is not a PNG file"; return
  fi
  local size
  size=$(wc -c < "$WORK/$name.png")
  echo "  $name: screenshot $size bytes"
  if [ "$size" -lt 10000 ]; then REASON="screenshot of $size bytes: nothing drawn"; return; fi
}

# expect_pass NAME [FLAG]: the page must pass.
expect_pass() {
  local name=$1 expected
  expected=$("$GEN" "$WORK/$name.html" ${2:-}) || { echo "FAIL: $name: the generator failed"; fail=1; return; }
  check_page "$name" "$expected"
  if [ -n "$REASON" ]; then echo "FAIL: $name: $REASON"; fail=1; else echo "ok: $name passes"; fi
}

# expect_reject NAME FLAG PATTERN: the page must fail, for the reason PATTERN.
expect_reject() {
  local name=$1 expected
  expected=$("$GEN" "$WORK/$name.html" "$2") || { echo "FAIL: $name: the generator failed"; fail=1; return; }
  check_page "$name" "$expected"
  case "$REASON" in
    *"$3"*) echo "ok: $name is rejected ($REASON)" ;;
    "") echo "FAIL: $name: the check accepted a page it must reject"; fail=1 ;;
    *) echo "FAIL: $name: rejected for another reason than '$3': $REASON"; fail=1 ;;
  esac
}

expect_pass every_shape
expect_reject no_bodies --empty "blank canvas"
expect_reject script_error --script-error "script error"
[ "$fail" = 0 ] && echo "all browser checks passed"
exit "$fail"
