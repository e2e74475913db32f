//! The `quantity` library: k8s.io/apiserver's `pkg/cel/library/quantity.go`,
//! with the `kubernetes.Quantity` type of `pkg/cel/quantity.go`.
//!
//! | function | overload id |
//! |---|---|
//! | `quantity(string) -> Quantity` | `string_to_quantity` |
//! | `isQuantity(string) -> bool` | `is_quantity_string` |
//! | `sign(Quantity) -> int` | `quantity_sign` |
//! | `<Quantity>.isGreaterThan(Quantity) -> bool` | `quantity_is_greater_than` |
//! | `<Quantity>.isLessThan(Quantity) -> bool` | `quantity_is_less_than` |
//! | `<Quantity>.compareTo(Quantity) -> int` | `quantity_compare_to` |
//! | `<Quantity>.asApproximateFloat() -> double` | `quantity_get_float` |
//! | `<Quantity>.asInteger() -> int` | `quantity_get_int` |
//! | `<Quantity>.isInteger() -> bool` | `quantity_is_integer` |
//! | `<Quantity>.add(Quantity) -> Quantity` | `quantity_add` |
//! | `<Quantity>.add(int) -> Quantity` | `quantity_add_int` |
//! | `<Quantity>.sub(Quantity) -> Quantity` | `quantity_sub` |
//! | `<Quantity>.sub(int) -> Quantity` | `quantity_sub_int` |
//!
//! `sign` is a global function, as upstream declares it (its
//! documentation's `<Quantity>.sign()` does not compile there either).
//! Quantities are [`crate::meta::Quantity`]s: they parse, compare and add
//! as apimachinery's `resource.Quantity`, with two differences that show
//! here:
//!
//! - `isInteger()` and `asInteger()` go by the value: `quantity('1000m')`
//!   is the integer 1, where Go's `AsInt64` refuses an amount it keeps in
//!   thousandths;
//! - values hold at most 38 significant digits: parsing more is an error
//!   (Go parses them), and so is a sum or difference that needs more.

use std::cmp::Ordering;

use ::cel::common::types::{CelBool, CelDouble, CelInt, CelString, Kind, Type};
use ::cel::{DeclarationError, Env, ExecutionError};

use crate::meta::{Quantity, QuantityFormat, QuantityParseError};

/// `kubernetes.Quantity`: an object type, as cel-go's
/// `cel.ObjectType("kubernetes.Quantity")`.
static QUANTITY_TYPE: Type = Type::simple_type(Kind::Struct, "kubernetes.Quantity");

/// A `kubernetes.Quantity` value (apiserver's `cel.Quantity`). Equality is
/// by value, whatever the format: `quantity('1Gi') == quantity('1024Mi')`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CelQuantity(Quantity);

super::library_value!(CelQuantity, QUANTITY_TYPE, |a, b| a == b);

/// Declares the library's functions, and its type `kubernetes.Quantity`,
/// on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(QUANTITY_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn quantity: (CelString<'_>) -> Result<CelQuantity>,
        id = "string_to_quantity")?;
    ::cel::add_overload!(env, fn is_quantity: (CelString<'_>) -> CelBool,
        id = "is_quantity_string")?;
    ::cel::add_overload!(env, fn sign: (CelQuantity) -> CelInt, id = "quantity_sign")?;
    ::cel::add_member_overload!(env, fn is_greater_than: (CelQuantity, CelQuantity) -> CelBool,
        id = "quantity_is_greater_than")?;
    ::cel::add_member_overload!(env, fn is_less_than: (CelQuantity, CelQuantity) -> CelBool,
        id = "quantity_is_less_than")?;
    ::cel::add_member_overload!(env, fn compare_to: (CelQuantity, CelQuantity) -> CelInt,
        id = "quantity_compare_to")?;
    ::cel::add_member_overload!(env, fn as_approximate_float: (CelQuantity) -> CelDouble,
        id = "quantity_get_float")?;
    ::cel::add_member_overload!(env, fn as_integer: (CelQuantity) -> Result<CelInt>,
        id = "quantity_get_int")?;
    ::cel::add_member_overload!(env, fn is_integer: (CelQuantity) -> CelBool,
        id = "quantity_is_integer")?;
    ::cel::add_member_overload!(env, fn add: (CelQuantity, CelQuantity) -> Result<CelQuantity>,
        id = "quantity_add")?;
    ::cel::add_member_overload!(env, fn add_int: (CelQuantity, CelInt) -> Result<CelQuantity>,
        name = "add", id = "quantity_add_int")?;
    ::cel::add_member_overload!(env, fn sub: (CelQuantity, CelQuantity) -> Result<CelQuantity>,
        id = "quantity_sub")?;
    ::cel::add_member_overload!(env, fn sub_int: (CelQuantity, CelInt) -> Result<CelQuantity>,
        name = "sub", id = "quantity_sub_int")?;
    Ok(())
}

/// apimachinery's error text: the crate's message without the input it
/// quotes after the reason (`ErrFormatWrong`, `ErrSuffix`, `ErrNumeric`
/// name no input).
fn parse_error_text(e: &QuantityParseError) -> String {
    let full = e.to_string();
    let input = e.input();
    let shown: String = input.chars().take(64).collect();
    let more = if input.chars().count() > 64 {
        "..."
    } else {
        ""
    };
    let quoted = format!(": {shown:?}{more}");
    match full.strip_suffix(&quoted) {
        Some(reason) => reason.to_string(),
        None => full,
    }
}

fn quantity(s: &CelString<'_>) -> Result<CelQuantity, ExecutionError> {
    Quantity::parse(s)
        .map(CelQuantity)
        .map_err(|e| ExecutionError::function_error("quantity", parse_error_text(&e)))
}

fn is_quantity(s: &CelString<'_>) -> CelBool {
    Quantity::parse(s).is_ok().into()
}

fn sign(q: &CelQuantity) -> CelInt {
    i64::from(q.0.sign()).into()
}

fn is_greater_than(q: &CelQuantity, other: &CelQuantity) -> CelBool {
    (q.0 > other.0).into()
}

fn is_less_than(q: &CelQuantity, other: &CelQuantity) -> CelBool {
    (q.0 < other.0).into()
}

fn compare_to(q: &CelQuantity, other: &CelQuantity) -> CelInt {
    match q.0.cmp(&other.0) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
    .into()
}

/// The nearest `f64` (±infinity beyond its range, as Go's
/// `AsApproximateFloat64`).
fn as_approximate_float(q: &CelQuantity) -> CelDouble {
    // In `DecimalExponent` the canonical form is `<digits>[e<exponent>]`,
    // which Rust reads as a number, correctly rounded.
    let text = q.0.with_format(QuantityFormat::DecimalExponent).to_string();
    text.parse::<f64>().unwrap_or(f64::NAN).into()
}

fn as_integer(q: &CelQuantity) -> Result<CelInt, ExecutionError> {
    q.0.as_i64().map(CelInt::from).ok_or_else(|| {
        ExecutionError::function_error("asInteger", "cannot convert value to integer")
    })
}

fn is_integer(q: &CelQuantity) -> CelBool {
    q.0.as_i64().is_some().into()
}

/// The error of a sum or difference too precise for a [`Quantity`] (Go's
/// arbitrary precision has no such error).
fn overflow(function: &str) -> ExecutionError {
    ExecutionError::function_error(
        function,
        "quantity overflow: the result needs more than 38 significant digits",
    )
}

fn add(q: &CelQuantity, other: &CelQuantity) -> Result<CelQuantity, ExecutionError> {
    q.0.checked_add(other.0)
        .map(CelQuantity)
        .ok_or_else(|| overflow("add"))
}

/// `add(int)`: the integer as Go's `NewQuantity(i, DecimalExponent)`.
fn add_int(q: &CelQuantity, i: &CelInt) -> Result<CelQuantity, ExecutionError> {
    add(
        q,
        &CelQuantity(Quantity::new(*i.inner(), QuantityFormat::DecimalExponent)),
    )
}

fn sub(q: &CelQuantity, other: &CelQuantity) -> Result<CelQuantity, ExecutionError> {
    q.0.checked_sub(other.0)
        .map(CelQuantity)
        .ok_or_else(|| overflow("sub"))
}

fn sub_int(q: &CelQuantity, i: &CelInt) -> Result<CelQuantity, ExecutionError> {
    sub(
        q,
        &CelQuantity(Quantity::new(*i.inner(), QuantityFormat::DecimalExponent)),
    )
}

#[cfg(test)]
mod tests {
    //! The cases of k8s.io/apiserver `pkg/cel/library/quantity_test.go`
    //! (`TestQuantity`), plus the limits of this crate's `Quantity`.

    use ::cel::{ExecutionError, Value};

    use super::super::testing::eval;

    fn is(expr: &str, want: Value) {
        assert_eq!(eval(expr), Ok(want), "{expr}");
    }

    use super::super::testing::function_error as error;

    #[test]
    fn upstream_quantity_test_table() {
        // "parse": a quantity has no plain value; compare it.
        is(
            r#"quantity("12Mi") == quantity("12582912")"#,
            Value::Bool(true),
        );
        assert!(
            error(r#"quantity("10Mo")"#)
                .starts_with("quantities must match the regular expression")
        );
        assert_eq!(
            error(r#"quantity("10Mm")"#),
            "unable to parse quantity's suffix"
        );
        is(r#"isQuantity("20")"#, Value::Bool(true));
        is(r#"isQuantity("20M")"#, Value::Bool(true));
        is(r#"isQuantity("20Mi")"#, Value::Bool(true));
        is(r#"isQuantity("20Mo")"#, Value::Bool(false));
        is(r#"isQuantity("10Mm")"#, Value::Bool(false));
        // "isQuantity_noOverload" is a compile error upstream.
        assert!(matches!(
            eval("isQuantity([1, 2, 3])"),
            Err(ExecutionError::NoSuchOverload(_))
        ));
        is(r#"quantity("200M") == quantity("200M")"#, Value::Bool(true));
        is(
            r#"quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("200M") == quantity("0.3G")"#,
            Value::Bool(false),
        );
        is(
            r#"quantity("50M").isLessThan(quantity("50Mi"))"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50M").isLessThan(quantity("100M"))"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("100M").isLessThan(quantity("50M"))"#,
            Value::Bool(false),
        );
        is(
            r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("150Mi").isGreaterThan(quantity("100Mi"))"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50M").isGreaterThan(quantity("100M"))"#,
            Value::Bool(false),
        );
        is(
            r#"quantity("200M").compareTo(quantity("0.2G"))"#,
            Value::Int(0),
        );
        is(
            r#"quantity("50M").compareTo(quantity("50Mi"))"#,
            Value::Int(-1),
        );
        is(
            r#"quantity("50Mi").compareTo(quantity("50M"))"#,
            Value::Int(1),
        );
        is(
            r#"quantity("50k").add(quantity("20")) == quantity("50.02k")"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50k").add(20).isLessThan(quantity("50020"))"#,
            Value::Bool(false),
        );
        is(
            r#"quantity("50k").sub(quantity("20")) == quantity("49.98k")"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50k").sub(20) == quantity("49980")"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50k").add(20).sub(quantity("100k")).asInteger()"#,
            Value::Int(-49980),
        );
        is(
            r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()"#,
            Value::Int(20),
        );
        is(r#"quantity("50k").asInteger()"#, Value::Int(50000));
        assert_eq!(
            error(r#"quantity("9999999999999999999999999999999999999G").asInteger()"#),
            "cannot convert value to integer"
        );
        is(
            r#"quantity("9999999999999999999999999999999999999G").isInteger()"#,
            Value::Bool(false),
        );
        is(r#"quantity("50").isInteger()"#, Value::Bool(true));
        is(
            r#"quantity("50.703k").asApproximateFloat()"#,
            Value::Float(50703.0),
        );
        is(
            r#"[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)"#,
            Value::Bool(true),
        );
    }

    #[test]
    fn documented_examples() {
        // The examples of quantity.go's documentation.
        // `K` passes the regular expression, and is no suffix.
        assert_eq!(
            error(r#"quantity("200K")"#),
            "unable to parse quantity's suffix"
        );
        assert_eq!(
            error(r#"quantity("Three")"#),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
        is(r#"isQuantity("1,3G")"#, Value::Bool(false));
        // The documentation says `isQuantity('Mi')` is false, but Go's
        // `ParseQuantity` reads a number without digits as zero.
        is(r#"quantity("Mi") == quantity("0")"#, Value::Bool(true));
        is(
            r#"isQuantity("1.3Gi") && isQuantity("10000k")"#,
            Value::Bool(true),
        );
        is(r#"quantity("50000000G").isInteger()"#, Value::Bool(true));
        is(
            r#"quantity("50k").sub(20000).asApproximateFloat() == 30000.0"#,
            Value::Bool(true),
        );
        is(
            r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")"#,
            Value::Bool(true),
        );
    }

    #[test]
    fn its_type_is_kubernetes_quantity() {
        is(
            r#"type(quantity("1")) == kubernetes.Quantity"#,
            Value::Bool(true),
        );
        // Equality is by value, and only with quantities.
        is(
            r#"quantity("1Gi") == quantity("1024Mi")"#,
            Value::Bool(true),
        );
        is(r#"quantity("1") == 1"#, Value::Bool(false));
    }

    #[test]
    fn sign_is_a_global_function() {
        is(r#"sign(quantity("-1m"))"#, Value::Int(-1));
        is(r#"sign(quantity("0Gi"))"#, Value::Int(0));
        is(r#"sign(quantity("2"))"#, Value::Int(1));
    }

    #[test]
    fn floats_and_integers_at_the_limits() {
        is(
            r#"quantity("1.5Gi").asApproximateFloat()"#,
            Value::Float(1.5 * 1073741824.0),
        );
        is(
            r#"quantity("-1n").asApproximateFloat()"#,
            Value::Float(-1e-9),
        );
        is(
            r#"quantity("1e4611686018427387903").asApproximateFloat()"#,
            Value::Float(f64::INFINITY),
        );
        is(
            r#"quantity("9223372036854775807").asInteger()"#,
            Value::Int(i64::MAX),
        );
        is(
            r#"quantity("9223372036854775808").isInteger()"#,
            Value::Bool(false),
        );
        is(r#"quantity("0.5").isInteger()"#, Value::Bool(false));
        is(r#"quantity("1000m").asInteger()"#, Value::Int(1));
        is(
            r#"quantity("1k").add(-1000) == quantity("0")"#,
            Value::Bool(true),
        );
    }

    #[test]
    fn a_result_beyond_the_precision_is_an_error_not_a_panic() {
        assert!(error(r#"quantity("1e30").add(quantity("1n"))"#).contains("overflow"));
        assert!(error(r#"quantity("1e30").sub(quantity("1n"))"#).contains("overflow"));
        assert!(error(r#"quantity("1e40").add(1)"#).contains("overflow"));
        assert!(error(r#"quantity("-1e40").sub(1)"#).contains("overflow"));
        let digits = "9".repeat(38);
        is(
            &format!(r#"quantity("{digits}").add(1) == quantity("1e38")"#),
            Value::Bool(true),
        );
    }

    #[test]
    fn the_parse_error_names_no_input() {
        let long = "x".repeat(100);
        assert!(error(&format!(r#"quantity("{long}")"#)).ends_with("[0-9]*)$'"));
        assert!(!error(r#"quantity("1\"Ki")"#).contains('"'));
    }
}
