package cli

import "github.com/zoneline/zoneline/checkpoint"

// checkpointCompactLine prints the /compact line to hand the user: the config's
// [flow] compact_instructions (what to keep) after "/compact", the line compact-flow types.
func (e *Env) checkpointCompactLine() int {
	cfg, ok := e.loadConfig()
	if !ok {
		return exitFail
	}
	e.Stdout.Write([]byte(checkpoint.CompactLine(oneLine(cfg.Flow.CompactInstructions)) + "\n"))
	return exitOK
}
