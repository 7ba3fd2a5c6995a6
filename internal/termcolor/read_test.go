package termcolor

import (
	"reflect"
	"testing"
)

// TestScan: the runs of text between escape sequences, with the style SGR codes set; other
// sequences dropped.
func TestScan(t *testing.T) {
	type run struct {
		Text string
		Style
	}
	red := Color{Kind: ColorBasic, N: 1, Code: "31"}
	tests := []struct {
		in   string
		want []run
	}{
		{"ab", []run{{Text: "ab"}}},
		{"\x1b[31ma\x1b[0mb", []run{{"a", Style{FG: red}}, {Text: "b"}}},
		{"\x1b[31ma\x1b[mb", []run{{"a", Style{FG: red}}, {Text: "b"}}},
		{"\x1b[1;2;3;4mx\x1b[22;23;24my", []run{{"x", Style{Bold: true, Dim: true, Italic: true, Underline: true}}, {Text: "y"}}},
		{"\x1b[97;104mx\x1b[39;49my", []run{{"x", Style{FG: Color{Kind: ColorBasic, N: 15, Code: "97"}, BG: Color{Kind: ColorBasic, N: 12, Code: "104"}}}, {Text: "y"}}},
		{"\x1b[48;5;22;38;5;196mx", []run{{"x", Style{FG: Color{Kind: Color256, N: 196, Code: "38;5;196"}, BG: Color{Kind: Color256, N: 22, Code: "48;5;22"}}}}},
		{"\x1b[38:2::1:2:3mx", []run{{"x", Style{FG: Color{Kind: ColorRGB, R: 1, G: 2, B: 3, Code: "38;2;1;2;3"}}}}},
		{"\x1b[58:2::1:2:3;1mx", []run{{"x", Style{Bold: true}}}},
		{"\x1b[31;38;5;300mx", []run{{Text: "x"}}},
		{"a\x1b[2Kb\x1b]0;title\x07c\x1b]8;;u\x1b\\d\x1b7e", []run{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "d"}, {Text: "e"}}},
		{"a\x1b[3", []run{{Text: "a"}}},
	}
	for _, tt := range tests {
		var got []run
		Scan(tt.in, func(s string, st Style) { got = append(got, run{s, st}) })
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Scan(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if got := Strip("\x1b[1;31mDUMB\x1b[0m 1\n\x1b[2m2"); got != "DUMB 1\n2" {
		t.Errorf("Strip: %q", got)
	}
}
