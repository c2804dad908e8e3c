"""Shapes of the JSON the service answers, as `TypedDict`s.

Answers are plain dicts (so a field the server adds later is still there); these types only tell a
type checker and a reader which keys to expect. Amounts are decimal strings such as "12.50", never
floats; timestamps are ISO 8601 strings in UTC.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class ViolationDict(TypedDict, total=False):
    rule: str
    limit: Optional[str]
    attempted: Optional[str]


class AutoTopup(TypedDict, total=False):
    enabled: bool
    trigger_below: str
    topup_amount: str


class Wallet(TypedDict, total=False):
    object: str
    id: str
    agent_id: str
    label: Optional[str]
    owner_org: str
    policy_id: str
    tags: List[str]
    status: str
    solana_address: str
    usdc_balance: str
    currency: str
    auto_topup: Optional[AutoTopup]
    created_at: str
    updated_at: str
    session_token: str
    session_token_expires_at: str


class SessionToken(TypedDict, total=False):
    object: str
    wallet_id: str
    session_token: str
    expires_at: str


class Transaction(TypedDict, total=False):
    object: str
    tx_id: str
    type: str
    status: str
    wallet_id: str
    amount: str
    currency: str
    recipient: Optional[str]
    memo: Optional[str]
    policy_triggered: bool
    violation: Optional[ViolationDict]
    tx_signature: Optional[str]
    on_chain_slot: Optional[int]
    co_sign_payload: Optional[str]
    co_sign_expires_at: Optional[str]
    escrow_id: Optional[str]
    failure_reason: Optional[str]
    timestamp: str
    updated_at: str


class PaymentDecision(TypedDict, total=False):
    object: str
    decision: str
    violation: Optional[ViolationDict]


class Escrow(TypedDict, total=False):
    object: str
    id: str
    from_wallet: str
    to_wallet: str
    recipient: str
    amount: str
    currency: str
    task_description: Optional[str]
    timeout_seconds: int
    timeout_at: str
    expected_proof: Optional[str]
    status: str
    proof_type: Optional[str]
    proof: Optional[str]
    dispute: Optional[Dict[str, Any]]
    lock_tx_id: Optional[str]
    settle_tx_id: Optional[str]
    settle_reason: Optional[str]
    created_at: str
    updated_at: str


class Policy(TypedDict, total=False):
    object: str
    id: str
    name: str
    max_per_tx: Optional[str]
    max_per_day: Optional[str]
    max_per_month: Optional[str]
    velocity_cap: Optional[int]
    allowed_recipients: List[str]
    blocked_categories: List[str]
    expiry: Optional[str]
    require_co_sign: Optional[str]
    co_signer: Optional[str]
    version: int
    created_at: str
    updated_at: str


class PolicyAuditEntry(TypedDict, total=False):
    object: str
    policy_id: str
    version: int
    action: str
    actor: str
    created_at: str
    changes: Dict[str, Dict[str, Any]]


class Recipient(TypedDict, total=False):
    object: str
    address: str
    category: str


class ExportJob(TypedDict, total=False):
    object: str
    id: str
    status: str
    format: str
    wallet_id: Optional[str]
    created_at: str
    completed_at: Optional[str]
    expires_at: Optional[str]
    row_count: Optional[int]


class Webhook(TypedDict, total=False):
    object: str
    webhook_id: str
    url: str
    events: List[str]
    status: str
    signing_secret: str
    created_at: str


class WebhookTest(TypedDict, total=False):
    object: str
    webhook_id: str
    event_id: str
    event: str


class WebhookDelivery(TypedDict, total=False):
    object: str
    event_id: str
    event: str
    attempt: int
    status_code: Optional[int]
    error: Optional[str]
    latency_ms: Optional[int]
    attempted_at: str
    next_attempt_at: Optional[str]


class FundingLine(TypedDict):
    wallet_id: str
    amount: str
