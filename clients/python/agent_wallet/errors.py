"""Typed errors: one class per kind of answer a caller handles differently."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Type

__all__ = [
    "Violation",
    "AgentWalletError",
    "ApiConnectionError",
    "ApiError",
    "InvalidRequestError",
    "AuthenticationError",
    "PermissionError",
    "NotFoundError",
    "ConflictError",
    "PolicyViolationError",
    "SessionTokenInvalidError",
    "InsufficientFundsError",
    "RateLimitError",
    "SignatureVerificationError",
]


@dataclass(frozen=True)
class Violation:
    """The policy check that failed: its rule, the rule's bound and what the payment would make of it."""

    rule: str
    limit: Optional[str]
    attempted: Optional[str]


class AgentWalletError(Exception):
    """Root of every error this library raises."""


class ApiConnectionError(AgentWalletError):
    """No answer came: the connection failed or timed out on every attempt."""


class SignatureVerificationError(AgentWalletError):
    """A webhook delivery's `Service-Signature` does not match its body."""


class ApiError(AgentWalletError):
    """The server answered with an error body `{"error": {...}}`."""

    def __init__(self, status: int, code: str, message: str, request_id: Optional[str],
                 docs: Optional[str] = None, body: Optional[Mapping[str, Any]] = None,
                 headers: Optional[Mapping[str, str]] = None) -> None:
        super().__init__(f"{status} {code}: {message} (request {request_id})")
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.docs = docs
        self.body: Dict[str, Any] = dict(body or {})
        self.headers: Dict[str, str] = dict(headers or {})

    @property
    def _detail(self) -> Dict[str, Any]:
        detail = self.body.get("error")
        return detail if isinstance(detail, dict) else {}


class InvalidRequestError(ApiError):
    """400 `validation_error` (also a wrong co-signature) or 413; `param` names the field."""

    @property
    def param(self) -> Optional[str]:
        return self._detail.get("param")


class AuthenticationError(ApiError):
    """401: no credential, an unknown or revoked key, a token that is not ours, expired or rotated."""


class PermissionError(ApiError):  # noqa: A001 - the contract's name; import it qualified to keep the builtin
    """403: role too low (`required_role` names the lowest that would do), `same_credential`, `https_required`."""

    @property
    def required_role(self) -> Optional[str]:
        return self._detail.get("required_role")


class NotFoundError(ApiError):
    """404: no such resource in the caller's organisation (or, for an agent, of its wallet)."""


class ConflictError(ApiError):
    """409: `idempotency_conflict`, `invalid_state` or `already_exists`."""


class PolicyViolationError(ApiError):
    """422 `policy_violation`: a check of the enforcement order failed; the attempt is recorded as blocked."""

    @property
    def violation(self) -> Optional[Violation]:
        raw = self._detail.get("violation")
        if not isinstance(raw, dict):
            return None
        return Violation(rule=raw.get("rule", ""), limit=raw.get("limit"), attempted=raw.get("attempted"))


class SessionTokenInvalidError(PolicyViolationError, AuthenticationError):
    """401 `session_token_invalid`: a payment without a valid token for its wallet (rule `session_token`)."""


class InsufficientFundsError(ApiError):
    """422 `insufficient_funds`: the wallet's or the organisation's balance is too low."""


class RateLimitError(ApiError):
    """429: the organisation's bucket is empty; `retry_after` is the server's `Retry-After` in seconds."""

    @property
    def retry_after(self) -> Optional[float]:
        return parse_retry_after(self.headers.get("retry-after"))


_BY_CODE: Dict[str, Type[ApiError]] = {
    "validation_error": InvalidRequestError,
    "payload_too_large": InvalidRequestError,
    "authentication_failed": AuthenticationError,
    "session_token_invalid": SessionTokenInvalidError,
    "insufficient_permissions": PermissionError,
    "same_credential": PermissionError,
    "https_required": PermissionError,
    "not_found": NotFoundError,
    "idempotency_conflict": ConflictError,
    "invalid_state": ConflictError,
    "already_exists": ConflictError,
    "policy_violation": PolicyViolationError,
    "insufficient_funds": InsufficientFundsError,
    "rate_limit_exceeded": RateLimitError,
}

_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    429: RateLimitError,
}


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """`Retry-After` in seconds; the server sends whole seconds, so an HTTP date is not expected."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(seconds, 0.0)


def error_from_response(status: int, body: Any, headers: Mapping[str, str]) -> ApiError:
    """The typed error for an error answer; an unexpected body still gives an `ApiError` with the status."""
    detail = body.get("error") if isinstance(body, dict) else None
    if not isinstance(detail, dict):
        detail = {}
        body = {"error": detail}
    code = detail.get("code") or f"http_{status}"
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status, ApiError)
    return cls(status=status, code=code, message=detail.get("message") or "", docs=detail.get("docs"),
               request_id=detail.get("request_id") or headers.get("request-id"), body=body, headers=headers)
