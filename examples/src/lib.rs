//! Example APIs defined with api-core, and the `crdgen` binary that prints
//! their CustomResourceDefinitions.

#![deny(missing_docs)]

pub mod cronjob;
pub mod crontab;
pub mod memcached;
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
