// SPDX-License-Identifier: GPL-2.0
/*
 * aqmstat - sample the statistics of a device's qdiscs over netlink at a
 * fixed rate and write them as JSON lines or CSV, or show them as a live
 * table.
 *
 * Every tick (10 ms by default) one RTM_GETQDISC dump is sent on a libnl
 * route socket; each qdisc of the device in the reply becomes one record:
 * the time, its identity, the generic counters of TCA_STATS2 and the
 * decoded xstats of the kinds aqmstat_kinds.c knows. Ticks follow a fixed
 * schedule on CLOCK_MONOTONIC (absolute sleeps, no drift); a dump that
 * outlasts the interval makes the sampler skip the ticks it missed rather
 * than run late forever, and the skipped ticks are counted and reported at
 * exit, so that a trace's gaps are known.
 *
 * The benchmark harness records a qdisc's state beside its workload with
 * it (JSON lines or CSV); operators watch a device with `aqmstat -i DEV`.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "aqmstat.h"

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL

enum out_format {
	OUT_JSON,
	OUT_CSV,
	OUT_LIVE,
};

struct opts {
	const char *dev;
	const char *handle_arg;
	bool by_handle;
	bool root_only;		/* -H root: the qdisc whose parent is root */
	uint32_t handle;
	int64_t interval_ns;
	int64_t duration_ns;	/* 0: no limit */
	uint64_t count;		/* 0: no limit */
	enum out_format format;
	const char *out_path;
};

/* one dump's worth of records, refilled every tick */
struct sampler {
	struct nl_sock *sk;
	int ifindex;
	double t, wall;
	struct rec *recs;
	unsigned int n, cap;
	bool nomem;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fputs("Usage: aqmstat [-i] -d DEV [-H HANDLE] [-t MS] [-D SECONDS | -n COUNT]\n"
	      "               [-f csv|json] [-o FILE]\n"
	      "       aqmstat -i DEV\n"
	      "Samples the qdiscs of DEV over netlink every MS milliseconds and writes one\n"
	      "record per qdisc per sample.\n"
	      "  -d DEV      the device (or give it as the only argument)\n"
	      "  -H HANDLE   only the qdisc with this handle (hex, as tc: 1:, 10:), or\n"
	      "              'root' for the root qdisc\n"
	      "  -t MS       sampling interval, milliseconds, >= 1 (default 10; 1000 with -i)\n"
	      "  -D SECONDS  stop after this long (samples at t < SECONDS)\n"
	      "  -n COUNT    stop after COUNT samples\n"
	      "  -f json     JSON lines, one object per qdisc per sample (default when the\n"
	      "              output is not a terminal)\n"
	      "  -f csv      a header line, then one row per sample; needs -H\n"
	      "  -o FILE     write to FILE instead of stdout\n"
	      "  -i          live table, redrawn every second until Ctrl-C (default when\n"
	      "              stdout is a terminal and neither -f nor -o is given)\n"
	      "  -h          this help\n"
	      "Keys: t (seconds since the start, CLOCK_MONOTONIC), wall (unix seconds),\n"
	      "dev, handle, parent, kind, bytes, packets, qlen, backlog, drops, requeues,\n"
	      "overlimits, then the xstats of pi, rem, ared, riops, dcn, afd, blue, sfb\n"
	      "(Linux's, and the project's with its own after them), red, pie, codel,\n"
	      "fq_codel and hhf, named as `tc -s -j qdisc show` names them (probabilities\n"
	      "in [0, 1]).\n"
	      "Output is flushed at least once per second and at exit; SIGINT and SIGTERM\n"
	      "end the run cleanly. At exit, stderr gets the sample and missed-tick counts,\n"
	      "the dump time and how late the sampler woke (mean, max).\n",
	      f);
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("aqmstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- records ---------------------------------------------------------- */

static struct field *rec_add(struct rec *r, const char *key, enum field_type type)
{
	struct field *f;

	/* the table is sized for the largest decoder: a bug, not input */
	if (r->n >= REC_FIELDS)
		die("internal: more than %d fields in a %s record", REC_FIELDS, r->kind);
	f = &r->f[r->n++];
	f->key = key;
	f->type = type;
	return f;
}

void rec_u64(struct rec *r, const char *key, uint64_t v)
{
	rec_add(r, key, FT_U64)->v.u = v;
}

void rec_s64(struct rec *r, const char *key, int64_t v)
{
	rec_add(r, key, FT_S64)->v.s = v;
}

void rec_dbl(struct rec *r, const char *key, double v)
{
	rec_add(r, key, FT_DBL)->v.d = v;
}

void rec_bool(struct rec *r, const char *key, bool v)
{
	rec_add(r, key, FT_BOOL)->v.b = v;
}

const struct field *rec_get(const struct rec *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return &r->f[i];
	return NULL;
}

bool rec_num(const struct rec *r, const char *key, double *out)
{
	const struct field *f = key ? rec_get(r, key) : NULL;

	if (!f)
		return false;
	switch (f->type) {
	case FT_U64:
		*out = (double)f->v.u;
		break;
	case FT_S64:
		*out = (double)f->v.s;
		break;
	case FT_DBL:
		*out = f->v.d;
		break;
	case FT_BOOL:
		*out = f->v.b;
		break;
	}
	return true;
}

/* ---- handles ---------------------------------------------------------- */

/* tc's notation: "10:" for a qdisc (minor 0), "1:1" for a class */
static void fmt_handle(char *buf, size_t len, uint32_t h)
{
	if (TC_H_MIN(h))
		snprintf(buf, len, "%x:%x", TC_H_MAJ(h) >> 16, TC_H_MIN(h));
	else
		snprintf(buf, len, "%x:", TC_H_MAJ(h) >> 16);
}

static void fmt_parent(char *buf, size_t len, uint32_t p)
{
	if (p == TC_H_ROOT)
		snprintf(buf, len, "root");
	else
		fmt_handle(buf, len, p);
}

/* "10:", "10:0" or "10" (hex, as tc reads them) into 0x00100000 */
static bool parse_handle(const char *s, uint32_t *out)
{
	unsigned long maj, min = 0;
	char *end;

	errno = 0;
	maj = strtoul(s, &end, 16);
	if (errno || end == s || maj > 0xffff)
		return false;
	if (*end == ':' && end[1]) {
		s = end + 1;
		min = strtoul(s, &end, 16);
		if (errno || end == s || min > 0xffff)
			return false;
	} else if (*end == ':') {
		end++;
	}
	if (*end)
		return false;
	*out = (uint32_t)(maj << 16 | min);
	return true;
}

/* ---- netlink ---------------------------------------------------------- */

static struct rec *sampler_new_rec(struct sampler *s)
{
	struct rec *r;

	if (s->n == s->cap) {
		unsigned int cap = s->cap ? 2 * s->cap : 8;
		struct rec *recs = realloc(s->recs, cap * sizeof(*recs));

		if (!recs) {
			s->nomem = true;
			return NULL;
		}
		s->recs = recs;
		s->cap = cap;
	}
	r = &s->recs[s->n++];
	memset(r, 0, offsetof(struct rec, f));
	return r;
}

/* copy an attribute's payload into a zeroed struct, as much as fits */
static void nla_load(void *dst, size_t size, const struct nlattr *a)
{
	size_t len = (size_t)nla_len(a);

	memset(dst, 0, size);
	memcpy(dst, nla_data(a), len < size ? len : size);
}

/*
 * The generic counters, from TCA_STATS2 (or the old struct tc_stats of
 * TCA_STATS when a kernel sends no STATS2). Packets come from
 * TCA_STATS_PKT64 when present: the kernel adds it only once the count no
 * longer fits the u32 of gnet_stats_basic.
 */
static void parse_generic(struct rec *r, struct nlattr **tb, struct nlattr **app)
{
	struct nlattr *st[TCA_STATS_MAX + 1];
	struct gnet_stats_basic b;
	struct gnet_stats_queue q;
	uint64_t packets;

	*app = tb[TCA_XSTATS];
	if (!tb[TCA_STATS2] ||
	    nla_parse_nested(st, TCA_STATS_MAX, tb[TCA_STATS2], NULL) < 0) {
		struct tc_stats old = { 0 };

		if (tb[TCA_STATS])
			nla_load(&old, sizeof(old), tb[TCA_STATS]);
		b.bytes = old.bytes;
		b.packets = old.packets;
		packets = old.packets;
		q = (struct gnet_stats_queue){ .qlen = old.qlen, .backlog = old.backlog,
			.drops = old.drops, .overlimits = old.overlimits };
	} else {
		memset(&b, 0, sizeof(b));
		memset(&q, 0, sizeof(q));
		if (st[TCA_STATS_BASIC])
			nla_load(&b, sizeof(b), st[TCA_STATS_BASIC]);
		if (st[TCA_STATS_QUEUE])
			nla_load(&q, sizeof(q), st[TCA_STATS_QUEUE]);
		packets = b.packets;
		if (st[TCA_STATS_PKT64] && nla_len(st[TCA_STATS_PKT64]) >= 8)
			packets = nla_get_u64(st[TCA_STATS_PKT64]);
		if (st[TCA_STATS_APP])
			*app = st[TCA_STATS_APP];
	}
	rec_u64(r, "bytes", b.bytes);
	rec_u64(r, "packets", packets);
	rec_u64(r, "qlen", q.qlen);
	rec_u64(r, "backlog", q.backlog);
	rec_u64(r, "drops", q.drops);
	rec_u64(r, "requeues", q.requeues);
	rec_u64(r, "overlimits", q.overlimits);
}

/* NL_CB_VALID: one RTM_NEWQDISC of the dump */
static int on_qdisc(struct nl_msg *msg, void *arg)
{
	struct sampler *s = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[TCA_MAX + 1], *app;
	const struct aqm_kind *k;
	struct tcmsg *tcm;
	struct rec *r;

	if (nlh->nlmsg_type != RTM_NEWQDISC || !nlmsg_valid_hdr(nlh, sizeof(*tcm)))
		return NL_SKIP;
	tcm = nlmsg_data(nlh);
	/* qdisc dumps ignore tcm_ifindex: every device of the namespace comes */
	if (tcm->tcm_ifindex != s->ifindex)
		return NL_SKIP;
	if (nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) < 0 || !tb[TCA_KIND])
		return NL_SKIP;
	r = sampler_new_rec(s);
	if (!r)
		return NL_STOP;
	r->t = s->t;
	r->wall = s->wall;
	r->handle = tcm->tcm_handle;
	r->parent = tcm->tcm_parent;
	nla_strlcpy(r->kind, tb[TCA_KIND], sizeof(r->kind));
	parse_generic(r, tb, &app);
	k = aqm_kind_find(r->kind);
	if (k && app)
		k->decode(r, nla_data(app), (size_t)nla_len(app));
	return NL_OK;
}

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* one dump of the device's qdiscs into s->recs, stamped @t_ns since start */
static void sampler_dump(struct sampler *s, int64_t t_ns)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = s->ifindex };
	int err;

	s->n = 0;
	s->t = (double)t_ns / NSEC_PER_SEC;
	s->wall = (double)now_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
	err = nl_send_simple(s->sk, RTM_GETQDISC, NLM_F_DUMP, &tcm, sizeof(tcm));
	if (err >= 0)
		err = nl_recvmsgs_default(s->sk);
	if (s->nomem)
		die("out of memory");
	if (err < 0)
		die("qdisc dump: %s", nl_geterror(err));
}

static void sampler_open(struct sampler *s, const char *dev)
{
	int err;

	s->ifindex = (int)if_nametoindex(dev);
	if (!s->ifindex)
		die("no device '%s'", dev);
	s->sk = nl_socket_alloc();
	if (!s->sk)
		die("out of memory");
	err = nl_connect(s->sk, NETLINK_ROUTE);
	if (err < 0)
		die("netlink: %s", nl_geterror(err));
	/*
	 * One read per part of the dump: the kernel fills a dump skb up to the
	 * reader's buffer, at most 32 KiB, so a 64 KiB buffer is never cut
	 * short and needs no MSG_PEEK round trip first.
	 */
	nl_socket_disable_msg_peek(s->sk);
	/* a dump ends with NLMSG_DONE; no ack is awaited */
	nl_socket_disable_auto_ack(s->sk);
	if (nl_socket_set_msg_buf_size(s->sk, 65536) < 0)
		die("netlink: cannot size the receive buffer");
	nl_socket_modify_cb(s->sk, NL_CB_VALID, NL_CB_CUSTOM, on_qdisc, s);
}

static bool rec_selected(const struct opts *o, const struct rec *r)
{
	if (o->root_only)
		return r->parent == TC_H_ROOT;
	return !o->by_handle || r->handle == o->handle;
}

/* ---- JSON lines and CSV ----------------------------------------------- */

/* a string for JSON or CSV: device names may hold quotes and commas */
static void put_str(FILE *f, const char *s, bool csv)
{
	if (csv && !strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (csv && c == '"')
			fputs("\"\"", f);
		else if (!csv && (c == '"' || c == '\\'))
			fprintf(f, "\\%c", c);
		else if (!csv && c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_value(FILE *f, const struct field *fl)
{
	switch (fl->type) {
	case FT_U64:
		fprintf(f, "%" PRIu64, fl->v.u);
		break;
	case FT_S64:
		fprintf(f, "%" PRId64, fl->v.s);
		break;
	case FT_DBL:
		/* 9 digits: a probability step of 2^-32 stays visible */
		fprintf(f, "%.9g", fl->v.d);
		break;
	case FT_BOOL:
		fputs(fl->v.b ? "true" : "false", f);
		break;
	}
}

static void put_json(FILE *f, const char *dev, const struct rec *r)
{
	char h[16], p[16];
	unsigned int i;

	fmt_handle(h, sizeof(h), r->handle);
	fmt_parent(p, sizeof(p), r->parent);
	fprintf(f, "{\"t\":%.6f,\"wall\":%.6f,\"dev\":", r->t, r->wall);
	put_str(f, dev, false);
	fprintf(f, ",\"handle\":\"%s\",\"parent\":\"%s\",\"kind\":", h, p);
	put_str(f, r->kind, false);
	for (i = 0; i < r->n; i++) {
		fprintf(f, ",\"%s\":", r->f[i].key);
		put_value(f, &r->f[i]);
	}
	fputs("}\n", f);
}

static void put_csv_header(FILE *f, const struct rec *r)
{
	unsigned int i;

	fputs("t,wall,dev,handle,parent,kind", f);
	for (i = 0; i < r->n; i++)
		fprintf(f, ",%s", r->f[i].key);
	fputc('\n', f);
}

static void put_csv(FILE *f, const char *dev, const struct rec *r)
{
	char h[16], p[16];
	unsigned int i;

	fmt_handle(h, sizeof(h), r->handle);
	fmt_parent(p, sizeof(p), r->parent);
	fprintf(f, "%.6f,%.6f,", r->t, r->wall);
	put_str(f, dev, true);
	fprintf(f, ",%s,%s,", h, p);
	put_str(f, r->kind, true);
	for (i = 0; i < r->n; i++) {
		fputc(',', f);
		put_value(f, &r->f[i]);
	}
	fputc('\n', f);
}

/* the CSV columns are those of the first row; a replaced qdisc of another
 * kind under the same handle would change them
 */
static bool same_columns(const struct rec *a, const struct rec *b)
{
	unsigned int i;

	if (a->n != b->n || strcmp(a->kind, b->kind))
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->f[i].key, b->f[i].key))
			return false;
	return true;
}

/* ---- live view -------------------------------------------------------- */

/* 1234567 -> "1.23M" */
static void fmt_si(char *buf, size_t len, double v)
{
	static const char units[] = " kMGT";
	unsigned int u = 0;

	while (fabs(v) >= 1000.0 && u < sizeof(units) - 2) {
		v /= 1000.0;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.3g%c", v, units[u]);
	else
		snprintf(buf, len, "%.0f", v);
}

static const struct rec *find_prev(const struct rec *prev, unsigned int n,
				   const struct rec *r)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (prev[i].handle == r->handle && prev[i].parent == r->parent &&
		    !strcmp(prev[i].kind, r->kind))
			return &prev[i];
	return NULL;
}

/* the change of a counter per second since @p, into @buf ("-" if unknown) */
static void fmt_delta(char *buf, size_t len, const struct rec *r,
		      const struct rec *p, const char *key, double scale)
{
	double a, b;

	if (!p || r->t <= p->t || !rec_num(r, key, &a) || !rec_num(p, key, &b)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_si(buf, len, (a - b) * scale / (r->t - p->t));
}

/*
 * Packets offered to the qdisc per second: what left, what it queued more
 * and what it dropped (arrivals = departures + growth + drops; exact for
 * packets counted once each, as with GSO off).
 */
static void fmt_in(char *buf, size_t len, const struct rec *r, const struct rec *p)
{
	double pk, q, d, pk0, q0, d0;

	if (!p || r->t <= p->t || !rec_num(r, "packets", &pk) || !rec_num(r, "qlen", &q) ||
	    !rec_num(r, "drops", &d) || !rec_num(p, "packets", &pk0) ||
	    !rec_num(p, "qlen", &q0) || !rec_num(p, "drops", &d0)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_si(buf, len, ((pk - pk0) + (q - q0) + (d - d0)) / (r->t - p->t));
}

static void fmt_state(char *buf, size_t len, const struct rec *r)
{
	const struct aqm_kind *k = aqm_kind_find(r->kind);
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; k && i < ARRAY_SIZE(k->state); i++) {
		const struct field *f = k->state[i] ? rec_get(r, k->state[i]) : NULL;
		int w = 0;

		if (!f || used >= len)
			continue;
		if (f->type == FT_DBL)
			w = snprintf(buf + used, len - used, "%s=%.4g ", f->key, f->v.d);
		else if (f->type == FT_BOOL)
			w = snprintf(buf + used, len - used, "%s=%s ", f->key,
				     f->v.b ? "yes" : "no");
		else if (f->type == FT_S64)
			w = snprintf(buf + used, len - used, "%s=%" PRId64 " ", f->key,
				     f->v.s);
		else
			w = snprintf(buf + used, len - used, "%s=%" PRIu64 " ", f->key,
				     f->v.u);
		used += w > 0 ? (size_t)w : 0;
	}
}

static void live_draw(FILE *f, const struct opts *o, const struct sampler *s,
		      const struct rec *prev, unsigned int nprev)
{
	char h[16], p[16], bl[16], in[16], out[16], bps[16], dr[16], mk[16], st[160];
	time_t now = time(NULL);
	char when[32];
	unsigned int i;

	strftime(when, sizeof(when), "%F %T %Z", localtime(&now));
	/* home, clear: redraw in place */
	fputs("\033[H\033[2J", f);
	fprintf(f, "aqmstat  %s  %s  every %.3g s, Ctrl-C quits\n\n", o->dev, when,
		(double)o->interval_ns / NSEC_PER_SEC);
	fprintf(f, "%-9s %-7s %-9s %6s %7s %8s %8s %9s %7s %7s  %s\n", "KIND", "HANDLE",
		"PARENT", "QLEN", "BACKLOG", "IN pkt/s", "OUT pk/s", "OUT bit/s", "DROP/s",
		"MARK/s", "STATE");
	for (i = 0; i < s->n; i++) {
		const struct rec *r = &s->recs[i];
		const struct rec *pr = find_prev(prev, nprev, r);
		const struct aqm_kind *k = aqm_kind_find(r->kind);
		double q = 0, b = 0;

		if (!rec_selected(o, r))
			continue;
		fmt_handle(h, sizeof(h), r->handle);
		fmt_parent(p, sizeof(p), r->parent);
		rec_num(r, "qlen", &q);
		rec_num(r, "backlog", &b);
		fmt_si(bl, sizeof(bl), b);
		fmt_in(in, sizeof(in), r, pr);
		fmt_delta(out, sizeof(out), r, pr, "packets", 1.0);
		fmt_delta(bps, sizeof(bps), r, pr, "bytes", 8.0);
		fmt_delta(dr, sizeof(dr), r, pr, "drops", 1.0);
		if (k && k->marks)
			fmt_delta(mk, sizeof(mk), r, pr, k->marks, 1.0);
		else
			snprintf(mk, sizeof(mk), "-");
		fmt_state(st, sizeof(st), r);
		fprintf(f, "%-9s %-7s %-9s %6.0f %6sB %8s %8s %9s %7s %7s  %s\n", r->kind, h, p,
			q, bl, in, out, bps, dr, mk, st);
	}
	fputs("\nIN = OUT + queue growth + drops, packets; rates over the last interval\n", f);
	fflush(f);
}

/* ---- main loop -------------------------------------------------------- */

/*
 * A duration's mean and maximum over the run: the dump's own time and how
 * late the sampler woke tell a missed tick's cause (netlink or scheduling).
 */
struct tstat {
	int64_t sum, max;
	uint64_t n;
};

static void tstat_add(struct tstat *ts, int64_t ns)
{
	ts->sum += ns;
	ts->n++;
	if (ns > ts->max)
		ts->max = ns;
}

static double tstat_mean_ms(const struct tstat *ts)
{
	return ts->n ? (double)ts->sum / (double)ts->n / NSEC_PER_MSEC : 0.0;
}

struct run {
	FILE *out;
	struct sampler s;
	struct rec first;	/* the CSV header's row */
	bool have_first;
	bool warned_gone;
	struct rec *prev;	/* live view: the previous sample */
	unsigned int nprev, prev_cap;
	uint64_t samples, missed;
	struct tstat dump;	/* time spent in a dump */
	struct tstat late;	/* wake-up after the tick, the scheduler's share */
};

static void emit_live(struct run *run, const struct opts *o)
{
	live_draw(run->out, o, &run->s, run->prev, run->nprev);
	if (run->prev_cap < run->s.n) {
		struct rec *p = realloc(run->prev, run->s.n * sizeof(*p));

		if (!p)
			die("out of memory");
		run->prev = p;
		run->prev_cap = run->s.n;
	}
	if (run->s.n)
		memcpy(run->prev, run->s.recs, run->s.n * sizeof(*run->prev));
	run->nprev = run->s.n;
}

static void emit(struct run *run, const struct opts *o)
{
	unsigned int i, hits = 0;

	if (o->format == OUT_LIVE) {
		emit_live(run, o);
		return;
	}
	for (i = 0; i < run->s.n; i++) {
		const struct rec *r = &run->s.recs[i];

		if (!rec_selected(o, r))
			continue;
		hits++;
		if (o->format == OUT_JSON) {
			put_json(run->out, o->dev, r);
			continue;
		}
		if (!run->have_first) {
			run->first = *r;
			run->have_first = true;
			put_csv_header(run->out, r);
		} else if (!same_columns(&run->first, r)) {
			fflush(run->out);
			die("qdisc %s on %s is now a %s, not a %s: the CSV columns would change",
			    o->handle_arg, o->dev, r->kind, run->first.kind);
		}
		put_csv(run->out, o->dev, r);
	}
	if (!hits && !run->warned_gone) {
		fprintf(stderr, "aqmstat: t=%.3f s: no %s on %s any more\n", run->s.t,
			o->handle_arg ? o->handle_arg : "qdisc", o->dev);
		run->warned_gone = true;
	}
}

/* sleep until @when on CLOCK_MONOTONIC; false when a signal asks to stop */
static bool sleep_until(int64_t when)
{
	struct timespec ts = { .tv_sec = when / NSEC_PER_SEC, .tv_nsec = when % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (stop)
			return false;
	return !stop;
}

static void run_loop(struct run *run, const struct opts *o)
{
	int64_t start = now_ns(CLOCK_MONOTONIC), next = start, last_flush = start, now;
	int64_t end = o->duration_ns ? start + o->duration_ns : INT64_MAX;

	while (!stop) {
		int64_t t0 = now_ns(CLOCK_MONOTONIC);

		tstat_add(&run->late, t0 - next);
		sampler_dump(&run->s, t0 - start);
		tstat_add(&run->dump, now_ns(CLOCK_MONOTONIC) - t0);
		emit(run, o);
		run->samples++;
		if (o->count && run->samples >= o->count)
			break;
		next += o->interval_ns;
		now = now_ns(CLOCK_MONOTONIC);
		if (now >= next) {
			/* the dump outlasted the tick: skip to the next one ahead */
			int64_t k = (now - next) / o->interval_ns + 1;

			run->missed += (uint64_t)k;
			next += k * o->interval_ns;
		}
		if (now - last_flush >= NSEC_PER_SEC) {
			fflush(run->out);
			last_flush = now;
		}
		if (next >= end || !sleep_until(next))
			break;
	}
}

/* ---- options ---------------------------------------------------------- */

static double parse_num(const char *s, const char *what, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		die("bad %s '%s' (from %g to %g)", what, s, lo, hi);
	return v;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	bool live = false, interval_set = false;
	const char *fmt = NULL;
	int c;

	*o = (struct opts){ .interval_ns = 10 * NSEC_PER_MSEC };
	while ((c = getopt(argc, argv, "id:H:t:D:n:f:o:h")) != -1) {
		switch (c) {
		case 'i':
			live = true;
			break;
		case 'd':
			o->dev = optarg;
			break;
		case 'H':
			o->handle_arg = optarg;
			if (!strcmp(optarg, "root"))
				o->root_only = true;
			else if (parse_handle(optarg, &o->handle))
				o->by_handle = true;
			else
				die("bad handle '%s' (hex, as tc writes it: 1:, 10:)", optarg);
			break;
		case 't':
			o->interval_ns = (int64_t)(parse_num(optarg, "interval (ms)", 1, 3600e3) *
						   NSEC_PER_MSEC);
			interval_set = true;
			break;
		case 'D':
			o->duration_ns = (int64_t)(parse_num(optarg, "duration (s)", 1e-3, 1e9) *
						   NSEC_PER_SEC);
			break;
		case 'n':
			o->count = (uint64_t)parse_num(optarg, "count", 1, 1e15);
			break;
		case 'f':
			fmt = optarg;
			break;
		case 'o':
			o->out_path = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc && !o->dev)
		o->dev = argv[optind++];
	if (optind < argc)
		die("unexpected argument '%s' (see aqmstat -h)", argv[optind]);
	if (!o->dev)
		die("no device: give -d DEV (see aqmstat -h)");
	if (o->duration_ns && o->count)
		die("give -D or -n, not both");

	if (live && (fmt || o->out_path))
		die("-i draws a table on the terminal: no -f or -o with it");
	if (fmt && !strcmp(fmt, "json"))
		o->format = OUT_JSON;
	else if (fmt && !strcmp(fmt, "csv"))
		o->format = OUT_CSV;
	else if (fmt)
		die("unknown format '%s' (csv or json)", fmt);
	else if (live || (!o->out_path && isatty(STDOUT_FILENO)))
		o->format = OUT_LIVE;
	else
		o->format = OUT_JSON;
	if (o->format == OUT_CSV && !o->by_handle && !o->root_only)
		die("-f csv needs -H HANDLE: one qdisc, so that the columns are fixed");
	/* the live table shows rates per second */
	if (o->format == OUT_LIVE && !interval_set)
		o->interval_ns = NSEC_PER_SEC;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct run run = { 0 };
	struct opts o;
	unsigned int i;
	bool found;

	parse_opts(argc, argv, &o);
	sampler_open(&run.s, o.dev);

	/* a first dump checks that the qdisc asked for is there */
	sampler_dump(&run.s, 0);
	for (i = 0, found = false; i < run.s.n && !found; i++)
		found = rec_selected(&o, &run.s.recs[i]);
	if (!found)
		die("no qdisc %s on %s", o.handle_arg ? o.handle_arg : "at all", o.dev);

	run.out = stdout;
	if (o.out_path) {
		run.out = fopen(o.out_path, "w");
		if (!run.out)
			die("%s: %s", o.out_path, strerror(errno));
	}
	/* flushed once per second by run_loop, not per line */
	if (o.format != OUT_LIVE)
		setvbuf(run.out, NULL, _IOFBF, 1 << 16);
	/* no SA_RESTART: a signal ends the sleep at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	run_loop(&run, &o);

	if (fflush(run.out) || ferror(run.out))
		die("write: %s", strerror(errno));
	if (o.out_path && fclose(run.out))
		die("%s: %s", o.out_path, strerror(errno));
	fprintf(stderr, "aqmstat: %" PRIu64 " samples, %" PRIu64 " missed ticks,"
		" dump time mean %.3f ms, max %.3f ms, wake-up lateness mean %.3f ms,"
		" max %.3f ms\n", run.samples, run.missed, tstat_mean_ms(&run.dump),
		(double)run.dump.max / NSEC_PER_MSEC, tstat_mean_ms(&run.late),
		(double)run.late.max / NSEC_PER_MSEC);
	nl_socket_free(run.s.sk);
	free(run.s.recs);
	free(run.prev);
	return 0;
}
