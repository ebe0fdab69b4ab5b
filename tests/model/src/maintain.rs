//! Model (c): a maintenance job (`dynamap/src/maintain/`) rekeying the items of one
//! segment, a page of one item at a time, against application writers, with a crash and
//! restart from the checkpoint and lost responses.
//!
//! Each item is stored in the old form and the job brings it to the new one: in place
//! (`Decision::Rewrite`, an UpdateItem setting what differs) or at a new primary key
//! (`Decision::Move`, a transaction: put at the new key, delete the old one). Every write
//! is conditioned on the item being what was scanned (`maintain/apply.rs` `unchanged`): by
//! its version for a versioned entity, otherwise by every attribute the scanned item held.

use crate::check::Model;

/// Items (one page each).
pub const ITEMS: usize = 2;
/// Redos of one item after lost races (`maintain/mod.rs` `MAX_REDOS`, 10 in the code).
pub const MAX_REDOS: u8 = 2;

/// A stored item.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Item {
    /// In the form the entity renders now.
    pub new_form: bool,
    /// A field the application changes.
    pub data: bool,
    /// An attribute another writer added (`SET extra`), which the entity does not know.
    pub extra: bool,
    /// The version attribute (versioned entities).
    pub version: u8,
}

/// An application writer's call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AppOp {
    /// An update of the item at its old key (a process still on the old templates):
    /// flips `data`, raises the version of a versioned entity; only if the item exists.
    Update(u8),
    /// Another writer adds an attribute at the old key (raising the version when it
    /// follows optimistic locking, as a versioned entity asks).
    AddAttribute(u8),
    /// A delete at the old key.
    Delete(u8),
}

/// Where the job is (`maintain/walk.rs` `segment`, `item`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pc {
    /// Reading the segment's checkpoint (`checkpoint::load`).
    Load,
    /// Scanning the next page (`Maintain::page`).
    Scan,
    /// Sending the item's conditioned write (`apply::apply`).
    Write,
    /// Reading the item again after a conflict (`Db::consistent_item_of`).
    Reread,
    /// Saving the checkpoint after the page (`checkpoint::save`).
    Save,
    /// Finished.
    Finished,
}

/// The job process.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Job {
    /// Where it is.
    pub pc: Pc,
    /// The page (item) it is on.
    pub page: u8,
    /// The item as scanned (or re-read).
    pub scanned: Option<Item>,
    /// Redos of this item.
    pub redos: u8,
    /// The report: items counted rekeyed, unchanged, failed (bit per item), this run.
    pub rekeyed: u8,
    /// Items counted unchanged.
    pub unchanged: u8,
    /// Items reported failed.
    pub failed: u8,
    /// Ghost: items this run's writes applied to.
    pub wrote: u8,
    /// Ghost: the current write was applied (its response lost).
    pub applied: bool,
}

/// Everything at one moment.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// Items at their old keys.
    pub old: [Option<Item>; ITEMS],
    /// Items at their new keys (moves only).
    pub new: [Option<Item>; ITEMS],
    /// The checkpoint: pages finished.
    pub checkpoint: u8,
    /// The job.
    pub job: Job,
    /// The application writer's calls left.
    pub app: u8,
    /// Job crashes left.
    pub crashes: u8,
    /// Responses that may still be lost.
    pub losses: u8,
    /// The first violation.
    pub bad: Option<&'static str>,
}

/// What the job does after a lost response.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AfterLost {
    /// Today: the retry fails its condition (or the error is retried with the same scan):
    /// a conflict, so the item is re-read, found in the new form and counted unchanged.
    Conflict,
    /// The designed answer: the stored item exactly what the job wrote counts as done.
    ExactItem,
}

/// The bounds and behaviours of one check.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Move items to a new key (else rewrite in place).
    pub moves: bool,
    /// A versioned entity (the condition checks the version; else every attribute).
    pub versioned: bool,
    /// The application writer's menu.
    pub app_ops: Vec<AppOp>,
    /// Its number of calls.
    pub app_calls: u8,
    /// Job crashes.
    pub crashes: u8,
    /// Lost responses.
    pub losses: u8,
    /// After a lost response.
    pub after_lost: AfterLost,
    /// The checkpoint saved before the page's writes (a wrong order, for the sanity test).
    pub checkpoint_first: bool,
    /// The job's condition "unchanged since scanned" (off: a removed guard).
    pub guard: bool,
    /// Check that the report counts what the job did.
    pub exact_report: bool,
}

const START: Job = Job {
    pc: Pc::Load,
    page: 0,
    scanned: None,
    redos: 0,
    rekeyed: 0,
    unchanged: 0,
    failed: 0,
    wrote: 0,
    applied: false,
};

impl Model for Scenario {
    type State = State;
    type Step = &'static str;

    fn init(&self) -> Vec<State> {
        let item = Item {
            new_form: false,
            data: false,
            extra: false,
            version: 1,
        };
        vec![State {
            old: [Some(item); ITEMS],
            new: [None; ITEMS],
            checkpoint: 0,
            job: START,
            app: self.app_calls,
            crashes: self.crashes,
            losses: self.losses,
            bad: None,
        }]
    }

    fn next(&self, s: &State, out: &mut Vec<(&'static str, State)>) {
        if s.bad.is_some() {
            return;
        }
        if s.app > 0 {
            for &op in &self.app_ops {
                let mut n = s.clone();
                n.app -= 1;
                self.app(&mut n, op);
                out.push(("application write", n));
            }
        }
        if s.crashes > 0 && s.job.pc != Pc::Finished {
            // The process dies; started again, it reads its checkpoint.
            let mut n = s.clone();
            n.crashes -= 1;
            n.job = START;
            out.push(("job crashes and restarts", n));
        }
        self.job(s, out);
    }

    fn violation(&self, s: &State) -> Option<String> {
        s.bad.map(str::to_owned)
    }
}

impl Scenario {
    /// The application's write (`ops/update.rs` on the old key; `ops/delete.rs`).
    fn app(&self, n: &mut State, op: AppOp) {
        let bump = u8::from(self.versioned);
        match op {
            AppOp::Update(i) => {
                if let Some(x) = &mut n.old[i as usize] {
                    x.data = !x.data;
                    x.version += bump;
                }
            }
            AppOp::AddAttribute(i) => {
                if let Some(x) = &mut n.old[i as usize] {
                    x.extra = true;
                    x.version += bump;
                }
            }
            AppOp::Delete(i) => n.old[i as usize] = None,
        }
    }

    /// `maintain/apply.rs` `unchanged`: the version as scanned, or every attribute the
    /// scanned item held with the same value (attributes added since are not checked).
    fn unchanged(&self, scanned: Item, now: Option<Item>) -> bool {
        let Some(now) = now else { return false };
        if self.versioned {
            return now.version == scanned.version;
        }
        now.new_form == scanned.new_form
            && now.data == scanned.data
            && (!scanned.extra || now.extra)
    }

    /// The job's next step.
    fn job(&self, s: &State, out: &mut Vec<(&'static str, State)>) {
        let j = s.job;
        let i = j.page as usize;
        let mut n = s.clone();
        let label = match j.pc {
            Pc::Load => {
                n.job.page = s.checkpoint;
                n.job.pc = if s.checkpoint as usize >= ITEMS {
                    Pc::Finished
                } else {
                    Pc::Scan
                };
                "load checkpoint"
            }
            Pc::Scan => {
                n.job.scanned = s.old[i];
                n.job.redos = 0;
                self.decide(&mut n);
                if self.checkpoint_first && n.job.pc == Pc::Write {
                    n.checkpoint = j.page + 1;
                }
                "scan page"
            }
            Pc::Write => return self.write(s, out),
            Pc::Reread => {
                n.job.scanned = s.old[i];
                self.decide(&mut n);
                "re-read after conflict"
            }
            Pc::Save => {
                n.checkpoint = j.page + 1;
                n.job.page += 1;
                n.job.pc = if n.job.page as usize >= ITEMS {
                    self.finished(&mut n);
                    Pc::Finished
                } else {
                    Pc::Scan
                };
                "save checkpoint"
            }
            Pc::Finished => return,
        };
        out.push((label, n));
    }

    /// `maintain/walk.rs` `decide` and `item`: an item gone or in the new form is kept
    /// (counted unchanged); one in the old form is written.
    fn decide(&self, n: &mut State) {
        let i = n.job.page;
        match n.job.scanned {
            Some(x) if !x.new_form => n.job.pc = Pc::Write,
            _ => {
                if n.job.wrote & (1 << i) != 0 && self.exact_report && n.bad.is_none() {
                    n.bad = Some("report: an item the job rewrote counted unchanged");
                }
                n.job.unchanged |= 1 << i;
                n.job.pc = if self.checkpoint_first {
                    Pc::Scan
                } else {
                    Pc::Save
                };
                if self.checkpoint_first {
                    n.job.page += 1;
                    if n.job.page as usize >= ITEMS {
                        n.job.pc = Pc::Finished;
                        self.finished(n);
                    }
                }
            }
        }
    }

    /// The job's conditioned write (`apply.rs` `apply`: UpdateItem for a rewrite,
    /// `transact` with `owner_actions` for a move), delivered or its response lost.
    fn write(&self, s: &State, out: &mut Vec<(&'static str, State)>) {
        let i = s.job.page as usize;
        let Some(scanned) = s.job.scanned else { return };
        let now = s.old[i];
        let holds =
            (!self.guard || self.unchanged(scanned, now)) && (!self.moves || s.new[i].is_none());
        let mut after = s.clone();
        if holds {
            let bump = u8::from(self.versioned);
            if self.moves {
                // The put of the item as scanned, in the new form, at its new key; the delete
                // of the old one.
                after.new[i] = Some(Item {
                    new_form: true,
                    version: scanned.version + bump,
                    ..scanned
                });
                after.old[i] = None;
            } else {
                // SET only what differs: other attributes, added since, stay.
                after.old[i] = Some(Item {
                    new_form: true,
                    version: now.map_or(scanned.version, |x| x.version) + bump,
                    ..now.unwrap_or(scanned)
                });
            }
            let lost_write = match now {
                None => Some("the job created an item that was deleted"),
                Some(x) if self.moves && x.data != scanned.data => {
                    Some("the job undid another writer's change")
                }
                Some(x) if self.moves && x.extra && !scanned.extra => {
                    Some("the job lost an attribute another writer added")
                }
                _ => None,
            };
            if after.bad.is_none() {
                after.bad = lost_write;
            }
            after.job.wrote |= 1 << i;
            after.job.applied = true;
        }
        let mut n = after.clone();
        let label = if holds {
            self.done(&mut n)
        } else {
            self.conflict(&mut n)
        };
        out.push((label, n));
        if s.losses > 0 {
            let mut n = after;
            n.losses -= 1;
            // `ALL_OLD` (or the transaction's stored items): exactly what the job wrote.
            let exact = self.after_lost == AfterLost::ExactItem && n.job.applied;
            if exact {
                self.done(&mut n);
            } else {
                self.conflict(&mut n);
            }
            out.push(("write's response lost", n));
        }
    }

    /// The write landed: counted, then the page's checkpoint.
    fn done(&self, n: &mut State) -> &'static str {
        let i = n.job.page;
        if !n.job.applied && n.bad.is_none() {
            n.bad = Some("report: an item counted rekeyed without the job's write");
        }
        n.job.rekeyed |= 1 << i;
        n.job.applied = false;
        self.next_page(n);
        "write applied"
    }

    /// A conflict: re-read and redo, up to `MAX_REDOS`, then the item is reported failed.
    fn conflict(&self, n: &mut State) -> &'static str {
        n.job.applied = false;
        n.job.redos += 1;
        if n.job.redos > MAX_REDOS {
            n.job.failed |= 1 << n.job.page;
            self.next_page(n);
            return "conflict: item failed";
        }
        n.job.pc = Pc::Reread;
        "conflict"
    }

    fn next_page(&self, n: &mut State) {
        if self.checkpoint_first {
            n.job.page += 1;
            n.job.pc = if n.job.page as usize >= ITEMS {
                Pc::Finished
            } else {
                Pc::Scan
            };
            if n.job.pc == Pc::Finished {
                self.finished(n);
            }
        } else {
            n.job.pc = Pc::Save;
        }
    }

    /// At the end of the segment: every item still stored at its old key in the old form
    /// was reported failed (writers in the new form only, so nothing goes back).
    fn finished(&self, n: &mut State) {
        for i in 0..ITEMS {
            let left = n.old[i].is_some_and(|x| !x.new_form);
            if left && n.job.failed & (1 << i) == 0 && n.bad.is_none() {
                n.bad = Some("job finished with an item left in the old form, not reported");
            }
        }
    }
}
