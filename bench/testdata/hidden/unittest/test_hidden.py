import os
import unittest


class Hidden(unittest.TestCase):
    def test_delivery(self):
        self.assertTrue(os.path.isfile(os.path.join(os.environ["AGENTNET_DELIVERY"], "agent.yaml")))

    def test_url(self):
        self.assertTrue(os.environ["AGENTNET_AGENT_URL"].startswith("http://"))

    def test_wrong(self):
        self.assertEqual(1, 2)

    @unittest.skip("not today")
    def test_skipped(self):
        pass
