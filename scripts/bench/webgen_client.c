// SPDX-License-Identifier: GPL-2.0
/*
 * webgen_client.c - the client of webgen: a population of emulated web
 * browsers in one event-driven process.
 *
 * Two workload families (--model, webgen_dist.c has their distributions):
 *
 * web (the default): every user repeats: draw a page (a top-level object
 * and k embedded ones, persistent or not, their sizes, the server), fetch
 * its objects one after the other, think, and start over. Users start
 * spread over one think time. -r scales the think times.
 *
 * closed: a closed loop for held-out checks. Every user repeats: draw one
 * object (its size from the closed model's bounded Pareto, the server),
 * open a new connection for it, whose handshake counts in the response
 * time, ask for it with "Connection: close" as a non-persistent page does,
 * and start the next exchange as soon as this one ends: no think time, so
 * a user always keeps one exchange busy and the offered load is set by
 * the number of users, not by a rate. After an error the next exchange
 * starts at once too, but from the event loop rather than from inside the
 * failed one, so that a server that refuses at once cannot recurse and
 * the other users are served between two tries. A user's first exchange
 * starts at a uniform offset in [0, 2) s drawn from its own stream, so
 * that the users do not all open their connections in the same instant
 * and a seed changes the start times. -r has no effect (there is nothing
 * to scale).
 *
 * In both, what a user fetches is drawn from the user's own random stream
 * when the page (the object) starts, so the sequence of requests a user
 * issues depends on the seed and the model only; timing decides only how
 * far into that sequence the run gets. The web model's draws are the same
 * as before the closed model existed, so its runs repeat earlier ones.
 *
 * One thread: epoll over the sockets and a signalfd, and a binary heap of
 * the thinking users ordered by wake-up time that sets epoll's timeout.
 * A connection whose last response asked the server to close is handed
 * over to a "closing" state: the user goes on at once, and the socket is
 * closed when the server's FIN arrives (or after FIN_WAIT_US), so the
 * TIME_WAIT state stays on the server's side and the clients do not run
 * out of ports.
 *
 * The end of the run: at -d SECONDS no new exchange starts (a user whose
 * page is not over drops the rest of it). The exchanges under way then get
 * a drain phase of at most -g DRAIN seconds (default 2, 0 allowed) to
 * finish; the run ends when the last of them has finished or the drain
 * time is over, whichever comes first. The drain is bounded so that a run
 * lasts at most SECONDS + DRAIN whatever the network does (the harness
 * schedules its runs on that), and is a parameter because what it should
 * be depends on the link: 0 ends a run at once, where a slow link needs
 * time for its large responses. A signal (SIGINT, SIGTERM) ends the run as
 * -d does, drain included.
 *
 * The log has one CSV line per exchange (see LOG_HEADER). Times are
 * microseconds of CLOCK_MONOTONIC since the client started: start is when
 * the request was written, or when connect() was called for an exchange
 * that opens its connection (the response time then includes the
 * handshake, as in the DCN paper); first_byte and end are the first and
 * the last byte of the response (header included) read from the socket.
 * first_byte_us is empty when no byte came. end_us of an error is when
 * the error was seen. req_size is the response size asked for
 * (GET /<req_size>), resp_bytes the body bytes received.
 *
 * status is ok, error, unfinished or warmup. An exchange still under way
 * when the drain ends is "unfinished" and censored: its end_us is the time
 * the drain ended and it was cut off (the same for all such rows), so
 * end_us - start_us is the time it had run, a lower bound of its response
 * time; resp_bytes is what it had received by then and first_byte_us is
 * as for the others (empty if no byte came). An exchange started in the
 * warm-up (-w) is "warmup" whatever its outcome, cut off or not; its
 * times follow the same rules.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "webgen.h"

#define LOG_HEADER \
	"user,conn,server,start_us,first_byte_us,end_us,req_bytes,resp_bytes,persistent,status,req_size\n"
#define FIN_WAIT_US	2000000LL	/* for the server's FIN, see C_CLOSING */
#define DRAIN_MAX_S	86400.0		/* -g: a day; keeps the us in int64 */
#define CLOSED_SPREAD_S	2.0	/* closed model: first starts in [0, this) */
#define READ_TURN	(1U << 20)	/* bytes per connection per event */
#define MAX_USERS	1000000ULL
#define HDR_MAX		1024

struct server_addr {
	char label[300];
	struct sockaddr_storage sa;
	socklen_t salen;
};

enum conn_state { C_CONNECTING, C_SENDING, C_HEADER, C_BODY, C_CLOSING };

struct user;

struct conn {
	int fd;
	enum conn_state state;
	uint64_t id;
	struct user *u;		/* NULL while closing */
	struct conn *prev, *next;	/* all open connections */
	int64_t closing_until;
	char req[WG_REQ_MAX_BYTES + 1];
	size_t req_len, req_off;
	char hdr[HDR_MAX];
	size_t hdr_len;
};

struct user {
	unsigned int idx;
	struct wg_rng rng;
	uint64_t conn_id;	/* of the exchange in flight, 0: no socket */
	struct conn *conn;
	bool active;		/* in a page (closed model: in an exchange) */
	bool in_exchange;
	int64_t wake_us;
	/* the page */
	unsigned int server, nobj, obj;
	bool persistent;
	uint64_t size[WG_EMBED_MAX + 1];
	unsigned int req[WG_EMBED_MAX + 1];
	/* the exchange in flight */
	int64_t start_us, first_us;
	uint64_t got;
};

struct client {
	struct server_addr *srv;
	unsigned int nsrv;
	struct user *users;
	unsigned int nusers;
	struct user **heap;
	unsigned int heap_len;
	struct conn *conns;	/* list head */
	FILE *log;
	int ep, sfd;
	int64_t t0, end_us, warmup_us;
	int64_t drain_us;	/* -g: the longest drain after end_us */
	enum wg_model model;
	double think_scale;
	bool stopping;
	uint64_t next_conn_id;
	unsigned int inflight, nactive;
	uint64_t done, errors, connected, rx_bytes;
};

static char scratch[256 * 1024];
static char tag_signal;

/* --- the heap of thinking users ---------------------------------------- */

static void heap_push(struct client *c, struct user *u)
{
	unsigned int i = c->heap_len++;

	while (i && c->heap[(i - 1) / 2]->wake_us > u->wake_us) {
		c->heap[i] = c->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->heap[i] = u;
}

static struct user *heap_pop(struct client *c)
{
	struct user *top = c->heap[0];
	struct user *last = c->heap[--c->heap_len];
	unsigned int i = 0, n = c->heap_len;

	if (!n)
		return top;
	for (;;) {
		unsigned int m = 2 * i + 1;

		if (m >= n)
			break;
		if (m + 1 < n && c->heap[m + 1]->wake_us < c->heap[m]->wake_us)
			m++;
		if (c->heap[m]->wake_us >= last->wake_us)
			break;
		c->heap[i] = c->heap[m];
		i = m;
	}
	c->heap[i] = last;
	return top;
}

/* --- connections ------------------------------------------------------- */

static void conn_free(struct client *c, struct conn *k)
{
	if (k->prev)
		k->prev->next = k->next;
	else
		c->conns = k->next;
	if (k->next)
		k->next->prev = k->prev;
	close(k->fd);
	free(k);
}

static int conn_watch(struct client *c, struct conn *k, uint32_t events, int op)
{
	struct epoll_event ev = { .events = events, .data.ptr = k };

	return epoll_ctl(c->ep, op, k->fd, &ev);
}

static struct conn *conn_open(struct client *c, const struct server_addr *s)
{
	struct conn *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->fd = socket(s->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (k->fd < 0) {
		free(k);
		return NULL;
	}
	k->id = ++c->next_conn_id;
	k->next = c->conns;
	if (c->conns)
		c->conns->prev = k;
	c->conns = k;
	return k;
}

/* --- the log ----------------------------------------------------------- */

static void put_time(FILE *f, int64_t t)
{
	if (t >= 0)
		fprintf(f, "%lld", (long long)t);
	fputc(',', f);
}

static void log_exchange(struct client *c, struct user *u, const char *status,
			 int64_t end)
{
	int64_t start = u->start_us - c->t0;

	if (start < c->warmup_us)
		status = "warmup";
	fprintf(c->log, "%u,%llu,%s,%lld,", u->idx, (unsigned long long)u->conn_id,
		c->srv[u->server].label, (long long)start);
	put_time(c->log, u->first_us >= 0 ? u->first_us - c->t0 : -1);
	put_time(c->log, end >= 0 ? end - c->t0 : -1);
	fprintf(c->log, "%u,%llu,%d,%s,%llu\n", u->req[u->obj],
		(unsigned long long)u->got, u->persistent, status,
		(unsigned long long)u->size[u->obj]);
}

/* --- a user's pages ---------------------------------------------------- */

static void start_object(struct client *c, struct user *u);

/*
 * A page of the closed model is one object on a connection of its own:
 * the same path as the web model's one-object pages, with the closed
 * model's sizes. The web model's draws stay in their order.
 */
static void start_page(struct client *c, struct user *u)
{
	struct wg_page pg = { .embedded = 0, .persistent = false };
	bool web = c->model == WG_MODEL_WEB;
	unsigned int i;

	if (web)
		wg_draw_page(&u->rng, &pg);
	u->server = c->nsrv > 1 ? (unsigned int)(wg_rng_next(&u->rng) % c->nsrv) : 0;
	u->nobj = pg.embedded + 1;
	u->persistent = pg.persistent;
	for (i = 0; i < u->nobj; i++) {
		u->size[i] = web ? wg_draw_size(&u->rng) : wg_draw_closed_size(&u->rng);
		u->req[i] = wg_draw_req_bytes(&u->rng);
	}
	u->obj = 0;
	u->active = true;
	c->nactive++;
	start_object(c, u);
}

/*
 * A page is over. The web model thinks before the next one. The closed
 * model does not think: after a success the next exchange starts here and
 * now; after a failure it is due now on the heap (see the top comment).
 */
static void end_page(struct client *c, struct user *u, bool ok, int64_t now)
{
	double t;

	u->active = false;
	c->nactive--;
	if (c->model == WG_MODEL_CLOSED && ok) {
		start_page(c, u);
		return;
	}
	if (c->model == WG_MODEL_CLOSED) {
		u->wake_us = now;
	} else {
		t = wg_draw_think(&u->rng) * c->think_scale;
		u->wake_us = now + (int64_t)(t * 1e6);
	}
	heap_push(c, u);
}

/* Pads the request with a header to the drawn size. */
static void build_request(struct client *c, struct user *u, struct conn *k)
{
	bool last = !u->persistent || u->obj + 1 == u->nobj;
	int n = snprintf(k->req, sizeof(k->req),
			 "GET /%llu HTTP/1.1\r\nHost: %s\r\n%sX-Pad: ",
			 (unsigned long long)u->size[u->obj],
			 c->srv[u->server].label,
			 last ? "Connection: close\r\n" : "");
	size_t len = (size_t)n;

	while (len + 4 < u->req[u->obj] && len + 4 < sizeof(k->req) - 1)
		k->req[len++] = 'x';
	memcpy(k->req + len, "\r\n\r\n", 5);
	k->req_len = len + 4;
	k->req_off = 0;
	k->hdr_len = 0;
	u->req[u->obj] = (unsigned int)k->req_len;	/* what is logged */
}

/* Ends the exchange in flight; on error the rest of the page is dropped. */
static void end_exchange(struct client *c, struct user *u, bool ok, int64_t now)
{
	struct conn *k = u->conn;
	bool last = !u->persistent || u->obj + 1 == u->nobj;

	log_exchange(c, u, ok ? "ok" : "error", now);
	u->in_exchange = false;
	c->inflight--;
	if (ok)
		c->done++;
	else
		c->errors++;
	if (!ok) {
		if (k)
			conn_free(c, k);
		u->conn = NULL;
	} else if (last) {
		/* Wait for the server's close, at most FIN_WAIT_US. */
		k->u = NULL;
		k->state = C_CLOSING;
		k->closing_until = now + FIN_WAIT_US;
		u->conn = NULL;
	}
	if (ok && ++u->obj < u->nobj)
		start_object(c, u);
	else
		end_page(c, u, ok, now);
}

static void send_request(struct client *c, struct conn *k, int64_t now)
{
	struct user *u = k->u;

	while (k->req_off < k->req_len) {
		ssize_t n = send(k->fd, k->req + k->req_off,
				 k->req_len - k->req_off, MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			conn_watch(c, k, EPOLLOUT, EPOLL_CTL_MOD);
			return;
		}
		if (n < 0) {
			end_exchange(c, u, false, now);
			return;
		}
		k->req_off += (size_t)n;
	}
	k->state = C_HEADER;
	conn_watch(c, k, EPOLLIN, EPOLL_CTL_MOD);
}

static void start_object(struct client *c, struct user *u)
{
	const struct server_addr *s = &c->srv[u->server];
	int64_t now = wg_now_us();
	struct conn *k = u->conn;

	if (c->stopping) {	/* the run is over: issue nothing more */
		if (k)
			conn_free(c, k);
		u->conn = NULL;
		u->active = false;
		c->nactive--;
		return;
	}
	u->in_exchange = true;
	c->inflight++;
	u->start_us = now;
	u->first_us = -1;
	u->got = 0;
	if (k) {	/* the next object of a persistent page */
		u->conn_id = k->id;
		build_request(c, u, k);
		k->state = C_SENDING;
		send_request(c, k, now);
		return;
	}
	k = conn_open(c, s);
	u->conn = k;
	u->conn_id = k ? k->id : 0;
	if (!k) {
		u->req[u->obj] = 0;
		end_exchange(c, u, false, now);
		return;
	}
	k->u = u;
	build_request(c, u, k);
	k->state = C_CONNECTING;
	if ((connect(k->fd, (const struct sockaddr *)&s->sa, s->salen) < 0 &&
	     errno != EINPROGRESS) ||
	    conn_watch(c, k, EPOLLOUT, EPOLL_CTL_ADD) < 0)
		end_exchange(c, u, false, now);
}

static void on_connected(struct client *c, struct conn *k, int64_t now)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
		end_exchange(c, k->u, false, now);
		return;
	}
	c->connected++;
	k->state = C_SENDING;
	send_request(c, k, now);
}

/*
 * Collects the response header; returns the number of bytes of buf that
 * belong to it, or -1 when it is malformed or not what was asked for.
 */
static ssize_t take_header(struct conn *k, const char *buf, size_t n)
{
	struct user *u = k->u;
	size_t room = sizeof(k->hdr) - 1 - k->hdr_len;
	size_t take = n < room ? n : room;
	char *end, *cl, *digits_end;
	size_t used;
	unsigned long long len;

	memcpy(k->hdr + k->hdr_len, buf, take);
	k->hdr[k->hdr_len + take] = '\0';
	end = strstr(k->hdr, "\r\n\r\n");
	if (!end) {
		if (take == room)
			return -1;	/* header too large */
		k->hdr_len += take;
		return (ssize_t)take;
	}
	used = (size_t)(end + 4 - k->hdr) - k->hdr_len;
	*end = '\0';
	k->hdr_len = 0;
	if (strncmp(k->hdr, "HTTP/1.1 200 ", 13) != 0)
		return -1;
	cl = strcasestr(k->hdr, "\r\ncontent-length:");
	if (!cl)
		return -1;
	cl += 17;
	while (*cl == ' ')
		cl++;
	if (*cl < '0' || *cl > '9')
		return -1;
	len = strtoull(cl, &digits_end, 10);
	if ((*digits_end != '\r' && *digits_end != '\0') || len != u->size[u->obj])
		return -1;
	k->state = C_BODY;
	return (ssize_t)used;
}

/* Returns false when the exchange ended, well or not. */
static bool take_bytes(struct client *c, struct conn *k, size_t n, int64_t now)
{
	struct user *u = k->u;
	size_t off = 0;

	if (u->first_us < 0)
		u->first_us = now;
	while (off < n) {
		if (k->state == C_HEADER) {
			ssize_t h = take_header(k, scratch + off, n - off);

			if (h < 0) {
				end_exchange(c, u, false, now);
				return false;
			}
			off += (size_t)h;
		} else {
			u->got += n - off;
			off = n;
		}
	}
	if (k->state == C_BODY && u->got > u->size[u->obj]) {
		end_exchange(c, u, false, now);	/* more than asked for */
		return false;
	}
	if (k->state == C_BODY && u->got == u->size[u->obj]) {
		end_exchange(c, u, true, now);
		return false;
	}
	return true;
}

static void on_readable(struct client *c, struct conn *k, int64_t now)
{
	size_t budget = READ_TURN;

	while (budget) {
		ssize_t n = read(k->fd, scratch, sizeof(scratch));

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (k->state == C_CLOSING) {
			if (n <= 0) {	/* the server closed: done */
				conn_free(c, k);
				return;
			}
			continue;	/* bytes after the end: ignore */
		}
		if (n <= 0) {	/* reset or close before the end */
			end_exchange(c, k->u, false, now);
			return;
		}
		c->rx_bytes += (size_t)n;
		if (!take_bytes(c, k, (size_t)n, now))
			return;
		budget = (size_t)n >= budget ? 0 : budget - (size_t)n;
	}
}

static void on_event(struct client *c, struct conn *k, uint32_t events)
{
	int64_t now = wg_now_us();

	switch (k->state) {
	case C_CONNECTING:
		on_connected(c, k, now);
		break;
	case C_SENDING:
		if (events & (EPOLLERR | EPOLLHUP))
			end_exchange(c, k->u, false, now);
		else
			send_request(c, k, now);
		break;
	default:
		on_readable(c, k, now);
	}
}

/* --- the run ----------------------------------------------------------- */

static void progress(struct client *c, int64_t now, uint64_t *last_rx,
		     int64_t *last_t)
{
	double dt = (double)(now - *last_t) / 1e6;

	fprintf(stderr,
		"webgen client: %.0f/%.0f s, %llu exchanges, %llu errors, %.2f Mbit/s, %u/%u users active\n",
		(double)(now - c->t0) / 1e6, (double)(c->end_us - c->t0) / 1e6,
		(unsigned long long)c->done, (unsigned long long)c->errors,
		dt > 0 ? (double)(c->rx_bytes - *last_rx) * 8 / dt / 1e6 : 0.0,
		c->nactive, c->nusers);
	*last_rx = c->rx_bytes;
	*last_t = now;
}

static int timeout_ms(int64_t now, int64_t until)
{
	int64_t d = until - now;

	if (d <= 0)
		return 0;
	return d > 1000000 ? 1000 : (int)((d + 999) / 1000);
}

/* Drops connections whose server has not closed in FIN_WAIT_US. */
static void reap_closing(struct client *c, int64_t now)
{
	struct conn *k = c->conns, *next;

	for (; k; k = next) {
		next = k->next;
		if (k->state == C_CLOSING && now >= k->closing_until)
			conn_free(c, k);
	}
}

static void run(struct client *c)
{
	struct epoll_event evs[256];
	int64_t next_progress = c->t0 + 1000000, drain_end = 0, last_t = c->t0;
	int64_t next_reap = c->t0 + 1000000, now;
	uint64_t last_rx = 0;

	for (;;) {
		int64_t until;
		unsigned int due;
		int i, n;

		now = wg_now_us();
		/*
		 * The drain is counted from the run's end, not from when the
		 * loop noticed it, so that a late turn does not lengthen it.
		 */
		if (!c->stopping && now >= c->end_us) {
			c->stopping = true;
			drain_end = c->end_us + c->drain_us;
		}
		if (c->stopping && (!c->inflight || now >= drain_end))
			break;
		/*
		 * Wake only the users due now: one whose page fails at once
		 * with -r 0 is due again at once, and is taken next turn.
		 */
		for (due = c->heap_len; due && !c->stopping && c->heap_len &&
		     c->heap[0]->wake_us <= now; due--)
			start_page(c, heap_pop(c));
		if (now >= next_progress) {
			progress(c, now, &last_rx, &last_t);
			next_progress += 1000000;
		}
		if (now >= next_reap) {
			reap_closing(c, now);
			next_reap = now + 1000000;
		}
		until = c->stopping ? drain_end : c->end_us;
		if (next_progress < until)
			until = next_progress;
		if (!c->stopping && c->heap_len && c->heap[0]->wake_us < until)
			until = c->heap[0]->wake_us;
		n = epoll_wait(c->ep, evs, 256, timeout_ms(now, until));
		for (i = 0; i < n; i++) {
			if (evs[i].data.ptr == &tag_signal) {
				struct signalfd_siginfo si;

				if (read(c->sfd, &si, sizeof(si)) < 0)
					perror("webgen client: signalfd");
				c->end_us = wg_now_us();	/* stop as at the end */
				continue;
			}
			on_event(c, evs[i].data.ptr, evs[i].events);
		}
	}
	/*
	 * Censoring: an exchange cut off by the drain's end is logged with
	 * that time as its end, one value for all of them, taken after the
	 * last read, so that end - start is the time it had run: a lower
	 * bound of its response time that a survival analysis can use, where
	 * dropping it would bias the response times down when the network is
	 * slowest. resp_bytes is what it had received.
	 */
	for (unsigned int i = 0; i < c->nusers; i++) {
		struct user *u = &c->users[i];

		if (u->in_exchange)
			log_exchange(c, u, "unfinished", now);
	}
	while (c->conns)
		conn_free(c, c->conns);
}

/* HOST[:PORT], [V6]:PORT or a bare V6 address; resolved once, up front. */
static bool parse_server(const char *spec, struct server_addr *s)
{
	char host[256], port[16] = "8080";
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	const char *colon = strrchr(spec, ':');
	size_t hl;

	if (spec[0] == '[') {
		const char *rb = strchr(spec, ']');

		if (!rb || (rb[1] && rb[1] != ':'))
			return false;
		hl = (size_t)(rb - spec - 1);
		spec++;
		colon = rb[1] ? rb + 1 : NULL;
	} else if (colon && strchr(spec, ':') != colon) {
		colon = NULL;	/* a bare IPv6 address */
		hl = strlen(spec);
	} else {
		hl = colon ? (size_t)(colon - spec) : strlen(spec);
	}
	if (!hl || hl >= sizeof(host))
		return false;
	memcpy(host, spec, hl);
	host[hl] = '\0';
	if (colon) {
		uint64_t p;

		if (!wg_parse_u64(colon + 1, &p) || !p || p > 65535)
			return false;
		snprintf(port, sizeof(port), "%llu", (unsigned long long)p);
	}
	if (getaddrinfo(host, port, &hints, &ai) != 0)
		return false;
	memcpy(&s->sa, ai->ai_addr, ai->ai_addrlen);
	s->salen = ai->ai_addrlen;
	freeaddrinfo(ai);
	snprintf(s->label, sizeof(s->label), strchr(host, ':') ? "[%s]:%s" : "%s:%s",
		 host, port);
	return true;
}

static bool parse_servers(struct client *c, char *list)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct server_addr *more = realloc(c->srv, (c->nsrv + 1) * sizeof(*c->srv));

		if (more)
			c->srv = more;
		if (!more || !parse_server(tok, &c->srv[c->nsrv])) {
			fprintf(stderr, "webgen client: bad or unresolvable server '%s'\n", tok);
			return false;
		}
		c->nsrv++;
	}
	return c->nsrv > 0;
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && errno == 0 && *end == '\0' && isfinite(*out);
}

static int bad_usage(const char *msg)
{
	fprintf(stderr, "webgen client: %s\n"
		"usage: webgen client -s HOST[:PORT][,HOST[:PORT]...] -u USERS -d SECONDS\n"
		"                     [-w WARMUP] [-g DRAIN] [--seed S] [-o LOG] [-r RATE_SCALE]\n"
		"                     [--model web|closed]\n"
		"  -s  servers (port 8080 by default; [V6]:PORT), one drawn per page\n"
		"  -u  emulated users, -d length of the run in seconds (warmup included)\n"
		"  -g  after -d no exchange starts; those under way get at most DRAIN\n"
		"      seconds to finish (default 2, 0: stop at once), then are logged\n"
		"      as unfinished\n"
		"  -w  exchanges started in the first WARMUP seconds are logged as warmup\n"
		"  -r  factor on all think times (default 1; no effect with --model\n"
		"      closed), --seed S (default 1)\n"
		"  --model web     pages and think times (default)\n"
		"  --model closed  one object per connection, no think time; users\n"
		"                  start within the first 2 s\n"
		"  -o  CSV log (default stdout); progress goes to stderr once a second\n",
		msg);
	return 2;
}

static int setup(struct client *c, uint64_t seed)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &tag_signal };
	unsigned int i;

	c->users = calloc(c->nusers, sizeof(*c->users));
	c->heap = calloc(c->nusers, sizeof(*c->heap));
	c->ep = epoll_create1(EPOLL_CLOEXEC);
	c->sfd = wg_signalfd();
	if (!c->users || !c->heap || c->ep < 0 || c->sfd < 0 ||
	    epoll_ctl(c->ep, EPOLL_CTL_ADD, c->sfd, &ev) < 0) {
		perror("webgen client: start");
		return 1;
	}
	wg_raise_nofile();
	c->t0 = wg_now_us();
	c->end_us += c->t0;
	for (i = 0; i < c->nusers; i++) {
		struct user *u = &c->users[i];
		double first;

		u->idx = i;
		wg_rng_seed(&u->rng, seed, i);
		if (c->model == WG_MODEL_CLOSED) {
			/* From the user's stream, unscaled: see the top. */
			first = wg_rng_uniform(&u->rng) * CLOSED_SPREAD_S;
			u->wake_us = c->t0 + (int64_t)(first * 1e6);
		} else {
			/* Users start spread over one think time, not at once. */
			first = wg_rng_uniform(&u->rng) * wg_draw_think(&u->rng);
			u->wake_us = c->t0 + (int64_t)(first * c->think_scale * 1e6);
		}
		heap_push(c, u);
	}
	return 0;
}

int wg_client_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "model", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct client c = { .think_scale = 1.0, .model = WG_MODEL_WEB };
	double dur = -1, warm = 0, drain = 2.0;
	uint64_t users = 0, seed = 1;
	char *servers = NULL;
	const char *logpath = NULL;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "s:u:d:w:g:o:r:", opts, NULL)) != -1) {
		bool ok = true;

		switch (opt) {
		case 's':
			servers = optarg;
			break;
		case 'u':
			ok = wg_parse_u64(optarg, &users);
			break;
		case 'd':
			ok = parse_double(optarg, &dur);
			break;
		case 'w':
			ok = parse_double(optarg, &warm);
			break;
		case 'g':
			ok = parse_double(optarg, &drain);
			break;
		case 'o':
			logpath = optarg;
			break;
		case 'r':
			ok = parse_double(optarg, &c.think_scale);
			break;
		case 'S':
			ok = wg_parse_u64(optarg, &seed);
			break;
		case 'M':
			if (!wg_parse_model(optarg, &c.model))
				return bad_usage("--model is web or closed");
			break;
		default:
			return bad_usage("bad option");
		}
		if (!ok)
			return bad_usage("bad number");
	}
	if (optind != argc)
		return bad_usage("unexpected argument");
	if (!servers || !users || users > MAX_USERS || dur <= 0)
		return bad_usage("need -s SERVERS, -u USERS (1..1000000) and -d SECONDS > 0");
	if (warm < 0 || warm >= dur || c.think_scale < 0)
		return bad_usage("need 0 <= WARMUP < SECONDS and RATE_SCALE >= 0");
	if (drain < 0 || drain > DRAIN_MAX_S)
		return bad_usage("need 0 <= DRAIN <= 86400");
	if (!parse_servers(&c, servers)) {
		free(c.srv);
		return 2;
	}
	c.log = logpath ? fopen(logpath, "w") : stdout;
	if (!c.log) {
		perror(logpath);
		free(c.srv);
		return 1;
	}
	setvbuf(c.log, NULL, _IOFBF, 1 << 20);
	fputs(LOG_HEADER, c.log);
	c.nusers = (unsigned int)users;
	c.end_us = (int64_t)(dur * 1e6);
	c.warmup_us = (int64_t)(warm * 1e6);
	c.drain_us = (int64_t)(drain * 1e6);
	rc = setup(&c, seed);
	if (rc)
		return rc;
	run(&c);
	fprintf(stderr,
		"webgen client: done: %llu exchanges, %llu errors, %llu connections, %llu bytes received\n",
		(unsigned long long)c.done, (unsigned long long)c.errors,
		(unsigned long long)c.connected, (unsigned long long)c.rx_bytes);
	free(c.users);
	free(c.heap);
	free(c.srv);
	close(c.ep);
	close(c.sfd);
	if (fclose(c.log) != 0) {
		perror("webgen client: log");
		return 1;
	}
	if (!c.connected) {
		fprintf(stderr, "webgen client: no connection succeeded\n");
		return 1;
	}
	return 0;
}
