//! Calls whose result depends on a static type the `cel` crate's values do
//! not carry, rewritten when a rule is compiled from what the checker
//! found:
//!
//! - `<list(duration)>.sum()` of an empty list is `duration('0s')` in
//!   cel-go, where the `cel` crate gives `0` (an empty list has no element
//!   type at run time): the sum becomes `@durationOrZero(...)`;
//! - `string(<timestamp>)` is Go's RFC 3339 with nanoseconds, in the
//!   timestamp's own offset, trailing zeros of the fraction dropped
//!   (`...37.01+01:00`), where the `cel` crate keeps them: it becomes
//!   `@timestampString(...)`.

use ::cel::common::ast::{Expr, IdedExpr};
use ::cel::common::types::{CelDuration, CelInt, CelString, CelTimestamp, DYN_TYPE};
use ::cel::common::value::CowVal;
use ::cel::{DeclarationError, Env, ExecutionError};

use api_cel::{Checked, Type};

const DURATION_OR_ZERO: &str = "@durationOrZero";
const TIMESTAMP_STRING: &str = "@timestampString";

/// Rewrites the calls of `expr` the module describes; returns whether
/// anything was rewritten.
pub(crate) fn rewrite(expr: &mut IdedExpr, checked: &Checked) -> bool {
    let mut changed = false;
    visit(expr, checked, &mut changed);
    changed
}

fn visit(e: &mut IdedExpr, checked: &Checked, changed: &mut bool) {
    api_cel::ast::for_each_child_mut(e, |child| visit(child, checked, changed));
    let Expr::Call(c) = &mut e.expr else {
        return;
    };
    let wrap = match (c.func_name.as_str(), c.target.is_some(), c.args.len()) {
        ("sum", true, 0) if *checked.type_of(e.id) == Type::Duration => DURATION_OR_ZERO,
        ("string", false, 1) if *checked.type_of(c.args[0].id) == Type::Timestamp => {
            TIMESTAMP_STRING
        }
        _ => return,
    };
    *changed = true;
    if wrap == TIMESTAMP_STRING {
        c.func_name = wrap.to_string();
    } else {
        let inner = std::mem::take(&mut e.expr);
        e.expr = Expr::Call(::cel::common::ast::CallExpr {
            func_name: wrap.to_string(),
            target: None,
            args: vec![IdedExpr {
                id: e.id,
                expr: inner,
            }],
        });
    }
}

/// Declares the rewritten calls' functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_overload(
        DURATION_OR_ZERO,
        "duration_or_zero",
        vec![DYN_TYPE],
        duration_or_zero,
    )?;
    env.add_overload(
        TIMESTAMP_STRING,
        "timestamp_string",
        vec![DYN_TYPE],
        timestamp_string,
    )?;
    Ok(())
}

/// The sum of an empty list of durations (`0`) as a duration.
fn duration_or_zero<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [v] = super::lib::take(args)?;
    if v.downcast_ref::<CelInt>().is_some_and(|i| *i.inner() == 0) {
        return Ok(CowVal::owned(CelDuration::from(chrono::Duration::zero())));
    }
    Ok(v)
}

/// `string(timestamp)` as cel-go prints it (Go's `time.RFC3339Nano`).
fn timestamp_string<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [v] = super::lib::take(args)?;
    let Some(t) = v.downcast_ref::<CelTimestamp>() else {
        return Err(ExecutionError::no_such_overload("string", Vec::new()));
    };
    Ok(CowVal::owned(CelString::from(rfc3339_nano(t.inner()))))
}

fn rfc3339_nano(t: &chrono::DateTime<chrono::FixedOffset>) -> String {
    let mut out = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    // (A leap second's nanoseconds run past 10^9.)
    let nanos = chrono::Timelike::nanosecond(t) % 1_000_000_000;
    if nanos != 0 {
        let fraction = format!("{nanos:09}");
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    if t.offset().local_minus_utc() == 0 {
        out.push('Z');
    } else {
        out.push_str(&t.format("%:z").to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rfc3339_nano;

    #[test]
    fn timestamps_print_as_go_s_rfc3339_nano() {
        for (input, want) in [
            (
                "2011-08-18T19:03:37.010000000+01:00",
                "2011-08-18T19:03:37.01+01:00",
            ),
            ("2011-08-18T19:03:37.5-05:30", "2011-08-18T19:03:37.5-05:30"),
            ("2011-08-18T19:03:37+00:00", "2011-08-18T19:03:37Z"),
            ("2011-08-18T19:03:37Z", "2011-08-18T19:03:37Z"),
            (
                "0001-01-01T00:00:00.000000001Z",
                "0001-01-01T00:00:00.000000001Z",
            ),
        ] {
            let t = chrono::DateTime::parse_from_rfc3339(input).unwrap();
            assert_eq!(rfc3339_nano(&t), want, "{input}");
        }
    }
}
