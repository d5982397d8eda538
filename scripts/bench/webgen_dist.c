// SPDX-License-Identifier: GPL-2.0
/*
 * webgen_dist.c - the random number generator and the workload models of
 * webgen: response sizes, request sizes, pages and think times.
 *
 * Two models (--model): "web", the default, described first, and
 * "closed", below, a second family for held-out checks.
 *
 * Web model: the browsing model of Smith, Hernandez and Jeffay ("What TCP/IP
 * protocol headers can tell us about the web", SIGMETRICS 2001), as used by
 * Le, Aikat, Jeffay and Smith ("The effects of active queue management on
 * web performance", SIGCOMM 2003) and by the DCN paper ("Taming the
 * elephants", its reference [10]). A user fetches pages; a page is one
 * top-level object and k embedded objects, fetched one after the other
 * either over one persistent HTTP/1.1 connection or with a new connection
 * per object (HTTP/1.0 style); then the user thinks before the next page.
 * Those papers drive the model with empirical distributions measured on
 * the UNC campus link, which we do not have; the analytic distributions
 * below are chosen to reproduce the properties the papers state, and the
 * response sizes are fitted to the DCN paper's figures 1-2 (section 3) and
 * the 10 KB / 1 MB read-outs of its section 5:
 *
 * Response size (bytes), a two-part mixture split at L = 10,000:
 *   - with probability 0.90: lognormal, median 1,200, sigma 1.3 (of ln x),
 *     truncated to [1, L] by rejection (it accepts 95% of draws);
 *   - with probability 0.10: bounded Pareto on [L, H], alpha 1.03,
 *     H = 10,000,000 (the cap: 8 s of a 10 Mbit/s link on its own).
 *   Analytically: 90% of responses at most 10 KB carrying 20.7% of the
 *   bytes (paper: about 90%, under 25%; its figure 10 reads about 20%);
 *   0.93% of responses over 100 KB (paper: under 1%); 0.079% over 1 MB
 *   carrying 24.6% of the bytes (paper: under 1%, about 25%); 72% at most
 *   3,000 bytes carrying 6.9% of the bytes (paper: 2,000-3,000-byte flows
 *   are about 70% of flows and 6-8% of the bytes). Mean 8.1 KB.
 *   An alpha near 1 spreads the tail's bytes evenly over its decades,
 *   which is what makes the few responses over 1 MB carry a quarter of
 *   the bytes.
 *
 * Request size (bytes, the whole HTTP request): lognormal, median 360,
 *   sigma 0.4, clamped to [150, 2000]. Smith et al. find requests of a
 *   few hundred bytes with a short tail (the URL and cookies).
 *
 * Embedded objects per page: k = floor(X) - 1, X Pareto with x_m = 1 and
 *   alpha 1.5, capped at 50: 65% of pages have none, the mean is about
 *   1.3, a few pages have dozens (the heavy tail Barford and Crovella's
 *   SURGE and Smith et al. both report for objects per page).
 *
 * Persistence: a page with embedded objects is fetched over one persistent
 *   connection with probability 0.5; a page without is fetched over a
 *   connection of its own (on the wire the two are the same for one
 *   object). Smith et al. find persistent connections a minority of
 *   connections that carry a large share of the exchanges; with these
 *   numbers about 40% of the exchanges are persistent.
 *
 * Think time (seconds, between the last response of a page and the next
 *   page): bounded Pareto on [1, 300], alpha 1.5, mean 2.8 s (heavy-tailed
 *   OFF times as in SURGE and in Smith et al.'s idle times). webgen's -r
 *   scales it.
 *
 * Closed model (--model closed): a closed loop of users that each fetch
 *   one object per connection, with no think time (webgen_client.c). Its
 *   response sizes come from a distribution unlike the web model's
 *   mixture, so that a tuning fitted on the web model is checked on
 *   traffic it was not fitted to: a single bounded Pareto on
 *   [L, H] = [1,000, 4,000,000] bytes, alpha 1.1, rounded to whole bytes.
 *   Analytically (span = 1 - (L/H)^alpha = 0.99989):
 *     median   L / (1 - span/2)^(1/alpha)              = 1,878 B;
 *     mean     alpha L^alpha (L^(1-alpha) - H^(1-alpha))
 *              / ((alpha - 1) span)                    = 6,201 B;
 *     P(X > x) = ((L/x)^alpha - (L/H)^alpha) / span: 7.9% of the
 *              responses are over 10 KB, 0.62% over 100 KB and 0.039%
 *              over 1 MB;
 *     the bytes of the responses over x, as a fraction of all bytes,
 *              (x^(1-alpha) - H^(1-alpha)) / (L^(1-alpha) - H^(1-alpha)):
 *              34.5% for x = 100 KB (the 0.62% of responses over
 *              100 KB carry a third of the bytes).
 *   Against the web model (its figures from a million draws of
 *   `webgen sample`): no responses under 1,000 bytes (42% of the web
 *   model's), a median 40% larger (1,878 against 1,313 B), fewer
 *   responses over 100 KB (0.62% against 0.93%) carrying a smaller share
 *   of the bytes (34.5% against 52%), and a cap of 4 MB instead of 10 MB.
 *   Request sizes are the web model's.
 *
 * Random numbers: xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64 from the run's seed and the user's index, so every user has
 * its own reproducible stream: the requests a user issues depend only on
 * the seed and the model.
 */
#include <math.h>
#include <time.h>

#include "webgen.h"

#define SIZE_SPLIT	10000.0
#define SIZE_TAIL_P	0.10
#define SIZE_MEDIAN	1200.0
#define SIZE_SIGMA	1.3
#define SIZE_ALPHA	1.03

#define CLOSED_ALPHA	1.1

#define REQ_MEDIAN	360.0
#define REQ_SIGMA	0.4

#define EMBED_ALPHA	1.5
#define PERSIST_P	0.5

#define THINK_MIN	1.0
#define THINK_MAX	300.0
#define THINK_ALPHA	1.5

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The stream index is mixed in through a second splitmix64 round, so that
 * seeds s and s + 1 do not give overlapping users.
 */
void wg_rng_seed(struct wg_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed;
	uint64_t y;
	int i;

	y = splitmix64(&x) ^ stream;
	x = splitmix64(&y);
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wg_rng_next(struct wg_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* 53 random bits, offset by half a step so neither 0 nor 1 comes out. */
double wg_rng_uniform(struct wg_rng *r)
{
	return ((double)(wg_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Box-Muller; the second variate is dropped to keep the stream simple. */
static double normal(struct wg_rng *r)
{
	double u1 = wg_rng_uniform(r);
	double u2 = wg_rng_uniform(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static double lognormal(struct wg_rng *r, double median, double sigma)
{
	return median * exp(sigma * normal(r));
}

/* Inverse CDF of the Pareto distribution bounded to [lo, hi]. */
static double bounded_pareto(struct wg_rng *r, double lo, double hi,
			     double alpha)
{
	double u = wg_rng_uniform(r);
	double span = 1.0 - pow(lo / hi, alpha);

	return lo / pow(1.0 - u * span, 1.0 / alpha);
}

uint64_t wg_draw_size(struct wg_rng *r)
{
	double x;

	if (wg_rng_uniform(r) < SIZE_TAIL_P) {
		x = bounded_pareto(r, SIZE_SPLIT, (double)WG_SIZE_MAX_BYTES,
				   SIZE_ALPHA);
	} else {
		do
			x = lognormal(r, SIZE_MEDIAN, SIZE_SIGMA);
		while (x > SIZE_SPLIT);
	}
	x = round(x);
	if (x < 1.0)
		x = 1.0;
	if (x > (double)WG_SIZE_MAX_BYTES)
		x = (double)WG_SIZE_MAX_BYTES;
	return (uint64_t)x;
}

/*
 * The closed model's response size. One uniform draw per size, by the
 * inverse CDF, so the stream advances by a fixed step per exchange. The
 * bounds are whole bytes, so rounding keeps a draw inside them; the clamp
 * only guards against pow() landing a hair outside.
 */
uint64_t wg_draw_closed_size(struct wg_rng *r)
{
	double x = round(bounded_pareto(r, (double)WG_CLOSED_MIN_BYTES,
					(double)WG_CLOSED_MAX_BYTES,
					CLOSED_ALPHA));

	if (x < (double)WG_CLOSED_MIN_BYTES)
		return WG_CLOSED_MIN_BYTES;
	if (x > (double)WG_CLOSED_MAX_BYTES)
		return WG_CLOSED_MAX_BYTES;
	return (uint64_t)x;
}

unsigned int wg_draw_req_bytes(struct wg_rng *r)
{
	double x = round(lognormal(r, REQ_MEDIAN, REQ_SIGMA));

	if (x < WG_REQ_MIN_BYTES)
		return WG_REQ_MIN_BYTES;
	if (x > WG_REQ_MAX_BYTES)
		return WG_REQ_MAX_BYTES;
	return (unsigned int)x;
}

double wg_draw_think(struct wg_rng *r)
{
	return bounded_pareto(r, THINK_MIN, THINK_MAX, THINK_ALPHA);
}

void wg_draw_page(struct wg_rng *r, struct wg_page *p)
{
	double x = 1.0 / pow(wg_rng_uniform(r), 1.0 / EMBED_ALPHA);
	double persist = wg_rng_uniform(r);

	/* x >= 1, so floor(x) - 1 >= 0; compare before converting. */
	if (x - 1.0 >= WG_EMBED_MAX)
		p->embedded = WG_EMBED_MAX;
	else
		p->embedded = (unsigned int)floor(x) - 1;
	p->persistent = p->embedded > 0 && persist < PERSIST_P;
}

int64_t wg_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
