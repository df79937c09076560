#!/usr/bin/env bash
# bench/tui-tmux.sh: the explorer measured as a person sees it — the real
# binary in tmux at 160×48 on a generated HLSL module, whole process.
#
# For each binary given (e.g. the build before and after a change) it
# starts `passlens FILE` in a detached tmux session and polls the screen
# (tmux capture-pane, every 10 ms) to time:
#   first    start → the first screen with the IR and the pass list
#   ir       ←/→ in the IR pane: key → the screen answers (title changes)
#   diff     ←/→ in the diff pane: key → answer, and → settled (diff shown)
#   trees    3 opens the trees pane; then ←/→: key → answer, → settled
#            (tree drawn, no "computing")
# and reads the process's peak RSS (VmHWM) and CPU time (user+sys) after
# every pane was opened.
# "answer" is the first screen change after the key; "settled" is when the
# screen no longer shows a computing/spinner line and is stable for 50 ms.
# A key that freezes the UI shows up as a long answer time.
#
# Usage: bench/tui-tmux.sh FILE.hlsl BINARY...
# Env:   STEPS (4: keys per pane), TIMEOUT (60 s per wait), ALL (1: also open
#        the source and explanation panes, for binaries that have them)
set -uo pipefail
file=$1
shift
steps=${STEPS:-4}
timeout=${TIMEOUT:-60}
sock=passlens-bench-$$
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null' EXIT

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
screen() { tm capture-pane -p -t b 2>/dev/null; }

# wait_grep TEXT: until the screen shows TEXT; echoes the time.
wait_grep() {
	local end=$(( $(now) + timeout * 1000000000 ))
	while [ "$(now)" -lt $end ]; do
		screen | grep -qF -- "$1" && { now; return 0; }
		sleep 0.01
	done
	echo "timeout waiting for '$1'" >&2
	screen >&2
	now
	return 1
}

# key_times KEY: sends KEY; echoes "answer_ms settled_ms".
key_times() {
	local before t0 t1 t2 s prev stable end
	before=$(screen | md5sum)
	t0=$(now)
	tm send-keys -t b "$1"
	end=$(( t0 + timeout * 1000000000 ))
	while [ "$(now)" -lt $end ]; do
		[ "$(screen | md5sum)" != "$before" ] && break
		sleep 0.005
	done
	t1=$(now)
	prev="" stable=0
	while [ "$(now)" -lt $end ]; do
		s=$(screen)
		if ! grep -qE 'computing|generating|compiling|⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|⠇|⠏|…\(esc cancels\)' <<<"$s" && [ "$s" = "$prev" ]; then
			stable=$((stable + 1))
			[ $stable -ge 5 ] && break
		else
			stable=0
			t2=$(now)
		fi
		prev=$s
		sleep 0.01
	done
	[ -z "${t2:-}" ] && t2=$t1
	echo "$(ms "$t0" "$t1") $(ms "$t0" "$t2")"
}

# series NAME KEY...: times each key; prints min..max answer and settled.
series() {
	local name=$1
	shift
	local as=() ss=()
	for k in "$@"; do
		read -r a s < <(key_times "$k")
		as+=("$a")
		ss+=("$s")
	done
	local amin amax smin smax
	amin=$(printf '%s\n' "${as[@]}" | sort -n | head -1)
	amax=$(printf '%s\n' "${as[@]}" | sort -n | tail -1)
	smin=$(printf '%s\n' "${ss[@]}" | sort -n | head -1)
	smax=$(printf '%s\n' "${ss[@]}" | sort -n | tail -1)
	printf '  %-22s answer %6s..%-6s ms   settled %6s..%-6s ms   (%s)\n' "$name" "$amin" "$amax" "$smin" "$smax" "${as[*]} / ${ss[*]}"
}

keys_lr() { # alternate Left and Right, $steps keys
	local out=() i
	for ((i = 0; i < steps; i++)); do
		if ((i % 2 == 0)); then out+=(Left); else out+=(Right); fi
	done
	echo "${out[@]}"
}

for bin in "$@"; do
	echo "== $bin on $file ($(wc -l <"$file") lines), 160×48, load average $(cut -d' ' -f1 /proc/loadavg)"
	tm kill-server 2>/dev/null
	t0=$(now)
	tm new-session -d -s b -x 160 -y 48 "exec env NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent $bin $file"
	pid=$(tm list-panes -t b -F '#{pane_pid}')
	t1=$(wait_grep "define void @main()")
	echo "  first screen           $(ms "$t0" "$t1") ms"
	sleep 0.5
	# shellcheck disable=SC2046
	series "ir ←/→" $(keys_lr)
	read -r a s < <(key_times 2)
	echo "  open diff (2)          answer $a ms, settled $s ms"
	# shellcheck disable=SC2046
	series "diff ←/→" $(keys_lr)
	read -r a s < <(key_times 3)
	echo "  open trees (3)         answer $a ms, settled $s ms"
	# shellcheck disable=SC2046
	series "trees ←/→" $(keys_lr)
	series "trees ↓ (cursor)" Down Down Down Down
	read -r a s < <(key_times 4)
	echo "  open CFG (4)           answer $a ms, settled $s ms"
	# shellcheck disable=SC2046
	series "cfg ←/→" $(keys_lr)
	read -r a s < <(key_times 6)
	echo "  open target (6)        answer $a ms, settled $s ms"
	if [ "${ALL:-1}" = 1 ]; then
		read -r a s < <(key_times 8)
		echo "  open source (8)        answer $a ms, settled $s ms"
		read -r a s < <(key_times 7)
		echo "  open explanation (7)   answer $a ms, settled $s ms"
		read -r a s < <(key_times 1)
		read -r a s < <(key_times e)
		echo "  explain (e, IR line 1) answer $a ms, settled $s ms"
	fi
	rss=$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$pid/status" 2>/dev/null)
	echo "  peak RSS               ${rss:-?} MiB"
	# CPU time (user+sys) of the process so far, from /proc/PID/stat.
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$pid/stat" 2>/dev/null)
	echo "  CPU (user+sys)         ${cpu:-?} s"
	tm send-keys -t b q
	sleep 0.5
done
