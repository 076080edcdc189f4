"""Tests of content/: banks, their validation, question types, the pure rules."""
