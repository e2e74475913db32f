//! Example APIs defined with api-core, and the `crdgen` binary that prints
//! their CustomResourceDefinitions.

#![deny(missing_docs)]

#[cfg(feature = "controller")]
pub mod controller;
pub mod cronjob;
pub mod crontab;
pub mod memcached;
pub mod storage;
pub mod tenant;

use api_core::crd::CustomResourceDefinition;

/// The CRDs of every example API, in a stable order. The multi-version
/// `CronTab` is one CRD with both its versions.
pub fn crds() -> Vec<CustomResourceDefinition> {
    vec![
        memcached::Memcached::crd(),
        cronjob::CronJob::crd(),
        tenant::Tenant::crd(),
        crontab::versions()
            .crd()
            .expect("the CronTab versions make one CRD"),
    ]
}

/// What the multi-version examples' schemas say about compatibility
/// between versions (`crdgen` prints them on stderr): fields a served
/// version has and the next newer one lacks.
pub fn warnings() -> Vec<String> {
    crontab::versions()
        .warnings()
        .iter()
        .map(|w| format!("CronTab: {w}"))
        .collect()
}
