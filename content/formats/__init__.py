"""Interchange formats: GIFT, Aiken, Moodle XML, CSV, Excel and Anki, to and from our banks.

One module per format, one registry (`registry.FORMATS`), one pipeline (`convert`) shared
by `python -m content convert` and the bot. Knows nothing of Telegram.
"""
