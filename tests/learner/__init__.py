"""Tests of bot/learner: a learner's quizzes, reviews, progress, rendering, /forgetme."""
