//! cel-go's parser limits, and the stack a rule needs.
//!
//! cel-go refuses an expression of more than 100,000 code points, and one
//! that nests deeper than 250 (counting what its parser counts: ternaries,
//! relations, arithmetic, selections, member calls and indexing), with
//! `max recursion depth exceeded`. Within those limits a rule is still
//! deep enough to overflow a thread's stack in the recursive passes over
//! it (parsing, checking, estimating, evaluating; a tokio worker has 2 MiB,
//! and a debug build spends tens of KiB per level), so [`parse`] parses on
//! a stack grown for the source's length, and [`Depth::run`] gives the
//! later passes the stack their depth needs. Both grow the stack only
//! when too little of it is left (`stacker`).

use cel::common::ast::{Expr, IdedExpr, SourceInfo};

/// The longest expression cel-go parses, in code points
/// (`expressionSizeCodePointLimit`).
pub const MAX_EXPRESSION_CODE_POINTS: usize = 100_000;

/// The deepest expression cel-go parses (`maxRecursionDepth`).
pub const MAX_RECURSION_DEPTH: usize = 250;

/// Stack for parsing, per byte of source: a chain of relations takes three
/// bytes per level (`1<1<1...`), and a debug build about 1.6 KiB per level.
const PARSE_STACK_PER_BYTE: usize = 640;

/// Stack for the passes after parsing, per level of the expression tree:
/// a debug build evaluating a chain of `==` needs about 48 KiB per level
/// (the interpreter's frames are large without optimization), a release
/// build less than 8 KiB (measured by api-core's
/// `deep_rules_run_or_are_refused_without_overflowing_a_worker_s_stack`).
const STACK_PER_NODE: usize = if cfg!(debug_assertions) {
    64 * 1024
} else {
    16 * 1024
};

/// Stack that is always left for what runs before and after.
const BASE_STACK: usize = 256 * 1024;

/// Runs `f` on a stack with at least `size` bytes left.
fn with_stack<R>(size: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(size, size, f)
}

/// How deep a parsed expression is: what runs over it needs a stack in
/// proportion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Depth {
    /// cel-go's count ([`MAX_RECURSION_DEPTH`] bounds it).
    pub cel_go: usize,
    /// The nesting of the `cel` crate's expression tree.
    pub tree: usize,
}

impl Depth {
    /// The depths of `expr` (found without recursion, so any tree can be
    /// measured).
    pub fn of(expr: &IdedExpr) -> Depth {
        let mut max = Depth::default();
        // (node, cel-go depth above it, tree depth, accumulator in scope)
        let mut stack: Vec<(&IdedExpr, usize, usize, Option<&str>)> = vec![(expr, 0, 1, None)];
        while let Some((e, above, tree, accu)) = stack.pop() {
            let depth = above + counts(e, accu);
            max.cel_go = max.cel_go.max(depth);
            max.tree = max.tree.max(tree);
            match &e.expr {
                // `range[key]` of a two-variable macro: the range was
                // measured where the macro iterates over it.
                Expr::Call(c) if c.func_name == crate::macros::ITEM => {}
                Expr::Comprehension(c) => {
                    stack.push((&c.iter_range, depth, tree + 1, accu));
                    stack.push((&c.accu_init, depth, tree + 1, accu));
                    for e in [&c.loop_cond, &c.loop_step, &c.result] {
                        stack.push((e, depth, tree + 1, Some(c.accu_var.as_str())));
                    }
                }
                _ => crate::ast::for_each_child(e, |child| {
                    stack.push((child, depth, tree + 1, accu));
                }),
            }
        }
        max
    }

    /// Runs `f`, which recurses over an expression of this depth, on a
    /// stack that can hold it.
    pub fn run<R>(self, f: impl FnOnce() -> R) -> R {
        with_stack(
            BASE_STACK.saturating_add(self.tree.saturating_mul(STACK_PER_NODE)),
            f,
        )
    }

    /// cel-go's error for an expression deeper than it parses.
    pub fn check(self) -> Result<(), String> {
        if self.cel_go > MAX_RECURSION_DEPTH {
            return Err("ERROR: <input>:-1:0: max recursion depth exceeded".to_string());
        }
        Ok(())
    }
}

/// Whether cel-go's parser counts `e` in its recursion depth: a ternary,
/// a relation, arithmetic, a selection, a member call (a macro's
/// comprehension was one) or indexing. Within a macro's expansion, the
/// steps that build its result (those reading the accumulator `accu`) are
/// not what was written.
fn counts(e: &IdedExpr, accu: Option<&str>) -> usize {
    let reads_accu = |args: &[IdedExpr]| {
        accu.is_some_and(|a| {
            args.iter()
                .any(|x| matches!(&x.expr, Expr::Ident(n) if n == a))
        })
    };
    match &e.expr {
        Expr::Select(_) | Expr::Comprehension(_) => 1,
        Expr::Call(c) if c.target.is_some() => 1,
        Expr::Call(c) if reads_accu(&c.args) => 0,
        Expr::Call(c) => match (c.func_name.as_str(), c.args.len()) {
            ("_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "@in", 2) => 1,
            ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", 2) => 1,
            ("_?_:_", 3) | ("_[_]" | "_[?_]" | "_?._", 2) => 1,
            _ => 0,
        },
        _ => 0,
    }
}

/// Parses `source` with `parser` as cel-go would accept it: not over
/// [`MAX_EXPRESSION_CODE_POINTS`] nor [`MAX_RECURSION_DEPTH`] (cel-go's
/// messages), on a stack that holds any such source. Returns the
/// expression and how deep it is.
pub fn parse(
    parser: cel::parser::Parser,
    source: &str,
) -> Result<(IdedExpr, SourceInfo, Depth), String> {
    let size = source.chars().count();
    if size > MAX_EXPRESSION_CODE_POINTS {
        return Err(format!(
            "ERROR: <input>:-1:0: expression code point size exceeds limit: size: {size}, limit {MAX_EXPRESSION_CODE_POINTS}"
        ));
    }
    let stack = BASE_STACK.saturating_add(source.len().saturating_mul(PARSE_STACK_PER_BYTE));
    // Dropping a deep tree recurses as deeply as building it: a refused
    // one is dropped on the same stack.
    with_stack(stack, || {
        let (expr, info) = parser
            .parse_with_source_info(source)
            .map_err(|e| e.to_string())?;
        let depth = Depth::of(&expr);
        depth.check()?;
        Ok((expr, info, depth))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(source: &str) -> Depth {
        let (_, _, depth) = parse(crate::PARSER_ENV.parser(), source).unwrap();
        depth
    }

    #[test]
    fn depth_counts_what_cel_go_counts() {
        assert_eq!(depth("a").cel_go, 0);
        assert_eq!(depth("a.b").cel_go, 1);
        assert_eq!(depth("a.b.c == 1").cel_go, 3);
        assert_eq!(depth("a == b == c").cel_go, 2);
        assert_eq!(depth("f(g(h(1)))").cel_go, 0);
        assert_eq!(depth("a && b && c && d").cel_go, 0);
        assert_eq!(depth("x ? y : z").cel_go, 1);
        assert_eq!(depth("l[0][1]").cel_go, 2);
        // A macro is a member call; its expansion's own steps do not count.
        assert_eq!(depth("l.map(x, x + 1)").cel_go, 2);
        assert_eq!(depth("l.filter(x, x > 1)").cel_go, 2);
        assert_eq!(depth("l.all(x, x > 1)").cel_go, 2);
    }

    #[test]
    fn cel_go_s_limits_are_enforced() {
        // apiextensions-apiserver's TestCELMaxRecursionDepth: 249 `==` in
        // a chain parse, 250 do not.
        let chain = |n: usize| vec!["self.val1"; n + 1].join(" == ");
        assert!(parse(crate::PARSER_ENV.parser(), &chain(249)).is_ok());
        assert_eq!(
            parse(crate::PARSER_ENV.parser(), &chain(250))
                .err()
                .as_deref(),
            Some("ERROR: <input>:-1:0: max recursion depth exceeded")
        );
        let long = format!("'{}' == ''", "x".repeat(MAX_EXPRESSION_CODE_POINTS));
        assert_eq!(
            parse(crate::PARSER_ENV.parser(), &long).err().as_deref(),
            Some(
                "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100008, limit 100000"
            )
        );
    }

    #[test]
    fn deep_expressions_do_not_overflow_a_small_stack() {
        // 30,000 relations (100 KB): refused, on a 256 KiB thread.
        let source = vec!["1"; 30_001].join("==");
        let outcome = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || parse(crate::PARSER_ENV.parser(), &source).map(|_| ()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(
            outcome.err().as_deref(),
            Some("ERROR: <input>:-1:0: max recursion depth exceeded")
        );
    }
}
