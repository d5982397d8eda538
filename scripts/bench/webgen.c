// SPDX-License-Identifier: GPL-2.0
/*
 * webgen.c - the web traffic generator of the benchmark harness: its
 * command line, the `sample` subcommand and the HTTP server.
 *
 *   webgen server [-p PORT]
 *   webgen client -s HOST[:PORT][,...] -u USERS -d SECONDS ...
 *   webgen sample -n N [--seed S] [--what sizes|think|page|req]
 *
 * The server speaks just enough HTTP/1.1 for the client: `GET /<N>` is
 * answered with N bytes of filler, on a connection kept open unless the
 * request says `Connection: close` (or is HTTP/1.0). It is one thread on
 * epoll with non-blocking sockets, writes each response as far as the
 * socket takes it (at most 1 MiB per turn, so one 100 MB response cannot
 * starve the others) and continues on EPOLLOUT. The filler comes from one
 * static buffer: a response costs no memory beyond its connection.
 * The client is in webgen_client.c, the workload model in webgen_dist.c.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "webgen.h"

#define SRV_INBUF	4096
#define SRV_TURN_BYTES	(1U << 20)	/* per connection per event */
#define SRV_MAX_LEN	(1ULL << 40)	/* largest N served */

static char filler[64 * 1024];

struct srv_conn {
	int fd;
	struct srv_conn *prev, *next;	/* all connections, freed at exit */
	size_t inlen;
	char in[SRV_INBUF];
	char hdr[128];
	size_t hdr_len;
	size_t hdr_off;
	uint64_t body_left;
	bool sending;
	bool close_after;
};

struct server {
	int ep;
	int lfd;
	int sfd;
	bool accept_paused;
	struct srv_conn *conns;
	uint64_t accepted;
	uint64_t responses;
	uint64_t bad_requests;
	uint64_t bytes;
};

/* Tags for the two fds that are not connections. */
static char tag_listen, tag_signal;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: webgen server [-p PORT]\n"
		"       webgen client -s HOST[:PORT][,HOST[:PORT]...] -u USERS -d SECONDS\n"
		"                     [-w WARMUP] [--seed S] [-o LOG] [-r RATE_SCALE]\n"
		"       webgen sample -n N [--seed S] [--what sizes|think|page|req]\n");
}

/* Strict decimal parse: the whole string, no sign, no overflow. */
bool wg_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno == 0 && *end == '\0';
}

static int ep_set(struct server *s, struct srv_conn *c, uint32_t events, int op)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	return epoll_ctl(s->ep, op, c->fd, &ev);
}

static void srv_close(struct server *s, struct srv_conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	close(c->fd);	/* also removes it from the epoll set */
	free(c);
	if (s->accept_paused) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &tag_listen };

		if (epoll_ctl(s->ep, EPOLL_CTL_ADD, s->lfd, &ev) == 0)
			s->accept_paused = false;
	}
}

static bool header_says_close(const char *req, size_t len)
{
	const char *p = req;
	const char *end = req + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);

		if (n > 11 && strncasecmp(p, "connection:", 11) == 0 &&
		    memmem(p + 11, n - 11, "close", 5))
			return true;
		if (!eol)
			break;
		p = eol + 1;
	}
	return false;
}

/*
 * Parses one complete request at the head of c->in (if there is one),
 * consumes it and prepares the response. Returns 1 when a response is
 * ready, 0 when more bytes are needed.
 */
static int srv_parse(struct server *s, struct srv_conn *c)
{
	char *hend = memmem(c->in, c->inlen, "\r\n\r\n", 4);
	size_t reqlen;
	uint64_t n = 0;
	const char *p;
	bool ok = true;

	if (!hend) {
		if (c->inlen < sizeof(c->in))
			return 0;
		ok = false;	/* a header larger than we accept */
		reqlen = c->inlen;
	} else {
		reqlen = (size_t)(hend - c->in) + 4;
	}
	p = c->in + 5;
	if (ok && (c->inlen < 5 || memcmp(c->in, "GET /", 5) != 0))
		ok = false;
	while (ok && *p >= '0' && *p <= '9' && n <= SRV_MAX_LEN)
		n = n * 10 + (uint64_t)(*p++ - '0');
	if (ok && (p == c->in + 5 || n > SRV_MAX_LEN ||
		   strncmp(p, " HTTP/1.", 8) != 0))
		ok = false;
	if (ok) {
		c->close_after = p[8] == '0' || header_says_close(c->in, reqlen);
		c->body_left = n;
		c->hdr_len = (size_t)snprintf(c->hdr, sizeof(c->hdr),
			"HTTP/1.1 200 OK\r\nContent-Length: %llu\r\n%s\r\n",
			(unsigned long long)n,
			c->close_after ? "Connection: close\r\n" : "");
		s->responses++;
	} else {
		c->close_after = true;
		c->body_left = 0;
		c->hdr_len = (size_t)snprintf(c->hdr, sizeof(c->hdr),
			"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
		s->bad_requests++;
	}
	c->hdr_off = 0;
	c->inlen -= reqlen;
	memmove(c->in, c->in + reqlen, c->inlen);
	c->sending = true;
	return 1;
}

/* Returns false when the connection is gone. */
static bool srv_send(struct server *s, struct srv_conn *c)
{
	size_t budget = SRV_TURN_BYTES;

	while (c->hdr_off < c->hdr_len || c->body_left) {
		struct iovec iov[2];
		struct msghdr msg = { .msg_iov = iov };
		size_t body = c->body_left < sizeof(filler) ?
			      (size_t)c->body_left : sizeof(filler);
		size_t hdr = c->hdr_len - c->hdr_off;
		ssize_t n;

		if (!budget) {	/* let the others have their turn */
			ep_set(s, c, EPOLLOUT, EPOLL_CTL_MOD);
			return true;
		}
		iov[0].iov_base = c->hdr + c->hdr_off;
		iov[0].iov_len = hdr;
		iov[1].iov_base = filler;
		iov[1].iov_len = body;
		msg.msg_iovlen = 2;
		n = sendmsg(c->fd, &msg, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			ep_set(s, c, EPOLLOUT, EPOLL_CTL_MOD);
			return true;
		}
		if (n < 0) {	/* peer gone (reset, pipe) */
			srv_close(s, c);
			return false;
		}
		if ((size_t)n <= hdr) {
			c->hdr_off += (size_t)n;
		} else {
			c->hdr_off = c->hdr_len;
			c->body_left -= (size_t)n - hdr;
			s->bytes += (size_t)n - hdr;
		}
		budget = (size_t)n >= budget ? 0 : budget - (size_t)n;
	}
	c->sending = false;
	if (c->close_after) {
		srv_close(s, c);
		return false;
	}
	ep_set(s, c, EPOLLIN, EPOLL_CTL_MOD);
	return true;
}

static void srv_readable(struct server *s, struct srv_conn *c)
{
	for (;;) {
		ssize_t n;

		if (c->inlen == sizeof(c->in))
			break;
		n = read(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen);
		if (n > 0) {
			c->inlen += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		srv_close(s, c);	/* EOF or error */
		return;
	}
	/* A request that arrived early (pipelined) is served in turn. */
	while (!c->sending && srv_parse(s, c))
		if (!srv_send(s, c))
			return;
}

static void srv_accept(struct server *s)
{
	for (;;) {
		int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct srv_conn *c;

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				/* Stop accepting until a connection closes. */
				fprintf(stderr, "webgen server: accept: %s\n",
					strerror(errno));
				epoll_ctl(s->ep, EPOLL_CTL_DEL, s->lfd, NULL);
				s->accept_paused = true;
			}
			return;	/* EAGAIN, or an aborted handshake */
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		if (ep_set(s, c, EPOLLIN, EPOLL_CTL_ADD) < 0) {
			close(fd);
			free(c);
			continue;
		}
		c->next = s->conns;
		if (s->conns)
			s->conns->prev = c;
		s->conns = c;
		s->accepted++;
	}
}

/* One dual-stack socket; IPv4 only where the kernel has no IPv6. */
static int srv_listen(uint16_t port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_addr = IN6ADDR_ANY_INIT,
				   .sin6_port = htons(port) };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_ANY),
				  .sin_port = htons(port) };
	int one = 1, zero = 0;
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, (struct sockaddr *)&a6, sizeof(a6)) == 0)
			goto listen;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a4, sizeof(a4)) < 0) {
		close(fd);
		return -1;
	}
listen:
	if (listen(fd, 4096) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Thousands of connections need more than the usual 1024 fds. */
void wg_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* SIGINT and SIGTERM arrive on a signalfd, so the loop ends cleanly. */
int wg_signalfd(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int server_loop(struct server *s)
{
	struct epoll_event evs[256];

	for (;;) {
		int n = epoll_wait(s->ep, evs, 256, -1);
		int i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("webgen server: epoll_wait");
			return 1;
		}
		for (i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;
			struct srv_conn *c = p;

			if (p == &tag_signal)
				return 0;
			if (p == &tag_listen) {
				srv_accept(s);
				continue;
			}
			if (c->sending && (evs[i].events & EPOLLOUT))
				srv_send(s, c);
			else if (c->sending)	/* error or hangup while sending */
				srv_close(s, c);
			else
				srv_readable(s, c);
		}
	}
}

static int server_main(int argc, char **argv)
{
	struct server s = { .ep = -1 };
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t port = 8080;
	int opt, rc;

	while ((opt = getopt(argc, argv, "p:h")) != -1) {
		if (opt == 'p' && wg_parse_u64(optarg, &port) && port && port < 65536)
			continue;
		if (opt == 'h') {
			usage(stdout);
			return 0;
		}
		fprintf(stderr, "webgen server: bad option or port\n");
		usage(stderr);
		return 2;
	}
	if (optind != argc) {
		fprintf(stderr, "webgen server: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	memset(filler, 'x', sizeof(filler));
	wg_raise_nofile();
	s.sfd = wg_signalfd();
	s.lfd = srv_listen((uint16_t)port);
	s.ep = epoll_create1(EPOLL_CLOEXEC);
	if (s.sfd < 0 || s.lfd < 0 || s.ep < 0) {
		fprintf(stderr, "webgen server: cannot listen on port %llu: %s\n",
			(unsigned long long)port, strerror(errno));
		return 1;
	}
	ev.data.ptr = &tag_listen;
	epoll_ctl(s.ep, EPOLL_CTL_ADD, s.lfd, &ev);
	ev.data.ptr = &tag_signal;
	epoll_ctl(s.ep, EPOLL_CTL_ADD, s.sfd, &ev);
	fprintf(stderr, "webgen server: listening on port %llu\n",
		(unsigned long long)port);
	rc = server_loop(&s);
	while (s.conns)
		srv_close(&s, s.conns);
	close(s.lfd);
	close(s.sfd);
	close(s.ep);
	fprintf(stderr,
		"webgen server: %llu connections, %llu responses, %llu bad requests, %llu body bytes\n",
		(unsigned long long)s.accepted, (unsigned long long)s.responses,
		(unsigned long long)s.bad_requests, (unsigned long long)s.bytes);
	return rc;
}

static int sample_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "what", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = "sizes";
	uint64_t n = 0, seed = 1, i;
	bool have_n = false;
	struct wg_rng r;
	struct wg_page pg;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		bool ok = true;

		switch (opt) {
		case 'n':
			ok = wg_parse_u64(optarg, &n);
			have_n = ok;
			break;
		case 'S':
			ok = wg_parse_u64(optarg, &seed);
			break;
		case 'W':
			what = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "webgen sample: bad option\n");
			usage(stderr);
			return 2;
		}
	}
	if (!have_n || optind != argc ||
	    (strcmp(what, "sizes") && strcmp(what, "think") &&
	     strcmp(what, "page") && strcmp(what, "req"))) {
		fprintf(stderr, "webgen sample: need -n N and --what sizes|think|page|req\n");
		usage(stderr);
		return 2;
	}
	wg_rng_seed(&r, seed, 0);
	for (i = 0; i < n; i++) {
		switch (what[0]) {
		case 's':
			printf("%llu\n", (unsigned long long)wg_draw_size(&r));
			break;
		case 't':
			printf("%.6f\n", wg_draw_think(&r));
			break;
		case 'p':
			wg_draw_page(&r, &pg);
			printf("%u %d\n", pg.embedded, pg.persistent);
			break;
		default:
			printf("%u\n", wg_draw_req_bytes(&r));
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "server"))
		return server_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "client"))
		return wg_client_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sample"))
		return sample_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "webgen: unknown subcommand '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
