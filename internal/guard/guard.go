// Package guard turns a panic at an entry point of passlens (a front end,
// a back end, a pass run by the pipeline, an explorer session) into an
// error with one wording everywhere:
//
//	internal error in <where>: <panic value> (please report it)
//
// prefixed with "<file>:1:1: " when the entry point knows the input file.
// Panics are bugs; the message says so and where, the stack is kept in
// Error.Stack for logs and --debug output, never in the message, and the
// caller gets an error instead of a crash.
//
// recover only works when called directly by a deferred function, so the
// helpers are deferred themselves:
//
//	defer guard.Recover(&err, "dxil.Emit")
//	defer guard.Handle("ssh session", func(e *guard.Error) { ... })
//
// This package is the only production code that calls recover (a test
// checks that).
package guard

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Error is a recovered panic.
type Error struct {
	Where string // the entry point, e.g. "dxil.Emit" or "pass inline"
	File  string // the input file, when the entry point knows it
	Value any    // what was passed to panic
	Stack string // goroutine stack at the recovery
}

// Message is the one wording of an internal error: where it happened and
// the first line of what went wrong.
func Message(where, what string) string {
	return fmt.Sprintf("internal error in %s: %s (please report it)", where, firstLine(what))
}

// Error is Message(Where, Value), prefixed with "File:1:1: " when File is
// known.
func (e *Error) Error() string {
	msg := Message(e.Where, fmt.Sprint(e.Value))
	if e.File != "" {
		msg = e.File + ":1:1: " + msg
	}
	return msg
}

// Unwrap returns the panic value when it is an error.
func (e *Error) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// New wraps a recovered panic value, recording the current stack.
func New(where string, r any) *Error {
	return &Error{Where: where, Value: r, Stack: string(debug.Stack())}
}

// Recover, deferred, turns a panic into an *Error stored in *errp. Other
// results of the function keep the values they had when it panicked
// (usually zero); use Handle when they must be reset.
func Recover(errp *error, where string) {
	if r := recover(); r != nil {
		*errp = New(where, r)
	}
}

// RecoverFile is Recover for an entry point reading file: the error is
// located at file:1:1.
func RecoverFile(errp *error, where, file string) {
	if r := recover(); r != nil {
		e := New(where, r)
		e.File = file
		*errp = e
	}
}

// Handle, deferred, calls handle with the recovered panic, for entry
// points that do more than return an error: log it, end a session, turn
// it into a diagnostic or a step error, or recognize a panic value they
// use for control flow (handle then inspects e.Value).
func Handle(where string, handle func(e *Error)) {
	if r := recover(); r != nil {
		handle(New(where, r))
	}
}

// firstLine shortens a message to its first line.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
