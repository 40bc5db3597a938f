//! The editor's commands, declared once: each [`Command`] of [`COMMANDS`] carries its id, its
//! label (an `&` before the mnemonic), the menu it sits in, its keys and its help text. The
//! editor's key handler, its toolbar and run panel buttons, the Help dialog and the command
//! palette read this table, and the desktop app builds its native menus from it; the editor
//! carries a command out in one function (`app/src/actions/commands.rs`).
//!
//! Keys differ with where the editor runs ([`Flavour`]): in the desktop app a command's
//! accelerator belongs to its native menu item (GTK sees the key before the page); in the
//! browser the page takes the same key, unless the browser keeps it for itself
//! ([`Binding::desktop_only`], Ctrl+N opens a browser window whatever the page does).
//! [`command_for`] finds the command of a key press.
//!
//! Adding a command: one entry in [`COMMANDS`] (which names its [`CommandId`]), and one arm
//! where the editor carries it out.

use std::fmt;

/// Where the editor runs, as far as keys and commands go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flavour {
    Browser,
    Desktop,
}

/// The native menu a command sits in (the browser shows the same grouping nowhere, but the
/// palette and Help keep the table's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Menu {
    File,
    Edit,
    View,
    Run,
    Help,
}

impl Menu {
    pub const ALL: [Menu; 5] = [Menu::File, Menu::Edit, Menu::View, Menu::Run, Menu::Help];

    /// The menu's title, `&` before its mnemonic.
    pub fn label(self) -> &'static str {
        match self {
            Menu::File => "&File",
            Menu::Edit => "&Edit",
            Menu::View => "&View",
            Menu::Run => "&Run",
            Menu::Help => "&Help",
        }
    }
}

/// A key, as `KeyboardEvent.key` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A printed character. A letter matches in either case; for a sign (`?`, `+`) Shift is
    /// whatever the keyboard layout needs to type it, so it is not compared.
    Char(char),
    /// A named key: `F5`, `Enter`, `Delete`, `Backspace`.
    Named(&'static str),
}

/// A key with its modifiers. `ctrl` is Ctrl, or ⌘ on a Mac.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    pub key: Key,
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

impl Chord {
    const fn plain(key: Key) -> Chord {
        Chord { key, ctrl: false, shift: false, alt: false }
    }

    /// The chord as Tauri's menus want an accelerator: `CmdOrCtrl+Shift+Z`, `F5`.
    pub fn accelerator(self) -> String {
        self.written("CmdOrCtrl")
    }

    fn written(self, ctrl: &str) -> String {
        let mut out = String::new();
        for (on, name) in [(self.ctrl, ctrl), (self.alt, "Alt"), (self.shift, "Shift")] {
            if on {
                out.push_str(name);
                out.push('+');
            }
        }
        match self.key {
            Key::Char(c) => out.extend(c.to_uppercase()),
            Key::Named(name) => out.push_str(name),
        }
        out
    }

    /// Whether a key press is this chord.
    pub fn matches(self, press: &Press) -> bool {
        let key = match self.key {
            Key::Char(c) if c.is_alphabetic() => {
                let mut chars = press.key.chars();
                let one = chars.next().filter(|_| chars.next().is_none());
                return one.is_some_and(|p| p.to_lowercase().eq(c.to_lowercase()))
                    && (press.ctrl, press.shift, press.alt) == (self.ctrl, self.shift, self.alt);
            }
            // A sign: Shift is the layout's business.
            Key::Char(c) => {
                return press.key.chars().eq([c]) && (press.ctrl, press.alt) == (self.ctrl, self.alt);
            }
            Key::Named(name) => name,
        };
        press.key == key && (press.ctrl, press.shift, press.alt) == (self.ctrl, self.shift, self.alt)
    }
}

/// How the chord is shown to a person: `Ctrl+Shift+Z`, `F5`, `?`.
impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written("Ctrl"))
    }
}

/// One key of a command, and who takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding {
    pub chord: Chord,
    /// The command's native menu accelerator (at most one per command). Else the page takes
    /// the key on both platforms: unmodified keys (Delete, `?`) that text fields need, and
    /// second keys (Ctrl+Y).
    pub accelerator: bool,
    /// The browser keeps this key for itself (the page never gets it, or cannot stop what it
    /// does): the command has it in the desktop app only.
    pub desktop_only: bool,
}

impl Binding {
    /// Whether the key works where the editor runs.
    pub fn works_in(self, flavour: Flavour) -> bool {
        flavour == Flavour::Desktop || !self.desktop_only
    }
}

/// What the key handler lets a command's keys do while a text field has focus or a dialog is
/// open (menus and buttons carry a command out whatever has focus).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Always, even over a dialog (it opens another).
    Anywhere,
    /// Also while typing in a field, never under a dialog: the file and run commands.
    Editor,
    /// Only on the canvas: a field's own keys (undo, copy, delete…) stay the field's.
    Canvas,
}

/// A key press as the page sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Press {
    /// `KeyboardEvent.key`.
    pub key: String,
    /// Ctrl or ⌘.
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

impl CommandId {
    /// The command's declaration.
    pub fn command(self) -> &'static Command {
        COMMANDS.iter().find(|c| c.id == self).expect("every command id has its entry in COMMANDS")
    }

    /// The wire id: the menu item's id and the menu event's detail (`file.save`).
    pub fn id(self) -> &'static str {
        self.command().wire
    }

    pub fn from_id(id: &str) -> Option<CommandId> {
        COMMANDS.iter().find(|c| c.wire == id).map(|c| c.id)
    }
}

/// One command, as every place that offers it shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    pub id: CommandId,
    /// Its id on the wire (`menu.item`).
    pub wire: &'static str,
    /// The menu item's text, `&` before the mnemonic (`&&` for an `&` itself).
    pub label: &'static str,
    /// The name of the toolbar or run panel button carrying it out, where that differs from
    /// the label (the icon buttons' short names).
    pub button: Option<&'static str>,
    pub menu: Menu,
    /// Items of one menu in the same group sit together; a separator comes between groups.
    pub group: u8,
    /// Its keys, the first shown first.
    pub keys: &'static [Binding],
    pub scope: Scope,
    /// Only in the desktop app (files anywhere, the window).
    pub desktop_only: bool,
    /// What it does, in a phrase (the buttons' tooltips, Help, the palette).
    pub help: &'static str,
}

impl Command {
    /// The label without its mnemonic marks: `Save as…`.
    pub fn name(&self) -> String {
        plain(self.label)
    }

    /// The accessible name of its button: [`Command::button`], else the label without the
    /// mnemonic and the `…`.
    pub fn button_name(&self) -> String {
        self.button.map_or_else(|| self.name().trim_end_matches('…').to_string(), str::to_string)
    }

    /// Whether the editor offers it where it runs.
    pub fn available(&self, flavour: Flavour) -> bool {
        flavour == Flavour::Desktop || !self.desktop_only
    }

    /// Its keys where the editor runs, the first shown first.
    pub fn keys_in(&self, flavour: Flavour) -> Vec<Chord> {
        self.keys.iter().filter(|b| b.works_in(flavour)).map(|b| b.chord).collect()
    }

    /// Keys it has elsewhere that the browser keeps for itself (told in the browser's Help).
    pub fn kept_by_browser(&self, flavour: Flavour) -> Vec<Chord> {
        match flavour {
            Flavour::Browser => self.keys.iter().filter(|b| b.desktop_only).map(|b| b.chord).collect(),
            Flavour::Desktop => Vec::new(),
        }
    }

    /// The native menu item's accelerator.
    pub fn accelerator(&self) -> Option<Chord> {
        self.keys.iter().find(|b| b.accelerator).map(|b| b.chord)
    }

    /// Its keys as shown: `Ctrl+Shift+Z / Ctrl+Y`, empty when it has none here.
    pub fn keys_text(&self, flavour: Flavour) -> String {
        self.keys_in(flavour).iter().map(ToString::to_string).collect::<Vec<_>>().join(" / ")
    }

    /// A button's tooltip: what it does, and its keys here (`Undo the last edit (Ctrl+Z)`).
    pub fn tooltip(&self, flavour: Flavour) -> String {
        match self.keys_text(flavour) {
            keys if keys.is_empty() => self.help.to_string(),
            keys => format!("{} ({keys})", self.help),
        }
    }
}

/// A label without its mnemonic marks (`&&` stays one `&`).
pub fn plain(label: &str) -> String {
    let mut out = String::new();
    let mut chars = label.chars();
    while let Some(c) = chars.next() {
        match c {
            '&' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// The command a key press asks for where the editor runs, if any.
pub fn command_for(flavour: Flavour, press: &Press) -> Option<CommandId> {
    COMMANDS
        .iter()
        .filter(|c| c.available(flavour))
        .find(|c| c.keys.iter().any(|b| b.works_in(flavour) && b.chord.matches(press)))
        .map(|c| c.id)
}

/// The commands offered where the editor runs, in the table's order (menu by menu).
pub fn offered(flavour: Flavour) -> impl Iterator<Item = &'static Command> {
    COMMANDS.iter().filter(move |c| c.available(flavour))
}

const fn ch(c: char) -> Key {
    Key::Char(c)
}

const fn named(name: &'static str) -> Key {
    Key::Named(name)
}

const fn ctrl(key: Key) -> Chord {
    Chord { key, ctrl: true, shift: false, alt: false }
}

const fn ctrl_shift(key: Key) -> Chord {
    Chord { key, ctrl: true, shift: true, alt: false }
}

const fn shift(key: Key) -> Chord {
    Chord { key, ctrl: false, shift: true, alt: false }
}

/// The menu accelerator, a page key in the browser too.
const fn menu(chord: Chord) -> Binding {
    Binding { chord, accelerator: true, desktop_only: false }
}

/// The menu accelerator in the desktop app; the browser keeps the key.
const fn menu_desktop_only(chord: Chord) -> Binding {
    Binding { chord, accelerator: true, desktop_only: true }
}

/// A key the page takes on both platforms.
const fn page(chord: Chord) -> Binding {
    Binding { chord, accelerator: false, desktop_only: false }
}

const fn key(key: Key) -> Chord {
    Chord::plain(key)
}

macro_rules! commands {
    ($($id:ident $wire:literal $label:literal $menu:ident $group:literal $scope:ident
        [$($binding:expr),*] $(button $button:literal)? $(desktop_only $desktop:literal)? : $help:literal;)*) => {
        /// A command of the editor, named on the wire (the desktop menu's item ids, the menu
        /// event's detail) by [`CommandId::id`]; each variant is an entry of [`COMMANDS`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum CommandId {
            $($id),*
        }

        /// Every command, menu by menu, in the order the menus show them.
        pub const COMMANDS: &[Command] = &[$(Command {
            id: CommandId::$id,
            wire: $wire,
            label: $label,
            button: commands!(@opt $($button)?),
            menu: Menu::$menu,
            group: $group,
            keys: &[$($binding),*],
            scope: Scope::$scope,
            desktop_only: commands!(@flag $($desktop)?),
            help: $help,
        }),*];
    };
    (@opt) => { None };
    (@opt $v:literal) => { Some($v) };
    (@flag) => { false };
    (@flag $v:literal) => { $v };
}

commands! {
    New "file.new" "&New" File 0 Editor [menu_desktop_only(ctrl(ch('n')))] : "Start a new graph";
    Open "file.open" "&Open…" File 0 Editor [menu(ctrl(ch('o')))] desktop_only true : "Open a graph file anywhere";
    Import "file.import" "&Import…" File 1 Editor [] : "Import a graph document or a run record";
    Save "file.save" "&Save" File 1 Editor [menu(ctrl(ch('s')))] : "Save the graph now";
    SaveAs "file.save_as" "Save &as…" File 1 Editor [menu(ctrl_shift(ch('s')))] desktop_only true : "Save the graph to a file anywhere";
    Export "file.export" "&Export…" File 1 Editor [menu(ctrl(ch('e')))] : "Export a copy of the graph document";
    Mermaid "file.mermaid" "Copy as &Mermaid" File 2 Editor [] button "Mermaid" : "Copy a Mermaid flowchart of the graph";
    Share "file.share" "Share &link…" File 2 Editor [] button "Share" : "Make a link that opens this graph";
    Close "file.close" "&Close" File 3 Editor [menu(ctrl(ch('w')))] desktop_only true : "Save and close the window";
    Undo "edit.undo" "&Undo" Edit 0 Canvas [menu(ctrl(ch('z')))] : "Undo the last edit";
    Redo "edit.redo" "&Redo" Edit 0 Canvas [menu(ctrl_shift(ch('z'))), page(ctrl(ch('y')))] : "Redo the edit undone";
    Cut "edit.cut" "Cu&t" Edit 1 Canvas [menu(ctrl(ch('x')))] : "Cut the selected nodes";
    Copy "edit.copy" "&Copy" Edit 1 Canvas [menu(ctrl(ch('c')))] : "Copy the selected nodes";
    Paste "edit.paste" "&Paste" Edit 1 Canvas [menu(ctrl(ch('v')))] : "Paste nodes (also from another tab)";
    Duplicate "edit.duplicate" "&Duplicate" Edit 1 Canvas [menu(ctrl(ch('d')))] : "Duplicate the selection";
    Delete "edit.delete" "De&lete" Edit 1 Canvas [page(key(named("Delete"))), page(key(named("Backspace")))] : "Delete the selection";
    SelectAll "edit.select_all" "Select &all" Edit 2 Canvas [menu(ctrl(ch('a')))] : "Select every node";
    Find "edit.find" "&Find a node…" Edit 2 Anywhere [menu(ctrl(ch('k')))] button "Search" : "Find a node by name, id or kind";
    Settings "edit.settings" "&Settings…" Edit 3 Editor [] : "Model and API settings";
    ZoomIn "view.zoom_in" "Zoom &in" View 0 Canvas [page(key(ch('+'))), page(key(ch('=')))] : "Zoom in";
    ZoomOut "view.zoom_out" "Zoom &out" View 0 Canvas [page(key(ch('-')))] : "Zoom out";
    FitView "view.fit" "&Fit view" View 0 Canvas [page(key(ch('f')))] : "Show the graph, as large as it stays readable";
    AutoLayout "view.auto_layout" "Auto &layout" View 1 Editor [] : "Arrange the nodes in layers";
    Theme "view.theme" "Switch &theme" View 2 Editor [] : "Switch between light and dark";
    Run "run.run" "&Run" Run 0 Editor [menu(key(named("F5"))), page(ctrl(named("Enter")))] : "Run the graph from the top";
    Step "run.step" "&Step" Run 0 Editor [menu(key(named("F10")))] : "Run one step, or show the next";
    Back "run.back" "&Back" Run 0 Editor [menu(key(named("F9")))] : "Show the step before";
    Continue "run.continue" "&Continue" Run 0 Editor [menu(key(named("F8")))] : "Continue the run, or pause it while it plays";
    Pause "run.pause" "&Pause" Run 0 Editor [] : "Pause a run that plays";
    Reset "run.reset" "R&eset" Run 1 Editor [menu(shift(named("F5")))] : "Clear the run shown";
    Tests "run.tests" "&Tests" Run 2 Editor [] : "Show the graph's tests: run them, check an edit against saved runs, run a dataset";
    SaveAsTest "run.save_as_test" "Sa&ve as test…" Run 2 Editor [] button "Save as test" : "Make a test of the run shown (finished, or waiting for an answer)";
    RunTests "run.run_tests" "R&un tests" Run 2 Editor [] : "Run every test of the graph with its recorded replies";
    CheckTests "run.check_tests" "Check a&gainst saved runs" Run 2 Editor [] : "Run every test on the graph as edited: does each still end as its saved run did?";
    Palette "help.palette" "&Command palette…" Help 0 Anywhere [menu(ctrl_shift(ch('p'))), page(key(named("F1")))] : "Find any command by name and run it";
    Shortcuts "help.shortcuts" "&Keyboard shortcuts" Help 0 Canvas [page(key(ch('?')))] button "Help" : "List every command and its keys";
}

#[cfg(test)]
mod tests;
