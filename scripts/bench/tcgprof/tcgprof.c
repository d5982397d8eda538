// SPDX-License-Identifier: GPL-2.0
/*
 * tcgprof: a QEMU TCG plugin that counts the guest kernel's executed
 * instructions by address, for make bench-pps --profile (issue 34: under
 * TCG, perf's cpu-clock samples of the pktgen CPU all landed at one
 * address, so timing profiles say nothing there; instruction counts are
 * exact and do not depend on the host's load).
 *
 * Every translation block that starts in the kernel's half of the address
 * space (bit 63 set: x86-64's kernel addresses) gets an inline counter of
 * its executions; its instructions' addresses are kept beside it. A block
 * may end early (an exception, an interrupt between blocks is taken only
 * at their start, so that is rare): its later instructions are then
 * counted once too often. Two vCPUs running one block at once may lose an
 * increment (the inline add is not atomic): the measured CPU runs pktgen,
 * the other is idle.
 *
 * Control, from the guest through a file both see (the results folder): a
 * thread polls CTL every 10 ms; a new line "SEQ reset" zeroes every
 * counter, "SEQ dump PATH" writes PATH: one line "ADDR COUNT" (hex
 * address, decimal count) per instruction executed since the last reset,
 * summed over its blocks. Then it writes SEQ into CTL.ack, which the
 * guest waits for. SEQ must change from one command to the next.
 *
 * Usage: qemu ... -plugin tcgprof.so,ctl=PATH
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* one translated block: its execution counter and its instructions */
struct block {
	uint64_t count;
	uint64_t start;
	size_t n;
	uint64_t insn[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block **blocks;
static size_t n_blocks, cap_blocks;
static char *ctl_path;
static bool stopping;
static pthread_t poller;

static bool kernel_addr(uint64_t a)
{
	return a >> 63;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b;

	(void)id;
	if (!n || !kernel_addr(qemu_plugin_tb_vaddr(tb)))
		return;
	b = calloc(1, sizeof(*b) + n * sizeof(b->insn[0]));
	if (!b)
		return;
	b->start = qemu_plugin_tb_vaddr(tb);
	b->n = n;
	for (i = 0; i < n; i++)
		b->insn[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
	pthread_mutex_lock(&lock);
	if (n_blocks == cap_blocks) {
		size_t cap = cap_blocks ? 2 * cap_blocks : 4096;
		struct block **nb = realloc(blocks, cap * sizeof(*nb));

		if (!nb) {
			pthread_mutex_unlock(&lock);
			free(b);
			return;
		}
		blocks = nb;
		cap_blocks = cap;
	}
	blocks[n_blocks++] = b;
	pthread_mutex_unlock(&lock);
	/* b lives until QEMU exits: a retranslated block gets a new one */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* PATH: every instruction's count since the last reset, by address */
static void dump(const char *path)
{
	uint64_t (*rows)[2] = NULL;
	size_t n = 0, cap = 0, i, j;
	char tmp[4096];
	FILE *f;

	pthread_mutex_lock(&lock);
	for (i = 0; i < n_blocks; i++) {
		struct block *b = blocks[i];
		uint64_t c = __atomic_load_n(&b->count, __ATOMIC_RELAXED);

		if (!c)
			continue;
		for (j = 0; j < b->n; j++) {
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 65536;
				void *nr = realloc(rows, nc * sizeof(*rows));

				if (!nr)
					goto out;
				rows = nr;
				cap = nc;
			}
			rows[n][0] = b->insn[j];
			rows[n][1] = c;
			n++;
		}
	}
out:
	pthread_mutex_unlock(&lock);
	qsort(rows, n, sizeof(*rows), cmp_u64);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f) {
		for (i = 0; i < n; i = j) {
			uint64_t sum = 0;

			for (j = i; j < n && rows[j][0] == rows[i][0]; j++)
				sum += rows[j][1];
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", rows[i][0], sum);
		}
		if (fclose(f) == 0)
			rename(tmp, path);
	}
	free(rows);
}

static void reset(void)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < n_blocks; i++)
		__atomic_store_n(&blocks[i]->count, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
}

static void ack(const char *seq)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s.ack", ctl_path);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", seq);
	if (fclose(f) == 0)
		rename(tmp, path);
}

static void *poll_ctl(void *arg)
{
	char last[64] = "", line[4200], seq[64], cmd[16], path[4096];
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	(void)arg;
	while (!__atomic_load_n(&stopping, __ATOMIC_RELAXED)) {
		FILE *f = fopen(ctl_path, "r");
		int k;

		nanosleep(&ts, NULL);
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		path[0] = '\0';
		k = sscanf(line, "%63s %15s %4095s", seq, cmd, path);
		if (k < 2 || !strcmp(seq, last))
			continue;
		if (!strcmp(cmd, "reset"))
			reset();
		else if (!strcmp(cmd, "dump") && k == 3)
			dump(path);
		else
			continue;
		snprintf(last, sizeof(last), "%s", seq);
		ack(seq);
	}
	return NULL;
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	__atomic_store_n(&stopping, true, __ATOMIC_RELAXED);
	pthread_join(poller, NULL);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "ctl=", 4))
			ctl_path = strdup(argv[i] + 4);
	}
	if (!ctl_path) {
		fprintf(stderr, "tcgprof: ctl=PATH is required\n");
		return -1;
	}
	if (pthread_create(&poller, NULL, poll_ctl, NULL)) {
		fprintf(stderr, "tcgprof: %s\n", strerror(errno));
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
