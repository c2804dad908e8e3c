"""Webhook signatures: a real delivery from the server verifies, and any change to it does not."""
from __future__ import annotations

import queue
import time
import unittest
from typing import Optional, Tuple

import agent_wallet
from agent_wallet.webhooks import compute_signature
from tests import server as harness
from tests.support import QuietHandler, serve_https, stop

SECRET = "whsec_test"


class SignatureTest(unittest.TestCase):
    def test_the_signature_of_the_exact_body_verifies(self) -> None:
        body = b'{"event":"ping","id":"evt_1"}'

        self.assertTrue(agent_wallet.verify_signature(body, compute_signature(body, SECRET), SECRET))

    def test_a_changed_body_a_wrong_secret_or_no_header_fail(self) -> None:
        body = b'{"event":"ping","id":"evt_1"}'
        signature = compute_signature(body, SECRET)

        self.assertFalse(agent_wallet.verify_signature(body + b" ", signature, SECRET))
        self.assertFalse(agent_wallet.verify_signature(body, signature, SECRET + "x"))
        self.assertFalse(agent_wallet.verify_signature(body, None, SECRET))
        self.assertFalse(agent_wallet.verify_signature(body, "zz\u00e9", SECRET))
        with self.assertRaises(agent_wallet.SignatureVerificationError):
            agent_wallet.construct_event(body, signature[:-1] + "0", SECRET)


class DeliveryTest(unittest.TestCase):
    def test_a_real_delivery_verifies_with_the_webhooks_signing_secret(self) -> None:
        server = harness.shared()
        received: "queue.Queue[Tuple[bytes, Optional[str]]]" = queue.Queue()

        class Receiver(QuietHandler):
            def do_POST(self) -> None:
                received.put((self.read_body(), self.headers.get("Service-Signature")))
                self.answer(200, b"{}")

        receiver = serve_https(Receiver)
        self.addCleanup(stop, receiver)
        admin = server.client("admin")
        webhook = admin.webhooks.create(url=f"https://127.0.0.1:{receiver.server_address[1]}/hooks",
                                        events=["wallet.created"])
        self.addCleanup(admin.webhooks.delete, webhook["webhook_id"])

        test = admin.webhooks.test(webhook["webhook_id"])
        body, signature = received.get(timeout=30)

        event = agent_wallet.construct_event(body, signature, webhook["signing_secret"])
        self.assertEqual(event["event"], "ping")
        self.assertEqual(event["id"], test["event_id"])
        self.assertFalse(agent_wallet.verify_signature(body.replace(b"ping", b"pong"), signature,
                                                       webhook["signing_secret"]))
        self.assertEqual(self.recorded_status(admin, webhook["webhook_id"], test["event_id"]), 200)

    @staticmethod
    def recorded_status(admin: agent_wallet.AgentWallet, webhook_id: str, event_id: str) -> Optional[int]:
        """The attempt's status code, once the server has recorded it (just after the receiver answered)."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            for delivery in admin.webhooks.deliveries(webhook_id):
                if delivery["event_id"] == event_id:
                    return delivery["status_code"]
            time.sleep(0.2)
        return None


if __name__ == "__main__":
    unittest.main()
