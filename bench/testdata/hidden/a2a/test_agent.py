"""Hidden tests that talk to the delivery over A2A (JSON-RPC 0.3,
message/send) at $AGENTNET_AGENT_URL, and look at $AGENTNET_DELIVERY."""
import json
import os
import unittest
import urllib.request

URL = os.environ["AGENTNET_AGENT_URL"].rstrip("/") + "/"


def shout(text):
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "message/send",
        "params": {"message": {
            "role": "user", "messageId": "hidden-test", "kind": "message",
            "parts": [{"kind": "text", "text": "Shout this."}, {"kind": "text", "text": text}],
        }},
    }
    req = urllib.request.Request(URL, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        result = json.load(resp)["result"]
    parts = list(result.get("parts", []))
    for artifact in result.get("artifacts", []):
        parts.extend(artifact.get("parts", []))
    return "".join(p.get("text", "") for p in parts if p.get("kind") == "text").strip()


class Agent(unittest.TestCase):
    def test_card(self):
        with urllib.request.urlopen(URL + ".well-known/agent-card.json", timeout=10) as resp:
            self.assertTrue(json.load(resp).get("skills"))

    def test_shout(self):
        self.assertEqual(shout("over the wire"), "OVER THE WIRE")

    def test_delivery(self):
        self.assertTrue(os.path.isfile(os.path.join(os.environ["AGENTNET_DELIVERY"], "agent.yaml")))

    def test_wrong(self):
        self.assertEqual(shout("abc"), "abc")
