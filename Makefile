# SPDX-License-Identifier: GPL-2.0
#
# linux-aqm: AQM qdiscs as out-of-tree kernel modules plus tc plugins.
#
#   make [modules] [KDIR=...]  build the modules against KDIR
#   make tc                    build the tc plugins (q_*.so)
#   make install / uninstall   modules (+depmod) and plugins
#   make load                  insmod the built modules (fails if the kernel's sch_sfb is loaded)
#   make vmkernel              build or reuse the cached test kernel
#   make check                 the whole test suite in a VM
#   make check-debug           the same and the reliability suite on the debug kernel
#   make demo                  a 60 s dumbbell through the AQMs in a VM
#   make bench [BENCH=FILE]    an emulated-WAN experiment in a VM (default
#                              scripts/bench/experiments/short.toml)
#   make bench-pps             the per-packet cost of every qdisc, with pktgen in a
#                              VM (about 35 minutes; PPS_ROUNDS, PPS_DURATION,
#                              PPS_WARMUP, PPS_FLOWS, PPS_STATES, PPS_RATE:
#                              scripts/bench-pps.sh)
#   make reproduce PAPER=dcn [DRY_RUN=1] [FROM_PUBLISHED=1] [EXTRAS=1]
#                              a paper's experiments, seed by seed (resumes
#                              where it stopped), each seed published when
#                              done; DRY_RUN=1 prints the plan only;
#                              FROM_PUBLISHED=1 starts a missing results
#                              folder from the published runs; EXTRAS=1
#                              runs the page's tests of why ours differs
#                              from the paper too, after its files
#   make repro-page PAPER=dcn  the paper's page from the published results
#                              alone (docs/results/*/raw.tar.xz)
#   make deps                  install build and test dependencies

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
DESTDIR ?=
TC_LIB_DIR ?= $(shell scripts/tc/tc-libdir.sh)

.PHONY: all modules clean tc install uninstall load vmkernel check check-debug demo deps \
	lint pytest bench bench-pps reproduce repro-page deb check-distro

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	find net selftests -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name '*.a' \
		-o -name 'modules.order' -o -name '*.mod.o' | xargs rm -f
	rm -f Module.symvers modules.order
	$(MAKE) -C tc clean

tc:
	$(MAKE) -C tc IPROUTE2_SRC="$$(scripts/tc/iproute2-src.sh)"

install: modules tc
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=linux-aqm modules_install
	install -D -m 0644 scripts/install/depmod-linux-aqm.conf $(DESTDIR)/etc/depmod.d/linux-aqm.conf
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)
	@[ -n "$(DESTDIR)" ] || [ ! -e /sys/module/sch_sfb ] || grep -q O /sys/module/sch_sfb/taint || \
		echo "make install: the kernel's own sch_sfb is loaded; modprobe keeps it until its qdiscs are deleted and it is removed (rmmod sch_sfb)" >&2
	$(MAKE) -C tc install DESTDIR=$(DESTDIR) TC_LIB_DIR=$(TC_LIB_DIR)

uninstall:
	rm -rf $(DESTDIR)/lib/modules/$(KVER)/linux-aqm
	rm -f $(DESTDIR)/etc/depmod.d/linux-aqm.conf
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)
	$(MAKE) -C tc uninstall DESTDIR=$(DESTDIR) TC_LIB_DIR=$(TC_LIB_DIR)

load: modules
	scripts/load.sh

deps:
	scripts/deps.sh --deb-src

vmkernel:
	scripts/kernel/vmkernel.sh

lint:
	scripts/check.sh --lint-only

check:
	scripts/check.sh

check-debug:
	scripts/check.sh --debug

# the Debian kernels as shipped (bookworm, trixie, trixie-backports), a VM
# boot each: insmod, contract.sh, a dumbbell run per qdisc (niced)
check-distro:
	scripts/check-distro.sh

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh $(BENCH)

bench-pps:
	scripts/bench-pps.sh

reproduce:
	scripts/reproduce.sh $(if $(DRY_RUN),--dry-run) $(if $(FROM_PUBLISHED),--from-published) $(if $(EXTRAS),--extras) $(PAPER)

# on the venv's python3 (matplotlib) when there is one, as reproduce.sh
repro-page:
	bash -c '. scripts/lib/common.sh && PYTHONPATH=scripts python3 -m aqmtools.repro.page --published "$$1"' repro-page $(PAPER)

# Debian packages for the running Debian release, into build/deb/CODENAME/:
# linux-aqm-dkms, linux-aqm-tc, linux-aqm-sfb-dkms (docs/install.md)
deb:
	debian/build-deb.sh
