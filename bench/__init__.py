"""Benchmarks: load against the tests' Bot API stand-in, figures printed, nothing asserted."""
