"""The client against the real server: credentials, errors, idempotent retries, paging, co-sign."""
from __future__ import annotations

import http.client
import importlib.util
import json
import ssl
import threading
import unittest
import uuid
from decimal import Decimal
from typing import List, Optional

import agent_wallet
from agent_wallet._base58 import b58decode, b58encode
from tests import server as harness
from tests.support import QuietHandler, local_certificate, random_address, serve_https, stop


def setUpModule() -> None:
    harness.shared()


class ServerTest(unittest.TestCase):
    def setUp(self) -> None:
        self.server = harness.shared()
        self.admin = self.server.client("admin")

    def funded_wallet(self, amount: str = "100.00", **policy: str) -> agent_wallet.types.Wallet:
        policy_id = self.admin.policies.create(name=f"py-{uuid.uuid4().hex[:8]}", **policy)["id"]
        wallet = self.admin.wallets.create(agent_id=f"py-agent-{uuid.uuid4().hex}", policy_id=policy_id)
        self.admin.wallets.fund(wallet["id"], amount=amount)
        return wallet

    def test_an_agent_pays_with_its_session_token_alone(self) -> None:
        wallet = self.funded_wallet()
        agent = self.server.agent(wallet["session_token"])

        decision = agent.payments.dry_run(to=random_address(), amount="2.50")
        payment = agent.payments.create(to=random_address(), amount="2.50", memo="python client")

        self.assertEqual(decision["decision"], "allowed")
        self.assertEqual(payment["status"], "confirmed")
        self.assertEqual(payment["wallet_id"], wallet["id"])
        self.assertEqual(agent.wallets.retrieve(wallet["id"])["usdc_balance"], "97.50")

    def test_a_backend_pays_for_an_agent_with_its_key_and_the_agents_token(self) -> None:
        wallet = self.funded_wallet()

        payment = self.admin.payments.create(wallet_id=wallet["id"], to=random_address(), amount="1.00",
                                             session_token=wallet["session_token"])

        self.assertEqual(payment["status"], "confirmed")

    def test_a_policy_violation_names_its_rule_limit_and_attempt(self) -> None:
        wallet = self.funded_wallet(max_per_tx="5.00")
        agent = self.server.agent(wallet["session_token"])

        with self.assertRaises(agent_wallet.PolicyViolationError) as raised:
            agent.payments.create(to=random_address(), amount="7.25")

        error = raised.exception
        self.assertEqual(error.status, 422)
        self.assertEqual(error.code, "policy_violation")
        self.assertEqual(error.violation, agent_wallet.Violation(rule="max_per_tx", limit="5.00", attempted="7.25"))
        self.assertTrue(error.request_id.startswith("req_"))

    def test_an_agent_calling_an_api_key_endpoint_learns_the_role_it_would_need(self) -> None:
        agent = self.server.agent(self.funded_wallet()["session_token"])

        with self.assertRaises(agent_wallet.PermissionError) as raised:
            next(iter(agent.wallets.list()))

        self.assertEqual(raised.exception.required_role, "viewer")

    def test_not_found_authentication_and_invalid_request_are_typed(self) -> None:
        with self.assertRaises(agent_wallet.NotFoundError):
            self.admin.wallets.retrieve("wal_" + "0" * 24)
        with self.assertRaises(agent_wallet.AuthenticationError) as unknown_key:
            agent_wallet.AgentWallet("sk_" + "x" * 40, base_url=self.server.base_url,
                                     ca_file=self.server.ca_file).policies.retrieve("pol_x")
        self.assertEqual(unknown_key.exception.status, 401)
        wallet = self.funded_wallet()
        with self.assertRaises(agent_wallet.InvalidRequestError) as seventh_decimal:
            self.admin.wallets.fund(wallet["id"], amount="1.0000001")
        self.assertEqual(seventh_decimal.exception.param, "amount")

    def test_a_list_follows_next_cursor_over_several_pages(self) -> None:
        wallet = self.funded_wallet(amount="1.00")
        for _ in range(4):
            self.admin.wallets.fund(wallet["id"], amount="1.00")

        listing = self.admin.wallets.list_transactions(wallet["id"], type="funding", limit=2)
        pages = list(listing.pages())
        items = list(listing)

        self.assertEqual([len(page["data"]) for page in pages], [2, 2, 1])
        self.assertEqual(len({tx["tx_id"] for tx in items}), 5)
        self.assertEqual(sum(Decimal(tx["amount"]) for tx in items), Decimal("5.00"))

    def test_fund_batch_and_archive(self) -> None:
        first, second = self.funded_wallet(amount="1.00"), self.funded_wallet(amount="1.00")

        funded = self.admin.wallets.fund_batch([{"wallet_id": first["id"], "amount": "2.00"},
                                                {"wallet_id": second["id"], "amount": "3.00"}])
        archived = self.admin.wallets.archive(first["id"])

        self.assertEqual([w["usdc_balance"] for w in funded], ["3.00", "4.00"])
        self.assertEqual(archived["status"], "archived")

    def test_an_escrow_locks_and_completes_with_its_proof(self) -> None:
        payer = self.funded_wallet()
        payee = self.funded_wallet(amount="1.00")
        proof = "ab" * 32

        escrow = self.server.agent(payer["session_token"]).escrows.create(
            to_wallet=payee["id"], amount="4.00", timeout_seconds=3600, task_description="summarise",
            expected_proof=proof)
        released = self.server.agent(payee["session_token"]).escrows.complete(escrow["id"], proof=proof)

        self.assertEqual(escrow["status"], "locked")
        self.assertEqual(released["status"], "released")

    def test_a_wrong_co_signature_is_an_invalid_request_and_the_payment_still_waits(self) -> None:
        secret = b58decode(self.server.org()["co_signer_secret_key"])
        wallet = self.funded_wallet(require_co_sign="10.00", co_signer=b58encode(secret[32:]))
        held = self.server.agent(wallet["session_token"]).payments.create(to=random_address(), amount="20.00")
        operator = self.server.client("operator")

        with self.assertRaises(agent_wallet.InvalidRequestError) as raised:
            operator.payments.co_sign(held["tx_id"], signer=lambda message: bytes(64))

        self.assertEqual(held["status"], "pending_co_sign")
        self.assertEqual(raised.exception.status, 400)
        self.assertEqual(raised.exception.param, "signature")
        self.assertEqual(operator.payments.retrieve(held["tx_id"])["status"], "pending_co_sign")
        self.assertEqual(operator.payments.reject(held["tx_id"], reason="not today")["status"], "rejected")

    @unittest.skipUnless(importlib.util.find_spec("cryptography"), "needs an Ed25519 library (cryptography)")
    def test_a_co_signature_from_a_signer_hook_settles_the_payment(self) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        secret = b58decode(self.server.org()["co_signer_secret_key"])
        key = Ed25519PrivateKey.from_private_bytes(secret[:32])
        wallet = self.funded_wallet(require_co_sign="10.00", co_signer=b58encode(secret[32:]))
        held = self.server.agent(wallet["session_token"]).payments.create(to=random_address(), amount="20.00")

        signed = self.server.client("operator").payments.co_sign(held["tx_id"], signer=key.sign)

        self.assertEqual(signed["status"], "confirmed")
        self.assertEqual(self.admin.wallets.retrieve(wallet["id"])["usdc_balance"], "80.00")

    def through_proxy(self, proxy: "CuttingProxy", **credential: str) -> agent_wallet.AgentWallet:
        self.addCleanup(stop, proxy.https)
        return agent_wallet.AgentWallet(base_url=f"https://localhost:{proxy.port}/v1", ca_file=local_certificate()[0],
                                        **credential)

    def test_a_payment_retried_after_its_connection_was_cut_pays_once(self) -> None:
        wallet = self.funded_wallet(amount="10.00")
        proxy = CuttingProxy(self.server, "POST", "/payments")
        agent = self.through_proxy(proxy, session_token=wallet["session_token"])

        payment = agent.payments.create(to=random_address(), amount="3.00")

        self.assertEqual(proxy.bodies[0], proxy.bodies[1])
        self.assertEqual(len(proxy.bodies), 2)
        self.assertEqual(proxy.replayed, ["true"])
        payments = list(self.admin.wallets.list_transactions(wallet["id"], type="payment"))
        self.assertEqual([tx["tx_id"] for tx in payments], [payment["tx_id"]])
        self.assertEqual(self.admin.wallets.retrieve(wallet["id"])["usdc_balance"], "7.00")

    def test_a_funding_retried_after_its_connection_was_cut_funds_once(self) -> None:
        policy_id = self.admin.policies.create(name=f"py-{uuid.uuid4().hex[:8]}")["id"]
        wallet = self.admin.wallets.create(agent_id=f"py-agent-{uuid.uuid4().hex}", policy_id=policy_id)
        proxy = CuttingProxy(self.server, "POST", "/fund")
        admin = self.through_proxy(proxy, api_key=self.server.org()["keys"]["admin"])

        funded = admin.wallets.fund(wallet["id"], amount="12.50")

        self.assertEqual(len(proxy.keys), 2)
        self.assertEqual(proxy.keys[0], proxy.keys[1])
        self.assertEqual(proxy.replayed, ["true"])
        self.assertEqual(funded["usdc_balance"], "12.50")
        self.assertEqual(self.admin.wallets.retrieve(wallet["id"])["usdc_balance"], "12.50")
        fundings = list(self.admin.wallets.list_transactions(wallet["id"], type="funding"))
        self.assertEqual([Decimal(tx["amount"]) for tx in fundings], [Decimal("12.50")])

    def test_a_wallet_creation_retried_after_its_connection_was_cut_answers_the_wallet_it_made(self) -> None:
        policy_id = self.admin.policies.create(name=f"py-{uuid.uuid4().hex[:8]}")["id"]
        agent_id = f"py-agent-{uuid.uuid4().hex}"
        proxy = CuttingProxy(self.server, "POST", "/wallets")
        admin = self.through_proxy(proxy, api_key=self.server.org()["keys"]["admin"])

        wallet = admin.wallets.create(agent_id=agent_id, policy_id=policy_id)

        lost = json.loads(proxy.cut_answer)
        self.assertEqual(proxy.replayed, ["true"])
        self.assertEqual((wallet["id"], wallet["session_token"]), (lost["id"], lost["session_token"]))
        self.assertEqual(self.server.agent(wallet["session_token"]).wallets.retrieve(wallet["id"])["id"], wallet["id"])

    def test_a_callers_key_reused_with_another_body_is_an_idempotency_conflict(self) -> None:
        wallet = self.funded_wallet(amount="1.00")
        key = f"py-fund-{uuid.uuid4().hex}"
        self.admin.wallets.fund(wallet["id"], amount="2.00", idempotency_key=key)

        with self.assertRaises(agent_wallet.ConflictError) as raised:
            self.admin.wallets.fund(wallet["id"], amount="3.00", idempotency_key=key)

        self.assertEqual(raised.exception.status, 409)
        self.assertEqual(raised.exception.code, "idempotency_conflict")
        self.assertEqual(self.admin.wallets.retrieve(wallet["id"])["usdc_balance"], "3.00")


class CuttingProxy:
    """Forwards to the real server, but cuts the connection of the first `method` to a path ending in
    `path_end` once its answer came, as a network failing after the server acted would."""

    def __init__(self, target: harness.Server, method: str, path_end: str) -> None:
        self.bodies: List[bytes] = []
        self.keys: List[Optional[str]] = []
        self.replayed: List[str] = []
        self.cut_answer = b""
        lock = threading.Lock()
        upstream_tls = ssl.create_default_context(cafile=target.ca_file)
        proxy = self

        class Handler(QuietHandler):
            def _forward(self) -> None:
                body = self.read_body()
                upstream = http.client.HTTPSConnection("localhost", target.https_port, context=upstream_tls)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                upstream.request(self.command, self.path, body=body or None, headers=headers)
                answer = upstream.getresponse()
                answer_body = answer.read()
                upstream.close()
                with lock:
                    watched = self.command == method and self.path.endswith(path_end)
                    if watched:
                        proxy.bodies.append(body)
                        proxy.keys.append(self.headers.get("Idempotency-Key"))
                    first = watched and len(proxy.bodies) == 1
                    if first:
                        proxy.cut_answer = answer_body
                    elif watched:
                        proxy.replayed.append(answer.getheader("Idempotent-Replayed") or "")
                if first:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.answer(answer.status, answer_body,
                            tuple((k, v) for k, v in answer.getheaders()
                                  if k.lower() not in ("content-length", "content-type", "transfer-encoding",
                                                       "connection")))

            do_GET = do_POST = _forward

        self.https = serve_https(Handler)
        self.port = self.https.server_address[1]


if __name__ == "__main__":
    unittest.main()
