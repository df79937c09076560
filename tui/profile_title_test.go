package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
