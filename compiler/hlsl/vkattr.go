package hlsl

import "fmt"

// Declaration attributes: Vulkan's [[vk::binding(b, s)]],
// [[vk::push_constant]], [[vk::constant_id(n)]] and [[vk::location(n)]],
// and the function attributes [WaveSize(n)] and [RootSignature("…")]
// (rootsig.go). DXC reads the vk:: attributes only when it emits SPIR-V;
// passlens records them on the checked AST (VarDecl.Vk, CBuffer.Vk) and
// the lowering carries binding and push-constant placement to the IR
// for the SPIR-V back end. Like DXC, an unknown attribute is a warning.

// vkDeclAttrs are the vk:: attributes of declarations and what they take.
var vkDeclAttrs = map[string]bool{"binding": true, "push_constant": true, "constant_id": true, "location": true, "counter_binding": true}

// checkDeclAttrs validates the attributes of a global or parameter and
// records the Vulkan ones in v.Vk.
func (c *checker) checkDeclAttrs(v *VarDecl) {
	for _, a := range v.Attrs {
		if a.Namespace != "vk" || !vkDeclAttrs[a.Name] {
			c.warnf(a, "unknown attribute '%s' ignored", a.FullName())
			continue
		}
		switch a.Name {
		case "binding":
			if v.Kind != VarGlobal || !v.Type.IsError() && !v.Type.ContainsResource() {
				c.errorf(a, "'vk::binding' applies to resources and constant buffers, not to '%s'", v.Name)
				continue
			}
			c.vkBinding(a, &v.Vk)
		case "push_constant":
			if v.Kind != VarGlobal || v.Type.IsError() || v.Type.Kind != KindStruct || v.Mods&(ModStatic|ModGroupshared) != 0 {
				c.errorf(a, "'vk::push_constant' applies to a constant buffer or a uniform of struct type, not to '%s'", v.Name)
				continue
			}
			if c.vkArgs(a, 0, 0) != nil {
				v.Vk.PushConstant = true
			}
		case "constant_id":
			if v.Type.IsError() {
				continue
			}
			if v.Kind != VarGlobal || v.Mods&ModConst == 0 || v.Mods&ModStatic != 0 || !v.Type.IsScalar() || v.Init == nil {
				c.errorf(a, "'vk::constant_id' applies to a non-static 'const' global of scalar type with an initializer, not to '%s'", v.Name)
				continue
			}
			if n := c.vkArgs(a, 1, 1); n != nil {
				v.Vk.HasSpecID, v.Vk.SpecID = true, n[0]
			}
		case "counter_binding":
			c.vkCounterBinding(a, v) // appendbuf.go
		case "location":
			if v.Kind != VarParam {
				c.errorf(a, "'vk::location' applies to entry point parameters, not to '%s'", v.Name)
				continue
			}
			if n := c.vkArgs(a, 1, 1); n != nil {
				v.Vk.HasLocation, v.Vk.Location = true, n[0]
			}
		}
	}
}

// checkCBufferAttrs validates the attributes of a cbuffer or
// ConstantBuffer<T> declaration.
func (c *checker) checkCBufferAttrs(cb *CBuffer) {
	for _, a := range cb.Attrs {
		switch {
		case a.Namespace == "vk" && a.Name == "binding":
			c.vkBinding(a, &cb.Vk)
		case a.Namespace == "vk" && a.Name == "push_constant":
			if c.vkArgs(a, 0, 0) != nil {
				cb.Vk.PushConstant = true
			}
		case a.Namespace == "vk" && vkDeclAttrs[a.Name]:
			c.errorf(a, "'%s' does not apply to a constant buffer", a.FullName())
		default:
			c.warnf(a, "unknown attribute '%s' ignored", a.FullName())
		}
	}
	if cb.Vk.PushConstant && cb.Vk.HasBinding {
		c.errorf(cb.Attrs[0], "a push constant buffer has no descriptor binding: drop 'vk::binding' or 'vk::push_constant'")
	}
}

// vkBinding reads [[vk::binding(binding[, set])]].
func (c *checker) vkBinding(a *Attribute, vk *VkDecor) {
	n := c.vkArgs(a, 1, 2)
	if n == nil {
		return
	}
	vk.HasBinding, vk.Binding = true, n[0]
	if len(n) == 2 {
		vk.Set = n[1]
	}
}

// vkArgs checks that a has between lo and hi non-negative integer
// constant arguments and returns them (nil after an error; an empty,
// non-nil slice when there are none).
func (c *checker) vkArgs(a *Attribute, lo, hi int) []int {
	name := a.FullName()
	if a.Str != nil {
		c.errorf(a.Str, "'%s' takes integer arguments, not a string", name)
		return nil
	}
	if len(a.Args) < lo || len(a.Args) > hi {
		want := "no arguments"
		switch {
		case lo == hi && lo == 1:
			want = "1 argument"
		case lo != hi:
			want = fmt.Sprintf("%d or %d arguments", lo, hi)
		}
		c.errorf(a, "'%s' takes %s, have %d", name, want, len(a.Args))
		return nil
	}
	out := []int{}
	for i, arg := range a.Args {
		arg = c.checkExpr(arg)
		a.Args[i] = arg
		if arg.Type().IsError() {
			return nil
		}
		if !arg.Type().IsScalar() || !arg.Type().IsIntegral() {
			c.errorf(arg, "'%s' argument must be an integer constant, not '%s'", name, arg.Type())
			return nil
		}
		v, ok := c.constInt(arg, "'"+name+"' argument")
		if !ok {
			return nil
		}
		if v < 0 || v > 1<<31-1 {
			c.errorf(arg, "'%s' argument must be between 0 and 2147483647 (is %d)", name, v)
			return nil
		}
		out = append(out, int(v))
	}
	return out
}

// checkWaveSize validates [WaveSize(n)]: a power of two from 4 to 128
// (SM 6.6; the range form of SM 6.8 is outside the subset). It returns n,
// or 0 after an error.
func (c *checker) checkWaveSize(a *Attribute) int {
	if a.Str != nil || len(a.Args) != 1 {
		c.errorf(a, "'WaveSize' takes 1 argument (a power of two from 4 to 128)")
		return 0
	}
	arg := c.checkExpr(a.Args[0])
	a.Args[0] = arg
	if arg.Type().IsError() {
		return 0
	}
	v, ok := c.constInt(arg, "WaveSize argument")
	if !ok {
		return 0
	}
	if v < 4 || v > 128 || v&(v-1) != 0 {
		c.errorf(arg, "WaveSize must be a power of two from 4 to 128 (is %d)", v)
		return 0
	}
	return int(v)
}
