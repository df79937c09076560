package serve

import (
	"context"

	"passlens/tui/backend"
)

// openModule is openModuleCtx outside a session, for tests.
func (s *Server) openModule(ref moduleRef) (*backend.Driver, error) {
	return s.openModuleCtx(context.Background(), ref)
}
