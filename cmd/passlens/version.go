package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the version, the VCS revision it was built from and the Go version",
		usage: `Usage: passlens version   (or passlens --version)

Prints the module version, the VCS revision, its commit time and whether
the working tree had uncommitted changes (from the build information the
Go toolchain embeds; "unknown" for builds without it, such as go run),
and the Go version.
`,
		run: runVersion,
	})
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	c := commands["version"]
	pos, err := parseFlags(c, newFlags(c, stderr), args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &usageError{c, "unexpected argument " + pos[0]}
	}
	fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
	return nil
}

// versionText renders the build information, e.g.
//
//	passlens (devel)
//	revision 0123abcd... (2026-11-26T08:00:00Z, modified)
//	go1.26.0 linux/amd64
func versionText(bi *debug.BuildInfo, ok bool) string {
	version, rev, when, modified := "(unknown)", "unknown", "", ""
	if ok && bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = "modified"
				}
			}
		}
	}
	detail := ""
	switch {
	case when != "" && modified != "":
		detail = " (" + when + ", " + modified + ")"
	case when != "":
		detail = " (" + when + ")"
	case modified != "":
		detail = " (" + modified + ")"
	}
	return fmt.Sprintf("passlens %s\nrevision %s%s\n%s %s/%s\n", version, rev, detail, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
