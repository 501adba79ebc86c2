#!/bin/sh
# TESTS-SECRET-c0de: hidden acceptance tests in TAP, run against the delivery
# itself ($AGENTNET_DELIVERY) and its endpoint ($AGENTNET_AGENT_URL).
echo "1..3"
n=0
check() {
	n=$((n + 1))
	got=$(sh "$AGENTNET_DELIVERY/shout.sh" "$1")
	if [ "$got" = "$2" ]; then echo "ok $n - $1"; else echo "not ok $n - $1: got '$got'"; fi
}
check "abc" "ABC"
check "Mixed Case 42" "MIXED CASE 42"
if curl -fsS "${AGENTNET_AGENT_URL%/}/.well-known/agent-card.json" >/dev/null 2>&1; then echo "ok 3 - card"; else echo "not ok 3 - card"; fi
