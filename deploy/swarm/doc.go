// Package swarm is the "swarm" runtime of deploy: it runs each agent as a
// Docker Swarm service (agentnet-a-NAME) from the docker runtime's images
// (deploy/docker, deploy/image), with the same containment as service
// limits, restart policy any and a health check that runs "agentnet fleet
// probe" on the card. It registers itself with deploy under "swarm" when
// imported (deploy/runtimes imports every runtime):
//
//	rt, err := deploy.Open("swarm", deploy.Config{Self: exe, Env: env})
//	a, err := rt.Up(ctx, deploy.Spec{Name: "textkit", Bundle: "out/textkit"})
//	fmt.Println(a.URL) // http://127.0.0.1:PORT/textkit/, through the gateway
//	err = rt.(deploy.Scaler).Scale(ctx, a, 3)
//
// The services resolve by DNS round robin on the internal overlay network
// Network. One gateway service (Gateway, running GatewayHandler), pinned to
// this manager node with its port published in host mode, routes /NAME/...
// to the service NAME; cards advertise http://127.0.0.1:PORT/NAME/. Images
// reach the other nodes through their Docker APIs (EnvNodes) or
// deploy.Config.ImageRegistry (EnvImageRegistry). Down removes the service
// and its image, and the gateway and networks with the last agent service.
//
// NewJobs returns docker.Jobs that run each job as a Swarm job pinned to
// this node, with a container job's containment; a job beside a swarm
// agent joins Network and reaches the agent by its service's name
// (docker.BesideURLOf), also when it runs as a container job.
package swarm
