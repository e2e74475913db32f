//! Generated values of the example APIs against their own CRD schemas:
//! every value round-trips through JSON and YAML unchanged, and the values
//! that the generated Rust validation accepts are handed (with the schema)
//! to a real JSON-schema validator in CI (`.ci/check_values.py`, Python
//! `jsonschema`), which must accept every one of them.
//!
//! Set `SCHEMA_VALUES_DIR` to write `<kind>.json` files there for it.

mod common;

use api_core::prelude::*;
use api_core::registry::strategy::validate;
use common::examples::{
    arb_cronjob, arb_crontab_v1, arb_crontab_v1alpha1, arb_memcached, arb_tenant,
};
use examples::cronjob::CronJob;
use examples::crontab::{CONCURRENCY_POLICY, v1, v1alpha1};
use examples::memcached::Memcached;
use examples::tenant::Tenant;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRng, TestRunner};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const CASES: usize = 400;

/// Draws `CASES` values (half of them nudged towards validity by `fix`),
/// checks the round trips and returns `(value, valid)` pairs.
fn run<K, S>(strategy: S, fix: impl Fn(&mut K)) -> Vec<(Value, bool)>
where
    K: ApiType + Serialize + DeserializeOwned,
    S: Strategy<Value = K>,
{
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let mut out = Vec::with_capacity(CASES);
    for i in 0..CASES {
        let mut value = strategy.new_tree(&mut runner).expect("a value").current();
        if i % 2 == 0 {
            fix(&mut value);
        }
        value.apply_defaults();
        let json = serde_json::to_value(&value).expect("encodes");
        let back: K = serde_json::from_value(json.clone()).expect("decodes its own JSON");
        assert_eq!(
            serde_json::to_value(&back).expect("encodes"),
            json,
            "JSON round trip"
        );
        let yaml = serde_saphyr::to_string(&value).expect("writes YAML");
        let from_yaml: K = serde_saphyr::from_str(&yaml).expect("reads its own YAML");
        assert_eq!(
            serde_json::to_value(&from_yaml).expect("encodes"),
            json,
            "YAML round trip of\n{yaml}"
        );
        let valid = validate(&value).is_empty();
        out.push((json, valid));
    }
    out
}

fn write<K: CustomResourceExt>(cases: &[(Value, bool)]) {
    let valid = cases.iter().filter(|(_, v)| *v).count();
    assert!(
        valid * 10 >= cases.len(),
        "{}: only {valid} of {} values are valid; the generator needs fixing",
        K::KIND,
        cases.len()
    );
    let Some(dir) = std::env::var_os("SCHEMA_VALUES_DIR") else {
        return;
    };
    let schema = K::crd().to_json()["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone();
    let doc = json!({
        "kind": format!("{} {}", K::KIND, K::VERSION),
        "schema": schema,
        "cases": cases.iter().map(|(value, valid)| json!({"value": value, "valid": valid})).collect::<Vec<_>>(),
    });
    std::fs::create_dir_all(&dir).expect("creates the directory");
    let path = std::path::Path::new(&dir).join(format!("{}_{}.json", K::KIND, K::VERSION));
    std::fs::write(&path, serde_json::to_vec(&doc).expect("encodes")).expect("writes");
}

#[test]
fn memcached_values() {
    let cases = run(arb_memcached(), |m: &mut Memcached| {
        if m.spec.size.is_some_and(|s| !(1..=10).contains(&s)) {
            m.spec.size = Some(3);
        }
    });
    write::<Memcached>(&cases);
}

#[test]
fn cronjob_values() {
    let cases = run(arb_cronjob(), |c: &mut CronJob| {
        c.spec.schedule = "*/5 * * * *".into();
        c.spec.starting_deadline_seconds =
            c.spec.starting_deadline_seconds.map(|s| s.rem_euclid(1000));
        c.spec.successful_jobs_history_limit = c
            .spec
            .successful_jobs_history_limit
            .map(|s| s.rem_euclid(100));
        c.spec.job_template.active_deadline_seconds = c
            .spec
            .job_template
            .active_deadline_seconds
            .map(|s| s.rem_euclid(1000) + 1);
        if c.spec.job_template.image.is_empty() {
            c.spec.job_template.image = "busybox".into();
        }
        c.spec.job_template.labels.clear();
        for (i, port) in c.spec.job_template.ports.iter_mut().enumerate() {
            port.name = format!("p{i}");
            port.port = port.port.rem_euclid(65535) + 1;
        }
        c.metadata.labels.clear();
    });
    write::<CronJob>(&cases);
}

#[test]
fn tenant_values() {
    let cases = run(arb_tenant(), |t: &mut Tenant| {
        t.spec.display_name = "team a".into();
        t.metadata.labels.clear();
    });
    write::<Tenant>(&cases);
}

#[test]
fn crontab_v1_values() {
    let cases = run(arb_crontab_v1(), |c: &mut v1::CronTab| {
        c.spec.schedule = "0 3 * * 1".into();
        c.spec.image = "busybox".into();
        c.spec.replicas = c.spec.replicas.map(|r| r.rem_euclid(11));
        c.metadata.annotations.clear();
    });
    write::<v1::CronTab>(&cases);
}

#[test]
fn crontab_v1alpha1_values() {
    let cases = run(arb_crontab_v1alpha1(), |c: &mut v1alpha1::CronTab| {
        c.spec.cron_spec = "0 3 * * 1".into();
        c.spec.image = "busybox".into();
        c.spec.replicas = c.spec.replicas.map(|r| r.rem_euclid(11));
        c.metadata
            .annotations
            .retain(|k, _| k == CONCURRENCY_POLICY);
    });
    write::<v1alpha1::CronTab>(&cases);
}
