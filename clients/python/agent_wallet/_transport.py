"""One request over HTTPS with the library's retry rules."""
from __future__ import annotations

import http.client
import json
import random
import ssl
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional
from urllib.parse import quote, urlencode, urlsplit

from .errors import ApiConnectionError, ApiError, error_from_response, parse_retry_after

BACKOFF_BASE_SECONDS = 0.5
BACKOFF_CAP_SECONDS = 8.0


@dataclass(frozen=True)
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


class Transport:
    """Sends requests to one base URL; retries failures that may pass, with full-jitter backoff."""

    def __init__(self, base_url: str, timeout_seconds: float, max_retries: int,
                 ssl_context: Optional[ssl.SSLContext], user_agent: str,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError(f"base_url must be an https:// URL: {base_url!r}")
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout_seconds
        self._max_retries = max_retries
        self._ssl_context = ssl_context
        self._user_agent = user_agent
        self._sleep = sleep

    def request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None,
                body: Any = None, headers: Optional[Mapping[str, str]] = None) -> Response:
        """Sends and answers the response of a 2xx; raises the typed error otherwise.

        Every request is retried after a network failure, a 5xx or a 429: a creating request
        carries an `Idempotency-Key` that its retries repeat, so the server makes it once; a state
        change takes effect at most once (a retry of one that did is a 409 `invalid_state`); the
        other methods set or read a state.
        """
        target = self._prefix + "/" + "/".join(quote(segment, safe="") for segment in path.strip("/").split("/"))
        if query:
            pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None]
            if pairs:
                target += "?" + urlencode(pairs)
        payload = None if body is None else json.dumps(body, separators=(",", ":")).encode("utf-8")
        sent_headers = {"Accept": "application/json", "User-Agent": self._user_agent}
        if payload is not None:
            sent_headers["Content-Type"] = "application/json"
        sent_headers.update(headers or {})

        attempt = 0
        while True:
            try:
                response = self._send(method, target, payload, sent_headers)
            except (OSError, http.client.HTTPException) as failure:
                if attempt >= self._max_retries:
                    raise ApiConnectionError(f"{method} {target} got no answer: {failure!r}") from failure
                self._sleep(_backoff(attempt))
                attempt += 1
                continue

            if 200 <= response.status < 300:
                return response
            if not (response.status == 429 or response.status >= 500) or attempt >= self._max_retries:
                raise _error(response)
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            self._sleep(retry_after if retry_after is not None else _backoff(attempt))
            attempt += 1

    def _send(self, method: str, target: str, payload: Optional[bytes], headers: Mapping[str, str]) -> Response:
        if self._scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self._host, self._port, timeout=self._timeout, context=self._ssl_context)
        else:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
        try:
            try:
                connection.connect()
            except ssl.SSLCertVerificationError as untrusted:
                # Trying again cannot make the certificate trusted; say so at once.
                raise ApiConnectionError(f"the certificate of {self._host} is not trusted ({untrusted.verify_message});"
                                         " for a self-signed server pass ca_file or ssl_context") from untrusted
            connection.request(method, target, body=payload, headers=dict(headers))
            answer = connection.getresponse()
            return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            connection.close()


def _backoff(attempt: int) -> float:
    """Full jitter: uniform between 0 and the exponential bound, so retrying clients spread out."""
    return random.uniform(0, min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * (2 ** attempt)))


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _error(response: Response) -> ApiError:
    try:
        body = response.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    return error_from_response(response.status, body, response.headers)

