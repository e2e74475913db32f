//! Property tests of `api_core::apply::Set` against a model: a plain
//! `BTreeSet` of paths (issue 17).
//!
//! Field sets are the unit of ownership in server-side apply; the
//! registry runs their algebra on every write, in place
//! (`union_with`, `difference_with`, `recursive_difference_with`) to avoid
//! copying an owner's whole set for a small change. These properties pin
//! every operation, in both forms, to its definition on sets of paths:
//!
//! - `from_paths` holds exactly the inserted paths, and `has` agrees;
//! - union, intersection and difference are the set operations;
//! - `recursive_difference` also drops every path below a path of the
//!   other set (structured-merge-diff's `RecursiveDifference`);
//! - the in-place forms leave the set the functional forms return;
//! - `FieldsV1` round-trips (`from_fields_v1 ∘ to_fields_v1`), and its
//!   text form parses to the same JSON.

use std::collections::BTreeSet;

use api_core::apply::{Path, PathElement, Set};
use proptest::prelude::*;
use serde_json::json;

fn element() -> impl Strategy<Value = PathElement> {
    prop_oneof![
        prop::sample::select(vec!["a", "b", "spec", "x.y"]).prop_map(PathElement::field),
        prop::sample::select(vec!["p", "q"])
            .prop_map(|n| PathElement::key(vec![("name".into(), json!(n))])),
        prop::sample::select(vec![json!(1), json!("v"), json!(true)]).prop_map(PathElement::Value),
        (0usize..3).prop_map(PathElement::Index),
    ]
}

fn paths() -> impl Strategy<Value = BTreeSet<Path>> {
    prop::collection::btree_set(prop::collection::vec(element(), 1..4).prop_map(Path), 0..24)
}

fn model(set: &Set) -> BTreeSet<Path> {
    set.paths().into_iter().collect()
}

fn build(paths: &BTreeSet<Path>) -> Set {
    Set::from_paths(paths.iter().cloned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_set_holds_exactly_its_paths(a in paths(), probe in paths()) {
        let set = build(&a);
        prop_assert_eq!(model(&set), a.clone());
        prop_assert_eq!(set.is_empty(), a.is_empty());
        for p in a.iter().chain(&probe) {
            prop_assert_eq!(set.has(&p.0), a.contains(p), "has({})", p);
        }
    }

    #[test]
    fn algebra_matches_the_model(a in paths(), b in paths()) {
        let (sa, sb) = (build(&a), build(&b));
        let union: BTreeSet<Path> = a.union(&b).cloned().collect();
        let both: BTreeSet<Path> = a.intersection(&b).cloned().collect();
        let only: BTreeSet<Path> = a.difference(&b).cloned().collect();
        let below = |p: &Path| b.iter().any(|q| p.0.starts_with(&q.0));
        let recursive: BTreeSet<Path> = a.iter().filter(|p| !below(p)).cloned().collect();

        prop_assert_eq!(model(&sa.union(&sb)), union.clone());
        prop_assert_eq!(model(&sa.intersection(&sb)), both.clone());
        prop_assert_eq!(model(&sb.intersection(&sa)), both);
        prop_assert_eq!(model(&sa.difference(&sb)), only.clone());
        prop_assert_eq!(model(&sa.recursive_difference(&sb)), recursive.clone());

        let mut s = sa.clone();
        s.union_with(&sb);
        prop_assert_eq!(model(&s), union);
        let mut s = sa.clone();
        s.difference_with(&sb);
        prop_assert_eq!(model(&s), only.clone());
        prop_assert_eq!(s.is_empty(), only.is_empty());
        let mut s = sa.clone();
        s.recursive_difference_with(&sb);
        prop_assert_eq!(model(&s), recursive.clone());
        prop_assert_eq!(s.is_empty(), recursive.is_empty());
    }

    #[test]
    fn fields_v1_round_trips(a in paths()) {
        let set = build(&a);
        let v1 = set.to_fields_v1();
        let back = Set::from_fields_v1(&v1).expect("our own FieldsV1 reads back");
        prop_assert_eq!(model(&back), a);
        let text: serde_json::Value =
            serde_json::from_str(&set.to_fields_v1_string()).expect("the text is JSON");
        prop_assert_eq!(text, v1);
    }
}
