//! Compile-time behaviour of the derives: errors (with their exact text in
//! `.stderr` files) and programs that must compile and run. `lints/`
//! holds one failing and one passing case per convention lint.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/lints/fail/*.rs");
    t.pass("tests/ui/lints/pass/*.rs");
    t.compile_fail("tests/ui/kal/fail/*.rs");
    t.pass("tests/ui/kal/pass/*.rs");
}
