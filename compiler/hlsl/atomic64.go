package hlsl

// 64-bit atomics on RWByteAddressBuffer (SM6.6: "Int64 and Float
// Atomics"): InterlockedAdd64, Min64, Max64, And64, Or64, Xor64 with an
// optional original-value out argument, InterlockedExchange64 and
// InterlockedCompareExchange64 with a required one, and
// InterlockedCompareStore64. The first argument is the byte offset
// (uint, 8-byte aligned); the value operands are 64-bit integers. As in
// DXC's intrinsic table, Min64 and Max64 are overloaded on int64_t and
// uint64_t (signed or unsigned comparison), the others take uint64_t
// (signedness does not change their bits); a value argument of type
// int64_t selects the int64_t form, anything else converts to uint64_t.

// atomic64Names maps each 64-bit method to its 32-bit counterpart, whose
// operand shape it shares.
var atomic64Names = map[string]string{
	"InterlockedAdd64": "InterlockedAdd", "InterlockedMin64": "InterlockedMin",
	"InterlockedMax64": "InterlockedMax", "InterlockedAnd64": "InterlockedAnd",
	"InterlockedOr64": "InterlockedOr", "InterlockedXor64": "InterlockedXor",
	"InterlockedExchange64":        "InterlockedExchange",
	"InterlockedCompareExchange64": "InterlockedCompareExchange",
	"InterlockedCompareStore64":    "InterlockedCompareStore",
}

// Atomic64Base returns the 32-bit method name of a 64-bit byte address
// buffer atomic ("InterlockedAdd" for "InterlockedAdd64") and whether
// name is one.
func Atomic64Base(name string) (string, bool) {
	b, ok := atomic64Names[name]
	return b, ok
}

// atomic64Method returns the signature of a 64-bit atomic of a
// RWByteAddressBuffer for the checked arguments args, or nil when rt or
// name is not one.
func atomic64Method(rt *Type, name string, args []Expr) *Method {
	base, ok := atomic64Names[name]
	if !ok || rt.Resource != ResRWByteAddressBuffer {
		return nil
	}
	m := resourceMethod(rt, base)
	if m == nil {
		return nil
	}
	vt := TypeUint64
	if base == "InterlockedMin" || base == "InterlockedMax" || base == "InterlockedExchange" ||
		base == "InterlockedCompareExchange" || base == "InterlockedCompareStore" {
		// Templated on the 64-bit integer type in DXC: an int64_t value
		// (not the offset, not the out argument) selects int64_t.
		for i := 1; i < len(args) && i < len(m.Params); i++ {
			if !m.Out[i] && Identical(args[i].Type(), TypeInt64) {
				vt = TypeInt64
			}
		}
	}
	for i := 1; i < len(m.Params); i++ {
		m.Params[i] = vt
	}
	m.Name = name
	return m
}
