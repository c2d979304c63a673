//! The build script (Cargo.toml's `build`, kept under src so the top level stays as the design
//! lists it). `embed_migrations!` reads `migrations/` when the library compiles, but the compiler
//! does not know it read it: without this line a new migration was left out of every binary
//! until some Rust file changed (diesel_migrations' documentation gives the same advice).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
