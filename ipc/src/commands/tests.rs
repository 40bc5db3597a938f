use std::collections::{HashMap, HashSet};

use super::*;

fn press(key: &str, ctrl: bool, shift: bool, alt: bool) -> Press {
    Press { key: key.to_string(), ctrl, shift, alt }
}

const BOTH: [Flavour; 2] = [Flavour::Browser, Flavour::Desktop];

#[test]
fn every_id_has_one_entry_and_ids_differ() {
    let mut wires = HashSet::new();
    let mut ids = HashSet::new();
    for c in COMMANDS {
        assert!(wires.insert(c.wire), "wire id {} twice", c.wire);
        assert!(ids.insert(c.id), "{:?} twice", c.id);
        assert_eq!(CommandId::from_id(c.wire), Some(c.id));
        assert_eq!(c.id.id(), c.wire);
        assert_eq!(c.id.command(), c);
    }
    assert_eq!(CommandId::from_id("file.quit"), None);
}

#[test]
fn no_key_asks_for_two_commands_on_either_platform() {
    for flavour in BOTH {
        let mut seen: HashMap<Chord, CommandId> = HashMap::new();
        for c in offered(flavour) {
            for chord in c.keys_in(flavour) {
                if let Some(other) = seen.insert(chord, c.id) {
                    panic!("{chord} is the key of {other:?} and {:?} in {flavour:?}", c.id);
                }
            }
        }
    }
}

#[test]
fn menus_are_in_order_and_groups_go_up_within_a_menu() {
    let mut last = (Menu::File, 0);
    for c in COMMANDS {
        assert!((c.menu, c.group) >= last, "{:?} is out of its menu's order", c.id);
        last = (c.menu, c.group);
    }
}

#[test]
fn mnemonics_differ_within_a_menu_and_the_menus() {
    let mnemonic = |label: &str| {
        let at = label.find('&').unwrap_or_else(|| panic!("{label} has no mnemonic"));
        label[at + 1..].chars().next().unwrap().to_ascii_lowercase()
    };
    for menu in Menu::ALL {
        let mut seen = HashSet::new();
        // The desktop app's own items: File's Open recent (`r`), Help's The graph format and About.
        if menu == Menu::File {
            seen.insert('r');
        }
        if menu == Menu::Help {
            seen.extend(['f', 'a']);
        }
        for c in COMMANDS.iter().filter(|c| c.menu == menu) {
            assert!(seen.insert(mnemonic(c.label)), "{} repeats a mnemonic of {menu:?}", c.label);
        }
    }
    let titles: HashSet<_> = Menu::ALL.iter().map(|m| mnemonic(m.label())).collect();
    assert_eq!(titles.len(), Menu::ALL.len());
}

#[test]
fn accelerators_are_one_per_command_and_never_a_key_a_text_field_needs() {
    for c in COMMANDS {
        let accelerators: Vec<_> = c.keys.iter().filter(|b| b.accelerator).collect();
        assert!(accelerators.len() <= 1, "{:?} has several accelerators", c.id);
        if let Some(b) = accelerators.first() {
            let function_key = matches!(b.chord.key, Key::Named(k) if k.starts_with('F') && k.len() > 1);
            assert!(
                b.chord.ctrl || function_key,
                "{:?}'s accelerator {} would take a key from text fields",
                c.id,
                b.chord
            );
        }
        for b in c.keys.iter().filter(|b| b.desktop_only) {
            assert!(b.accelerator, "a key the browser keeps works on the desktop through the menu: {:?}", c.id);
        }
    }
}

#[test]
fn accelerators_are_written_as_tauri_reads_them() {
    let acc = |id: CommandId| id.command().accelerator().map(Chord::accelerator);
    assert_eq!(acc(CommandId::Redo).as_deref(), Some("CmdOrCtrl+Shift+Z"));
    assert_eq!(acc(CommandId::Reset).as_deref(), Some("Shift+F5"));
    assert_eq!(acc(CommandId::Palette).as_deref(), Some("CmdOrCtrl+Shift+P"));
    assert_eq!(acc(CommandId::Delete), None);
    assert_eq!(CommandId::Redo.command().keys_text(Flavour::Browser), "Ctrl+Shift+Z / Ctrl+Y");
    assert_eq!(CommandId::Run.command().keys_text(Flavour::Desktop), "F5 / Ctrl+Enter");
}

#[test]
fn key_presses_find_their_command() {
    let b = Flavour::Browser;
    assert_eq!(command_for(b, &press("z", true, false, false)), Some(CommandId::Undo));
    assert_eq!(command_for(b, &press("Z", true, true, false)), Some(CommandId::Redo));
    assert_eq!(command_for(b, &press("y", true, false, false)), Some(CommandId::Redo));
    assert_eq!(command_for(b, &press("x", true, false, false)), Some(CommandId::Cut));
    assert_eq!(command_for(b, &press("F5", false, false, false)), Some(CommandId::Run));
    assert_eq!(command_for(b, &press("F5", false, true, false)), Some(CommandId::Reset));
    assert_eq!(command_for(b, &press("Enter", true, false, false)), Some(CommandId::Run));
    assert_eq!(command_for(b, &press("Enter", false, false, false)), None, "Enter alone edits the node in focus");
    assert_eq!(command_for(b, &press("P", true, true, false)), Some(CommandId::Palette));
    assert_eq!(command_for(b, &press("p", true, false, false)), None, "Ctrl+P is the browser's Print");
    assert_eq!(command_for(b, &press("F1", false, false, false)), Some(CommandId::Palette));
    // Signs: Shift is what the layout needs to type them.
    assert_eq!(command_for(b, &press("?", false, true, false)), Some(CommandId::Shortcuts));
    assert_eq!(command_for(b, &press("+", false, true, false)), Some(CommandId::ZoomIn));
    assert_eq!(command_for(b, &press("f", false, false, false)), Some(CommandId::FitView));
    assert_eq!(command_for(b, &press("f", false, false, true)), None, "Alt+F opens the File menu");
    assert_eq!(command_for(b, &press("Delete", false, false, false)), Some(CommandId::Delete));
    assert_eq!(command_for(b, &press("F12", false, false, false)), None);
}

#[test]
fn the_browser_leaves_its_own_keys_and_desktop_commands_out() {
    let ctrl_n = press("n", true, false, false);
    assert_eq!(command_for(Flavour::Browser, &ctrl_n), None, "Ctrl+N opens a browser window");
    assert_eq!(command_for(Flavour::Desktop, &ctrl_n), Some(CommandId::New));
    assert_eq!(command_for(Flavour::Browser, &press("o", true, false, false)), None);
    assert_eq!(command_for(Flavour::Desktop, &press("o", true, false, false)), Some(CommandId::Open));
    let new = CommandId::New.command();
    assert!(new.keys_in(Flavour::Browser).is_empty());
    assert_eq!(new.kept_by_browser(Flavour::Browser), [ctrl(ch('n'))]);
    assert!(new.kept_by_browser(Flavour::Desktop).is_empty());
    assert!(offered(Flavour::Browser).all(|c| !c.desktop_only));
    assert_eq!(offered(Flavour::Desktop).count(), COMMANDS.len());
    assert!(offered(Flavour::Browser).any(|c| c.id == CommandId::Cut), "Cut works in both");
}

#[test]
fn names_drop_the_mnemonic_and_buttons_keep_their_names() {
    assert_eq!(plain("Save &as…"), "Save as…");
    assert_eq!(plain("Fish &&& chips"), "Fish & chips");
    assert_eq!(CommandId::SaveAs.command().name(), "Save as…");
    assert_eq!(CommandId::Import.command().button_name(), "Import");
    assert_eq!(CommandId::Find.command().button_name(), "Search");
    assert_eq!(CommandId::FitView.command().button_name(), "Fit view");
    assert_eq!(CommandId::Undo.command().tooltip(Flavour::Browser), "Undo the last edit (Ctrl+Z)");
    assert_eq!(CommandId::New.command().tooltip(Flavour::Browser), "Start a new graph");
    assert_eq!(CommandId::New.command().tooltip(Flavour::Desktop), "Start a new graph (Ctrl+N)");
}
