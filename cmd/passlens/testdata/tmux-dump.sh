#!/usr/bin/env bash
# Drives the real passlens binary in tmux on a real clang-22 pass log: the
# explorer opens the log by content (a .txt file), steps, shows a diff, the
# dominator tree and the CFG of an LLVM step, filters by function and jumps
# to the next step that changed it. Prints "ok" lines; exits non-zero with
# the screen on the first failure.
# Usage: tmux-dump.sh PASSLENS_BINARY LOG FUNCTION
set -u
bin=$1
log=$2
fn=$3
sock=passlens-dump-test-$$
tm() { tmux -L "$sock" "$@"; }
cleanup() { tm kill-server 2>/dev/null; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen ---"; tm capture-pane -p -t e; exit 1; }
wait_for() { # text, what
  for _ in $(seq 1 150); do
    tm capture-pane -p -t e 2>/dev/null | grep -qF -- "$1" && { echo "ok: $2"; return 0; }
    sleep 0.1
  done
  fail "$2: '$1' not on screen"
}
tm new-session -d -s e -x 120 -y 32 "env NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent $bin $log; echo EXITED \$?; sleep 30"
wait_for "AnnotationRemarksPass" "first frame shows the last step of the log"
wait_for "target triple" "the step is the whole module"
tm send-keys -t e Home
wait_for "step 0/" "home goes to the first dump"
tm send-keys -t e Right
wait_for "step 1/" "right steps to the next dump"
tm send-keys -t e '}'
wait_for "—" "} jumps to the next changed step"
tm send-keys -t e 2
wait_for "diff " "2 shows the diff"
tm send-keys -t e 3
wait_for "dominator tree" "3 shows the dominator tree of an imported step"
tm send-keys -t e 4
wait_for "CFG" "4 shows the CFG"
tm send-keys -t e 1
tm send-keys -t e f
wait_for "function (empty = all)" "f asks for a function"
tm send-keys -t e "$fn" Enter
tm send-keys -t e Home
tm send-keys -t e '}'
wait_for "on $fn" "} with a function selected goes to a step that changed it"
tm send-keys -t e q
wait_for "EXITED 0" "q quits with status 0"
