"""What the tests share: the bot run against the stand-in, people in chats, quizzes to draw."""
