//! The type checker: cel-go's checker over the `cel` crate's AST, with
//! the declarations of [`crate::decls`], the variables of a rule, and
//! cel-go's error messages and positions.

use std::collections::HashMap;

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue, SourceInfo};

use crate::decls::{self, FUNCTIONS, Overload};
use crate::types::{Bindings, Type};

/// A checked expression: its type, and what the checker learned about
/// each of its nodes (what cel-go's checked AST records: the type of every
/// expression and the overloads a call may dispatch to), which the cost
/// estimator reads.
#[derive(Debug)]
pub struct Checked {
    /// The expression's type.
    pub ty: Type,
    pub(crate) types: HashMap<u64, Type>,
    pub(crate) calls: HashMap<u64, Resolved>,
    /// Select chains that name a type (`google.protobuf.Duration`): one
    /// identifier to cel-go.
    pub(crate) type_names: HashMap<u64, String>,
}

impl Checked {
    /// The type the checker gave the node with `id` (`dyn` if none).
    pub fn type_of(&self, id: u64) -> &Type {
        self.types.get(&id).unwrap_or(&Type::Dyn)
    }
}

/// A call the checker resolved.
#[derive(Debug)]
pub(crate) struct Resolved {
    /// The function's name; `sets.contains` for a namespaced global.
    pub name: String,
    /// Whether the call is a member call on its target (a namespaced
    /// global's target is the namespace, not a receiver).
    pub member: bool,
    /// The overloads the arguments' types admit.
    pub overloads: Vec<&'static Overload>,
}

/// Checks `expr` (parsed from `source`, with `info`) with `vars` declared,
/// returning its type or every error in cel-go's format (`ERROR:
/// <input>:1:6: undefined field 'x'`, then the line and a caret).
pub fn check_parsed(
    expr: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    vars: &[(&str, Type)],
) -> Result<Type, String> {
    check_ast(expr, info, source, vars).map(|c| c.ty)
}

/// [`check_parsed`], keeping what the checker learned about every node
/// (for [`crate::cost::estimate`]).
pub fn check_ast(
    expr: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    vars: &[(&str, Type)],
) -> Result<Checked, String> {
    check(expr, info, source, vars, None)
}

/// Checks a constant regular expression: the error is Go's
/// (`error parsing regexp: ...`).
pub type RegexCheck<'a> = &'a dyn Fn(&str) -> Result<(), String>;

/// [`check_ast`] with `regex` checking the constant patterns of `matches`
/// as cel-go's `ValidateRegexLiterals` does (with Go's `regexp`); those of
/// `find` and `findAll` are left to the caller, which cel-go checks when it
/// instantiates the program. Without it, all three are checked with
/// regex-syntax, whose errors are worded differently.
pub fn check_ast_with_regex(
    expr: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    vars: &[(&str, Type)],
    regex: RegexCheck<'_>,
) -> Result<Checked, String> {
    check(expr, info, source, vars, Some(regex))
}

fn check(
    expr: &IdedExpr,
    info: &SourceInfo,
    source: &str,
    vars: &[(&str, Type)],
    regex: Option<RegexCheck<'_>>,
) -> Result<Checked, String> {
    let mut checker = Checker {
        regex,
        info,
        source,
        scopes: vec![
            vars.iter()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect(),
        ],
        errors: Vec::new(),
        types: HashMap::new(),
        calls: HashMap::new(),
        type_names: HashMap::new(),
    };
    let ty = checker.expr(expr);
    if checker.errors.is_empty() {
        checker.homogeneous_literals(expr, false);
    }
    if checker.errors.is_empty() {
        Ok(Checked {
            ty,
            types: checker.types,
            calls: checker.calls,
            type_names: checker.type_names,
        })
    } else {
        Err(checker.errors.join("\n"))
    }
}

struct Checker<'a> {
    /// How constant patterns of `matches` are checked (`None`: with
    /// regex-syntax, those of `find` and `findAll` too).
    regex: Option<RegexCheck<'a>>,
    info: &'a SourceInfo,
    source: &'a str,
    scopes: Vec<Vec<(String, Type)>>,
    errors: Vec<String>,
    types: HashMap<u64, Type>,
    calls: HashMap<u64, Resolved>,
    type_names: HashMap<u64, String>,
}

impl Checker<'_> {
    fn error(&mut self, id: u64, message: String) -> Type {
        let offset = self.offset(id);
        self.error_at(offset, message)
    }

    /// Where the node `id` starts in the source.
    fn offset(&self, id: u64) -> usize {
        self.info
            .offset_for(id)
            .map_or(0, |(start, _)| start as usize)
    }

    fn error_at(&mut self, offset: usize, message: String) -> Type {
        let before = self.source.get(..offset).unwrap_or(self.source);
        let line_no = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        let line = self.source[line_start..].lines().next().unwrap_or("");
        self.errors.push(format!(
            "ERROR: <input>:{line_no}:{column}: {message}\n | {line}\n | {}^",
            ".".repeat(column - 1)
        ));
        Type::Error
    }

    /// cel-go's `ValidateHomogeneousAggregateLiterals`, which the
    /// apiserver's environment runs on a checked rule: the elements of a
    /// list literal, and the keys and the values of a map literal, must
    /// have the same type (`dyn` is not `int`), except within a call of
    /// `format` (`exempt`).
    fn homogeneous_literals(&mut self, e: &IdedExpr, exempt: bool) {
        let mismatch = |this: &mut Self, expected: &Type, found: &IdedExpr, t: &Type| {
            this.error(
                found.id,
                format!("expected type '{expected}' but found '{t}'"),
            );
        };
        match &e.expr {
            Expr::List(list) if !exempt => {
                let mut first: Option<Type> = None;
                for (i, el) in list.elements.iter().enumerate() {
                    if is_empty_literal(el) {
                        // Its element type is free (cel-go unifies it with
                        // the others'); here it is `dyn`.
                        continue;
                    }
                    let mut t = self.types.get(&el.id).cloned().unwrap_or(Type::Dyn);
                    if list.optional_indices.contains(&i) {
                        t = unwrap_optional(t);
                        if t.is_dyn() {
                            // `optional.none()`: its type is a free
                            // parameter, equivalent to any.
                            continue;
                        }
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if *f != t => {
                            let f = f.clone();
                            mismatch(self, &f, el, &t);
                            break;
                        }
                        Some(_) => {}
                    }
                }
            }
            Expr::Map(map) if !exempt => {
                let mut first: Option<(Type, Type)> = None;
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        let k = self.types.get(&m.key.id).cloned().unwrap_or(Type::Dyn);
                        let mut v = self.types.get(&m.value.id).cloned().unwrap_or(Type::Dyn);
                        let free = m.optional && unwrap_optional(v.clone()).is_dyn();
                        if m.optional {
                            v = unwrap_optional(v);
                        }
                        if free || is_empty_literal(&m.value) {
                            // `optional.none()`, `[]` or `{}`: as in lists.
                            continue;
                        }
                        let Some((fk, fv)) = &first else {
                            first = Some((k, v));
                            continue;
                        };
                        let (fk, fv) = (fk.clone(), fv.clone());
                        if fk != k {
                            mismatch(self, &fk, &m.key, &k);
                        }
                        if fv != v {
                            mismatch(self, &fv, &m.value, &v);
                        }
                    }
                }
            }
            _ => {}
        }
        let exempt = exempt || matches!(&e.expr, Expr::Call(c) if c.func_name == "format");
        crate::ast::for_each_child(e, |child| self.homogeneous_literals(child, exempt));
    }

    fn lookup(&self, name: &str) -> Option<&Type> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    fn expr(&mut self, e: &IdedExpr) -> Type {
        let t = self.expr_type(e);
        self.types.insert(e.id, t.clone());
        t
    }

    fn expr_type(&mut self, e: &IdedExpr) -> Type {
        match &e.expr {
            Expr::Literal(l) => literal(l),
            Expr::Ident(name) => self.ident(e.id, name),
            Expr::Select(s) => {
                if let Some((name, t)) = self.qualified_type(e) {
                    self.type_names.insert(e.id, name);
                    return Type::Type(Box::new(t));
                }
                let operand = self.expr(&s.operand);
                let field = self.select(e.id, &operand, &s.field);
                if s.test { Type::Bool } else { field }
            }
            Expr::Call(call) => self.call(e, &call.func_name, call.target.as_deref(), &call.args),
            Expr::List(list) => {
                let types: Vec<Type> = list
                    .elements
                    .iter()
                    .enumerate()
                    .map(|(i, el)| {
                        let t = self.expr(el);
                        if list.optional_indices.contains(&i) {
                            unwrap_optional(t)
                        } else {
                            t
                        }
                    })
                    .collect();
                Type::list(join(types))
            }
            Expr::Map(map) => {
                let mut keys = Vec::new();
                let mut values = Vec::new();
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(m) = &entry.expr {
                        keys.push(self.expr(&m.key));
                        let v = self.expr(&m.value);
                        values.push(if m.optional { unwrap_optional(v) } else { v });
                    }
                }
                Type::map(join(keys), join(values))
            }
            Expr::Struct(_) | Expr::Unspecified => Type::Dyn,
            Expr::Comprehension(c) => {
                let range = self.expr(&c.iter_range);
                let (first, second) = match (&range, &c.iter_var2) {
                    (Type::List(el), None) => ((**el).clone(), None),
                    (Type::List(el), Some(_)) => (Type::Int, Some((**el).clone())),
                    (Type::Map(k, _), None) => ((**k).clone(), None),
                    (Type::Map(k, v), Some(_)) => ((**k).clone(), Some((**v).clone())),
                    (t, second) if t.is_dyn() => (Type::Dyn, second.as_ref().map(|_| Type::Dyn)),
                    (t, second) => {
                        let message = format!(
                            "expression of type '{t}' cannot be range of a comprehension (must be list, map, or dynamic)"
                        );
                        self.error(c.iter_range.id, message);
                        (Type::Error, second.as_ref().map(|_| Type::Error))
                    }
                };
                let accu = self.expr(&c.accu_init);
                let mut scope = vec![(c.accu_var.clone(), accu)];
                scope.push((c.iter_var.clone(), first));
                if let (Some(name), Some(t)) = (&c.iter_var2, second) {
                    scope.push((name.clone(), t));
                }
                self.scopes.push(scope);
                self.expr(&c.loop_cond);
                self.expr(&c.loop_step);
                // The result sees the accumulator only.
                let accu_scope = self.scopes.pop().map(|s| s.into_iter().take(1).collect());
                self.scopes.push(accu_scope.unwrap_or_default());
                let result = self.expr(&c.result);
                self.scopes.pop();
                result
            }
        }
    }

    fn ident(&mut self, id: u64, name: &str) -> Type {
        if let Some(t) = self.lookup(name) {
            return t.clone();
        }
        if let Some(t) = decls::type_name(name) {
            return Type::Type(Box::new(t));
        }
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        )
    }

    /// `google.protobuf.Duration`, `net.IP`: a qualified type name, when the
    /// select chain is one and its root is no variable.
    fn qualified_type(&self, e: &IdedExpr) -> Option<(String, Type)> {
        let name = qualified_name(e)?;
        let root = name.split('.').next()?;
        if self.lookup(root).is_some() {
            return None;
        }
        let t = decls::type_name(&name)?;
        Some((name, t))
    }

    fn select(&mut self, id: u64, operand: &Type, field: &str) -> Type {
        match operand {
            // Selecting on an optional chains: `oldSelf.?a.b` is optional.
            Type::Optional(inner) => {
                let t = self.select(id, inner, field);
                if t == Type::Error {
                    t
                } else {
                    Type::Optional(Box::new(unwrap_optional(t)))
                }
            }
            Type::Object(o) => match o.fields.get(field) {
                Some(t) => t.clone(),
                None => self.error(id, format!("undefined field '{field}'")),
            },
            Type::Map(_, v) => (**v).clone(),
            t if t.is_dyn() => Type::Dyn,
            t => self.error(id, format!("type '{t}' does not support field selection")),
        }
    }

    fn call(
        &mut self,
        e: &IdedExpr,
        name: &str,
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
    ) -> Type {
        // `a.?b`: optional field selection.
        if name == "_?._"
            && let [
                operand,
                IdedExpr {
                    expr: Expr::Literal(LiteralValue::String(field)),
                    ..
                },
            ] = args
        {
            let t = self.expr(operand);
            let inner = unwrap_optional(t);
            let field = self.select(e.id, &inner, field.inner());
            return Type::Optional(Box::new(unwrap_optional(field)));
        }
        // `sets.contains(...)`, `format.named(...)`: a namespaced global.
        if let Some(IdedExpr {
            expr: Expr::Ident(ns),
            ..
        }) = target
        {
            let qualified = format!("{ns}.{name}");
            if self.lookup(ns).is_none() && FUNCTIONS.contains_key(&qualified) {
                return self.resolve(e.id, &qualified, None, args);
            }
        }
        let receiver = target.map(|t| self.expr(t));
        self.resolve(e.id, name, receiver, args)
    }

    fn resolve(&mut self, id: u64, name: &str, receiver: Option<Type>, args: &[IdedExpr]) -> Type {
        let arg_types: Vec<Type> = args.iter().map(|a| self.expr(a)).collect();
        self.constant_arguments(name, args);
        let Some(overloads) = FUNCTIONS.get(name) else {
            return self.error(
                id,
                format!("undeclared reference to '{name}' (in container '')"),
            );
        };
        if receiver.as_ref().is_some_and(|r| *r == Type::Error) || arg_types.contains(&Type::Error)
        {
            return Type::Error;
        }
        let mut results = Vec::new();
        let mut matched = Vec::new();
        for o in overloads {
            if o.receiver.is_some() != receiver.is_some() || o.params.len() != arg_types.len() {
                continue;
            }
            let mut b = Bindings::default();
            let receiver_ok = match (&o.receiver, &receiver) {
                (Some(p), Some(r)) => b.assign(p, r),
                _ => true,
            };
            if receiver_ok && o.params.iter().zip(&arg_types).all(|(p, a)| b.assign(p, a)) {
                results.push(b.substitute(&o.result));
                matched.push(o);
            }
        }
        if results.is_empty() {
            let args = arg_types
                .iter()
                .map(Type::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let applied = match &receiver {
                Some(r) => format!("{r}.({args})"),
                None => format!("({args})"),
            };
            return self.error(
                id,
                format!("found no matching overload for '{name}' applied to '{applied}'"),
            );
        }
        self.calls.insert(
            id,
            Resolved {
                name: name.to_string(),
                member: receiver.is_some(),
                overloads: matched,
            },
        );
        let first = results[0].clone();
        if results.iter().all(|r| *r == first) {
            first
        } else {
            Type::Dyn
        }
    }

    /// The apiserver's AST validators: constant regular expressions,
    /// durations and timestamps must be valid when the rule is compiled.
    fn constant_arguments(&mut self, name: &str, args: &[IdedExpr]) {
        let literal = |i: usize| match args.get(i).map(|a| &a.expr) {
            Some(Expr::Literal(LiteralValue::String(s))) => {
                Some((args[i].id, s.inner().to_string()))
            }
            _ => None,
        };
        match name {
            "matches" | "find" | "findAll" => {
                let at = if args.len() == 2 && name == "matches" {
                    1
                } else {
                    0
                };
                let Some((id, pattern)) = literal(at) else {
                    return;
                };
                let error = match self.regex {
                    Some(check) if name == "matches" => check(&pattern).err(),
                    // cel-go compiles constant patterns of `find` and
                    // `findAll` when it instantiates the program.
                    Some(_) => None,
                    None => regex_syntax::ast::parse::Parser::new()
                        .parse(&pattern)
                        .err()
                        .map(|e| format!("error parsing regexp: {}", e.kind())),
                };
                if let Some(e) = error {
                    self.error(id, format!("invalid {name} argument: {e}"));
                }
            }
            "duration" => {
                if let Some((id, d)) = literal(0)
                    && !is_go_duration(&d)
                {
                    self.error(
                        id,
                        format!("invalid duration argument: time: invalid duration {d:?}"),
                    );
                }
            }
            "timestamp" => {
                if let Some((id, t)) = literal(0)
                    && !is_rfc3339(&t)
                {
                    self.error(id, format!("invalid timestamp argument: {t:?}"));
                }
                // Seconds since the epoch: cel-go folds the constant and
                // refuses one outside years 1 to 9999.
                if let Some(IdedExpr {
                    id,
                    expr: Expr::Literal(LiteralValue::Int(seconds)),
                }) = args.first()
                    && !(MIN_UNIX_SECONDS..=MAX_UNIX_SECONDS).contains(&i64::from(*seconds))
                {
                    // cel-go places a negative literal at its sign.
                    let mut at = self.offset(*id);
                    if i64::from(*seconds) < 0 && self.source[..at].ends_with('-') {
                        at -= 1;
                    }
                    self.error_at(at, "invalid timestamp".to_string());
                }
            }
            _ => {}
        }
    }
}

/// The first second of year 1 and the last of year 9999, since the Unix
/// epoch: the timestamps CEL has.
const MIN_UNIX_SECONDS: i64 = -62_135_596_800;
const MAX_UNIX_SECONDS: i64 = 253_402_300_799;

fn literal(l: &LiteralValue) -> Type {
    match l {
        LiteralValue::Boolean(_) => Type::Bool,
        LiteralValue::Bytes(_) => Type::Bytes,
        LiteralValue::Double(_) => Type::Double,
        LiteralValue::Int(_) => Type::Int,
        LiteralValue::Null => Type::Null,
        LiteralValue::String(_) => Type::String,
        LiteralValue::UInt(_) => Type::Uint,
    }
}

fn unwrap_optional(t: Type) -> Type {
    match t {
        Type::Optional(inner) => *inner,
        other => other,
    }
}

/// The common type of a list's elements (or a map's keys or values): the
/// one type they all have, else `dyn`.
fn join(types: Vec<Type>) -> Type {
    let mut it = types.into_iter().filter(|t| *t != Type::Error);
    let Some(first) = it.next() else {
        return Type::Dyn;
    };
    if it.all(|t| t == first) {
        first
    } else {
        Type::Dyn
    }
}

/// `[]` or `{}`.
fn is_empty_literal(e: &IdedExpr) -> bool {
    match &e.expr {
        Expr::List(l) => l.elements.is_empty(),
        Expr::Map(m) => m.entries.is_empty(),
        _ => false,
    }
}

/// `a.b.c` as a dotted name, when `e` is only identifiers and selects.
fn qualified_name(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(n) => Some(n.clone()),
        Expr::Select(s) if !s.test => Some(format!("{}.{}", qualified_name(&s.operand)?, s.field)),
        _ => None,
    }
}

/// Whether `s` is a Go duration (`time.ParseDuration`): `-1h2m3.5s`, `0`.
fn is_go_duration(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number = &rest[..digits];
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return false;
        }
        rest = &rest[digits..];
        let unit = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .into_iter()
            .find(|u| rest.starts_with(u) && !(*u == "m" && rest.starts_with("ms")));
        match unit {
            Some(u) => rest = &rest[u.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `s` is an RFC 3339 timestamp with a valid date and time.
fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
            .then(|| s[r].parse::<u32>().unwrap_or(0))
    };
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    ) else {
        return false;
    };
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't'))
        || b.get(13) != Some(&b':')
        || b.get(16) != Some(&b':')
    {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month)
        || day == 0
        || day > days[month as usize - 1]
        || hour > 23
        || minute > 59
        || second > 59
    {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(frac.len());
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest {
        "Z" | "z" => true,
        zone => {
            let z = zone.as_bytes();
            z.len() == 6
                && matches!(z[0], b'+' | b'-')
                && z[3] == b':'
                && zone[1..3].parse::<u32>().is_ok_and(|h| h < 24)
                && zone[4..6].parse::<u32>().is_ok_and(|m| m < 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_literals_are_homogeneous_except_in_format() {
        let check = |source: &str| {
            let dyn_value = ("d", Type::Dyn);
            crate::check(source, &[dyn_value]).map_err(|e| e.lines().next().unwrap().to_string())
        };
        assert_eq!(
            check("[1, 'a'] == []").unwrap_err(),
            "ERROR: <input>:1:5: expected type 'int' but found 'string'"
        );
        assert_eq!(
            check("[1, d].size() == 2").unwrap_err(),
            "ERROR: <input>:1:5: expected type 'int' but found 'dyn'"
        );
        assert_eq!(
            check("{'a': 1, 'b': true}.size() == 2").unwrap_err(),
            "ERROR: <input>:1:15: expected type 'int' but found 'bool'"
        );
        for ok in [
            "'%d %s'.format([1, 'a']) == ''",
            "['a', ?optional.none(), 'c'].size() == 2",
            "[[1], [2]].size() == 2",
            "{'a': [1], 'b': []}.size() == 2",
        ] {
            assert_eq!(check(ok), Ok(Type::Bool), "{ok}");
        }
    }

    #[test]
    fn go_durations_and_rfc3339_timestamps() {
        for ok in ["1h", "1h2m3s4ms", "-1.5h", "0", "300ms", "2us", "1µs"] {
            assert!(is_go_duration(ok), "{ok}");
        }
        for bad in ["1", "", "h", "1x", "1..2s", "-"] {
            assert!(!is_go_duration(bad), "{bad}");
        }
        for ok in [
            "2011-08-18T19:03:37Z",
            "2011-08-18T19:03:37.01+01:00",
            "2000-02-29T00:00:00Z",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "1000-00-00T00:00:00Z",
            "2001-02-29T00:00:00Z",
            "2011-08-18 19:03:37Z",
            "x",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
}
