package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	agentimg "github.com/agentnet/agentnet/deploy/image"
	"github.com/agentnet/agentnet/internal/proc"
)

// runContainer creates the job's container, starts it, follows its output
// and waits for it to end or be killed at the timeout; it removes the
// container.
func (j *Jobs) runContainer(ctx context.Context, p *JobPlan, res *proc.Result) (JobOutcome, error) {
	out := JobOutcome{Status: -1}
	id, err := j.createContainer(ctx, p)
	if err != nil {
		return out, err
	}
	defer j.api.ContainerRemove(context.WithoutCancel(ctx), id, container.RemoveOptions{Force: true})

	tctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	// The wait is set up before the start, so that no exit is missed.
	wctx, stopWait := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWait()
	waitC, waitErr := j.api.ContainerWait(wctx, id, container.WaitConditionNextExit)
	start := time.Now()
	if err := j.api.ContainerStart(tctx, id, container.StartOptions{}); err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("%q: %w", p.Cmd, ctx.Err())
		}
		return out, fmt.Errorf("%q: start the job's container: %w", p.Cmd, err)
	}
	stdout, stderr, outW, errW := p.Output()
	logs, copied := j.followLogs(wctx, id, outW, errW)

	select {
	case w := <-waitC:
		out.Status = w.StatusCode
		if w.Error != nil && w.Error.Message != "" {
			out.WaitFailed = errors.New(w.Error.Message)
		}
	case err := <-waitErr:
		out.WaitFailed = err
	case <-tctx.Done():
		// The timeout or the caller's cancellation: the container and
		// everything in it die now.
		_ = j.api.ContainerRemove(context.WithoutCancel(ctx), id, container.RemoveOptions{Force: true})
	}
	res.Elapsed = time.Since(start)
	endLogs(logs, copied)
	res.Stdout, res.Stderr = stdout.Buf, stderr.Buf
	res.TimedOut = errors.Is(tctx.Err(), context.DeadlineExceeded)
	if out.Status != 0 && !res.TimedOut && ctx.Err() == nil {
		out.OOMKilled = j.oomKilled(ctx, id)
	}
	return out, nil
}

// createContainer creates the job's container and records its image.
func (j *Jobs) createContainer(ctx context.Context, p *JobPlan) (string, error) {
	created, err := j.api.ContainerCreate(ctx, p.Config, p.Host, nil, nil, "agentnet-job-"+agentimg.Sanitize(p.Name)+"-"+agentimg.RandomSuffix())
	if err != nil {
		return "", fmt.Errorf("%q: create the job's container: %w", p.Cmd, err)
	}
	if info, err := j.api.ContainerInspect(ctx, created.ID); err == nil {
		// The image the tag named when the container was made.
		j.used(info.Image)
	}
	return created.ID, nil
}

// followLogs copies the output of container id to outW and errW as it
// comes, until the container ends or ctx does; copied is closed when the
// copy is done. logs is nil when the engine gave no log stream.
func (j *Jobs) followLogs(ctx context.Context, id string, outW, errW io.Writer) (logs io.ReadCloser, copied chan struct{}) {
	copied = make(chan struct{})
	logs, err := j.api.ContainerLogs(ctx, id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: true})
	if err != nil {
		close(copied)
		return nil, copied
	}
	go func() {
		defer close(copied)
		stdcopy.StdCopy(outW, errW, logs)
	}()
	return logs, copied
}

// endLogs waits for the copy of a log stream to end: the stream ends with
// the container, and one that lingers is cut after five seconds.
func endLogs(logs io.Closer, copied <-chan struct{}) {
	if logs == nil {
		return
	}
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		logs.Close()
		<-copied
	}
	logs.Close()
}

// oomKilled reports whether container id was killed for want of memory.
func (j *Jobs) oomKilled(ctx context.Context, id string) bool {
	info, err := j.api.ContainerInspect(context.WithoutCancel(ctx), id)
	return err == nil && info.State != nil && info.State.OOMKilled
}

// verdict turns how the job ended into Run's error: nil for status 0.
func (p *JobPlan) verdict(ctx context.Context, out JobOutcome, res *proc.Result) error {
	name := p.Cmd
	switch {
	case res.TimedOut:
		return fmt.Errorf("%q timed out after %s and was killed", name, p.Timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("%q: %w", name, ctx.Err())
	case out.WaitFailed != nil:
		return fmt.Errorf("%q: wait for the job's container: %w", name, out.WaitFailed)
	}
	status := out.Status
	res.ExitCode = int(status)
	if status == 0 {
		return nil
	}
	detail := ""
	if out.OOMKilled {
		detail = fmt.Sprintf(" (killed: out of its %d MiB of memory)", jobMemory>>20)
	}
	if p.img.goroot != "" {
		if line := goModuleTrouble(res.Stdout, res.Stderr); line != "" {
			return fmt.Errorf("%q exited with status %d%s: %w%s", name, status, detail, &GoModuleError{Line: line}, proc.Tail(res.Stderr, 2000))
		}
	}
	return fmt.Errorf("%q exited with status %d%s%s", name, status, detail, proc.Tail(res.Stderr, 2000))
}
