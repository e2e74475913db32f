//! api-core's meta types and k8s-openapi's convert into each other
//! losslessly (property-tested): api-core → k8s-openapi → api-core is the
//! identity, k8s-openapi → api-core → k8s-openapi only drops what Go's
//! `omitempty` drops (`Some("")`, a zero generation, empty lists and
//! maps), and both sides always write the same JSON.

use std::collections::BTreeMap;

use api_core::meta::{
    Condition, ConditionStatus, LabelSelector, LabelSelectorRequirement, ListMeta,
    ManagedFieldsEntry, MicroTime, ObjectMeta, OwnerReference, Time,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use proptest::prelude::*;
use serde_json::{Value, json};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z0-9.-]{1,12}"]
}

fn time() -> impl Strategy<Value = Time> {
    // The years 0000 to 9999, which RFC 3339 can write.
    (-62_167_219_200_i64..=253_402_300_799).prop_map(|s| Time::from_unix_seconds(s).unwrap())
}

fn map() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map("[a-z]{1,6}", "[a-z0-9]{0,6}", 0..3)
}

fn owner() -> impl Strategy<Value = OwnerReference> {
    (
        text(),
        text(),
        text(),
        text(),
        any::<Option<bool>>(),
        any::<Option<bool>>(),
    )
        .prop_map(
            |(api_version, kind, name, uid, controller, block)| OwnerReference {
                api_version,
                kind,
                name,
                uid,
                controller,
                block_owner_deletion: block,
            },
        )
}

fn managed() -> impl Strategy<Value = ManagedFieldsEntry> {
    (
        text(),
        prop_oneof![
            Just(String::new()),
            Just("Apply".to_string()),
            Just("Update".to_string())
        ],
        text(),
        prop::option::of(time()),
        prop::option::of(Just(json!({"f:spec": {"f:size": {}}}))),
        text(),
    )
        .prop_map(
            |(manager, operation, api_version, time, fields, subresource)| ManagedFieldsEntry {
                manager,
                operation,
                api_version,
                time,
                fields_type: if fields.is_some() {
                    "FieldsV1".into()
                } else {
                    String::new()
                },
                fields_v1: fields,
                subresource,
            },
        )
}

prop_compose! {
    fn object_meta()(
        names in (text(), text(), text(), text(), text(), text()),
        generation in prop_oneof![Just(0_i64), any::<i64>()],
        times in (prop::option::of(time()), prop::option::of(time()), any::<Option<i64>>()),
        labels in map(),
        annotations in map(),
        owners in prop::collection::vec(owner(), 0..3),
        finalizers in prop::collection::vec("[a-z./]{1,10}", 0..3),
        managed in prop::collection::vec(managed(), 0..3),
    ) -> ObjectMeta {
        let (name, generate_name, namespace, self_link, uid, resource_version) = names;
        ObjectMeta {
            name, generate_name, namespace, self_link, uid, resource_version, generation,
            creation_timestamp: times.0,
            deletion_timestamp: times.1,
            deletion_grace_period_seconds: times.2,
            labels, annotations,
            owner_references: owners,
            finalizers,
            managed_fields: managed,
        }
    }
}

/// The JSON of both, which must be the same.
fn same_json(ours: &impl serde::Serialize, theirs: &impl serde::Serialize) {
    let (a, b): (Value, Value) = (
        serde_json::to_value(ours).unwrap(),
        serde_json::to_value(theirs).unwrap(),
    );
    assert_eq!(a, b);
}

proptest! {
    #[test]
    fn object_meta_round_trips(meta in object_meta()) {
        let theirs = metav1::ObjectMeta::from(meta.clone());
        same_json(&meta, &theirs);
        let back = ObjectMeta::from(theirs.clone());
        prop_assert_eq!(&back, &meta);
        // and k8s-openapi's side is already in its canonical form
        prop_assert_eq!(metav1::ObjectMeta::from(back), theirs);
    }

    #[test]
    fn k8s_object_meta_keeps_what_json_tells_apart(
        name in prop::option::of(text()),
        generation in prop::option::of(prop_oneof![Just(0_i64), any::<i64>()]),
        labels in prop::option::of(map()),
        finalizers in prop::option::of(prop::collection::vec("[a-z]{1,4}", 0..2)),
    ) {
        let theirs = metav1::ObjectMeta { name, generation, labels, finalizers, ..Default::default() };
        let ours = ObjectMeta::from(theirs.clone());
        let back = metav1::ObjectMeta::from(ours.clone());
        same_json(&ours, &back);
        // The same object as far as the API can tell: Go's omitempty.
        let mut expected = theirs;
        expected.name = expected.name.filter(|n| !n.is_empty());
        expected.generation = expected.generation.filter(|g| *g != 0);
        expected.labels = expected.labels.filter(|l| !l.is_empty());
        expected.finalizers = expected.finalizers.filter(|f| !f.is_empty());
        prop_assert_eq!(back, expected);
    }

    #[test]
    fn times_round_trip(t in time(), micros in 0_u32..1_000_000) {
        let theirs = metav1::Time::from(t);
        same_json(&t, &theirs);
        prop_assert_eq!(Time::from(theirs), t);
        let m: MicroTime = format!("{}.{micros:06}Z", &t.to_string()[..19]).parse().unwrap();
        let theirs = metav1::MicroTime::from(m);
        prop_assert_eq!(MicroTime::from(theirs), m);
    }

    #[test]
    fn owner_references_and_list_meta_round_trip(
        r in owner(),
        list in (text(), text(), text(), any::<Option<i64>>()),
    ) {
        let theirs = metav1::OwnerReference::from(r.clone());
        same_json(&r, &theirs);
        prop_assert_eq!(OwnerReference::from(theirs), r);
        let meta = ListMeta {
            self_link: list.0,
            resource_version: list.1,
            continue_: list.2,
            remaining_item_count: list.3,
        };
        let theirs = metav1::ListMeta::from(meta.clone());
        same_json(&meta, &theirs);
        prop_assert_eq!(ListMeta::from(theirs), meta);
    }

    #[test]
    fn label_selectors_round_trip(
        labels in map(),
        exprs in prop::collection::vec(("[a-z]{1,5}", prop::collection::vec("[a-z]{1,3}", 0..3)), 0..3),
    ) {
        let selector = LabelSelector {
            match_labels: labels,
            match_expressions: exprs
                .into_iter()
                .map(|(key, values)| LabelSelectorRequirement {
                    key,
                    operator: if values.is_empty() { "Exists".into() } else { "In".into() },
                    values,
                })
                .collect(),
        };
        let theirs = metav1::LabelSelector::from(selector.clone());
        same_json(&selector, &theirs);
        prop_assert_eq!(LabelSelector::from(theirs), selector);
    }

    #[test]
    fn conditions_round_trip(
        status in prop_oneof![Just(ConditionStatus::True), Just(ConditionStatus::False), Just(ConditionStatus::Unknown)],
        t in time(),
        generation in any::<Option<i64>>(),
        texts in ("[A-Z][a-zA-Z]{0,8}", "[A-Z][a-zA-Z]{0,8}", ".{0,12}"),
    ) {
        // (Go and api-core write the zero time as `null`; k8s-openapi's
        // required `Time` cannot: see the test below.)
        prop_assume!(t != Condition::zero_time());
        let mut c = Condition::new(texts.0, status, texts.1, texts.2);
        c.last_transition_time = t;
        c.observed_generation = generation;
        let theirs = metav1::Condition::from(c.clone());
        same_json(&c, &theirs);
        prop_assert_eq!(Condition::try_from(theirs).unwrap(), c);
    }
}

#[test]
fn a_condition_status_the_api_refuses_does_not_convert() {
    let theirs = metav1::Condition {
        type_: "Ready".into(),
        status: "Maybe".into(),
        last_transition_time: Time::from_unix_seconds(0).unwrap().into(),
        message: String::new(),
        observed_generation: None,
        reason: "Unsure".into(),
    };
    let err = Condition::try_from(theirs).unwrap_err();
    assert_eq!(err.value(), "Maybe");
}

#[test]
fn times_before_the_year_0000_are_clamped() {
    let early = metav1::Time(k8s_openapi::jiff::Timestamp::MIN);
    assert_eq!(Time::from(early).to_string(), "0000-01-01T00:00:00Z");
    let pre_epoch: metav1::MicroTime =
        serde_json::from_value(json!("1969-12-31T23:59:59.250000Z")).unwrap();
    assert_eq!(
        MicroTime::from(pre_epoch).to_string(),
        "1969-12-31T23:59:59.250000Z"
    );
}

#[test]
fn an_unset_transition_time_is_k8s_openapis_year_1() {
    let c = Condition::new("Ready", ConditionStatus::True, "Ok", "");
    let theirs = metav1::Condition::from(c.clone());
    assert_eq!(
        serde_json::to_value(&theirs.last_transition_time).unwrap(),
        json!("0001-01-01T00:00:00Z")
    );
    assert_eq!(Condition::try_from(theirs).unwrap(), c);
}
