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


# the colours a light Telegram client gives a Mini App (`themeParams`)
LIGHT_THEME = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
    "header_bg_color": "#ffffff",
    "section_separator_color": "#e7e7e7",
}
DARK_THEME = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
    "header_bg_color": "#212121",
    "section_separator_color": "#303030",
}
CLIENT_VERSION = "8.0"  # the Bot API version of Mini App features the sandbox's client speaks


def launch_url(url: str, init_data: str, theme: dict[str, str]) -> str:
    """The address a Telegram client opens for a `web_app` button: the button's URL with the
    launch parameters in its fragment (`tgWebAppData` is the initData, URL-encoded once more),
    so they never reach the server in a request line or a log."""
    fragment = urlencode(
        {
            "tgWebAppData": init_data,
            "tgWebAppVersion": CLIENT_VERSION,
            "tgWebAppPlatform": "weba",
            "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":")),
        }
    )
    return f"{url.split('#', 1)[0]}#{fragment}"


def web_app_button_problem(
    button: dict[str, Any], chat_type: str, inline: bool, http_allowed: bool = False
) -> str | None:
    """Why Telegram would refuse this `web_app` button here, or None. An inline keyboard may
    carry one in private chats only; its URL must be https (or http, in Telegram's test
    environment: `http_allowed`)."""
    web_app = button.get("web_app")
    if not isinstance(web_app, dict) or not isinstance(web_app.get("url"), str):
        return "Bad Request: can't parse inline keyboard button: web_app must be an object"
    if inline and chat_type != "private":
        return "Bad Request: BUTTON_TYPE_INVALID"
    if urlsplit(web_app["url"]).scheme not in (("https", "http") if http_allowed else ("https",)):
        return "Bad Request: BUTTON_URL_INVALID"
    return None
