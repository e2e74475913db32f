use super::*;

fn query(pairs: &[(&str, &str)]) -> Query {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The causes of a rejected list, as `field.Error.Error()` prints them.
fn errs(pairs: &[(&str, &str)]) -> Vec<String> {
    match list_params(&query(pairs)) {
        Ok(_) => Vec::new(),
        Err(status) => {
            assert_eq!(status.code, 422);
            assert_eq!(status.reason.as_str(), "Invalid");
            let details = status.details.expect("details");
            assert_eq!(
                (details.group.as_str(), details.kind.as_str()),
                ("meta.k8s.io", "ListOptions")
            );
            details
                .causes
                .iter()
                .map(|c| format!("{}: {}", c.field, c.message))
                .collect()
        }
    }
}

/// apimachinery `pkg/apis/meta/internalversion/validation/validation_test.go`
/// `TestValidateListOptions`, with the WatchList feature on (this server
/// serves watch-list); the cases that need the gate off are left out,
/// since the gate is always on here. Each case keeps upstream's name.
/// A case: its upstream name, the query, the causes expected.
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
);

#[test]
fn validate_list_options_table() {
    let cases: &[Case] = &[
        ("valid-default", &[], &[]),
        (
            "valid-resourceversionmatch-exact",
            &[("resourceVersion", "1"), ("resourceVersionMatch", "Exact")],
            &[],
        ),
        (
            "invalid-resourceversionmatch-exact",
            &[("resourceVersion", "0"), ("resourceVersionMatch", "Exact")],
            &[
                r#"resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0""#,
            ],
        ),
        (
            "valid-resourceversionmatch-notolderthan",
            &[
                ("resourceVersion", "0"),
                ("resourceVersionMatch", "NotOlderThan"),
            ],
            &[],
        ),
        (
            "invalid-resourceversionmatch",
            &[("resourceVersion", "0"), ("resourceVersionMatch", "foo")],
            &[
                r#"resourceVersionMatch: Unsupported value: "foo": supported values: "Exact", "NotOlderThan", """#,
            ],
        ),
        (
            "list-sendInitialEvents-forbidden",
            &[("sendInitialEvents", "true")],
            &["sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"],
        ),
        ("valid-watch-default", &[("watch", "true")], &[]),
        (
            "valid-watch-sendInitialEvents-on",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "true"),
                ("resourceVersionMatch", "NotOlderThan"),
                ("allowWatchBookmarks", "true"),
            ],
            &[],
        ),
        (
            "valid-watch-sendInitialEvents-off",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "false"),
                ("resourceVersionMatch", "NotOlderThan"),
                ("allowWatchBookmarks", "true"),
            ],
            &[],
        ),
        (
            "watch-resourceversionmatch-without-sendInitialEvents-forbidden",
            // With a resourceVersion, so that SetListOptionsDefaults does
            // not fill sendInitialEvents in (upstream calls the validation
            // without the defaults).
            &[
                ("watch", "true"),
                ("resourceVersion", "5"),
                ("resourceVersionMatch", "NotOlderThan"),
            ],
            &[
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            ],
        ),
        (
            "watch-sendInitialEvents-with-exact-resourceversionmatch-forbidden",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "true"),
                ("resourceVersionMatch", "Exact"),
                ("allowWatchBookmarks", "true"),
            ],
            &[
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                r#"resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan""#,
            ],
        ),
        (
            "watch-sendInitialEvents-on-with-empty-resourceversionmatch-forbidden",
            &[("watch", "true"), ("sendInitialEvents", "true")],
            &[
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ],
        ),
        (
            "watch-sendInitialEvents-off-with-empty-resourceversionmatch-forbidden",
            &[("watch", "true"), ("sendInitialEvents", "false")],
            &[
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ],
        ),
        (
            "watch-sendInitialEvents-with-incorrect-resourceversionmatch-forbidden",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "true"),
                ("resourceVersionMatch", "incorrect"),
                ("allowWatchBookmarks", "true"),
            ],
            &[
                "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                r#"resourceVersionMatch: Unsupported value: "incorrect": supported values: "NotOlderThan""#,
            ],
        ),
        (
            "watch-sendInitialEvents-no-allowWatchBookmark",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "true"),
                ("resourceVersionMatch", "NotOlderThan"),
            ],
            &[],
        ),
        (
            "watch-sendInitialEvents-with-continue",
            &[
                ("watch", "true"),
                ("sendInitialEvents", "true"),
                ("resourceVersionMatch", "NotOlderThan"),
                ("allowWatchBookmarks", "true"),
                ("continue", "123"),
            ],
            &[
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided",
            ],
        ),
    ];
    for (name, pairs, expected) in cases {
        assert_eq!(&errs(pairs), expected, "case {name}");
    }
}

#[test]
fn a_plain_watch_gets_the_watch_list_defaults() {
    // SetListOptionsDefaults with WatchList on.
    let p = list_params(&query(&[("watch", "1")])).unwrap();
    assert_eq!(
        (p.options.send_initial_events, p.rv_match),
        (true, Some(RvMatch::NotOlderThan))
    );
    let p = list_params(&query(&[("watch", "1"), ("resourceVersion", "0")])).unwrap();
    assert!(p.options.send_initial_events);
    let p = list_params(&query(&[("watch", "1"), ("resourceVersion", "7")])).unwrap();
    assert_eq!((p.options.send_initial_events, p.rv_match), (false, None));
    let p = list_params(&query(&[])).unwrap();
    assert_eq!((p.watch, p.options.send_initial_events), (false, false));
    // Explicitly off, and bookmarks only for a watch.
    let p = list_params(&query(&[
        ("watch", "1"),
        ("sendInitialEvents", "false"),
        ("resourceVersionMatch", "NotOlderThan"),
        ("allowWatchBookmarks", "true"),
    ]))
    .unwrap();
    assert!(!p.options.send_initial_events && p.options.allow_watch_bookmarks);
    let p = list_params(&query(&[("allowWatchBookmarks", "true")])).unwrap();
    assert!(!p.options.allow_watch_bookmarks);
}

#[test]
fn list_revisions() {
    let p = |pairs: &[(&str, &str)]| list_params(&query(pairs)).unwrap();
    assert!(check_list_revision(&p(&[]), "5").is_ok());
    assert!(check_list_revision(&p(&[("resourceVersion", "0")]), "5").is_ok());
    assert!(check_list_revision(&p(&[("resourceVersion", "3")]), "5").is_ok());
    let exact = p(&[("resourceVersion", "5"), ("resourceVersionMatch", "Exact")]);
    assert!(check_list_revision(&exact, "5").is_ok());
    let old = p(&[("resourceVersion", "3"), ("resourceVersionMatch", "Exact")]);
    let e = check_list_revision(&old, "5").unwrap_err();
    assert_eq!((e.code, e.reason.as_str()), (410, "Expired"));
    assert_eq!(
        e.message,
        "The resourceVersion for the provided list is too old."
    );
    let e = check_list_revision(&p(&[("resourceVersion", "9")]), "5").unwrap_err();
    assert_eq!((e.code, e.reason.as_str()), (504, "Timeout"));
    assert_eq!(
        e.message,
        "Timeout: Too large resource version: 9, current: 5"
    );
    let details = e.details.unwrap();
    assert_eq!(details.retry_after_seconds, 1);
    assert_eq!(details.causes[0].reason, "ResourceVersionTooLarge");
    let e = check_list_revision(&p(&[("resourceVersion", "x")]), "5").unwrap_err();
    assert_eq!(e.code, 400);
}

#[test]
fn write_options() {
    let o = super::write_options(
        &query(&[("dryRun", "All"), ("fieldManager", "kubectl")]),
        "CreateOptions",
    )
    .unwrap();
    assert!(o.dry_run);
    assert_eq!(o.field_manager.as_deref(), Some("kubectl"));
    let e = super::write_options(&query(&[("dryRun", "Some")]), "CreateOptions").unwrap_err();
    assert_eq!(e.code, 422);
    assert_eq!(
        e.message,
        r#"CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All""#
    );
    let long = "m".repeat(129);
    let e = super::write_options(&query(&[("fieldManager", &long)]), "PatchOptions").unwrap_err();
    assert!(
        e.message
            .contains("fieldManager: Too long: may not be more than 128"),
        "{}",
        e.message
    );
    // As `ValidateCreateOptions` (apimachinery `validation.go`): 422,
    // every value of `allowedFieldValidationValues` listed.
    for kind in ["CreateOptions", "UpdateOptions", "PatchOptions"] {
        let e = super::write_options(&query(&[("fieldValidation", "Bogus")]), kind).unwrap_err();
        assert_eq!(
            (e.code, e.reason.as_str(), e.message.as_str()),
            (
                422,
                "Invalid",
                format!(
                    r#"{kind}.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn""#
                )
                .as_str()
            )
        );
    }
    // Every problem at once.
    let e = super::write_options(
        &query(&[("fieldValidation", "Loud"), ("dryRun", "Some")]),
        "CreateOptions",
    )
    .unwrap_err();
    assert_eq!(e.details.unwrap().causes.len(), 2, "{}", e.message);
}

#[test]
fn delete_options_from_body_and_query() {
    let body = Bytes::from_static(
        br#"{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"preconditions":{"uid":"u","resourceVersion":"4"},"propagationPolicy":"Background","dryRun":["All"]}"#,
    );
    let (o, dry) = delete_options(&Query::new(), &body).unwrap();
    assert!(dry);
    assert_eq!(o.grace_period_seconds, Some(0));
    assert_eq!(
        (o.uid.as_deref(), o.resource_version.as_deref()),
        (Some("u"), Some("4"))
    );
    // The policy is carried to the registry (a garbage collector acts on
    // it), not only validated.
    assert_eq!(
        o.propagation_policy,
        Some(api_core::registry::PropagationPolicy::Background)
    );
    let (o, dry) = delete_options(
        &query(&[
            ("gracePeriodSeconds", "5"),
            ("propagationPolicy", "Foreground"),
        ]),
        &Bytes::new(),
    )
    .unwrap();
    assert!(!dry);
    assert_eq!(o.grace_period_seconds, Some(5));
    assert_eq!(
        o.propagation_policy,
        Some(api_core::registry::PropagationPolicy::Foreground)
    );
    let e = delete_options(&query(&[("propagationPolicy", "Later")]), &Bytes::new()).unwrap_err();
    assert_eq!(
        e.message,
        r#"DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Later": supported values: "Orphan", "Background", "Foreground""#
    );
    let e = delete_options(&Query::new(), &Bytes::from_static(b"{")).unwrap_err();
    assert_eq!(e.code, 400);
}
