//! The lists library of k8s.io/apiserver (`pkg/cel/library/lists.go`), at
//! `ListsVersion(1)` as the apiserver's base environment has it since
//! Kubernetes 1.37 (version 0 before): `<list>.isSorted()`, `<list>.sum()`,
//! `<list>.min()`, `<list>.max()`, `<list>.indexOf(<value>)`,
//! `<list>.lastIndexOf(<value>)`, and, from version 1,
//! `<dyn>.includes(<dyn>)`.
//!
//! cel-go picks each function's overload by the list's static element type
//! (`list(int)`, `list(duration)`...); values here carry no static type, so
//! the elements decide:
//!
//! * `isSorted`, `min` and `max` take lists of `int`, `uint`, `double`,
//!   `bool`, `duration`, `timestamp`, `string` or `bytes` elements, and
//!   `sum` lists of `int`, `uint`, `double` or `duration` ones; any other
//!   element is `no such overload` (cel-go rejects such rules when they are
//!   compiled);
//! * `sum()` of an empty list is the int `0`. It equals `0.0` and `0u` as
//!   numbers do, but an empty `list(duration)` sums to `0`, not
//!   `duration('0')` as in cel-go.
//!
//! As in Go, comparisons that fail (a NaN, mixed types) order nothing:
//! `isSorted`, `min` and `max` go on as if the two were in order.
//!
//! The lists extension of cel-go (`slice`, `flatten`, `sort`...) is the `cel`
//! crate's own, none of whose functions this library declares again.

use std::cmp::Ordering;

use super::{elements, take};
use ::cel::common::types::{CelBool, CelInt, DYN_TYPE, Kind, LIST_TYPE};
use ::cel::common::value::{CowVal, Val};
use ::cel::{DeclarationError, Env, ExecutionError};

/// Declares the library's functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    // By hand rather than with the `cel` macros, which would downcast the
    // receiver to a `CelList`: these take any `list`.
    env.add_member_overload(
        "isSorted",
        "list_is_sorted_bool",
        LIST_TYPE,
        vec![],
        is_sorted,
    )?;
    env.add_member_overload("sum", "list_sum", LIST_TYPE, vec![], sum)?;
    env.add_member_overload("min", "list_min", LIST_TYPE, vec![], min)?;
    env.add_member_overload("max", "list_max", LIST_TYPE, vec![], max)?;
    env.add_member_overload(
        "indexOf",
        "list_a_index_of_int",
        LIST_TYPE,
        vec![DYN_TYPE],
        index_of,
    )?;
    env.add_member_overload(
        "lastIndexOf",
        "list_a_last_index_of_int",
        LIST_TYPE,
        vec![DYN_TYPE],
        last_index_of,
    )?;
    env.add_member_overload(
        "includes",
        "list_includes_dyn_dyn",
        DYN_TYPE,
        vec![DYN_TYPE],
        includes,
    )?;
    Ok(())
}

/// The kinds of the elements `isSorted`, `min` and `max` take.
const COMPARABLE: [Kind; 8] = [
    Kind::Int,
    Kind::UInt,
    Kind::Double,
    Kind::Boolean,
    Kind::Duration,
    Kind::Timestamp,
    Kind::String,
    Kind::Bytes,
];

/// The kinds of the elements `sum` takes.
const SUMMABLE: [Kind; 4] = [Kind::Int, Kind::UInt, Kind::Double, Kind::Duration];

/// The elements of `list`, when all are of the `allowed` kinds; `no such
/// overload` for `function` otherwise, naming the list's type as cel-go
/// would (`list(string)`, or `list(dyn)` when the elements differ).
fn typed_elements<'a, 'v>(
    function: &str,
    list: &'a (dyn Val + 'v),
    allowed: &[Kind],
) -> Result<Vec<&'a (dyn Val + 'v)>, ExecutionError> {
    let items = elements(list)?;
    if items
        .iter()
        .all(|item| allowed.contains(&item.get_type().kind()))
    {
        return Ok(items);
    }
    let first = items.first().map_or("dyn", |i| i.get_type().name());
    let element = if items.iter().all(|i| i.get_type().name() == first) {
        first
    } else {
        "dyn"
    };
    Err(ExecutionError::no_such_member_overload(
        function,
        vec![format!("list({element})")],
    ))
}

/// How `a` orders against `b`, when it does.
fn order(a: &dyn Val, b: &dyn Val) -> Option<Ordering> {
    a.as_comparer()?.compare(b).ok()
}

/// `list.isSorted()`: whether no element is greater than the next one.
fn is_sorted<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list] = take(args)?;
    let items = typed_elements("isSorted", list.as_ref(), &COMPARABLE)?;
    let sorted = items
        .windows(2)
        .all(|pair| order(pair[0], pair[1]) != Some(Ordering::Greater));
    Ok(CowVal::owned(CelBool::from(sorted)))
}

/// `list.sum()`: the elements added up, `0` for an empty list.
fn sum<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list] = take(args)?;
    let items = typed_elements("sum", list.as_ref(), &SUMMABLE)?;
    let Some((first, rest)) = items.split_first() else {
        return Ok(CowVal::owned(CelInt::from(0)));
    };
    let mut total: Box<dyn Val + 'v> = first.clone_as_boxed();
    for item in rest {
        let adder = total.as_adder().ok_or_else(|| {
            ExecutionError::no_such_member_overload("sum", vec![total.get_type().name().to_owned()])
        })?;
        let next = adder.add(*item)?.into_owned();
        total = next;
    }
    Ok(CowVal::Owned(total))
}

fn min<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    extreme(args, "min", Ordering::Greater)
}

fn max<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    extreme(args, "max", Ordering::Less)
}

/// The first element that no later one replaces, an element replacing the
/// one kept when the kept one orders `replace` against it.
fn extreme<'b, 'v>(
    args: Vec<CowVal<'b, 'v>>,
    function: &str,
    replace: Ordering,
) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list] = take(args)?;
    let items = typed_elements(function, list.as_ref(), &COMPARABLE)?;
    let mut kept: Option<&dyn Val> = None;
    for item in items {
        kept = match kept {
            Some(k) if order(k, item) != Some(replace) => Some(k),
            _ => Some(item),
        };
    }
    let kept = kept.ok_or_else(|| {
        ExecutionError::function_error(function, format!("{function} called on empty list"))
    })?;
    Ok(CowVal::Owned(kept.clone_as_boxed()))
}

/// `list.indexOf(value)`: the first index of an element equal to `value`,
/// or `-1`.
fn index_of<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list, value] = take(args)?;
    let items = elements(list.as_ref())?;
    let index = items.iter().position(|item| item.equals(value.as_ref()));
    Ok(CowVal::owned(position(index)))
}

/// `list.lastIndexOf(value)`: the last index of an element equal to
/// `value`, or `-1`.
fn last_index_of<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [list, value] = take(args)?;
    let items = elements(list.as_ref())?;
    let index = items.iter().rposition(|item| item.equals(value.as_ref()));
    Ok(CowVal::owned(position(index)))
}

fn position(index: Option<usize>) -> CelInt {
    CelInt::from(index.map_or(-1, |i| i64::try_from(i).unwrap_or(i64::MAX)))
}

/// `target.includes(value)`: whether the list `target` has an element
/// equal to `value`, or, for any other `target`, whether it equals `value`.
fn includes<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [target, value] = take(args)?;
    let found = if target.get_type().kind() == Kind::List {
        elements(target.as_ref())?
            .iter()
            .any(|item| item.equals(value.as_ref()))
    } else {
        target.equals(value.as_ref())
    };
    Ok(CowVal::owned(CelBool::from(found)))
}

#[cfg(test)]
mod tests {
    use ::cel::{ExecutionError, Value};

    use super::super::testing::eval;

    use super::super::testing::assert_true;

    /// The examples of `lists.go`'s documentation.
    #[test]
    fn documented_examples() {
        for rule in [
            "[1, 2, 3].isSorted()",
            "['a', 'b', 'b', 'c'].isSorted()",
            "[2.0, 1.0].isSorted() == false",
            "[1].isSorted()",
            "[].isSorted()",
            "[1, 3].sum() == 4",
            "[1.0, 3.0].sum() == 4.0",
            "[duration('1m'), duration('1s')].sum() == duration('1m1s')",
            "[].sum() == 0",
            "[1, 3].min() == 1",
            "[1, 3].max() == 3",
            "[1].min() == 1",
            "([0] + []).min() == 0",
            "[1, 2, 2, 3].indexOf(2) == 1",
            "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
            "[1.0].indexOf(1.1) == -1",
            "[].indexOf('string') == -1",
            "[1, 2, 3].includes(2)",
            "[1, 2, 3].includes(4) == false",
            "'model-a'.includes('model-a')",
            "'model-a'.includes('model-b') == false",
        ] {
            assert_true(rule);
        }
        assert_eq!(
            eval("[].min()"),
            Err(ExecutionError::function_error(
                "min",
                "min called on empty list"
            ))
        );
    }

    /// The "stdlib list functions" and "cost for extended lib calculated
    /// correctly: isSorted" cases of apiextensions-apiserver's
    /// `TestValidationExpressions`
    /// (`pkg/apiserver/schema/cel/validation_test.go`), with the object's
    /// lists spelled out.
    #[test]
    fn validation_expressions() {
        let fields = [
            ("ints", "[1, 2, 2, 3]"),
            ("unsortedInts", "[2, 1]"),
            ("emptyInts", "[]"),
            ("doubles", "[1.0, 2.0, 2.0, 3.0]"),
            ("unsortedDoubles", "[2.0, 1.0]"),
            ("emptyDoubles", "[]"),
            ("intBackedDoubles", "[1.0, 2.0, 2.0, 3.0]"),
            ("unsortedIntBackedDDoubles", "[2.0, 1.0]"),
            ("emptyIntBackedDDoubles", "[]"),
            (
                "durations",
                "[duration('1s'), duration('1m'), duration('1m'), duration('1h')]",
            ),
            ("unsortedDurations", "[duration('1m'), duration('1s')]"),
            ("emptyDurations", "[]"),
            ("strings", "['a', 'b', 'b', 'c']"),
            ("unsortedStrings", "['b', 'a']"),
            ("emptyStrings", "[]"),
            (
                "dates",
                "[timestamp('2000-01-01T00:00:00Z'), timestamp('2000-02-01T00:00:00Z'), \
                 timestamp('2000-02-01T00:00:00Z'), timestamp('2010-01-01T00:00:00Z')]",
            ),
            (
                "unsortedDates",
                "[timestamp('2000-02-01T00:00:00Z'), timestamp('2000-01-01T00:00:00Z')]",
            ),
            ("emptyDates", "[]"),
            (
                "objs",
                "[{'f1': 'a', 'f2': 'a'}, {'f1': 'a', 'f2': 'b'}, {'f1': 'a', 'f2': 'b'}, \
                 {'f1': 'a', 'f2': 'c'}]",
            ),
        ];
        let spell = |rule: &str| {
            let mut rule = rule.to_owned();
            // Longest names first: `emptyInts` before `ints`.
            let mut by_length = fields;
            by_length.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
            for (name, value) in by_length {
                rule = rule.replace(&format!("self.{name}"), &format!("({value})"));
            }
            rule
        };
        for rule in [
            "self.ints.sum() == 8",
            "self.ints.min() == 1",
            "self.ints.max() == 3",
            "self.emptyInts.sum() == 0",
            "self.ints.isSorted()",
            "self.emptyInts.isSorted()",
            "self.unsortedInts.isSorted() == false",
            "self.ints.indexOf(2) == 1",
            "self.ints.lastIndexOf(2) == 2",
            "self.ints.indexOf(10) == -1",
            "self.ints.lastIndexOf(10) == -1",
            "self.doubles.sum() == 8.0",
            "self.doubles.min() == 1.0",
            "self.doubles.max() == 3.0",
            "self.emptyDoubles.sum() == 0.0",
            "self.doubles.isSorted()",
            "self.emptyDoubles.isSorted()",
            "self.unsortedDoubles.isSorted() == false",
            "self.doubles.indexOf(2.0) == 1",
            "self.doubles.lastIndexOf(2.0) == 2",
            "self.doubles.indexOf(10.0) == -1",
            "self.doubles.lastIndexOf(10.0) == -1",
            "self.intBackedDoubles.sum() == 8.0",
            "self.intBackedDoubles.min() == 1.0",
            "self.intBackedDoubles.max() == 3.0",
            "self.emptyIntBackedDDoubles.sum() == 0.0",
            "self.intBackedDoubles.isSorted()",
            "self.unsortedIntBackedDDoubles.isSorted() == false",
            "self.intBackedDoubles.indexOf(2.0) == 1",
            "self.intBackedDoubles.lastIndexOf(2.0) == 2",
            "self.intBackedDoubles.indexOf(10.0) == -1",
            "self.intBackedDoubles.lastIndexOf(10.0) == -1",
            "self.durations.sum() == duration('1h2m1s')",
            "self.durations.min() == duration('1s')",
            "self.durations.max() == duration('1h')",
            "self.durations.isSorted()",
            "self.emptyDurations.isSorted()",
            "self.unsortedDurations.isSorted() == false",
            "self.durations.indexOf(duration('1m')) == 1",
            "self.durations.lastIndexOf(duration('1m')) == 2",
            "self.durations.indexOf(duration('2m')) == -1",
            "self.durations.lastIndexOf(duration('2m')) == -1",
            "self.strings.min() == 'a'",
            "self.strings.max() == 'c'",
            "self.strings.isSorted()",
            "self.emptyStrings.isSorted()",
            "self.unsortedStrings.isSorted() == false",
            "self.strings.indexOf('b') == 1",
            "self.strings.lastIndexOf('b') == 2",
            "self.strings.indexOf('x') == -1",
            "self.strings.lastIndexOf('x') == -1",
            "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
            "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
            "self.dates.isSorted()",
            "self.emptyDates.isSorted()",
            "self.unsortedDates.isSorted() == false",
            "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
            "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
            "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
            "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
            "[[1], [2]].indexOf([1]) == 0",
            "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
            "self.objs.indexOf(self.objs[1]) == 1",
            "self.objs.lastIndexOf(self.objs[1]) == 2",
            "([0] + self.emptyInts).min() == 0",
            "dyn([]).sum() == 0",
            "dyn([1, 2]).sum() == 3",
            "dyn([1.0, 2.0]).sum() == 3.0",
            "[].sum() == 0",
            "[1,2,3,4].isSorted()",
        ] {
            assert_true(&spell(rule));
        }
        // Upstream's `self.emptyDurations.sum() == duration('0')` needs the
        // list's static type: an empty list sums to the int 0 here.
        assert_eq!(
            eval(&spell("self.emptyDurations.sum() == duration('0')")),
            Ok(Value::Bool(false))
        );
        for (rule, function) in [
            ("self.emptyInts.min() == 1", "min"),
            ("self.emptyInts.max() == 3", "max"),
            ("self.emptyDoubles.min() == 1.0", "min"),
            ("self.emptyDoubles.max() == 3.0", "max"),
            ("self.emptyStrings.min() == 'a'", "min"),
            ("self.emptyStrings.max() == 'c'", "max"),
        ] {
            assert_eq!(
                eval(&spell(rule)),
                Err(ExecutionError::function_error(
                    function,
                    format!("{function} called on empty list")
                )),
                "{rule}"
            );
        }
        // cel-go rejects these when it compiles them; they fail when they
        // run here.
        for (rule, function, types) in [
            ("['a', 'b'].sum() == 'c'", "sum", "list(string)"),
            ("[[1], [2]].min() == [1]", "min", "list(list)"),
            ("[{'a': 1}, {'b': 2}].max() == {'b': 2}", "max", "list(map)"),
        ] {
            assert_eq!(
                eval(rule),
                Err(ExecutionError::no_such_member_overload(
                    function,
                    vec![types.to_owned()]
                )),
                "{rule}"
            );
        }
    }

    /// What the element types decide, and Go's handling of comparisons
    /// that fail.
    #[test]
    fn elements_decide() {
        for rule in [
            "[1u, 2u].sum() == 3u",
            "[1.5, 2.5].sum() == 4.0",
            "[b'b', b'a'].min() == b'a'",
            "[true, false].max() == true",
            "[false, true].isSorted()",
            "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3",
            // Ties keep the first element.
            "[1, 1.0].min() == 1 && type([1, 1.0].min()) == int",
            "[1, 1.0].max() == 1 && type([1, 1.0].max()) == int",
            // Numbers compare across types, as in cel-go.
            "[1, 2.5, 3u].isSorted()",
            "[1, 2.5, 3u].max() == 3u",
            // NaN orders nothing: it is kept, or never taken.
            "[2.0, double('NaN'), 1.0].isSorted()",
            "[1.0, double('NaN')].min() == 1.0",
            "[double('NaN'), 1.0].min() != [double('NaN'), 1.0].min()",
            // indexOf uses CEL equality.
            "[1, 2, 3].indexOf(2.0) == 1",
            "[1, 2, 3].lastIndexOf(3u) == 2",
            "[[1, 2], [1, 2]].lastIndexOf([1, 2]) == 1",
            // includes on anything else is equality.
            "{'a': 1}.includes({'a': 1})",
            "{'a': 1}.includes('a') == false",
            "[[1]].includes([1])",
            "(1).includes(1.0)",
        ] {
            assert_true(rule);
        }
        assert!(matches!(
            eval("[1, 2.0].sum()"),
            Err(ExecutionError::UnsupportedBinaryOperator(..))
        ));
        assert!(matches!(
            eval("[9223372036854775807, 1].sum()"),
            Err(ExecutionError::Overflow(..))
        ));
        assert_eq!(
            eval("[1, 'a'].sum()"),
            Err(ExecutionError::no_such_member_overload(
                "sum",
                vec!["list(dyn)".to_owned()]
            ))
        );
        assert_eq!(
            eval("[null].isSorted()"),
            Err(ExecutionError::no_such_member_overload(
                "isSorted",
                vec!["list(null_type)".to_owned()]
            ))
        );
    }
}
