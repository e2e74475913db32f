//! Walking the `cel` crate's expression trees.

use cel::common::ast::{EntryExpr, Expr, IdedExpr};

/// Calls `f` with each direct child of `e`: a call's target and arguments,
/// a comprehension's range, initial accumulator, condition, step and
/// result, a list's elements, a map's keys and values, a struct's field
/// values, a selection's operand.
pub fn for_each_child<'a>(e: &'a IdedExpr, mut f: impl FnMut(&'a IdedExpr)) {
    match &e.expr {
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                f(t);
            }
            c.args.iter().for_each(f);
        }
        Expr::Comprehension(c) => {
            for e in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                f(e);
            }
        }
        Expr::List(l) => l.elements.iter().for_each(f),
        Expr::Map(m) => {
            for entry in &m.entries {
                if let EntryExpr::MapEntry(e) = &entry.expr {
                    f(&e.key);
                    f(&e.value);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(e) = &entry.expr {
                    f(&e.value);
                }
            }
        }
        Expr::Select(s) => f(&s.operand),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

/// [`for_each_child`], with the children mutable.
pub fn for_each_child_mut(e: &mut IdedExpr, mut f: impl FnMut(&mut IdedExpr)) {
    match &mut e.expr {
        Expr::Call(c) => {
            if let Some(t) = &mut c.target {
                f(t);
            }
            c.args.iter_mut().for_each(f);
        }
        Expr::Comprehension(c) => {
            for e in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                f(e);
            }
        }
        Expr::List(l) => l.elements.iter_mut().for_each(f),
        Expr::Map(m) => {
            for entry in &mut m.entries {
                if let EntryExpr::MapEntry(e) = &mut entry.expr {
                    f(&mut e.key);
                    f(&mut e.value);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &mut s.entries {
                if let EntryExpr::StructField(e) = &mut entry.expr {
                    f(&mut e.value);
                }
            }
        }
        Expr::Select(s) => f(&mut s.operand),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}
