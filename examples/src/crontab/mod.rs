//! A multi-version API: the `CronTab` of the Kubernetes documentation,
//! evolved from `v1alpha1` to `v1`.
//!
//! - `v1alpha1` (served, deprecated): `cronSpec`, `image`, `replicas`.
//! - `v1` (served, the storage version and the hub): `cronSpec` is renamed
//!   `schedule`, and `concurrencyPolicy` is new, defaulted to `Allow`.
//!
//! The conversions are plain `TryFrom` impls between each version and the
//! hub. `v1alpha1` cannot represent `concurrencyPolicy`, so converting to
//! it keeps the value in the annotation
//! `conversion.stable.example.com/spec.concurrencyPolicy`, and converting
//! back restores it: `v1 -> v1alpha1 -> v1` loses nothing.
//! [`versions`] is the conversion graph: it builds the CRD with both
//! versions and a conversion webhook, answers `ConversionReview`s, and lets
//! a registry serve both versions over one storage.

pub mod v1;
pub mod v1alpha1;

use api_core::conversion::{self, ConversionError, Versions};
use api_core::crd::WebhookClientConfig;

/// The annotation that keeps `spec.concurrencyPolicy` in a `v1alpha1`
/// object.
pub const CONCURRENCY_POLICY: &str = "conversion.stable.example.com/spec.concurrencyPolicy";

/// The versions of `CronTab`, converted through `v1` (the hub and storage
/// version), with the conversion webhook served by the `crontab-webhook`
/// service in `crontab-system` at `/convert`.
pub fn versions() -> Versions<v1::CronTab> {
    Versions::<v1::CronTab>::new()
        .version::<v1alpha1::CronTab>()
        .webhook(WebhookClientConfig::service("crontab-system", "crontab-webhook").path("/convert"))
}

impl TryFrom<v1alpha1::CronTab> for v1::CronTab {
    type Error = ConversionError;

    fn try_from(old: v1alpha1::CronTab) -> Result<Self, ConversionError> {
        let mut metadata = old.metadata;
        let concurrency_policy = conversion::unstash(&mut metadata, CONCURRENCY_POLICY)?;
        Ok(v1::CronTab {
            metadata,
            spec: v1::CronTabSpec {
                schedule: old.spec.cron_spec,
                image: old.spec.image,
                replicas: old.spec.replicas,
                concurrency_policy,
            },
            status: old.status.map(|s| v1::CronTabStatus {
                conditions: s.conditions,
                last_schedule_time: s.last_schedule_time,
                replicas: s.replicas,
                label_selector: s.label_selector,
            }),
        })
    }
}

impl TryFrom<v1::CronTab> for v1alpha1::CronTab {
    type Error = ConversionError;

    fn try_from(new: v1::CronTab) -> Result<Self, ConversionError> {
        let mut metadata = new.metadata;
        conversion::stash(
            &mut metadata,
            CONCURRENCY_POLICY,
            &new.spec.concurrency_policy,
        )?;
        Ok(v1alpha1::CronTab {
            metadata,
            spec: v1alpha1::CronTabSpec {
                cron_spec: new.spec.schedule,
                image: new.spec.image,
                replicas: new.spec.replicas,
            },
            status: new.status.map(|s| v1alpha1::CronTabStatus {
                conditions: s.conditions,
                last_schedule_time: s.last_schedule_time,
                replicas: s.replicas,
                label_selector: s.label_selector,
            }),
        })
    }
}
