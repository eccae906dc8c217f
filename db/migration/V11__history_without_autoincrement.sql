-- Issue 14 (ADR 0016): one page fewer written per reservation. V1 numbered history rows with
-- AUTOINCREMENT, which rewrites its high-water mark in sqlite_sequence on every insert: a page of its own
-- in every commit. Now the writer numbers each new row max(highest seq, floor) + 1 itself, and the purge
-- raises the floor before it deletes rows, so a number is still never handed out twice (the event
-- feed's cursors and the purge's "nothing newer than the export" rule rely on it). Every row is copied
-- as it is; the columns and checks are V1's.

CREATE TABLE operation_history_v11 (
    seq          INTEGER PRIMARY KEY,
    operation_id TEXT    NOT NULL REFERENCES operation (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('state', 'reconciled')),
    state        TEXT    NOT NULL,
    effect_state TEXT    NOT NULL,
    actor        TEXT    NOT NULL CHECK (actor IN ('broker', 'recovery', 'admin')),
    note         TEXT,
    at           INTEGER NOT NULL
) STRICT;

INSERT INTO operation_history_v11 (seq, operation_id, kind, state, effect_state, actor, note, at)
    SELECT seq, operation_id, kind, state, effect_state, actor, note, at FROM operation_history;

-- One row: every history sequence number at or below seq has been handed out (its row may be purged).
CREATE TABLE ledger_history_floor (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL CHECK (seq >= 0)
) STRICT;

-- AUTOINCREMENT's high-water mark carries over: numbers V1 handed out whose rows a purge deleted stay used.
INSERT INTO ledger_history_floor (id, seq)
    VALUES (1, max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'operation_history'), 0),
                   coalesce((SELECT max(seq) FROM operation_history), 0)));

DROP TABLE operation_history;
ALTER TABLE operation_history_v11 RENAME TO operation_history;
