package transcript

// ScanCompactions is ScanCompactionsFrom an offset in a file trusted to be the one it was saved
// in (the tests' short form).
func ScanCompactions(path string, offset int64, maxBytes int64) (Scan, error) {
	return scanCompactions(path, Position{Offset: offset}, false, maxBytes)
}

// Empty reports whether e shows nothing loaded and nothing done.
func (e *Evidence) Empty() bool { return len(e.Skills) == 0 && len(e.Actions) == 0 }
