"""bot/core/updates.py and bot/core/transport.py `trim_updates`: the updates the bot gets are
exactly the ones PTB would make, less the keyboards of tapped messages."""

from __future__ import annotations

import copy
import json
from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from telegram import Bot, Message, Update

from bot.core.transport import AiohttpRequest, trim_updates
from bot.core.updates import UpdateParser

BOT = Bot("123:TEST")
KEYBOARD = {"inline_keyboard": [[{"text": "A", "callback_data": "1:ga:1:0:0"}]]}


def _message(text: str = "Question 1 of 8", message_id: int = 7, **extra: Any) -> dict[str, Any]:
    return {
        "message_id": message_id,
        "date": 1_700_000_000,
        "chat": {"id": -100, "type": "supergroup", "title": "study"},
        "from": {"id": 1, "is_bot": True, "first_name": "Quiz Tutor"},
        "text": text,
        "reply_markup": KEYBOARD,
        **extra,
    }


def _tap(update_id: int, user_id: int, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "from": {"id": user_id, "is_bot": False, "first_name": f"m{user_id}"},
            "chat_instance": "-100",
            "data": "1:ga:1:0:0",
            "message": message,
            **extra,
        },
    }


def test_taps_on_one_message_share_its_parsed_message_and_stay_as_ptb_makes_them() -> None:
    parser = UpdateParser(BOT)
    first, second = parser.parse_all([_tap(1, 10, _message()), _tap(2, 11, _message())])
    assert first.callback_query is not None and second.callback_query is not None
    assert first.callback_query.message is second.callback_query.message
    for update, data in ((first, _tap(1, 10, _message())), (second, _tap(2, 11, _message()))):
        assert update.to_dict() == type(update).de_json(data, BOT).to_dict()
        assert update.callback_query is not None and update.callback_query.get_bot() is BOT
    assert second.callback_query.from_user.id == 11


def test_an_edited_message_is_parsed_again() -> None:
    parser = UpdateParser(BOT)
    before = parser.parse(_tap(1, 10, _message("3 answered")))
    after = parser.parse(_tap(2, 10, _message("4 answered")))
    assert before.callback_query is not None and after.callback_query is not None
    assert before.callback_query.message is not after.callback_query.message
    assert isinstance(after.callback_query.message, Message)
    assert after.callback_query.message.text == "4 answered"


def test_other_shapes_and_inaccessible_messages_are_as_ptb_makes_them() -> None:
    parser = UpdateParser(BOT)
    unknown_field = _tap(1, 10, _message(), new_field=True)
    inaccessible = _tap(2, 10, {"message_id": 7, "date": 0, "chat": {"id": 5, "type": "private"}})
    message_update = {"update_id": 3, "message": _message()}
    for data in (unknown_field, inaccessible, message_update):
        assert parser.parse(data).to_dict() == type(parser.parse(data)).de_json(data, BOT).to_dict()
    query = parser.parse(unknown_field).callback_query
    assert query is not None and query.api_kwargs == {"new_field": True}


def test_the_parser_keeps_a_bounded_number_of_messages() -> None:
    parser = UpdateParser(BOT)
    parser.parse_all([_tap(n, 10, _message(message_id=n)) for n in range(1, 1_000)])
    assert len(parser._messages) <= 64


texts = st.text(max_size=50)
users = st.fixed_dictionaries(
    {"id": st.integers(1, 2**40), "is_bot": st.booleans(), "first_name": texts},
    optional={"language_code": st.sampled_from(["en", "yo", "ar"]), "username": texts},
)
messages = st.fixed_dictionaries(
    {
        "message_id": st.integers(1, 2**31),
        "date": st.integers(0, 2**31),
        "chat": st.fixed_dictionaries(
            {"id": st.integers(-(2**40), 2**40), "type": st.sampled_from(["private", "group"])}
        ),
    },
    optional={
        "from": users,
        "text": texts,
        "caption": texts,
        "reply_markup": st.just(KEYBOARD),
        "message_thread_id": st.integers(1, 100),
        "is_topic_message": st.booleans(),
    },
)
queries = st.fixed_dictionaries(
    {"id": texts, "from": users, "chat_instance": texts},
    optional={"message": messages, "data": texts, "inline_message_id": texts, "extra": texts},
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2**31), queries), max_size=6))
def test_parsed_updates_equal_ptbs_own(taps: list[tuple[int, dict[str, Any]]]) -> None:
    parser = UpdateParser(BOT)
    for update_id, query in taps:
        data = {"update_id": update_id, "callback_query": query}
        ours = parser.parse(data)
        assert ours.to_dict() == type(ours).de_json(data, BOT).to_dict()


def test_a_getupdates_answer_loses_only_the_keyboards_of_tapped_messages() -> None:
    body = {
        "ok": True,
        "result": [
            _tap(1, 10, _message()),
            {"update_id": 2, "message": _message()},  # a message's own keyboard stays
        ],
    }
    parsed = AiohttpRequest.parse_json_payload(json.dumps(body).encode())
    assert "reply_markup" not in parsed["result"][0]["callback_query"]["message"]
    assert parsed["result"][1]["message"]["reply_markup"] == KEYBOARD
    without = _message()
    del without["reply_markup"]
    assert parsed["result"][0]["callback_query"]["message"] == without


def test_trim_updates_leaves_strange_shapes_alone() -> None:
    strange: list[Any] = [1, None, {"callback_query": 3}, {"callback_query": {"message": "x"}}]
    trim_updates(strange)
    assert strange == [1, None, {"callback_query": 3}, {"callback_query": {"message": "x"}}]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
odd_chats = st.fixed_dictionaries(
    {"id": st.integers(-2, 2) | json_values, "type": st.sampled_from(["private", "group"])}
)
odd_messages = st.fixed_dictionaries(
    {
        "message_id": st.integers(0, 3) | json_values,
        "date": st.integers(0, 3) | json_values,
        "chat": odd_chats | json_values,
    },
    optional={"text": json_values, "from": users | json_values},
)
odd_queries = st.fixed_dictionaries(
    {"id": json_values, "from": users | json_values, "chat_instance": json_values},
    optional={"message": odd_messages | json_values, "data": json_values},
)


def _made(parse: Any, data: dict[str, Any]) -> dict[str, Any] | None:
    """What parsing made of `data` (a copy: PTB's parsing may change it), None if it raised."""
    try:
        return dict(parse(copy.deepcopy(data)).to_dict())
    except Exception:
        return None


@settings(max_examples=500, deadline=None)
@given(st.lists(odd_queries, min_size=1, max_size=4))
def test_strange_taps_are_read_or_refused_as_ptb_does(queries: list[dict[str, Any]]) -> None:
    """Whatever a webhook's sender puts in a tap: where PTB reads it, so does the parser (an
    exception on a polled update ends PTB's polling)."""
    parser = UpdateParser(BOT)
    for update_id, query in enumerate(queries):
        data = {"update_id": update_id, "callback_query": query}
        assert _made(parser.parse, data) == _made(partial(Update.de_json, bot=BOT), data)
