"""The client: one object per credential, with a namespace per resource of `/v1`."""
from __future__ import annotations

import base64
import ssl
import uuid
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Sequence, TypeVar, cast

from . import __version__
from ._base58 import b58encode
from ._transport import Transport
from .types import (
    Escrow, ExportJob, FundingLine, PaymentDecision, Policy, PolicyAuditEntry, Recipient, SessionToken,
    Transaction, Wallet, Webhook, WebhookDelivery, WebhookTest,
)

DEFAULT_BASE_URL = "https://localhost:8443/v1"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 3

T = TypeVar("T")

#: Signs the decoded `co_sign_payload` with the policy's co-signer key; answers the 64-byte Ed25519 signature.
Signer = Callable[[bytes], bytes]

# Marks a PATCH field the caller left out, so that an explicit None can mean "clear it" on the wire.
_UNSET: Any = object()


def _fields(**values: Any) -> Dict[str, Any]:
    """The body of a create: fields left as None are not sent."""
    return {k: v for k, v in values.items() if v is not None}


def _key(idempotency_key: Optional[str]) -> str:
    """The caller's key, else a new one: made once per call, so every retry of the call repeats it."""
    return idempotency_key or str(uuid.uuid4())


def _changes(**values: Any) -> Dict[str, Any]:
    """The body of a PATCH: fields left out are kept, fields given as None are cleared."""
    return {k: v for k, v in values.items() if v is not _UNSET}


class Paginator(Generic[T]):
    """Iterates over every item of a list, fetching the next page (`next_cursor`) only when needed."""

    def __init__(self, fetch: Callable[[Optional[str]], Dict[str, Any]]) -> None:
        self._fetch = fetch

    def pages(self) -> Iterator[Dict[str, Any]]:
        cursor: Optional[str] = None
        while True:
            page = self._fetch(cursor)
            yield page
            cursor = page.get("next_cursor")
            if not page.get("has_more") or not cursor:
                return

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from cast(List[T], page.get("data") or [])


class _Resource:
    def __init__(self, client: "AgentWallet") -> None:
        self._client = client

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._client._request(method, path, **kwargs)

    def _list(self, path: str, query: Mapping[str, Any]) -> Paginator[Any]:
        return Paginator(lambda cursor: self._call("GET", path, query={**query, "cursor": cursor}))


class Wallets(_Resource):
    def create(self, *, agent_id: str, policy_id: str, label: Optional[str] = None,
               tags: Optional[Sequence[str]] = None, owner_org: Optional[str] = None,
               session_ttl_seconds: Optional[int] = None, idempotency_key: Optional[str] = None) -> Wallet:
        """A wallet; its `session_token` is in this answer only (and in a replay of it): hand it to the agent."""
        return self._call("POST", "/wallets", idempotency_key=_key(idempotency_key), body=_fields(
            agent_id=agent_id, policy_id=policy_id, label=label, tags=list(tags) if tags is not None else None,
            owner_org=owner_org, session_ttl_seconds=session_ttl_seconds))

    def list(self, *, status: Optional[str] = None, tags: Optional[Sequence[str]] = None,
             limit: Optional[int] = None) -> Paginator[Wallet]:
        return self._list("/wallets", {"status": status, "tags": tags, "limit": limit})

    def retrieve(self, wallet_id: str) -> Wallet:
        return self._call("GET", f"/wallets/{wallet_id}")

    def update(self, wallet_id: str, *, label: Any = _UNSET, policy_id: Any = _UNSET,
               status: Any = _UNSET) -> Wallet:
        """Changes what is given; `status` is `active` or `frozen` (an operator key may change only that)."""
        return self._call("PATCH", f"/wallets/{wallet_id}",
                          body=_changes(label=label, policy_id=policy_id, status=status))

    def fund(self, wallet_id: str, *, amount: str, currency: Optional[str] = None,
             idempotency_key: Optional[str] = None) -> Wallet:
        return self._call("POST", f"/wallets/{wallet_id}/fund", idempotency_key=_key(idempotency_key),
                          body=_fields(amount=amount, currency=currency))

    def fund_batch(self, lines: Sequence[FundingLine], *, idempotency_key: Optional[str] = None) -> List[Wallet]:
        """Funds several wallets, all or nothing; answers the wallets in the order given."""
        page = self._call("POST", "/wallets/fund-batch", idempotency_key=_key(idempotency_key),
                          body=[dict(line) for line in lines])
        return cast(List[Wallet], page["data"])

    def withdraw(self, wallet_id: str, *, amount: str, idempotency_key: Optional[str] = None) -> Wallet:
        """Back to the organisation; `amount` is a decimal string or "all"."""
        return self._call("POST", f"/wallets/{wallet_id}/withdraw", idempotency_key=_key(idempotency_key),
                          body={"amount": amount})

    def set_auto_topup(self, wallet_id: str, *, enabled: bool, trigger_below: Optional[str] = None,
                       topup_amount: Optional[str] = None) -> Wallet:
        return self._call("PUT", f"/wallets/{wallet_id}/auto-topup", body=_fields(
            enabled=enabled, trigger_below=trigger_below, topup_amount=topup_amount))

    def rotate_token(self, wallet_id: str, *, ttl_seconds: Optional[int] = None) -> SessionToken:
        """A new session token; every older one stops working at once."""
        return self._call("POST", f"/wallets/{wallet_id}/rotate-token", body=_fields(ttl_seconds=ttl_seconds))

    def archive(self, wallet_id: str) -> Wallet:
        """Archives the wallet (DELETE); its balance goes back to the organisation."""
        return self._call("DELETE", f"/wallets/{wallet_id}")

    def list_transactions(self, wallet_id: str, *, status: Optional[str] = None, type: Optional[str] = None,
                          from_: Optional[str] = None, to: Optional[str] = None,
                          limit: Optional[int] = None) -> Paginator[Transaction]:
        """`from_` is the wire's `from` (a Python keyword)."""
        return self._list(f"/wallets/{wallet_id}/transactions",
                          {"status": status, "type": type, "from": from_, "to": to, "limit": limit})


class Payments(_Resource):
    def _body(self, wallet_id: Optional[str], to: str, amount: str, currency: Optional[str], memo: Optional[str],
              idempotency_key: Optional[str], require_co_sign: Optional[bool]) -> Dict[str, Any]:
        return _fields(wallet_id=wallet_id, to=to, amount=amount, currency=currency, memo=memo,
                       idempotency_key=idempotency_key, require_co_sign=require_co_sign)

    def create(self, *, to: str, amount: str, wallet_id: Optional[str] = None, currency: Optional[str] = None,
               memo: Optional[str] = None, idempotency_key: Optional[str] = None,
               require_co_sign: Optional[bool] = None, session_token: Optional[str] = None) -> Transaction:
        """Pays `amount` (a decimal string) to the ledger address `to`.

        Without `idempotency_key` one is generated (uuid4) and reused by every retry of this call,
        so a retried payment is booked once. Pass your own to make retries across processes safe.
        An agent may leave out `wallet_id`; a backend with an API key names it and passes the
        agent's `session_token` (or the client's default one is sent).
        """
        key = _key(idempotency_key)
        return self._call("POST", "/payments", idempotency_key=key, agent_token=session_token,
                          body=self._body(wallet_id, to, amount, currency, memo, key, require_co_sign))

    def dry_run(self, *, to: str, amount: str, wallet_id: Optional[str] = None, currency: Optional[str] = None,
                memo: Optional[str] = None, require_co_sign: Optional[bool] = None,
                session_token: Optional[str] = None) -> PaymentDecision:
        """What a payment would meet (`allowed`, `needs_co_sign`, `blocked`); nothing is recorded or moved."""
        return self._call("POST", "/payments", agent_token=session_token, headers={"Dry-Run": "true"},
                          body=self._body(wallet_id, to, amount, currency, memo, None, require_co_sign))

    def retrieve(self, tx_id: str) -> Transaction:
        return self._call("GET", f"/payments/{tx_id}")

    def co_sign(self, tx_id: str, *, signature: Optional[str] = None, signer: Optional[Signer] = None) -> Transaction:
        """Approves a `pending_co_sign` payment (operator key; not the credential that made it).

        Give either `signature`, the base58 Ed25519 signature of the decoded `co_sign_payload`
        made elsewhere, or `signer`, a callable that signs those bytes with the co-signer's key
        and answers the 64 raw signature bytes. This library ships no Ed25519: the standard
        library has none and a hand-written one would not be constant time. With PyNaCl:
        `signer=lambda m: nacl.signing.SigningKey(seed).sign(m).signature`.
        """
        if (signature is None) == (signer is None):
            raise ValueError("give exactly one of signature or signer")
        if signer is not None:
            payload = self.retrieve(tx_id).get("co_sign_payload")
            if not payload:
                raise ValueError(f"payment {tx_id} has no co_sign_payload: it is not waiting for a co-signature")
            raw = signer(base64.b64decode(payload))
            if len(raw) != 64:
                raise ValueError(f"an Ed25519 signature has 64 bytes, the signer gave {len(raw)}")
            signature = b58encode(raw)
        return self._call("POST", f"/payments/{tx_id}/co-sign", body={"signature": signature})

    def reject(self, tx_id: str, *, reason: Optional[str] = None) -> Transaction:
        return self._call("POST", f"/payments/{tx_id}/reject", body=_fields(reason=reason))


class Escrows(_Resource):
    """Agent-to-agent escrow, `/payments/a2a`."""

    def create(self, *, to_wallet: str, amount: str, timeout_seconds: int, from_wallet: Optional[str] = None,
               task_description: Optional[str] = None, expected_proof: Optional[str] = None,
               currency: Optional[str] = None, session_token: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Escrow:
        """Locks `amount` until the receiver completes with the proof, or the timeout refunds it."""
        body = _fields(from_wallet=from_wallet, to_wallet=to_wallet, amount=amount, currency=currency,
                       task_description=task_description, timeout_seconds=timeout_seconds,
                       expected_proof=expected_proof)
        return self._call("POST", "/payments/a2a", idempotency_key=_key(idempotency_key), agent_token=session_token,
                          body=body)

    def list(self, *, wallet_id: Optional[str] = None, status: Optional[str] = None,
             limit: Optional[int] = None) -> Paginator[Escrow]:
        return self._list("/payments/a2a", {"wallet_id": wallet_id, "status": status, "limit": limit})

    def retrieve(self, escrow_id: str) -> Escrow:
        return self._call("GET", f"/payments/a2a/{escrow_id}")

    def complete(self, escrow_id: str, *, proof: str, proof_type: str = "output_hash") -> Escrow:
        """Releases it; `proof` is the 64-char lowercase hex SHA-256 of the work's output."""
        return self._call("POST", f"/payments/a2a/{escrow_id}/complete",
                          body={"proof_type": proof_type, "proof": proof})

    def dispute(self, escrow_id: str, *, reason: str, evidence: str) -> Escrow:
        return self._call("POST", f"/payments/a2a/{escrow_id}/dispute", body={"reason": reason, "evidence": evidence})

    def resolve(self, escrow_id: str, *, outcome: str) -> Escrow:
        """Ends a dispute: `outcome` is `release` or `refund` (operator of the sending organisation)."""
        return self._call("POST", f"/payments/a2a/{escrow_id}/resolve", body={"outcome": outcome})


_POLICY_FIELDS = ("max_per_tx", "max_per_day", "max_per_month", "velocity_cap", "allowed_recipients",
                  "blocked_categories", "expiry", "require_co_sign", "co_signer")


class Policies(_Resource):
    def create(self, *, name: str, max_per_tx: Optional[str] = None, max_per_day: Optional[str] = None,
               max_per_month: Optional[str] = None, velocity_cap: Optional[int] = None,
               allowed_recipients: Optional[Sequence[str]] = None,
               blocked_categories: Optional[Sequence[str]] = None, expiry: Optional[str] = None,
               require_co_sign: Optional[str] = None, co_signer: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Policy:
        """Amounts are decimal strings; `co_signer` is a base58 Ed25519 public key, needed with `require_co_sign`."""
        return self._call("POST", "/policies", idempotency_key=_key(idempotency_key), body=_fields(
            name=name, max_per_tx=max_per_tx, max_per_day=max_per_day, max_per_month=max_per_month,
            velocity_cap=velocity_cap, allowed_recipients=_list_or_none(allowed_recipients),
            blocked_categories=_list_or_none(blocked_categories), expiry=expiry,
            require_co_sign=require_co_sign, co_signer=co_signer))

    def list(self, *, limit: Optional[int] = None) -> Paginator[Policy]:
        return self._list("/policies", {"limit": limit})

    def retrieve(self, policy_id: str) -> Policy:
        return self._call("GET", f"/policies/{policy_id}")

    def update(self, policy_id: str, **changes: Any) -> Policy:
        """Changes the fields given; a field given as None is cleared, one left out is kept."""
        _check_policy_fields(changes)
        return self._call("PATCH", f"/policies/{policy_id}", body=changes)

    def clone(self, policy_id: str, *, idempotency_key: Optional[str] = None, **overrides: Any) -> Policy:
        """A copy named "… (copy)" unless `name` is given, with `overrides` applied as by `update`."""
        _check_policy_fields(overrides)
        return self._call("POST", f"/policies/{policy_id}/clone", idempotency_key=_key(idempotency_key),
                          body=overrides or None)

    def delete(self, policy_id: str) -> Policy:
        return self._call("DELETE", f"/policies/{policy_id}")

    def audit_log(self, policy_id: str, *, limit: Optional[int] = None) -> Paginator[PolicyAuditEntry]:
        return self._list(f"/policies/{policy_id}/audit-log", {"limit": limit})


class Recipients(_Resource):
    """The organisation's recipient categories, checked against a policy's `blocked_categories`."""

    def set_category(self, address: str, *, category: str) -> Recipient:
        return self._call("PUT", f"/recipients/{address}", body={"category": category})

    def retrieve(self, address: str) -> Recipient:
        return self._call("GET", f"/recipients/{address}")


class Transactions(_Resource):
    def list(self, *, wallet_id: Optional[str] = None, status: Optional[str] = None, type: Optional[str] = None,
             from_: Optional[str] = None, to: Optional[str] = None,
             limit: Optional[int] = None) -> Paginator[Transaction]:
        """`from_` is the wire's `from` (a Python keyword)."""
        return self._list("/transactions", {"wallet_id": wallet_id, "status": status, "type": type,
                                            "from": from_, "to": to, "limit": limit})

    def retrieve(self, tx_id: str) -> Transaction:
        return self._call("GET", f"/transactions/{tx_id}")

    def export(self, *, format: str, wallet_id: Optional[str] = None, from_: Optional[str] = None,
               to: Optional[str] = None, idempotency_key: Optional[str] = None) -> ExportJob:
        """Starts an export job (`csv` or `json`); poll `retrieve_export` until `ready`."""
        return self._call("POST", "/transactions/export", idempotency_key=_key(idempotency_key),
                          body=_fields(format=format, wallet_id=wallet_id, **{"from": from_}, to=to))

    def retrieve_export(self, export_id: str) -> ExportJob:
        return self._call("GET", f"/transactions/exports/{export_id}")

    def download_export(self, export_id: str) -> bytes:
        """The file's bytes once the job is `ready` (409 `ConflictError` before)."""
        return self._call("GET", f"/transactions/exports/{export_id}/download", raw=True)


class Webhooks(_Resource):
    def create(self, *, url: str, events: Sequence[str], idempotency_key: Optional[str] = None) -> Webhook:
        """`events` are event names or `["*"]`; the answer's `signing_secret` is shown only here (and in a replay)."""
        return self._call("POST", "/webhooks", idempotency_key=_key(idempotency_key),
                          body={"url": url, "events": list(events)})

    def list(self, *, limit: Optional[int] = None) -> Paginator[Webhook]:
        return self._list("/webhooks", {"limit": limit})

    def retrieve(self, webhook_id: str) -> Webhook:
        return self._call("GET", f"/webhooks/{webhook_id}")

    def update(self, webhook_id: str, *, url: Any = _UNSET, events: Any = _UNSET, status: Any = _UNSET) -> Webhook:
        """`status="active"` re-enables a `degraded` webhook and delivers what waited."""
        if events is not _UNSET and events is not None:
            events = list(events)
        return self._call("PATCH", f"/webhooks/{webhook_id}", body=_changes(url=url, events=events, status=status))

    def delete(self, webhook_id: str) -> Webhook:
        return self._call("DELETE", f"/webhooks/{webhook_id}")

    def test(self, webhook_id: str) -> WebhookTest:
        """Sends a `ping` event, whatever the subscription."""
        return self._call("POST", f"/webhooks/{webhook_id}/test")

    def deliveries(self, webhook_id: str, *, limit: Optional[int] = None) -> Paginator[WebhookDelivery]:
        return self._list(f"/webhooks/{webhook_id}/deliveries", {"limit": limit})


def _list_or_none(values: Optional[Sequence[str]]) -> Optional[List[str]]:
    return list(values) if values is not None else None


def _check_policy_fields(fields: Mapping[str, Any]) -> None:
    unknown = set(fields) - set(_POLICY_FIELDS) - {"name"}
    if unknown:
        raise TypeError(f"not a policy field: {', '.join(sorted(unknown))}")


class AgentWallet:
    """A client of one server with one credential.

    An agent passes only `session_token` (its wallet's token; it never holds an API key). A person
    or backend passes `api_key`; a backend paying on an agent's behalf also passes that agent's
    `session_token` (here, or per call), which is then sent as the `Session-Token` header.

    For a server with a self-signed certificate (the embedded demo), pass `ca_file`, the PEM of
    that certificate, or a ready `ssl_context`; certificates are always verified.
    """

    def __init__(self, api_key: Optional[str] = None, *, session_token: Optional[str] = None,
                 base_url: str = DEFAULT_BASE_URL, timeout: float = DEFAULT_TIMEOUT_SECONDS,
                 max_retries: int = DEFAULT_MAX_RETRIES, ca_file: Optional[str] = None,
                 ssl_context: Optional[ssl.SSLContext] = None) -> None:
        if not api_key and not session_token:
            raise ValueError("give an api_key or an agent's session_token")
        if ca_file is not None and ssl_context is not None:
            raise ValueError("give ca_file or ssl_context, not both")
        self._api_key = api_key
        self._session_token = session_token
        context = ssl_context or ssl.create_default_context(cafile=ca_file)
        self._transport = Transport(base_url, timeout, max_retries, context, f"agent-wallet-python/{__version__}")
        self.wallets = Wallets(self)
        self.payments = Payments(self)
        self.escrows = Escrows(self)
        self.policies = Policies(self)
        self.recipients = Recipients(self)
        self.transactions = Transactions(self)
        self.webhooks = Webhooks(self)

    def _request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Any = None,
                 headers: Optional[Mapping[str, str]] = None, agent_token: Optional[str] = None,
                 idempotency_key: Optional[str] = None, raw: bool = False) -> Any:
        sent = {"Authorization": f"Bearer {self._api_key or self._session_token}"}
        token = agent_token or self._session_token
        if self._api_key and token and path in ("/payments", "/payments/a2a"):
            sent["Session-Token"] = token
        if idempotency_key is not None:
            sent["Idempotency-Key"] = idempotency_key
        sent.update(headers or {})
        response = self._transport.request(method, path, query=query, body=body, headers=sent)
        return response.body if raw else response.json()
