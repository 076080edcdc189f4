"""The Telegram layer of Quiz Tutor. `app.py` wires the features (`learner/`, `group/`,
`admin/`, `common/`: each a folder of handlers, flow and rendering) over `core/`, the shared
plumbing; `serving/` runs the process; `config.py` is the one reader of the environment."""
