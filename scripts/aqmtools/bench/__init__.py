"""The emulated-WAN benchmark harness (make bench): experiment files, the
netns testbed, the run inside the test VM and the report on the host."""
