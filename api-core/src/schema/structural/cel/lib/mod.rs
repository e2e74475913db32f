//! Kubernetes' CEL libraries (k8s.io/apiserver `pkg/cel/library`, and the
//! cel-go extensions the apiserver's base environment adds), on the `cel`
//! crate: each module declares its functions' overloads on an [`Env`].

use ::cel::{DeclarationError, Env};

/// Implements `Val` (and `StaticVal`) for a library's value type `$t`,
/// whose values all have the CEL type `$ty` and are equal when `$eq` holds
/// of `a` (this value) and `b` (the other).
macro_rules! library_value {
    ($t:ty, $ty:expr, |$a:ident, $b:ident| $eq:expr) => {
        impl ::cel::common::value::Val for $t {
            fn get_type(&self) -> &::cel::common::types::Type {
                &$ty
            }

            fn cel_type() -> &'static ::cel::common::types::Type {
                &$ty
            }

            fn equals(&self, other: &dyn ::cel::common::value::Val) -> bool {
                let $a = self;
                other.downcast_ref::<$t>().is_some_and(|$b| $eq)
            }

            fn clone_as_boxed<'v>(&self) -> Box<dyn ::cel::common::value::Val + 'v>
            where
                Self: 'v,
            {
                Box::new(self.clone())
            }

            fn as_any(&self) -> Option<&dyn std::any::Any> {
                Some(self)
            }
        }

        impl ::cel::common::value::StaticVal for $t {}
    };
}
use library_value;

mod cidr;
mod comprehensions;
mod format;
mod ip;
mod lists;
mod quantity;
pub(super) mod regex;
mod semver;
mod sets;
mod urls;

/// `args` as the `N` arguments of an overload (the wrong count is an
/// error).
pub(in crate::schema::structural::cel) fn take<'b, 'v, const N: usize>(
    args: Vec<::cel::common::value::CowVal<'b, 'v>>,
) -> Result<[::cel::common::value::CowVal<'b, 'v>; N], ::cel::ExecutionError> {
    args.try_into()
        .map_err(|args: Vec<_>| ::cel::ExecutionError::invalid_argument_count(N, args.len()))
}

/// The elements of any `list` value (not only the `cel` crate's own lists).
pub(super) fn elements<'a, 'v>(
    list: &'a (dyn ::cel::common::value::Val + 'v),
) -> Result<Vec<&'a (dyn ::cel::common::value::Val + 'v)>, ::cel::ExecutionError> {
    let iterable = list
        .as_iterable()
        .ok_or_else(|| ::cel::ExecutionError::UnexpectedType {
            got: list.get_type().name().to_owned(),
            want: "list".to_owned(),
        })?;
    let mut items = iterable.iter();
    let mut out = Vec::new();
    while let Some(item) = items.next() {
        out.push(item);
    }
    Ok(out)
}

/// Declares every library on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    comprehensions::register(env)?;
    urls::register(env)?;
    regex::register(env)?;
    lists::register(env)?;
    sets::register(env)?;
    semver::register(env)?;
    quantity::register(env)?;
    ip::register(env)?;
    cidr::register(env)?;
    format::register(env)?;
    Ok(())
}

/// What the libraries' tests share: evaluating an expression in the rules'
/// environment.
#[cfg(test)]
mod testing {
    use ::cel::{Context, ExecutionError, Value};

    /// `expr` evaluated in the rules' environment (without variables); an
    /// expression that does not compile fails the test.
    pub(super) fn eval(expr: &str) -> Result<Value, ExecutionError> {
        let program = super::super::ENV
            .compile(expr)
            .unwrap_or_else(|e| panic!("{expr}: {e}"));
        program.execute(&Context::with_env(super::super::ENV.clone()))
    }

    /// The message of the function error `expr` fails with (any other
    /// outcome fails the test).
    pub(super) fn function_error(expr: &str) -> String {
        match eval(expr) {
            Err(ExecutionError::FunctionError { message, .. }) => message,
            other => panic!("{expr}: expected a function error, got {other:?}"),
        }
    }

    /// Asserts that `expr` is true.
    pub(super) fn assert_true(expr: &str) {
        assert_eq!(eval(expr), Ok(Value::Bool(true)), "{expr}");
    }
}
