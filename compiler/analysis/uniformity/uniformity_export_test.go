package uniformity

// Test-only access for the external test package (uniformity oracle tests).

// WithAllExitsForTest exposes withAllExits.
var WithAllExitsForTest = withAllExits
