"""`python -m bot` as operators run it: a process of its own, killed, faulted, composed."""
