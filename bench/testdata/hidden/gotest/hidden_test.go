package hidden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDeliveryHasBundle(t *testing.T) {
	if _, err := os.Stat(filepath.Join(os.Getenv("AGENTNET_DELIVERY"), "agent.yaml")); err != nil {
		t.Fatal(err)
	}
}

func TestAlwaysFails(t *testing.T) {
	t.Run("sub", func(t *testing.T) { t.Fatal("wrong on purpose") })
}
