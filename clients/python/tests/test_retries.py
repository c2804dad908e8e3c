"""Retry rules against a scripted local HTTPS server: which answers are retried, and how long it waits."""
from __future__ import annotations

import json
import socket
import time
import unittest
import uuid
from typing import List, NamedTuple, Optional, Tuple

import agent_wallet
from tests.support import QuietHandler, local_certificate, serve_https, stop

WALLET = {"object": "wallet", "id": "wal_000000000000000000000001", "usdc_balance": "5.00"}
UNAVAILABLE = {"error": {"code": "service_unavailable", "message": "try again", "request_id": "req_1"}}
RATE_LIMITED = {"error": {"code": "rate_limit_exceeded", "message": "slow down", "request_id": "req_2"}}


class Request(NamedTuple):
    method: str
    path: str
    at: float
    idempotency_key: Optional[str]
    body: bytes


class Script:
    """The answers to give, in order, and what was asked."""

    def __init__(self, answers: List[Tuple[int, dict, Tuple[Tuple[str, str], ...]]]) -> None:
        self.answers = answers
        self.requests: List[Request] = []


def scripted(script: Script):
    class Handler(QuietHandler):
        def _serve(self) -> None:
            body = self.read_body()
            script.requests.append(Request(self.command, self.path, time.monotonic(),
                                           self.headers.get("Idempotency-Key"), body))
            status, body, headers = script.answers.pop(0) if script.answers else (200, WALLET, ())
            self.answer(status, json.dumps(body).encode(), headers)

        do_GET = do_POST = _serve

    return Handler


class RetryTest(unittest.TestCase):
    def start(self, answers) -> Tuple[Script, agent_wallet.AgentWallet]:
        script = Script(answers)
        server = serve_https(scripted(script))
        self.addCleanup(stop, server)
        client = agent_wallet.AgentWallet("sk_test", base_url=f"https://localhost:{server.server_address[1]}/v1",
                                          ca_file=local_certificate()[0])
        return script, client

    def test_a_503_then_a_success_answers_the_success(self) -> None:
        script, client = self.start([(503, UNAVAILABLE, (("Retry-After", "0"),))])

        wallet = client.wallets.retrieve(WALLET["id"])

        self.assertEqual(wallet["usdc_balance"], "5.00")
        self.assertEqual(len(script.requests), 2)

    def test_a_429_is_waited_out_for_its_retry_after(self) -> None:
        script, client = self.start([(429, RATE_LIMITED, (("Retry-After", "1"),))])

        client.wallets.retrieve(WALLET["id"])

        self.assertEqual(len(script.requests), 2)
        waited = script.requests[1].at - script.requests[0].at
        self.assertGreaterEqual(waited, 1.0)

    def test_a_funding_retried_after_a_503_repeats_its_idempotency_key_and_the_next_call_has_another(self) -> None:
        script, client = self.start([(503, UNAVAILABLE, (("Retry-After", "0"),))])

        client.wallets.fund(WALLET["id"], amount="1.00")
        client.wallets.fund(WALLET["id"], amount="1.00")

        first, retry, next_call = script.requests
        self.assertEqual([r.method for r in script.requests], ["POST"] * 3)
        self.assertEqual(uuid.UUID(first.idempotency_key).version, 4)
        self.assertEqual(retry.idempotency_key, first.idempotency_key)
        self.assertNotEqual(next_call.idempotency_key, first.idempotency_key)

    def test_a_callers_key_is_sent_by_every_attempt(self) -> None:
        script, client = self.start([(429, RATE_LIMITED, (("Retry-After", "0"),))])

        client.wallets.create(agent_id="agent-1", policy_id="pol_1", idempotency_key="create-agent-1")

        self.assertEqual([r.idempotency_key for r in script.requests], ["create-agent-1"] * 2)

    def test_a_payment_sends_the_same_key_in_its_header_and_its_body(self) -> None:
        script, client = self.start([])

        client.payments.create(to="addr", amount="1.00")

        (payment,) = script.requests
        self.assertEqual(json.loads(payment.body)["idempotency_key"], payment.idempotency_key)

    def test_a_state_change_is_retried_after_a_503_without_a_key(self) -> None:
        script, client = self.start([(503, UNAVAILABLE, (("Retry-After", "0"),))])

        client.payments.reject("tx_1", reason="no")

        self.assertEqual([(r.method, r.idempotency_key) for r in script.requests], [("POST", None)] * 2)

    def test_the_last_5xx_is_raised_typed_once_the_retries_are_spent(self) -> None:
        script, client = self.start([(503, UNAVAILABLE, (("Retry-After", "0"),))] * 4)

        with self.assertRaises(agent_wallet.ApiError) as raised:
            client.wallets.fund(WALLET["id"], amount="1.00")

        self.assertEqual(raised.exception.status, 503)
        self.assertEqual(raised.exception.code, "service_unavailable")
        self.assertEqual(raised.exception.request_id, "req_1")
        self.assertEqual(len(script.requests), 4)
        self.assertEqual(len({r.idempotency_key for r in script.requests}), 1)

    def test_after_three_retries_the_last_error_is_raised(self) -> None:
        limited = (429, RATE_LIMITED, (("Retry-After", "0"),))
        script, client = self.start([limited] * 5)

        with self.assertRaises(agent_wallet.RateLimitError) as raised:
            client.wallets.retrieve(WALLET["id"])

        self.assertEqual(raised.exception.retry_after, 0.0)
        self.assertEqual(len(script.requests), 4)

    def test_max_retries_zero_sends_once(self) -> None:
        script = Script([(503, UNAVAILABLE, ())])
        server = serve_https(scripted(script))
        self.addCleanup(stop, server)
        client = agent_wallet.AgentWallet("sk_test", base_url=f"https://localhost:{server.server_address[1]}/v1",
                                          ca_file=local_certificate()[0], max_retries=0)

        with self.assertRaises(agent_wallet.ApiError):
            client.wallets.retrieve(WALLET["id"])
        self.assertEqual(len(script.requests), 1)

    def test_an_untrusted_certificate_fails_at_once_without_retrying(self) -> None:
        script = Script([])
        server = serve_https(scripted(script))
        self.addCleanup(stop, server)
        client = agent_wallet.AgentWallet("sk_test", base_url=f"https://localhost:{server.server_address[1]}/v1")

        with self.assertRaises(agent_wallet.ApiConnectionError) as raised:
            client.wallets.retrieve(WALLET["id"])

        self.assertIn("ca_file", str(raised.exception))
        self.assertEqual(script.requests, [])

    def test_a_connection_refused_is_retried_then_reported(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        slept: List[float] = []
        client = agent_wallet.AgentWallet("sk_test", base_url=f"https://localhost:{port}/v1", max_retries=2)
        client._transport._sleep = slept.append

        with self.assertRaises(agent_wallet.ApiConnectionError):
            client.wallets.fund(WALLET["id"], amount="1.00")

        self.assertEqual(len(slept), 2)
        self.assertTrue(all(0 <= s <= 1.0 for s in slept))


if __name__ == "__main__":
    unittest.main()
