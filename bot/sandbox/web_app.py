"""Mini Apps as Telegram opens them: the `initData` Telegram signs for a person who opens a
`web_app` button, and the rules a `web_app` button must keep.

Telegram's side of the protocol, written from its documentation: the bot checks what this
signs (bot/dashboard/init_data.py), and the tests hold the two together.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any
from urllib.parse import urlencode, urlsplit


def sign_init_data(
    user: dict[str, Any], token: str, auth_date: int, extra: dict[str, str] | None = None
) -> str:
    """The initData query string Telegram gives a Mini App opened by `user`."""
    fields = {
        "query_id": "AAH" + secrets.token_urlsafe(12),
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(auth_date),
        **(extra or {}),
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def web_app_button_problem(button: dict[str, Any], chat_type: str, inline: bool) -> str | None:
    """Why Telegram would refuse this `web_app` button here, or None. An inline keyboard may
    carry one in private chats only; its URL must be https."""
    web_app = button.get("web_app")
    if not isinstance(web_app, dict) or not isinstance(web_app.get("url"), str):
        return "Bad Request: can't parse inline keyboard button: web_app must be an object"
    if inline and chat_type != "private":
        return "Bad Request: BUTTON_TYPE_INVALID"
    if urlsplit(web_app["url"]).scheme != "https":
        return "Bad Request: BUTTON_URL_INVALID"
    return None
