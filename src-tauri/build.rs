fn main() {
    // The capabilities are compiled into the app: a change to them alone must build it again.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    // tauri.conf.json sits at the root (the Tauri CLI needs it beside the app's Cargo.toml);
    // the capabilities live with the shell's sources.
    tauri_build::try_build(
        tauri_build::Attributes::new().capabilities_path_pattern("./src-tauri/capabilities/*.json"),
    )
    .expect("failed to run the Tauri build script");
}
