package tui

import tea "charm.land/bubbletea/v2"

// Access for the external tests and benchmarks (package tui_test).

// CompiledForTest wraps a compile result as the message the explorer
// receives when a compile finishes.
func CompiledForTest(c *Compiled) tea.Msg { return compiledMsg{c: c, gen: compiledForTestGen} }

// compiledForTestGen matches a model that has not started its own compile.
const compiledForTestGen = 0
