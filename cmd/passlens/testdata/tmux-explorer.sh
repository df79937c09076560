#!/usr/bin/env bash
# Drives the real passlens binary in tmux as a person would: start it, step
# through passes, open help, toggle the uniformity overlay, quit. Prints
# "ok" lines; exits non-zero with the screen on the first failure.
# Usage: tmux-explorer.sh PASSLENS_BINARY [FILE]
set -u
bin=$1
file=${2:-}
sock=passlens-test-$$
tm() { tmux -L "$sock" "$@"; }
cleanup() { tm kill-server 2>/dev/null; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen ---"; tm capture-pane -p -t e; exit 1; }
# The bound (60 s) only catches a hung explorer; on a loaded machine a
# frame may take seconds, and the outcome must not depend on that.
wait_for() { # text, what
  for _ in $(seq 1 600); do
    tm capture-pane -p -t e 2>/dev/null | grep -qF -- "$1" && { echo "ok: $2"; return 0; }
    sleep 0.1
  done
  fail "$2: '$1' not on screen"
}
tm new-session -d -s e -x 100 -y 30 "env NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent $bin $file; echo EXITED \$?; sleep 30"
wait_for "define void @main()" "first frame shows the IR"
tm send-keys -t e Home
wait_for "the module as loaded" "home goes to the input snapshot"
tm send-keys -t e Right
wait_for "step 1/" "right steps to the next pass"
tm send-keys -t e '?'
wait_for "passlens keys" "? opens the help overlay"
tm send-keys -t e Escape
wait_for "q  quit" "esc closes help"
tm send-keys -t e u
wait_for "uniformity overlay on" "u toggles the uniformity overlay"
tm send-keys -t e 3
wait_for "dominator tree" "3 shows the dominator tree"
tm resize-window -t e -x 70 -y 20 2>/dev/null || tm resize-pane -t e -x 70 -y 20
wait_for "terminal too small" "below 80x24 the explorer says so"
tm resize-window -t e -x 100 -y 30 2>/dev/null || tm resize-pane -t e -x 100 -y 30
wait_for "dominator tree" "resizing back redraws"
tm send-keys -t e q
wait_for "EXITED 0" "q quits with status 0"
