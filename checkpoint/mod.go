package checkpoint

import (
	"strings"
)

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

// Extract returns the checkpoint in a fork's answer: from the first line that starts with its
// title to its end. When a code fence was open above the title, the checkpoint ends at the line
// that closes that fence (code blocks inside it, opened with an info string such as ```bash, are
// skipped); without one, an unmatched last fence line after the title is a stray closing fence.
// Either way whatever follows the fence (the model's chatter) is dropped. ok is false when no
// line starts with the title.
func Extract(answer string) (string, bool) {
	lines := strings.SplitAfter(answer, "\n")
	title := -1
	var outer fence
	for i, l := range lines {
		if strings.HasPrefix(l, Title) && strings.TrimSpace(l[len(Title):]) == "" {
			title = i
			break
		}
		if f, ok := fenceOf(l); ok {
			switch {
			case !outer.open():
				outer = f
			case f.closes(outer):
				outer = fence{}
			}
		}
	}
	if title < 0 {
		return "", false
	}
	end := len(lines)
	if outer.open() {
		var inner fence
		for j := title + 1; j < len(lines); j++ {
			f, ok := fenceOf(lines[j])
			switch {
			case !ok:
			case inner.open():
				if f.closes(inner) {
					inner = fence{}
				}
			case f.closes(outer):
				end = j
			case f.info:
				inner = f
			default:
				inner = f // a bare fence of another kind opens a block
			}
			if end != len(lines) {
				break
			}
		}
	} else {
		var last, n int
		for j := title + 1; j < len(lines); j++ {
			if _, ok := fenceOf(lines[j]); ok {
				last, n = j, n+1
			}
		}
		if f, _ := fenceOf(lines[last]); n%2 == 1 && !f.info {
			end = last
		}
	}
	text := strings.TrimRight(strings.Join(lines[title:end], ""), " \t\r\n")
	return text + "\n", true
}

// fence is a code fence line: its character (` or ~), its length and whether it has an info
// string (only an opening fence has one).
type fence struct {
	char byte
	n    int
	info bool
}

func (f fence) open() bool { return f.n > 0 }

// closes reports whether f closes a block opened by o.
func (f fence) closes(o fence) bool { return !f.info && f.char == o.char && f.n >= o.n }

// fenceOf reads a fence line (up to three spaces of indent, three or more ` or ~).
func fenceOf(line string) (fence, bool) {
	l := strings.TrimRight(line, " \t\r\n")
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return fence{}, false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	rest := strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(rest, "`") {
		return fence{}, false
	}
	return fence{char: t[0], n: n, info: rest != ""}, true
}
