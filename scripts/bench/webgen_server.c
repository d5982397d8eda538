// SPDX-License-Identifier: GPL-2.0
/*
 * webgen_server.c - the HTTP server of webgen (`webgen server [-p PORT]`).
 *
 * It speaks just enough HTTP/1.1 for the client: `GET /<N>` is answered
 * with N bytes of filler, on a connection kept open unless the request
 * says `Connection: close` (or is HTTP/1.0). It is one thread on epoll with
 * non-blocking sockets, writes each response as far as the socket takes it
 * (at most 1 MiB per turn, so one 100 MB response cannot starve the
 * others) and continues on EPOLLOUT. The filler comes from one static
 * buffer: a response costs no memory beyond its connection. A request
 * that arrives while the previous response is still being written waits
 * in the connection's buffer and is served next.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
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

int wg_server_main(int argc, char **argv)
{
	struct server s = { .ep = -1 };
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t port = 8080;
	int opt, rc;

	while ((opt = getopt(argc, argv, "p:h")) != -1) {
		if (opt == 'p' && wg_parse_u64(optarg, &port) && port && port < 65536)
			continue;
		if (opt == 'h') {
			printf("usage: webgen server [-p PORT]\n");
			return 0;
		}
		fprintf(stderr, "webgen server: bad option or port\n"
			"usage: webgen server [-p PORT]\n");
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

