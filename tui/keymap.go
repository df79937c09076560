package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"

	"passlens/internal/limits"
)

// KeyMap is the one table of key bindings. The help overlay is generated
// from it (per focus: see Active) and a config file can remap any entry
// (see LoadConfig). Every key the explorer handles is an entry here; a
// test presses every key in every focus to keep it so.
type KeyMap struct {
	// Passes
	NextPass, PrevPass, FirstPass, LastPass, NextChanged, PrevChanged, FindPass, Expand key.Binding
	// Views
	ViewIR, ViewDiff, ViewTrees, ViewCFG, ViewLanes, ViewTarget, ViewExplain, ViewSource, FocusNext, Zoom key.Binding
	// Moving in a pane
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding
	// Text panes (IR, trees, CFG, lanes, target, explanation)
	Search, SearchNext, SearchPrev key.Binding
	// IR
	Occurrences, GotoDef, FuncFilter, NextValue key.Binding
	// Diff
	DiffMode, NextChange, DiffBase, PinBase key.Binding
	// Analyses
	Uniformity, Explain, TreeKind, ShowBlock, ExportDOT, CopyText key.Binding
	// Source
	SourceSide key.Binding
	// Lanes
	RunLanes, WaveSize, Policy, LoadInput, Cancel key.Binding
	// Lanes pane: the picture of a pixel shader (pane_image.go)
	ImageView, ImageTarget, ExportPNG key.Binding
	// Pass list (what-if)
	SelectPass, TogglePass, MoveUp, MoveDown key.Binding
	// Target and app
	Target, Export, Rerun, Record, OpenReplay, Mouse, Theme, Help, Quit key.Binding
}

// Focus is what receives the keys that are not global: the pass list or
// the pane shown.
type Focus int

const (
	FocusList Focus = iota
	FocusIR
	FocusDiff
	FocusTrees
	FocusCFG
	FocusLanes
	FocusTarget
	FocusExplain
	FocusSource
	numFocus
)

var focusNames = []string{"pass list", "IR", "diff", "trees", "CFG", "lanes", "target", "explanation", "source"}

func (f Focus) String() string { return focusNames[f] }

// Global returns the bindings that work in every focus.
func (k KeyMap) Global() []KeyGroup {
	return []KeyGroup{
		{"Passes", []key.Binding{k.NextPass, k.PrevPass, k.NextChanged, k.PrevChanged, k.FirstPass, k.LastPass, k.FindPass, k.Expand}},
		{"Views", []key.Binding{k.ViewIR, k.ViewDiff, k.ViewTrees, k.ViewCFG, k.ViewLanes, k.ViewTarget, k.ViewExplain, k.ViewSource, k.FocusNext, k.Zoom, k.FuncFilter}},
		{"Analyses", []key.Binding{k.Uniformity, k.Explain, k.ExportDOT}},
		{"Lanes", []key.Binding{k.RunLanes, k.WaveSize, k.Policy, k.LoadInput, k.Cancel}},
		{"Target & app", []key.Binding{k.Target, k.Export, k.Rerun, k.Record, k.OpenReplay, k.Mouse, k.Theme, k.Help, k.Quit}},
	}
}

// Pane returns the bindings of one focus (in addition to the global ones).
func (k KeyMap) Pane(f Focus) []KeyGroup {
	moving := KeyGroup{"Moving", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Left, k.Right}}
	search := []key.Binding{k.Search, k.SearchNext, k.SearchPrev}
	switch f {
	case FocusList:
		return []KeyGroup{{"Pass list", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.SelectPass, k.TogglePass, k.MoveUp, k.MoveDown}}}
	case FocusIR:
		return []KeyGroup{moving, {"IR", append(search, k.Occurrences, k.NextValue, k.GotoDef)}}
	case FocusDiff:
		return []KeyGroup{moving, {"Diff", []key.Binding{k.DiffMode, k.NextChange, k.DiffBase, k.PinBase}}}
	case FocusTrees:
		return []KeyGroup{moving, {"Trees", append(search, k.TreeKind, k.ShowBlock)}}
	case FocusCFG:
		return []KeyGroup{moving, {"CFG", append(search, k.ShowBlock)}}
	case FocusExplain:
		return []KeyGroup{moving, {"Explanation", append(search, k.CopyText)}}
	case FocusSource:
		return []KeyGroup{moving, {"Source", append(search, k.SourceSide)}}
	case FocusLanes:
		return []KeyGroup{moving, {"Lanes", append(search, k.ImageView, k.ImageTarget, k.ExportPNG)}}
	}
	return []KeyGroup{moving, {"Text", search}}
}

// Active returns every binding that works in focus f.
func (k KeyMap) Active(f Focus) []key.Binding {
	var out []key.Binding
	for _, g := range append(k.Global(), k.Pane(f)...) {
		out = append(out, g.Bindings...)
	}
	return out
}

// Shadowed reports the first key bound to two actions in one focus.
func (k KeyMap) Shadowed() error {
	names := map[string]string{}
	v := reflect.ValueOf(k)
	for i := 0; i < v.NumField(); i++ {
		b := v.Field(i).Interface().(key.Binding)
		names[bindingID(b)] = kebab(v.Type().Field(i).Name)
	}
	for f := Focus(0); f < numFocus; f++ {
		seen := map[string]string{}
		for _, b := range k.Active(f) {
			name := names[bindingID(b)]
			for _, ks := range b.Keys() {
				if other, dup := seen[ks]; dup && other != name {
					return fmt.Errorf("config: key %q is bound to both %s and %s in the %s", ks, other, name, f)
				}
				seen[ks] = name
			}
		}
	}
	return nil
}

// bindingID identifies a binding by its keys and description.
func bindingID(b key.Binding) string {
	return strings.Join(b.Keys(), "\x00") + "\x01" + b.Help().Desc
}

// KeyGroup is a titled set of bindings for the help overlay.
type KeyGroup struct {
	Title    string
	Bindings []key.Binding
}

func kb(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// DefaultKeyMap returns the built-in bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Expand:      kb([]string{"z"}, "z", "expand / collapse a run of unchanged passes"),
		NextPass:    kb([]string{"right", "l"}, "→/l", "next pass"),
		PrevPass:    kb([]string{"left", "h"}, "←/h", "previous pass"),
		FirstPass:   kb([]string{"home"}, "home", "first snapshot (input)"),
		LastPass:    kb([]string{"end"}, "end", "last snapshot"),
		NextChanged: kb([]string{"}"}, "}", "next pass that changed the IR"),
		PrevChanged: kb([]string{"{"}, "{", "previous pass that changed the IR"),
		FindPass:    kb([]string{":"}, ":", "find a pass by name"),

		ViewIR:      kb([]string{"1"}, "1", "IR pane"),
		ViewDiff:    kb([]string{"2"}, "2", "diff pane"),
		ViewTrees:   kb([]string{"3"}, "3", "dominator / post-dominator / cycle trees"),
		ViewCFG:     kb([]string{"4"}, "4", "CFG view"),
		ViewLanes:   kb([]string{"5"}, "5", "lanes (interpreter)"),
		ViewTarget:  kb([]string{"6"}, "6", "target code"),
		ViewExplain: kb([]string{"7"}, "7", "explanation (why divergent)"),
		ViewSource:  kb([]string{"8"}, "8", "source beside the IR (lines mapped both ways)"),
		FocusNext:   kb([]string{"tab"}, "tab", "focus pass list / main pane"),
		Zoom:        kb([]string{"Z"}, "Z", "zoom: hide / show the pass list"),

		Up:       kb([]string{"up", "k"}, "↑/k", "up"),
		Down:     kb([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   kb([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: kb([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:      kb([]string{"g"}, "g", "top"),
		Bottom:   kb([]string{"G"}, "G", "bottom"),
		Left:     kb([]string{"ctrl+left"}, "ctrl+←", "scroll left"),
		Right:    kb([]string{"ctrl+right"}, "ctrl+→", "scroll right"),

		Search:      kb([]string{"/"}, "/", "search in the pane"),
		SearchNext:  kb([]string{"n"}, "n", "next match"),
		SearchPrev:  kb([]string{"N"}, "N", "previous match"),
		Occurrences: kb([]string{"*"}, "*", "highlight the value under the cursor (follows it across passes)"),
		NextValue:   kb([]string{"w"}, "w", "cursor to the next value on the line"),
		GotoDef:     kb([]string{"enter"}, "enter", "go to the definition of the value under the cursor"),
		FuncFilter:  kb([]string{"f"}, "f", "filter by function"),

		DiffMode:   kb([]string{"s"}, "s", "unified / side-by-side diff"),
		NextChange: kb([]string{"c"}, "c", "jump to the next change"),
		DiffBase:   kb([]string{"b"}, "b", "diff against the previous / input snapshot"),
		PinBase:    kb([]string{"B"}, "B", "diff later snapshots against this one (pin)"),

		Uniformity: kb([]string{"u"}, "u", "uniformity overlay"),
		Explain:    kb([]string{"e"}, "e", "why is the value under the cursor divergent?"),
		TreeKind:   kb([]string{"t"}, "t", "dominator / post-dominator / cycle tree"),
		ShowBlock:  kb([]string{"enter"}, "enter", "show the selected block in the IR pane"),
		ExportDOT:  kb([]string{"D"}, "D", "export the CFG as Graphviz DOT"),
		CopyText:   kb([]string{"Y"}, "Y", "copy the explanation (OSC 52 clipboard)"),
		SourceSide: kb([]string{"o"}, "o", "source pane: move the cursor to the other side"),

		RunLanes:  kb([]string{"r"}, "r", "run the interpreter on this snapshot"),
		WaveSize:  kb([]string{"W"}, "W", "cycle wave size (4/8/16/32/64)"),
		Policy:    kb([]string{"y"}, "y", "reconvergence policy"),
		LoadInput: kb([]string{"i"}, "i", "load interpreter input (JSON, docs/run.md)"),
		Cancel:    kb([]string{"esc"}, "esc", "cancel / close"),

		ImageView:   kb([]string{"p"}, "p", "pixel shaders: picture of the render target at this snapshot / run output"),
		ImageTarget: kb([]string{"c"}, "c", "picture: next render target (SV_Target0, 1, …)"),
		ExportPNG:   kb([]string{"P"}, "P", "picture: save the render target as a PNG (fresh name in the working directory)"),

		Target:     kb([]string{"T"}, "T", "cycle target (spirv / dxil / sm3)"),
		Export:     kb([]string{"x"}, "x", "export target code to a file"),
		SelectPass: kb([]string{"enter"}, "enter", "show the selected pass"),
		TogglePass: kb([]string{"space"}, "space", "what-if: turn the selected pass off/on"),
		MoveUp:     kb([]string{"K"}, "K", "what-if: move the selected pass up"),
		MoveDown:   kb([]string{"J"}, "J", "what-if: move the selected pass down"),
		Rerun:      kb([]string{"R"}, "R", "reload the input if it changed (keeps step, function, scroll)"),

		Record:     kb([]string{"ctrl+s"}, "ctrl+s", "save your steps as a replay script"),
		OpenReplay: kb([]string{"ctrl+o"}, "ctrl+o", "play a replay script"),
		Mouse:      kb([]string{"m"}, "m", "mouse on/off"),
		Theme:      kb([]string{"ctrl+t"}, "ctrl+t", "cycle theme"),
		Help:       kb([]string{"?"}, "?", "this help"),
		Quit:       kb([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// Groups returns the bindings of focus f grouped for the help overlay:
// the focused pane's first, then the global ones.
func (k KeyMap) Groups(f Focus) []KeyGroup {
	return append(k.Pane(f), k.Global()...)
}

// fieldNames maps config names ("next-pass") to KeyMap fields.
func fieldNames() map[string]string {
	out := map[string]string{}
	t := reflect.TypeOf(KeyMap{})
	for i := 0; i < t.NumField(); i++ {
		out[kebab(t.Field(i).Name)] = t.Field(i).Name
	}
	return out
}

func kebab(s string) string {
	var sb strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				sb.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// Config is the user's config file ($XDG_CONFIG_HOME/passlens/config.json).
type Config struct {
	Theme string `json:"theme,omitempty"`
	Mouse bool   `json:"mouse,omitempty"`
	// Keys remaps actions: {"next-pass": ["n", "right"]}.
	Keys map[string][]string `json:"keys,omitempty"`
}

// ConfigPath returns the config file location following the XDG spec.
func ConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "passlens", "config.json")
}

// LoadConfig reads the config file (a missing file is not an error).
func LoadConfig(path string) (Config, error) {
	var c Config
	data, err := limits.ReadFile(path, limits.MaxModuleSize)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

// essential names the actions a config may remap but not leave without a
// key: quitting, leaving a prompt or the help screen.
var essential = map[string]bool{"quit": true, "cancel": true, "help": true}

// Apply remaps bindings from the config. ctrl+c stays bound to quit. Unknown action names are an error
// naming the valid ones; a key bound to two actions is reported too.
func (k *KeyMap) Apply(remap map[string][]string) error {
	names := fieldNames()
	v := reflect.ValueOf(k).Elem()
	for action, keys := range remap {
		field, ok := names[action]
		if !ok {
			var valid []string
			for n := range names {
				valid = append(valid, n)
			}
			sort.Strings(valid)
			return fmt.Errorf("config: unknown action %q (valid: %s)", action, strings.Join(valid, ", "))
		}
		if len(keys) == 0 && essential[action] {
			return fmt.Errorf("config: action %q needs at least one key (without one the explorer could not be left)", action)
		}
		if action == "quit" && !slices.Contains(keys, "ctrl+c") {
			// ctrl+c always quits, whatever the config says.
			keys = append(slices.Clone(keys), "ctrl+c")
		}
		b := v.FieldByName(field).Addr().Interface().(*key.Binding)
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
	}
	if err := k.Shadowed(); err != nil {
		return err
	}
	return nil
}
