// Command floor is the benchmarks' floor: the least a statusline can do. It decodes the same
// JSON from stdin with the standard library and prints one line. zoneline's whole-process
// benchmarks report their time as a ratio to this program's.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	var p struct {
		Model struct {
			DisplayName string `json:"display_name"`
		} `json:"model"`
		ContextWindow struct {
			Size         int64 `json:"context_window_size"`
			CurrentUsage struct {
				Input         int64 `json:"input_tokens"`
				CacheCreation int64 `json:"cache_creation_input_tokens"`
				CacheRead     int64 `json:"cache_read_input_tokens"`
			} `json:"current_usage"`
		} `json:"context_window"`
	}
	data, _ := io.ReadAll(os.Stdin)
	json.Unmarshal(data, &p)
	u := p.ContextWindow.CurrentUsage
	fmt.Printf("%s %dk/%dk\n", p.Model.DisplayName, (u.Input+u.CacheCreation+u.CacheRead)/1000, p.ContextWindow.Size/1000)
}
