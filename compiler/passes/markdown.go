package passes

import (
	"go/doc/comment"
	"strings"

	"passlens/compiler/target"
)

// Markdown renders the pass's documentation as a docs/passes.md section:
// a level-2 heading with the pass name, the summary, the targets whose
// default pipelines use it, and Doc converted from Go doc-comment syntax
// (paragraphs, "  - " lists, indented code blocks) to Markdown. Backquoted
// spans in the comment are kept, so they render as code.
func (p *Pass) Markdown() string {
	var b strings.Builder
	b.WriteString("## " + p.Name + "\n\n")
	b.WriteString("*" + p.Summary + ".*")
	if len(p.Targets) > 0 {
		b.WriteString(" Default pipelines: " + strings.Join(target.Strings(p.Targets), ", ") + ".")
	}
	b.WriteString("\n")
	var parser comment.Parser
	for _, blk := range parser.Parse(p.Doc).Content {
		b.WriteString("\n")
		switch blk := blk.(type) {
		case *comment.Paragraph:
			b.WriteString(mdText(blk.Text) + "\n")
		case *comment.Heading:
			b.WriteString("### " + mdText(blk.Text) + "\n")
		case *comment.Code:
			b.WriteString("```\n" + blk.Text + "```\n")
		case *comment.List:
			for _, it := range blk.Items {
				marker := "- "
				if it.Number != "" {
					marker = it.Number + ". "
				}
				for i, c := range it.Content {
					par, ok := c.(*comment.Paragraph)
					if !ok {
						continue
					}
					if i > 0 {
						b.WriteString("\n")
					}
					lines := strings.Split(mdText(par.Text), "\n")
					for j, l := range lines {
						if i == 0 && j == 0 {
							b.WriteString(marker + l + "\n")
						} else {
							b.WriteString(strings.Repeat(" ", len(marker)) + l + "\n")
						}
					}
				}
			}
		}
	}
	return b.String()
}

// mdText writes doc-comment text as Markdown, keeping line breaks.
func mdText(ts []comment.Text) string {
	var b strings.Builder
	for _, t := range ts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString("*" + string(t) + "*")
		case *comment.Link:
			b.WriteString(mdText(t.Text))
		case *comment.DocLink:
			b.WriteString(mdText(t.Text))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
