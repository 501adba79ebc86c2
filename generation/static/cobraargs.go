package static

import (
	"go/ast"
	"strconv"
	"strings"
)

// cobraArgs reads a cobra.Command literal's Args validator — ExactArgs(n),
// MinimumNArgs(n), RangeArgs(a, b), MaximumNArgs(n), ArbitraryArgs — and
// returns the operands it implies, for a command whose Use string shows
// none (cobra's usage then shows "[flags]" alone and the help hides
// them): "files" when the program opens files, else "args". NoArgs, no
// validator, or one that is not a literal call imply none.
func cobraArgs(x *ast.CompositeLit, readsFiles bool) []*Arg {
	for _, el := range x.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "Args" {
			continue
		}
		name, nums := validatorCall(kv.Value)
		lo, hi := 0, -1 // hi -1: no upper bound
		switch {
		case name == "ExactArgs" && len(nums) == 1:
			lo, hi = nums[0], nums[0]
		case name == "MinimumNArgs" && len(nums) == 1:
			lo = nums[0]
		case name == "RangeArgs" && len(nums) == 2:
			lo, hi = nums[0], nums[1]
		case name == "MaximumNArgs" && len(nums) == 1:
			hi = nums[0]
		case name == "ArbitraryArgs":
		default:
			return nil
		}
		return operandsFor(lo, hi, readsFiles)
	}
	return nil
}

// validatorCall returns the name of cobra.Name(ints...) or cobra.Name and
// its integer literal arguments.
func validatorCall(e ast.Expr) (string, []int) {
	var nums []int
	if call, ok := e.(*ast.CallExpr); ok {
		for _, a := range call.Args {
			lit, ok := a.(*ast.BasicLit)
			if !ok {
				return "", nil
			}
			n, err := strconv.Atoi(lit.Value)
			if err != nil {
				return "", nil
			}
			nums = append(nums, n)
		}
		e = call.Fun
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		return sel.Sel.Name, nums
	}
	return "", nil
}

// operandsFor returns the operands of a command taking lo to hi
// arguments (hi -1: any number): one per argument up to three exactly
// counted, else one list.
func operandsFor(lo, hi int, readsFiles bool) []*Arg {
	if hi == 0 {
		return nil
	}
	base := "arg"
	if readsFiles {
		base = "file"
	}
	if hi > 0 && hi == lo && lo <= 3 {
		var out []*Arg
		for i := 1; i <= lo; i++ {
			name := base
			if lo > 1 {
				name += strconv.Itoa(i)
			}
			out = append(out, &Arg{Name: name})
		}
		return out
	}
	return []*Arg{{Name: strings.TrimSuffix(base, "s") + "s", Optional: lo == 0, Variadic: true}}
}
