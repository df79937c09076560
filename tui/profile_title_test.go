package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"passlens/internal/replay"
	"passlens/themes"
)

// The title bar names the HLSL profile (-T) when one was given, and only
// then.
func TestTitleBarShowsProfile(t *testing.T) {
	for _, prof := range []string{"cs_6_6", ""} {
		d := &bigDriver{}
		d.steps = bigSteps(50)
		m := New(d, Options{Target: "spirv", Theme: themes.NoColorTheme(), Profile: prof})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
		title := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(m.titleBar(), "")
		if got := strings.Contains(title, "-T cs_6_6"); got != (prof != "") {
			t.Errorf("profile %q: title %q", prof, title)
		}
		if prof == "" && strings.Contains(title, "-T") {
			t.Errorf("no profile, but the title shows one: %q", title)
		}
	}
}

// A replay script's `load --profile=P` must match the explorer's -T; a
// script without a profile plays on any.
func TestScriptLoadProfileMatches(t *testing.T) {
	d := &bigDriver{}
	d.steps = bigSteps(10)
	m := New(d, Options{Target: "spirv", Theme: themes.NoColorTheme(), Profile: "cs_6_5"})
	for _, c := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"fake.pir", "--profile=cs_6_5"}, true},
		{[]string{"fake.pir"}, true},
		{[]string{"fake.pir", "--profile=cs_6_6"}, false},
	} {
		_, _, err := m.playCommand(replay.Command{Name: "load", Args: c.args})
		if (err == nil) != c.ok {
			t.Errorf("load %v: err %v, want ok=%v", c.args, err, c.ok)
		}
	}
}
