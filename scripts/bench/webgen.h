/* SPDX-License-Identifier: GPL-2.0 */
/*
 * webgen.h - shared declarations of webgen, the event-driven web traffic
 * generator of the benchmark harness: the seeded random number generator
 * and the workload distributions (webgen_dist.c), the command line and
 * helpers (webgen.c), the server (webgen_server.c) and the client
 * (webgen_client.c).
 */
#ifndef WEBGEN_H
#define WEBGEN_H

#include <stdbool.h>
#include <stdint.h>

/* xoshiro256** state; one per emulated user, so users are independent. */
struct wg_rng {
	uint64_t s[4];
};

void wg_rng_seed(struct wg_rng *r, uint64_t seed, uint64_t stream);
uint64_t wg_rng_next(struct wg_rng *r);
double wg_rng_uniform(struct wg_rng *r);	/* in (0, 1), never 0 or 1 */

/*
 * The workload families (--model): the web browsing model, and the
 * closed-loop model kept for held-out checks (webgen_dist.c, top).
 */
enum wg_model {
	WG_MODEL_WEB,
	WG_MODEL_CLOSED,
};

bool wg_parse_model(const char *s, enum wg_model *out);

/* The largest response the size distribution draws (bytes). */
#define WG_SIZE_MAX_BYTES	10000000ULL
/* Request sizes are clamped to this range (bytes, whole HTTP request). */
#define WG_REQ_MIN_BYTES	150U
#define WG_REQ_MAX_BYTES	2000U
/* The bounds of the closed model's response sizes (bytes). */
#define WG_CLOSED_MIN_BYTES	1000ULL
#define WG_CLOSED_MAX_BYTES	4000000ULL
/* The most embedded objects one page has. */
#define WG_EMBED_MAX		50U

/* One page: a top-level object and `embedded` embedded objects. */
struct wg_page {
	unsigned int embedded;
	bool persistent;	/* all objects over one HTTP/1.1 connection */
};

uint64_t wg_draw_size(struct wg_rng *r);
uint64_t wg_draw_closed_size(struct wg_rng *r);
unsigned int wg_draw_req_bytes(struct wg_rng *r);
double wg_draw_think(struct wg_rng *r);	/* seconds, before scaling */
void wg_draw_page(struct wg_rng *r, struct wg_page *p);

/* Monotonic clock in microseconds. */
int64_t wg_now_us(void);

/* Helpers shared by the subcommands (webgen.c). */
bool wg_parse_u64(const char *s, uint64_t *out);
void wg_raise_nofile(void);
int wg_signalfd(void);

int wg_server_main(int argc, char **argv);
int wg_client_main(int argc, char **argv);

#endif /* WEBGEN_H */
