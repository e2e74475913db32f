//! cel-go's sets extension (`ext.Sets()`, `ext/sets.go`), which the
//! apiserver's base environment has since Kubernetes 1.29:
//! `sets.contains(<list>, <list>)`, `sets.equivalent(<list>, <list>)` and
//! `sets.intersects(<list>, <list>)`.
//!
//! Elements are compared with CEL's equality (`1`, `1u` and `1.0` are the
//! same element). cel-go's checker also requires both lists to have the
//! same element type; values here carry no static type, so lists of
//! different types are simply compared (and nothing in them is equal).

use super::elements;
use ::cel::common::types::{CelBool, LIST_TYPE};
use ::cel::common::value::{CowVal, Val};
use ::cel::{DeclarationError, Env, ExecutionError};

/// Declares the library's functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    // By hand rather than with the `cel` macros, which would downcast the
    // arguments to `CelList`s: these take any `list`.
    env.add_overload(
        "sets.contains",
        "sets_contains_list_list",
        vec![LIST_TYPE, LIST_TYPE],
        contains,
    )?;
    env.add_overload(
        "sets.equivalent",
        "sets_equivalent_list_list",
        vec![LIST_TYPE, LIST_TYPE],
        equivalent,
    )?;
    env.add_overload(
        "sets.intersects",
        "sets_intersects_list_list",
        vec![LIST_TYPE, LIST_TYPE],
        intersects,
    )?;
    Ok(())
}

/// The two lists of a call.
fn pair<'b, 'v>(
    args: Vec<CowVal<'b, 'v>>,
) -> Result<(CowVal<'b, 'v>, CowVal<'b, 'v>), ExecutionError> {
    let [a, b] = super::take(args)?;
    Ok((a, b))
}

/// Whether every element of `sub` equals an element of `list` (as cel-go's
/// `list.Contains`, each element of `list` compared to it).
fn contains_all(list: &[&dyn Val], sub: &[&dyn Val]) -> bool {
    sub.iter()
        .all(|wanted| list.iter().any(|item| item.equals(*wanted)))
}

/// `sets.contains(list, sublist)`: whether `list` has every element of
/// `sublist` (always, for an empty `sublist`).
fn contains<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let (list, sub) = pair(args)?;
    let (list, sub) = (elements(list.as_ref())?, elements(sub.as_ref())?);
    Ok(CowVal::owned(CelBool::from(contains_all(&list, &sub))))
}

/// `sets.equivalent(a, b)`: whether each list has every element of the
/// other, whatever their sizes.
fn equivalent<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let (a, b) = pair(args)?;
    let (a, b) = (elements(a.as_ref())?, elements(b.as_ref())?);
    Ok(CowVal::owned(CelBool::from(
        contains_all(&a, &b) && contains_all(&b, &a),
    )))
}

/// `sets.intersects(a, b)`: whether an element of `a` equals one of `b`.
fn intersects<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let (a, b) = pair(args)?;
    let (a, b) = (elements(a.as_ref())?, elements(b.as_ref())?);
    let found = a
        .iter()
        .any(|wanted| b.iter().any(|item| item.equals(*wanted)));
    Ok(CowVal::owned(CelBool::from(found)))
}

#[cfg(test)]
mod tests {
    use ::cel::ExecutionError;

    use super::super::testing::eval;

    use super::super::testing::assert_true;

    /// cel-go's `ext/sets_test.go` (`TestSets`, without its costs), the
    /// variable `x` spelled out.
    #[test]
    fn cel_go_sets_test() {
        for rule in [
            // set containment
            "sets.contains([5, 4, 3, 2, 1], [1, 2, 3])",
            "sets.contains([5, 4, 3, 2, 1], [1, 1, 1, 1, 1])",
            "sets.contains([], [])",
            "sets.contains([1], [])",
            "sets.contains([1], [1])",
            "sets.contains([1], [1, 1])",
            "sets.contains([1, 1], [1])",
            "sets.contains([2, 1], [1])",
            "sets.contains([1, 2, 3, 4], [2, 3])",
            "sets.contains([1], [1.0, 1])",
            "sets.contains([1, 2], [2u, 2.0])",
            "sets.contains([1, 2u], [2, 2.0])",
            "sets.contains([1, 2.0, 3u], [1.0, 2u, 3])",
            "sets.contains([[1], [2, 3]], [[2, 3.0]])",
            "!sets.contains([1], [2])",
            "!sets.contains([1], [1, 2])",
            "!sets.contains([1], [\"1\", 1])",
            "!sets.contains([1], [1.1, 1u])",
            // set equivalence
            "sets.equivalent([], [])",
            "sets.equivalent([1], [1])",
            "sets.equivalent([1], [1, 1])",
            "sets.equivalent([1, 1], [1])",
            "sets.equivalent([1], [1u, 1.0])",
            "sets.equivalent([1], [1u, 1.0])",
            "sets.equivalent([1, 2, 3], [3u, 2.0, 1])",
            "sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])",
            "!sets.equivalent([2, 1], [1])",
            "!sets.equivalent([1], [1, 2])",
            "!sets.equivalent([1, 2], [2u, 2, 2.0])",
            "!sets.equivalent([1, 2], [1u, 2, 2.3])",
            // set intersection
            "sets.intersects([1], [1])",
            "sets.intersects([1], [1, 1])",
            "sets.intersects([1, 1], [1])",
            "sets.intersects([2, 1], [1])",
            "sets.intersects([1], [1, 2])",
            "sets.intersects([1], [1.0, 2])",
            "sets.intersects([1, 2], [2u, 2, 2.0])",
            "sets.intersects([1, 2], [1u, 2, 2.3])",
            "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])",
            "!sets.intersects([], [])",
            "!sets.intersects([1], [])",
            "!sets.intersects([1], [2])",
            "!sets.intersects([1], [\"1\", 2])",
            "!sets.intersects([1], [1.1, 2u])",
        ] {
            assert_true(rule);
        }
    }

    /// The examples of `ext/sets.go`'s documentation.
    #[test]
    fn documented_examples() {
        for rule in [
            "!sets.contains([], [1])",
            "sets.contains([1, 2, 3, 4], [2, 3])",
            "sets.contains([1, 2.0, 3u], [1.0, 2u, 3])",
            "sets.equivalent([1], [1, 1])",
            "sets.equivalent([1, 2, 3], [3u, 2.0, 1])",
            "!sets.intersects([1], [])",
            "sets.intersects([1], [1, 2])",
            "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])",
        ] {
            assert_true(rule);
        }
    }

    #[test]
    fn only_lists() {
        assert!(matches!(
            eval("sets.contains({'a': 1}, ['a'])"),
            Err(ExecutionError::NoSuchOverload(_))
        ));
        assert!(matches!(
            eval("sets.intersects([1], 1)"),
            Err(ExecutionError::NoSuchOverload(_))
        ));
    }
}
