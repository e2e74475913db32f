//! Prints the CustomResourceDefinitions of the example APIs as one YAML stream.

fn main() {
    let crds = vec![examples::memcached::Memcached::crd()];
    print!("{}", api_core::crd::to_yaml_stream(&crds));
}
