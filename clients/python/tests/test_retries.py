"""Retry rules against a scripted local HTTPS server: which answers are retried, and how long it waits."""
from __future__ import annotations

import json
import socket
import time
import unittest
from typing import List, Tuple

import agent_wallet
from tests.support import QuietHandler, local_certificate, serve_https, stop

WALLET = {"object": "wallet", "id": "wal_000000000000000000000001", "usdc_balance": "5.00"}
UNAVAILABLE = {"error": {"code": "service_unavailable", "message": "try again", "request_id": "req_1"}}
RATE_LIMITED = {"error": {"code": "rate_limit_exceeded", "message": "slow down", "request_id": "req_2"}}


class Script:
    """The answers to give, in order, and what was asked."""

    def __init__(self, answers: List[Tuple[int, dict, Tuple[Tuple[str, str], ...]]]) -> None:
        self.answers = answers
        self.requests: List[Tuple[str, str, float]] = []


def scripted(script: Script):
    class Handler(QuietHandler):
        def _serve(self) -> None:
            self.read_body()
            script.requests.append((self.command, self.path, time.monotonic()))
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
        waited = script.requests[1][2] - script.requests[0][2]
        self.assertGreaterEqual(waited, 1.0)

    def test_a_429_is_retried_even_for_a_post_the_server_cannot_deduplicate(self) -> None:
        script, client = self.start([(429, RATE_LIMITED, (("Retry-After", "0"),))])

        client.wallets.fund(WALLET["id"], amount="1.00")

        self.assertEqual([r[0] for r in script.requests], ["POST", "POST"])

    def test_a_funding_is_not_repeated_after_a_503_since_it_might_have_been_booked(self) -> None:
        script, client = self.start([(503, UNAVAILABLE, (("Retry-After", "0"),))])

        with self.assertRaises(agent_wallet.ApiError) as raised:
            client.wallets.fund(WALLET["id"], amount="1.00")

        self.assertEqual(raised.exception.status, 503)
        self.assertEqual(raised.exception.code, "service_unavailable")
        self.assertEqual(raised.exception.request_id, "req_1")
        self.assertEqual(len(script.requests), 1)

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
