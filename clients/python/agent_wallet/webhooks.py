"""Checking that a webhook delivery came from the service."""
from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, Dict, Optional, Union

from .errors import SignatureVerificationError

SIGNATURE_HEADER = "Service-Signature"


def compute_signature(payload: bytes, signing_secret: str) -> str:
    """Lowercase hex HMAC-SHA256 of the raw body, keyed with the whole `signing_secret` (prefix included)."""
    return hmac.new(signing_secret.encode("utf-8"), payload, hashlib.sha256).hexdigest()


def verify_signature(payload: Union[bytes, str], signature: Optional[str], signing_secret: str) -> bool:
    """True when `signature` (the `Service-Signature` header) signs exactly these body bytes.

    Pass the body as received, before any JSON parsing: re-serialising changes the bytes. The
    comparison takes the same time wherever the strings differ, so it leaks nothing about the
    expected signature.
    """
    if not signature:
        return False
    raw = payload.encode("utf-8") if isinstance(payload, str) else payload
    expected = compute_signature(raw, signing_secret)
    return hmac.compare_digest(expected.encode("ascii"), signature.strip().lower().encode("ascii", "replace"))


def construct_event(payload: Union[bytes, str], signature: Optional[str], signing_secret: str) -> Dict[str, Any]:
    """The event as a dict, once its signature checks out; otherwise `SignatureVerificationError`.

    Deliveries are at least once: drop an event whose `id` you have already handled.
    """
    if not verify_signature(payload, signature, signing_secret):
        raise SignatureVerificationError("the Service-Signature header does not match the body")
    raw = payload.decode("utf-8") if isinstance(payload, bytes) else payload
    event = json.loads(raw)
    if not isinstance(event, dict):
        raise SignatureVerificationError("the body is not a JSON object")
    return event
