package checkpoint

import "strings"

// KeepList is what every compaction without instructions of its own is told to keep (the mod
// adds it to an automatic compaction and to a bare /compact).
const KeepList = "Keep word for word: the user's explicit instructions and corrections in their own words, " +
	"every decision with its reason, every approach that failed and why, what is done, in flight and not started, " +
	"and exact ids, paths, commands and error messages."

// CompactInstructions are the instructions for a compaction: the keep-list and, when the
// session has a fresh checkpoint that passes verify, its path and what to keep of it.
func CompactInstructions(path string, verified bool) string {
	if !verified || path == "" {
		return KeepList
	}
	return KeepList + " A verified zoneline checkpoint is at " + path +
		": keep its Next, Rules and External state intact, word for word; zoneline restores it after this compaction."
}

// ForkPrompt is the question the mod asks through a fork of the conversation (whose answer never
// joins it): write the checkpoint now, in the fixed format, answering with the file alone.
func ForkPrompt(sectionRules, template string) string {
	return "[zoneline] This conversation is about to be compacted. Do not call tools and do not continue the work. " +
		"Write the zoneline checkpoint of this session, for a reader who will have only the summary: that reader is you.\n\n" +
		"Fill in the template below: keep its identity header exactly as it is, then exactly these sections, with these headings, in this order:\n\n" +
		sectionRules + "\n\n" +
		"Answer with the checkpoint alone, starting with the line \"" + Title + "\", and nothing after it.\n\n" +
		template
}

// Extract returns the checkpoint in a fork's answer: from its title line to the end, a closing
// code fence dropped. ok is false when there is no title line.
func Extract(answer string) (string, bool) {
	i := strings.Index(answer, Title)
	if i < 0 || (i > 0 && answer[i-1] != '\n') {
		return "", false
	}
	text := strings.TrimRight(answer[i:], " \t\r\n")
	text = strings.TrimSuffix(text, "```")
	return strings.TrimRight(text, " \t\r\n") + "\n", true
}
