"""Reproductions of the papers (issue 33): which experiment files reproduce
which paper (plan), and the papers' own numbers to print beside ours."""
