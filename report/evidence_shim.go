package report

// The extraction of skill loads and external actions is transcript's (transcript/evidence.go,
// written on the instr branch). Until it is merged, these mirror its API so that the rest of
// the report builds; the scanner finds nothing. Removed at the merge.

// SkillLoad is one skill loaded into the conversation.
type SkillLoad struct{ Name, Body, UUID string }

// Action is one external action (push, pr, tag, release, publish, deploy, issue).
type Action struct{ Kind, ID, Command, UUID string }

// Evidence is what a scanner found since its last Reset.
type Evidence struct {
	Skills  []SkillLoad
	Actions []Action
}

type evidenceScanner struct{}

func (s *evidenceScanner) Add(line []byte)    {}
func (s *evidenceScanner) Evidence() Evidence { return Evidence{} }
func (s *evidenceScanner) Reset()             {}
