package pipeline

import "passlens/compiler/ir"

// defaultVerify is the verifier used when Options.Verify is nil.
var defaultVerify = ir.Verify
