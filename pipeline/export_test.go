package pipeline

// String names the action in a test's message.
func (a SaveAction) String() string {
	switch a {
	case SaveRegistry:
		return "save"
	case TouchRegistry:
		return "touch"
	}
	return "keep"
}
