"""Quizzes for a whole chat (group, supergroup, channel): timed quizzes, quiz polls, posted
questions and their daily schedules."""
