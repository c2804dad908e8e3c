"""Python client of the Agent Wallet `/v1` API (standard library only)."""
__version__ = "0.1.0"

from .client import AgentWallet, Paginator, Signer  # noqa: E402
from .errors import (  # noqa: E402
    AgentWalletError, ApiConnectionError, ApiError, AuthenticationError, ConflictError, InsufficientFundsError,
    InvalidRequestError, NotFoundError, PermissionError, PolicyViolationError, RateLimitError,
    SessionTokenInvalidError, SignatureVerificationError, Violation,
)
from .webhooks import construct_event, verify_signature  # noqa: E402

__all__ = [
    "AgentWallet", "Paginator", "Signer", "Violation",
    "AgentWalletError", "ApiConnectionError", "ApiError", "AuthenticationError", "ConflictError",
    "InsufficientFundsError", "InvalidRequestError", "NotFoundError", "PermissionError", "PolicyViolationError",
    "RateLimitError", "SessionTokenInvalidError", "SignatureVerificationError",
    "construct_event", "verify_signature",
]
