"""A learner in a private chat: quizzes, review sessions, progress, reminders, /forgetme."""
