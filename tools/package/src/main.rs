//! `switchyard-package`: the desktop app's Debian package, made by Tauri's bundler from a
//! binary Cargo already built.
//!
//! ```text
//! switchyard-package --config src-tauri/tauri.conf.json --binaries target/release
//! ```
//!
//! The package's facts (name, version, icons, file types, dependencies, the desktop entry's
//! template and extra files) are the `bundle` section of `tauri.conf.json`, read with the
//! same types Tauri reads it with, so that file stays the one place they are written. It is
//! `active: false` there because nothing else bundles: `./dev package` builds the app, then
//! calls this. Paths in the section are relative to the config's folder, as with Tauri's CLI.
//!
//! It prints the package's path on standard output; any failure exits 1 with the reason.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tauri_bundler::bundle::{
    AppCategory, BundleBinary, BundleSettings, DebianSettings, PackageSettings, PackageType, SettingsBuilder,
};
use tauri_utils::config::Config;

/// The app's binary, as Cargo names it (`src-tauri`'s package).
const BINARY: &str = "switchyard-desktop";

struct Args {
    config: PathBuf,
    binaries: PathBuf,
}

fn main() -> ExitCode {
    match parse_args(std::env::args().skip(1)).and_then(|args| package(&args)) {
        Ok(deb) => {
            println!("{}", deb.display());
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("switchyard-package: {why}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut config, mut binaries) = (None, None);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--config" => config = Some(PathBuf::from(value)),
            "--binaries" => binaries = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag} (usage: --config FILE --binaries DIR)")),
        }
    }
    Ok(Args {
        config: config.ok_or("--config FILE is required")?,
        binaries: binaries.ok_or("--binaries DIR is required")?,
    })
}

/// Reads the config, then bundles the binary in `args.binaries` into a `.deb` under
/// `args.binaries/bundle/deb/`.
fn package(args: &Args) -> Result<PathBuf, String> {
    let config = read_config(&args.config)?;
    let binaries = std::path::absolute(&args.binaries).map_err(|e| format!("{}: {e}", args.binaries.display()))?;
    if !binaries.join(BINARY).is_file() {
        return Err(format!("{} has no {BINARY}: build the desktop app first", binaries.display()));
    }
    // The section's relative paths (icons, template, files) are read from the config's folder.
    let folder = args.config.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::env::set_current_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let settings = SettingsBuilder::new()
        .project_out_directory(&binaries)
        .package_types(vec![PackageType::Deb])
        .package_settings(package_settings(&config)?)
        .bundle_settings(bundle_settings(&config)?)
        .binaries(vec![BundleBinary::new(BINARY.to_string(), true)])
        // The marker patched in is for Tauri's updater, which the app does not use.
        .binary_patching(false)
        .build()
        .map_err(|e| format!("bundle settings: {e}"))?;
    let bundles = tauri_bundler::bundle_project(&settings).map_err(|e| format!("bundling: {e:#}"))?;
    bundles
        .into_iter()
        .flat_map(|b| b.bundle_paths)
        .find(|p| p.extension().is_some_and(|e| e == "deb"))
        .ok_or_else(|| "the bundler made no .deb".to_string())
}

fn read_config(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn package_settings(config: &Config) -> Result<PackageSettings, String> {
    Ok(PackageSettings {
        product_name: config.product_name.clone().ok_or("the config has no productName")?,
        version: config.version.clone().ok_or("the config has no version")?,
        description: config.bundle.short_description.clone().unwrap_or_default(),
        homepage: config.bundle.homepage.clone(),
        authors: None,
        default_run: Some(BINARY.to_string()),
    })
}

fn bundle_settings(config: &Config) -> Result<BundleSettings, String> {
    let bundle = &config.bundle;
    let category = match &bundle.category {
        Some(name) => Some(name.parse::<AppCategory>().map_err(|e| format!("bundle.category: {e:?}"))?),
        None => None,
    };
    Ok(BundleSettings {
        identifier: Some(config.identifier.clone()),
        publisher: bundle.publisher.clone(),
        homepage: bundle.homepage.clone(),
        icon: Some(bundle.icon.clone()),
        copyright: bundle.copyright.clone(),
        license: bundle.license.clone(),
        category,
        file_associations: bundle.file_associations.clone(),
        short_description: bundle.short_description.clone(),
        long_description: bundle.long_description.clone(),
        deb: debian_settings(&bundle.linux.deb),
        ..BundleSettings::default()
    })
}

fn debian_settings(deb: &tauri_utils::config::DebConfig) -> DebianSettings {
    DebianSettings {
        depends: deb.depends.clone(),
        recommends: deb.recommends.clone(),
        provides: deb.provides.clone(),
        conflicts: deb.conflicts.clone(),
        replaces: deb.replaces.clone(),
        files: deb.files.clone(),
        desktop_template: deb.desktop_template.clone(),
        section: deb.section.clone(),
        priority: deb.priority.clone(),
        changelog: deb.changelog.clone(),
        pre_install_script: deb.pre_install_script.clone(),
        post_install_script: deb.post_install_script.clone(),
        pre_remove_script: deb.pre_remove_script.clone(),
        post_remove_script: deb.post_remove_script.clone(),
    }
}
