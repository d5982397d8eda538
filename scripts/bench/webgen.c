// SPDX-License-Identifier: GPL-2.0
/*
 * webgen.c - the web traffic generator of the benchmark harness: its
 * command line, the `sample` subcommand and helpers shared by the others.
 *
 *   webgen server [-p PORT]                          (webgen_server.c)
 *   webgen client -s HOST[:PORT][,...] -u USERS -d SECONDS ...
 *                                                    (webgen_client.c)
 *   webgen sample -n N [--seed S] [--model web|closed]
 *                 [--what sizes|think|page|req]
 *
 * `sample` prints draws of a workload model (webgen_dist.c; --model, web
 * by default), one a line, from the random stream of user 0 of the seed:
 * response sizes in bytes, think times in seconds, pages as "embedded
 * persistent" (a count and 0 or 1) and request sizes in bytes. The closed
 * model has response and request sizes only: it has no pages and no think
 * times, so asking for those is a usage error rather than a draw of
 * something the model does not use.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "webgen.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: webgen server [-p PORT]\n"
		"       webgen client -s HOST[:PORT][,HOST[:PORT]...] -u USERS -d SECONDS\n"
		"                     [-w WARMUP] [-g DRAIN] [--seed S] [-o LOG] [-r RATE_SCALE]\n"
		"                     [--model web|closed]\n"
		"       webgen sample -n N [--seed S] [--model web|closed]\n"
		"                     [--what sizes|think|page|req]\n");
}

/* --model's argument; both subcommands that take it parse it here. */
bool wg_parse_model(const char *s, enum wg_model *out)
{
	if (!strcmp(s, "web"))
		*out = WG_MODEL_WEB;
	else if (!strcmp(s, "closed"))
		*out = WG_MODEL_CLOSED;
	else
		return false;
	return true;
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

static int sample_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "what", required_argument, NULL, 'W' },
		{ "model", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = "sizes";
	enum wg_model model = WG_MODEL_WEB;
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
		case 'M':
			ok = wg_parse_model(optarg, &model);
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
	if (model == WG_MODEL_CLOSED && strcmp(what, "sizes") && strcmp(what, "req")) {
		fprintf(stderr, "webgen sample: the closed model has no pages or think times\n");
		usage(stderr);
		return 2;
	}
	wg_rng_seed(&r, seed, 0);
	for (i = 0; i < n; i++) {
		switch (what[0]) {
		case 's':
			printf("%llu\n", (unsigned long long)(model == WG_MODEL_WEB ?
							      wg_draw_size(&r) :
							      wg_draw_closed_size(&r)));
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
		return wg_server_main(argc - 1, argv + 1);
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
