package tui

// Access to the picture view for the external tests (package tui_test).

// HalfBlocks is halfBlocks.
func HalfBlocks(t *ImageTarget) []string { return halfBlocks(t) }

// ShownImage is the picture the lanes pane shows: the step it was drawn
// at, the draw (nil while none finished) and its error; on reports
// whether the picture view is on.
func (m *Model) ShownImage() (step int, img *RenderedImage, err error, on bool) {
	v := &m.lanesP.img
	if v.shown == nil {
		return -1, nil, nil, v.on
	}
	return v.shown.key.step, v.shown.img, v.shown.err, v.on
}

// Step is the current snapshot's index.
func (m *Model) Step() int { return m.step }

// ImageOptionsNow is the draw the picture view needs at this moment.
func (m *Model) ImageOptionsNow() ImageOptions {
	k := m.imageKey()
	return ImageOptions{RunOptions: RunOptions{WaveSize: k.wave, Policy: k.policy, Function: k.fn}, Width: k.width, Height: k.height}
}

// Comp is the current compile.
func (m *Model) Comp() *Compiled { return m.comp }
