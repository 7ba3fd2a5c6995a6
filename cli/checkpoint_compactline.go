package cli

import "github.com/zoneline/zoneline/checkpoint"

// checkpointCompactLine prints the /compact line to hand the user: the config's
// [flow] compact_instructions (what to keep) after "/compact", the line compact-flow types.
func (e *Env) checkpointCompactLine() error {
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	e.Stdout.Write([]byte(checkpoint.CompactLine(cfg.Flow.CompactInstructions) + "\n"))
	return nil
}
