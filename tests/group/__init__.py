"""Tests of bot/group: group and channel quizzes, posted questions, who gets recorded."""
