//! English plurals for resource names, as controller-gen derives them
//! (`flect.Pluralize` of the lower-case kind) for the common cases.

const IRREGULAR: &[(&str, &str)] = &[
    ("person", "people"),
    ("child", "children"),
    ("man", "men"),
    ("woman", "women"),
    ("mouse", "mice"),
    ("goose", "geese"),
    ("foot", "feet"),
    ("tooth", "teeth"),
    ("index", "indices"),
    ("matrix", "matrices"),
    ("vertex", "vertices"),
    ("criterion", "criteria"),
    ("datum", "data"),
    ("leaf", "leaves"),
    ("life", "lives"),
    ("knife", "knives"),
    ("wife", "wives"),
    ("half", "halves"),
    ("shelf", "shelves"),
];

/// Words that are the same in the plural, or already plural.
const UNCHANGED: &[&str] = &[
    "data",
    "endpoints",
    "metadata",
    "information",
    "equipment",
    "news",
    "series",
    "species",
    "sheep",
    "fish",
    "deer",
];

/// The plural of a lower-case word: `policy` → `policies`,
/// `ingress` → `ingresses`, `memcached` → `memcacheds`.
pub fn pluralize(word: &str) -> String {
    for (single, plural) in IRREGULAR {
        if let Some(stem) = word.strip_suffix(single) {
            return format!("{stem}{plural}");
        }
    }
    if UNCHANGED.iter().any(|w| word.ends_with(w)) {
        return word.to_string();
    }
    let vowel = |c: char| "aeiou".contains(c);
    if let Some(stem) = word.strip_suffix('y')
        && stem.chars().last().is_some_and(|c| !vowel(c))
    {
        return format!("{stem}ies");
    }
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|s| word.ends_with(s))
    {
        return format!("{word}es");
    }
    format!("{word}s")
}

#[cfg(test)]
mod tests {
    use super::pluralize;

    #[test]
    fn english_rules() {
        for (s, p) in [
            ("policy", "policies"),
            ("ingress", "ingresses"),
            ("memcached", "memcacheds"),
            ("foo", "foos"),
            ("job", "jobs"),
            ("testquota", "testquotas"),
            ("versionedresource", "versionedresources"),
            ("gateway", "gateways"),
            ("box", "boxes"),
            ("batch", "batches"),
            ("mesh", "meshes"),
            ("status", "statuses"),
            ("endpoints", "endpoints"),
            ("salesperson", "salespeople"),
            ("cronjob", "cronjobs"),
            ("networkpolicy", "networkpolicies"),
        ] {
            assert_eq!(pluralize(s), p, "{s}");
        }
    }
}
