#!/usr/bin/env bash
# Drives the real passlens binary in tmux through every pane, records the
# session with ctrl+s, quits, replays the script headless with
# `passlens replay` and requires the same interpreter result the explorer
# showed (samples/wave-switch-42: 42 42 40 40 on a wave of 4 lanes with
# separate switch cases). Prints "ok" lines; exits non-zero with the screen
# on the first failure.
# Usage: tmux-record.sh PASSLENS_BINARY DIR
set -u
bin=$1
dir=$2
sock=passlens-rec-$$
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
cd "$dir" || exit 1
tm new-session -d -s e -x 160 -y 48 "env NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent $bin samples/wave-switch-42; echo EXITED \$?; sleep 30"
wait_for "define void @main()" "first frame shows the IR"
tm send-keys -t e Left
wait_for "step 5/" "left steps back"
tm send-keys -t e Right
tm send-keys -t e 2
wait_for "diff eliminate-multilevel-break → simplify" "2 shows the diff"
tm send-keys -t e 3
wait_for "dominator tree" "3 shows the trees"
tm send-keys -t e Down
wait_for "condbr bool %isCase0" "moving in the tree shows the block beside it"
tm send-keys -t e 4
wait_for "back edge" "4 shows the CFG"
tm send-keys -t e 6
wait_for "OpCapability Shader" "6 shows the target code"
tm send-keys -t e 1 / 'isCase0 = icmp' Enter e
wait_for "load from stage input @threadID" "e explains the divergent value in the explanation pane"
tm send-keys -t e 1 / 'WaveActiveSum.1 =' Enter
wait_for "matching lines" "/ searches the IR"
tm send-keys -t e 8
wait_for "IR ↔ source" "8 shows the source beside the IR"
wait_for "16▶       sum += WaveActiveSum(10);" "the source follows the IR cursor"
tm send-keys -t e 5 W W y r
wait_for "[  0] 42  42  40  40" "5 and r run the sample's input on a wave of 4 with separate cases"
tm send-keys -t e 7
wait_for "why is %isCase0 divergent?" "7 shows the explanation again"
tm send-keys -t e C-s
wait_for "save replay script to:" "ctrl+s asks where to save"
tm send-keys -t e C-u
for _ in $(seq 1 40); do tm send-keys -t e BSpace; done
tm send-keys -t e "$dir/session.replay" Enter
wait_for "wrote $dir/session.replay" "the session is saved"
tm send-keys -t e q
wait_for "EXITED 0" "q quits with status 0"
cat "$dir/session.replay"
"$bin" replay "$dir/session.replay" > "$dir/replay.out" 2>&1 || { cat "$dir/replay.out"; fail "passlens replay failed"; }
grep -qF '"data": [42, 42, 40, 40]' "$dir/replay.out" || { cat "$dir/replay.out"; fail "headless replay gives another result"; }
echo "ok: the headless replay reproduces the explorer's run (42 42 40 40)"
grep -qF 'explain %isCase0' "$dir/session.replay" || fail "the explanation was not recorded"
grep -qF '%threadID.1 is divergent: load from stage input' "$dir/replay.out" || fail "the replayed explanation differs"
echo "ok: the explanation replays"
