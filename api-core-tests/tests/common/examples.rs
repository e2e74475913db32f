//! Proptest strategies for the example APIs, shared by the property tests.
#![allow(dead_code)] // each test crate uses a part

use std::collections::BTreeMap;

use api_core::{Condition, ConditionStatus, Conditions, Time};
use examples::cronjob::{
    ConcurrencyPolicy, CronJob, CronJobSpec, CronJobStatus, JobTemplate, Port, Protocol,
};
use examples::memcached::{Memcached, MemcachedSpec, MemcachedStatus};
use examples::tenant::{Tenant, TenantQuota, TenantSpec, TenantStatus};
use proptest::prelude::*;

pub fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9 */-]{0,16}",
        1 => "\\PC{0,8}",
    ]
}

pub fn arb_labels() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(arb_text(), arb_text(), 0..3)
}

pub fn arb_time() -> impl Strategy<Value = Time> {
    (0i64..4_000_000_000).prop_map(|s| Time::from_unix_seconds(s).expect("in range"))
}

pub fn arb_memcached_spec() -> impl Strategy<Value = MemcachedSpec> {
    prop_oneof![
        Just(None),
        prop::sample::select(vec![1, 2, 3]).prop_map(Some),
        any::<i32>().prop_map(Some),
    ]
    .prop_map(|size| MemcachedSpec { size })
}

pub fn arb_concurrency_policy() -> impl Strategy<Value = ConcurrencyPolicy> {
    prop::sample::select(vec![
        ConcurrencyPolicy::Allow,
        ConcurrencyPolicy::Forbid,
        ConcurrencyPolicy::Replace,
    ])
}

pub fn arb_protocol() -> impl Strategy<Value = Protocol> {
    prop::sample::select(vec![Protocol::Tcp, Protocol::Udp, Protocol::Sctp])
}

pub fn arb_port() -> impl Strategy<Value = Port> {
    (
        "[a-z][a-z0-9-]{0,6}",
        prop_oneof![1..=65535i32, any::<i32>()],
        prop::option::of(arb_protocol()),
    )
        .prop_map(|(name, port, protocol)| Port {
            name,
            port,
            protocol,
        })
}

pub fn arb_job_template() -> impl Strategy<Value = JobTemplate> {
    (
        arb_text(),
        prop::collection::vec(arb_text(), 0..3),
        prop::collection::vec(arb_port(), 0..4),
        arb_labels(),
        prop::option::of(any::<i64>()),
    )
        .prop_map(
            |(image, command, ports, labels, active_deadline_seconds)| JobTemplate {
                image,
                command,
                ports,
                labels,
                active_deadline_seconds,
            },
        )
}

pub fn arb_cronjob_spec() -> impl Strategy<Value = CronJobSpec> {
    (
        arb_text(),
        prop::option::of(any::<i64>()),
        prop::option::of(arb_concurrency_policy()),
        prop::option::of(any::<bool>()),
        prop::option::of(prop_oneof![0..=100i32, any::<i32>()]),
        arb_job_template(),
    )
        .prop_map(
            |(
                schedule,
                starting_deadline_seconds,
                concurrency_policy,
                suspend,
                successful_jobs_history_limit,
                job_template,
            )| CronJobSpec {
                schedule,
                starting_deadline_seconds,
                concurrency_policy,
                suspend,
                successful_jobs_history_limit,
                job_template,
            },
        )
}

pub fn arb_tenant_spec() -> impl Strategy<Value = TenantSpec> {
    (
        arb_text(),
        prop::collection::vec(arb_text(), 0..3),
        prop::option::of(
            (
                prop::option::of(any::<i32>()),
                prop::option::of(any::<i64>()),
            )
                .prop_map(|(max_namespaces, max_pods)| TenantQuota {
                    max_namespaces,
                    max_pods,
                }),
        ),
    )
        .prop_map(|(display_name, admins, quota)| TenantSpec {
            display_name,
            admins,
            quota,
        })
}

/// Conditions with distinct types; some have the zero
/// `lastTransitionTime`, which is written as `null`.
pub fn arb_conditions() -> impl Strategy<Value = Conditions> {
    prop::collection::btree_map(
        "[A-Z][a-z]{0,6}",
        (
            prop::sample::select(vec![
                ConditionStatus::True,
                ConditionStatus::False,
                ConditionStatus::Unknown,
            ]),
            prop::option::of(0i64..1_000),
            prop::option::weighted(0.8, arb_time()),
            "[A-Za-z]{0,6}",
            arb_text(),
        ),
        0..3,
    )
    .prop_map(|m| {
        let list = m
            .into_iter()
            .map(|(t, (status, generation, time, reason, message))| {
                let mut c = Condition::new(t, status, reason, message);
                c.observed_generation = generation;
                if let Some(time) = time {
                    c = c.with_last_transition_time(time);
                }
                c
            })
            .collect();
        Conditions::from_vec(list).expect("distinct types")
    })
}

pub fn arb_memcached() -> impl Strategy<Value = Memcached> {
    (
        "[a-z]{1,8}",
        arb_labels(),
        arb_memcached_spec(),
        prop::option::of(arb_conditions().prop_map(|conditions| MemcachedStatus { conditions })),
    )
        .prop_map(|(name, labels, spec, status)| {
            let mut mc = Memcached::new(name, spec);
            mc.metadata.labels = labels;
            mc.status = status;
            mc
        })
}

pub fn arb_cronjob() -> impl Strategy<Value = CronJob> {
    (
        "[a-z]{1,8}",
        arb_cronjob_spec(),
        prop::option::of(
            (
                prop::collection::vec(arb_text(), 0..3),
                prop::option::of(arb_time()),
                prop::option::of(arb_time()),
                arb_conditions(),
            )
                .prop_map(
                    |(active, last_schedule_time, last_successful_time, conditions)| {
                        CronJobStatus {
                            active,
                            last_schedule_time,
                            last_successful_time,
                            conditions,
                        }
                    },
                ),
        ),
    )
        .prop_map(|(name, spec, status)| {
            let mut cj = CronJob::new(name, spec);
            cj.metadata.namespace = "default".into();
            cj.status = status;
            cj
        })
}

pub fn arb_tenant() -> impl Strategy<Value = Tenant> {
    (
        "[a-z]{1,8}",
        arb_tenant_spec(),
        prop::option::of(
            prop::option::of(any::<i32>())
                .prop_map(|namespace_count| TenantStatus { namespace_count }),
        ),
    )
        .prop_map(|(name, spec, status)| {
            let mut t = Tenant::new(name, spec);
            t.status = status;
            t
        })
}

pub fn arb_crontab_policy() -> impl Strategy<Value = examples::crontab::v1::ConcurrencyPolicy> {
    use examples::crontab::v1::ConcurrencyPolicy as P;
    prop::sample::select(vec![P::Allow, P::Forbid, P::Replace])
}

/// A `v1` CronTab (the hub), with arbitrary annotations.
pub fn arb_crontab_v1() -> impl Strategy<Value = examples::crontab::v1::CronTab> {
    use examples::crontab::v1::{CronTab, CronTabSpec, CronTabStatus};
    (
        "[a-z]{1,8}",
        arb_labels(),
        (
            arb_text(),
            arb_text(),
            prop::option::of(prop_oneof![0..=10i32, any::<i32>()]),
            prop::option::of(arb_crontab_policy()),
        ),
        prop::option::of(
            (
                arb_conditions(),
                prop::option::of(arb_time()),
                prop::option::of(0..=10i32),
                prop::option::of("[a-z]{1,5}=[a-z]{1,5}"),
            )
                .prop_map(
                    |(conditions, last_schedule_time, replicas, label_selector)| CronTabStatus {
                        conditions,
                        last_schedule_time,
                        replicas,
                        label_selector,
                    },
                ),
        ),
    )
        .prop_map(
            |(name, annotations, (schedule, image, replicas, concurrency_policy), status)| {
                let mut ct = CronTab::new(
                    name,
                    CronTabSpec {
                        schedule,
                        image,
                        replicas,
                        concurrency_policy,
                    },
                );
                ct.metadata.namespace = "default".into();
                ct.metadata.annotations = annotations;
                ct.status = status;
                ct
            },
        )
}

/// A `v1alpha1` CronTab, sometimes carrying a `concurrencyPolicy` kept
/// by an earlier conversion from `v1`.
pub fn arb_crontab_v1alpha1() -> impl Strategy<Value = examples::crontab::v1alpha1::CronTab> {
    use examples::crontab::v1alpha1::{CronTab, CronTabSpec, CronTabStatus};
    (
        "[a-z]{1,8}",
        arb_labels(),
        prop::option::of(arb_crontab_policy()),
        (
            arb_text(),
            arb_text(),
            prop::option::of(prop_oneof![0..=10i32, any::<i32>()]),
        ),
        prop::option::of(
            (
                arb_conditions(),
                prop::option::of(arb_time()),
                prop::option::of(0..=10i32),
                prop::option::of("[a-z]{1,5}=[a-z]{1,5}"),
            )
                .prop_map(
                    |(conditions, last_schedule_time, replicas, label_selector)| CronTabStatus {
                        conditions,
                        last_schedule_time,
                        replicas,
                        label_selector,
                    },
                ),
        ),
    )
        .prop_map(
            |(name, annotations, kept, (cron_spec, image, replicas), status)| {
                let mut ct = CronTab::new(
                    name,
                    CronTabSpec {
                        cron_spec,
                        image,
                        replicas,
                    },
                );
                ct.metadata.namespace = "default".into();
                ct.metadata.annotations = annotations;
                if let Some(policy) = kept {
                    api_core::conversion::stash(
                        &mut ct.metadata,
                        examples::crontab::CONCURRENCY_POLICY,
                        &policy,
                    )
                    .expect("a policy encodes");
                }
                ct.status = status;
                ct
            },
        )
}
