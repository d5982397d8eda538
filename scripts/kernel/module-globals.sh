#!/usr/bin/env bash
# module-globals.sh [KO...]: every writable global of the built modules
# (net/sched/*.ko by default) must be one the kernel's own machinery puts
# there. A qdisc instance keeps its state in its private area; a writable
# global would be shared by every instance (the children of mq, one per
# tx queue and CPU) and written across CPUs. Allowed: the module's own
# struct module (__this_module), the Qdisc_ops that register_qdisc() links
# into its list (written at load and unload only), WARN_ONCE()'s flags
# (__already_done.N, written once), the memory-allocation profiling
# section's bounds (__start_alloc_tags, __stop_alloc_tags) and the
# initcall addresses (__UNIQUE_ID___addressable_*), and on a lockdep
# kernel its class keys (__key.N, their identity only). Anything else in
# .data or .bss (symbol types d, D, b, B of nm) fails, named: a netlink
# policy or range table that should be const, a static counter, a cache.
#
# Exit status: 0 when every module holds only those, 1 otherwise (each
# offending symbol printed as "module: type name"), 2 without modules.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
if [ "$#" -eq 0 ]; then
	shopt -s nullglob
	set -- "$top"/net/sched/*.ko
fi
[ "$#" -gt 0 ] || {
	echo "module-globals.sh: no modules (build them first: make modules)" >&2
	exit 2
}

allowed='^(__this_module|__key\.[0-9]+|[a-z_]+_qdisc_ops|__already_done\.[0-9]+|__start_alloc_tags|__stop_alloc_tags|__UNIQUE_ID___addressable_(init|cleanup)_module[0-9]*)$'
rc=0
for ko in "$@"; do
	bad=$(nm "$ko" | awk -v re="$allowed" \
		'NF == 3 && $2 ~ /^[bBdD]$/ && $3 !~ re { print $2, $3 }')
	if [ -n "$bad" ]; then
		rc=1
		while read -r t name; do
			echo "$(basename "$ko"): $t $name"
		done <<<"$bad"
	fi
done
[ "$rc" -ne 0 ] || echo "module-globals.sh: $# modules, no writable global of their own"
exit "$rc"
