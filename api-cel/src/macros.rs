//! cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`, in
//! the apiserver's environment): `all(k, v, p)`, `exists(k, v, p)`,
//! `existsOne(k, v, p)`, `transformList(i, v, [filter,] f)`,
//! `transformMap(k, v, [filter,] f)`, `transformMapEntry(k, v, [filter,]
//! f)`, over a list (index and item) or a map (key and value).
//!
//! The `cel` crate's comprehensions have one iteration variable, so these
//! macros iterate over the indices of a list or the keys of a map
//! ([`KEYS`]) and read the second variable as `range[first]` ([`ITEM`]):
//! `self.m.all(k, v, v > 0)` is `@keysOrIndices(self.m).all(k,
//! @itemAt(self.m, k) > 0)`. Maps are built with [`MAP_INSERT`] (cel-go's
//! `cel.@mapInsert`).

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, ListExpr, LiteralValue, MapExpr,
};
use cel::parser::{Macro, MacroExprHelper, ParseError};

/// The function giving the indices of a list or the keys of a map.
pub const KEYS: &str = "@keysOrIndices";
/// The function reading the second variable: `range[first]`, which costs
/// what reading a variable costs (1), as cel-go's second variable does.
pub const ITEM: &str = "@itemAt";
/// The function adding an entry (or a map's entries) to a map, failing on
/// a key it has already.
pub const MAP_INSERT: &str = "@mapInsert";

const ACCUMULATOR: &str = "@result";

#[derive(Clone, Copy)]
enum Kind {
    All,
    Exists,
    ExistsOne,
    TransformList,
    TransformMap,
    TransformMapEntry,
}

/// The two-variable macros, for [`cel::Env::add_macro`].
pub fn two_variable() -> Vec<Macro> {
    let m = |name: &str, args: usize, kind: Kind| {
        Macro::receiver(name, args, move |h, target, a| {
            expand(h, target, a, kind).map(Some)
        })
    };
    vec![
        m("all", 3, Kind::All),
        m("exists", 3, Kind::Exists),
        m("existsOne", 3, Kind::ExistsOne),
        m("transformList", 3, Kind::TransformList),
        m("transformList", 4, Kind::TransformList),
        m("transformMap", 3, Kind::TransformMap),
        m("transformMap", 4, Kind::TransformMap),
        m("transformMapEntry", 3, Kind::TransformMapEntry),
        m("transformMapEntry", 4, Kind::TransformMapEntry),
    ]
}

/// Adds the two-variable macros to `env` (they do not collide with the
/// standard ones, which take two arguments).
pub fn add_to(env: &mut cel::Env) {
    for m in two_variable() {
        // Each (name, arity) is declared once above: no duplicate.
        let _ = env.add_macro(m);
    }
}

fn ident(h: &mut MacroExprHelper<'_>, e: IdedExpr) -> Result<String, ParseError> {
    match e.expr {
        Expr::Ident(name) => Ok(name),
        _ => Err(h.new_error(e.id, "argument must be a simple name")),
    }
}

fn call(h: &mut MacroExprHelper<'_>, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    h.next_expr(Expr::Call(CallExpr {
        func_name: name.to_string(),
        target: None,
        args,
    }))
}

fn accu(h: &mut MacroExprHelper<'_>) -> IdedExpr {
    h.next_expr(Expr::Ident(ACCUMULATOR.to_string()))
}

fn literal(h: &mut MacroExprHelper<'_>, l: LiteralValue) -> IdedExpr {
    h.next_expr(Expr::Literal(l))
}

fn expand(
    h: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    kind: Kind,
) -> Result<IdedExpr, ParseError> {
    let Some(range) = target.take() else {
        return Err(h.new_error(0, "a comprehension needs a target"));
    };
    let mut rest = args.split_off(2);
    let second = args.pop().expect("three or four arguments");
    let first = args.pop().expect("three or four arguments");
    let (first_id, second_id) = (first.id, second.id);
    let first = ident(h, first)?;
    let second = ident(h, second)?;
    for (name, id) in [(&first, first_id), (&second, second_id)] {
        if name == ACCUMULATOR || name == "__result__" {
            return Err(h.new_error(id, "iteration variable overwrites accumulator variable"));
        }
    }
    if first == second {
        return Err(h.new_error(second_id, format!("duplicate variable name: {second}")));
    }
    // The second variable reads `range[first]`.
    for e in rest.iter_mut() {
        substitute(h, e, &second, &range, &first);
    }
    let keys = call(h, KEYS, vec![range]);
    let (init, cond, step, result) = match kind {
        Kind::All | Kind::Exists => {
            let all = matches!(kind, Kind::All);
            let init = literal(h, LiteralValue::Boolean(all.into()));
            let a = accu(h);
            let cond_arg = if all { a } else { call(h, "!_", vec![a]) };
            let cond = call(h, "@not_strictly_false", vec![cond_arg]);
            let a = accu(h);
            let pred = rest.pop().expect("a predicate");
            let op = if all { "_&&_" } else { "_||_" };
            let step = call(h, op, vec![a, pred]);
            (init, cond, step, accu(h))
        }
        Kind::ExistsOne => {
            let init = literal(h, LiteralValue::Int(0.into()));
            let cond = literal(h, LiteralValue::Boolean(true.into()));
            let pred = rest.pop().expect("a predicate");
            let (a, one) = (accu(h), literal(h, LiteralValue::Int(1.into())));
            let plus = call(h, "_+_", vec![a, one]);
            let a = accu(h);
            let step = call(h, "_?_:_", vec![pred, plus, a]);
            let (a, one) = (accu(h), literal(h, LiteralValue::Int(1.into())));
            (init, cond, step, call(h, "_==_", vec![a, one]))
        }
        Kind::TransformList | Kind::TransformMap | Kind::TransformMapEntry => {
            let f = rest.pop().expect("a transform");
            let filter = rest.pop();
            let a = accu(h);
            let (init, add) = match kind {
                Kind::TransformList => {
                    let one = h.next_expr(Expr::List(ListExpr::new(vec![f])));
                    (
                        h.next_expr(Expr::List(ListExpr::new(Vec::new()))),
                        call(h, "_+_", vec![a, one]),
                    )
                }
                Kind::TransformMap => {
                    let key = h.next_expr(Expr::Ident(first.clone()));
                    (
                        h.next_expr(Expr::Map(MapExpr {
                            entries: Vec::new(),
                        })),
                        call(h, MAP_INSERT, vec![a, key, f]),
                    )
                }
                _ => (
                    h.next_expr(Expr::Map(MapExpr {
                        entries: Vec::new(),
                    })),
                    call(h, MAP_INSERT, vec![a, f]),
                ),
            };
            let step = match filter {
                Some(filter) => {
                    let a = accu(h);
                    call(h, "_?_:_", vec![filter, add, a])
                }
                None => add,
            };
            let cond = literal(h, LiteralValue::Boolean(true.into()));
            (init, cond, step, accu(h))
        }
    };
    Ok(h.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: keys,
        iter_var: first,
        iter_var2: None,
        accu_var: ACCUMULATOR.to_string(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    }))))
}

/// Replaces every free `name` in `e` with `range[index]`.
fn substitute(
    h: &mut MacroExprHelper<'_>,
    e: &mut IdedExpr,
    name: &str,
    range: &IdedExpr,
    index: &str,
) {
    match &mut e.expr {
        Expr::Ident(n) if n == name => {
            let i = h.next_expr(Expr::Ident(index.to_string()));
            *e = call(h, ITEM, vec![range.clone(), i]);
        }
        Expr::Select(s) => substitute(h, &mut s.operand, name, range, index),
        Expr::Call(c) => {
            if let Some(t) = c.target.as_deref_mut() {
                substitute(h, t, name, range, index);
            }
            for a in &mut c.args {
                substitute(h, a, name, range, index);
            }
        }
        Expr::List(l) => {
            for el in &mut l.elements {
                substitute(h, el, name, range, index);
            }
        }
        Expr::Map(m) => {
            for entry in &mut m.entries {
                if let EntryExpr::MapEntry(me) = &mut entry.expr {
                    substitute(h, &mut me.key, name, range, index);
                    substitute(h, &mut me.value, name, range, index);
                }
            }
        }
        Expr::Struct(st) => {
            for entry in &mut st.entries {
                if let EntryExpr::StructField(f) = &mut entry.expr {
                    substitute(h, &mut f.value, name, range, index);
                }
            }
        }
        Expr::Comprehension(c) => {
            substitute(h, &mut c.iter_range, name, range, index);
            substitute(h, &mut c.accu_init, name, range, index);
            // Inside, the name may be bound again; so may the index.
            let binds =
                |n: &str| c.iter_var == n || c.iter_var2.as_deref() == Some(n) || c.accu_var == n;
            if !binds(name) && !binds(index) {
                substitute(h, &mut c.loop_cond, name, range, index);
                substitute(h, &mut c.loop_step, name, range, index);
            }
            if c.accu_var != name && c.accu_var != index {
                substitute(h, &mut c.result, name, range, index);
            }
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::{Type, check};

    fn vars() -> Vec<(&'static str, Type)> {
        vec![(
            "self",
            Type::object([
                ("m".to_string(), Type::map(Type::String, Type::Int)),
                ("l".to_string(), Type::list(Type::String)),
            ]),
        )]
    }

    #[test]
    fn two_variable_comprehensions_check_with_both_variables_typed() {
        for (rule, want) in [
            ("self.m.all(k, v, k.size() < 10 && v > 0)", Type::Bool),
            ("self.l.exists(i, s, i == 0 && s == 'a')", Type::Bool),
            ("self.l.existsOne(i, s, s.startsWith('a'))", Type::Bool),
            // A built list is list(dyn) to this checker (cel-go infers the
            // element type; see tests/cel_cost.rs ACCUMULATOR_TYPE).
            (
                "self.l.transformList(i, s, s.size())",
                Type::list(Type::Dyn),
            ),
            (
                "self.m.transformList(k, v, v > 0, k)",
                Type::list(Type::Dyn),
            ),
            ("self.m.transformMap(k, v, v + 1).size() == 1", Type::Bool),
            (
                "self.m.transformMapEntry(k, v, {k + 'x': v}).size() == 1",
                Type::Bool,
            ),
            // The second variable may be bound again inside.
            ("self.m.all(k, v, [1].all(v, v == 1))", Type::Bool),
        ] {
            assert_eq!(check(rule, &vars()), Ok(want.clone()), "{rule}");
        }
    }

    #[test]
    fn mistakes_are_reported() {
        let e = check("self.m.all(k, v, v == 'a')", &vars()).unwrap_err();
        assert!(
            e.contains("found no matching overload for '_==_' applied to '(int, string)'"),
            "{e}"
        );
        let e = check("self.m.all(k, k, true)", &vars()).unwrap_err();
        assert!(e.contains("duplicate variable name: k"), "{e}");
        let e = check("self.m.all(k.x, v, true)", &vars()).unwrap_err();
        assert!(e.contains("argument must be a simple name"), "{e}");
    }
}
