package docker

import (
	"context"
	"fmt"

	"github.com/agentnet/agentnet/deploy"
	agentimg "github.com/agentnet/agentnet/deploy/image"
)

// Image is an agent's image as the docker and swarm runtimes build it, and
// how its container serves the bundle.
type Image = agentimg.Image

// PlanImage computes the agent's image without building it (no Docker
// needed): the references are keys of the contents, so they are those
// BuildImage and the runtimes make of the same files.
func PlanImage(cfg deploy.Config, spec deploy.Spec) (*Image, error) {
	return agentimg.NewPlanner(cfg.Self, cfg.Env).Image(context.Background(), spec.Name, spec.Bundle)
}

// BuildImage builds the agent's image (and its base) in the Docker engine
// of cfg.Env, unless images of the same contents are there.
func BuildImage(ctx context.Context, cfg deploy.Config, spec deploy.Spec) (*Image, error) {
	d, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if _, err := d.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("build %s: %w", spec.Name, err)
	}
	return d.img.Image(ctx, spec.Name, spec.Bundle)
}
