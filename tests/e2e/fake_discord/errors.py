"""Discord-shaped API errors the fake answers with."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answer: HTTP status, Discord JSON error code and message."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}".strip())
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def invalid_form(problems: dict[str, str]) -> ApiError:
    """400 / 50035 with one `_errors` entry per dotted field path."""
    errors = {
        path: {"_errors": [{"code": "INVALID", "message": text}]} for path, text in problems.items()
    }
    return ApiError(400, 50035, "Invalid Form Body", errors)


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
CANNOT_EDIT_OTHERS = 50005
EMPTY_MESSAGE = 50006
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
ALREADY_ACKNOWLEDGED = 40060
INVALID_WEBHOOK_TOKEN = 50027
