//! The flag and keyword constants of `api_core::facts`, by name. Generated
//! code writes sets of them as `#p::facts::FLOAT | #p::facts::UNSIGNED`,
//! so api-derive holds no bit values: api-core's constants are the only
//! ones, and a name api-core does not have does not compile. The keyword
//! constants (`KW_*`) are the rows of api-keywords' table, which api-core
//! re-exports.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Every flag constant of `api_core::facts` (a test checks the list
/// against api-core's source).
#[cfg_attr(not(test), allow(dead_code))]
pub const FLAGS: &[&str] = &[
    "FLOAT",
    "UNSIGNED",
    "NARROW_INT",
    "HASH_MAP",
    "DURATION",
    "TIME",
    "SET",
    "NON_STRING_MAP",
    "CONDITIONS",
    "BOOL",
    "ATOMIC",
    "BOUNDED",
    "LENIENT_DECODE",
    "ALLOW_REQUIRED",
    "UNCHECKED",
    "DESCRIBED",
    "ALLOW_REQUIRED_CONDITIONS",
];

/// A set of `api_core::facts` constants, by name, in insertion order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Consts(Vec<&'static str>);

impl Consts {
    /// The set of `names`.
    pub fn of(names: &[&'static str]) -> Self {
        let mut set = Consts::default();
        for name in names {
            set.insert(name);
        }
        set
    }

    /// Adds `name` (once).
    pub fn insert(&mut self, name: &'static str) {
        debug_assert!(
            FLAGS.contains(&name) || api_keywords::Keyword::by_fact(name).is_some(),
            "{name}"
        );
        if !self.0.contains(&name) {
            self.0.push(name);
        }
    }

    /// Adds every constant of `other`.
    pub fn extend(&mut self, other: &Consts) {
        for name in &other.0 {
            self.insert(name);
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The set as a `u32` expression: `0u32`, or the constants or-ed by
    /// path below the runtime's private module `p`.
    pub fn tokens(&self, p: &TokenStream) -> TokenStream {
        if self.0.is_empty() {
            return quote!(0u32);
        }
        let names = self.0.iter().map(|n| format_ident!("{}", n));
        quote!(#(#p::facts::#names)|*)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag names here are exactly the `pub const NAME: u32` items of
    /// `api_core::facts`, and it re-exports the keyword bits of the table
    /// this crate reads: adding a flag on one side without the other fails
    /// this test.
    #[test]
    fn names_match_api_core() {
        let source = include_str!("../../api-core/src/facts.rs");
        let mut declared: Vec<&str> = source
            .lines()
            .filter_map(|l| l.strip_prefix("pub const "))
            .filter(|l| !l.starts_with("fn "))
            .filter_map(|l| l.split_once(": u32"))
            .map(|(name, _)| name)
            .collect();
        declared.sort_unstable();
        let mut known: Vec<&str> = FLAGS.to_vec();
        known.sort_unstable();
        assert_eq!(known, declared);
        assert!(source.contains("\npub use api_keywords::bits::*;\n"));
    }

    #[test]
    fn sets_are_written_by_name() {
        let p = quote!(::api_core::__private);
        assert_eq!(Consts::default().tokens(&p).to_string(), "0u32");
        let set = Consts::of(&["FLOAT", "UNSIGNED", "FLOAT"]);
        assert_eq!(
            Consts::of(&[api_keywords::ENUM.fact])
                .tokens(&p)
                .to_string(),
            quote!(::api_core::__private::facts::KW_ENUM).to_string()
        );
        assert_eq!(
            set.tokens(&p).to_string(),
            quote!(::api_core::__private::facts::FLOAT | ::api_core::__private::facts::UNSIGNED)
                .to_string()
        );
    }
}
