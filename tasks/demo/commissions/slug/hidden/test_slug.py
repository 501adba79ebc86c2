"""Hidden acceptance tests of the slug commission: never shown to the builder.

They talk to the delivered agent over A2A (JSON-RPC 0.3, message/send) at
$AGENTNET_AGENT_URL and look at the delivery itself in $AGENTNET_DELIVERY.
"""
import json
import os
import unittest
import urllib.request

URL = os.environ["AGENTNET_AGENT_URL"].rstrip("/") + "/"
DELIVERY = os.environ["AGENTNET_DELIVERY"]


def send(instruction, text):
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "message/send",
        "params": {"message": {
            "role": "user", "messageId": "hidden-test", "kind": "message",
            "parts": [{"kind": "text", "text": instruction}, {"kind": "text", "text": text}],
        }},
    }
    req = urllib.request.Request(URL, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        result = json.load(resp)["result"]
    parts = list(result.get("parts", []))
    for artifact in result.get("artifacts", []):
        parts.extend(artifact.get("parts", []))
    return "".join(p.get("text", "") for p in parts if p.get("kind") == "text").strip()


class SlugTest(unittest.TestCase):
    def check(self, title, want):
        self.assertEqual(send("Make a URL slug for this title.", title), want)

    def test_card(self):
        with urllib.request.urlopen(URL + ".well-known/agent-card.json", timeout=10) as resp:
            card = json.load(resp)
        self.assertTrue(card.get("skills"), "the card lists no skill")

    def test_delivery_is_a_bundle(self):
        self.assertTrue(os.path.isfile(os.path.join(DELIVERY, "agent.yaml")))

    def test_hyphens_at_the_ends(self):
        self.check("  --Already--Slugged--  ", "already-slugged")

    def test_accents_and_digits(self):
        self.check("Déjà Vu 2", "deja-vu-2")

    def test_symbols(self):
        self.check("C++ & C#", "c-c")

    def test_sentence(self):
        self.check("Ça va? Très bien.", "ca-va-tres-bien")


if __name__ == "__main__":
    unittest.main()
