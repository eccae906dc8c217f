-- The durable operations ledger (SPEC §6). Append-only history; nothing is deleted except by an
-- explicit admin purge of expired terminal rows. Times are epoch milliseconds (UTC).

CREATE TABLE ledger_instance (
    id          TEXT    PRIMARY KEY,
    opened_at   INTEGER NOT NULL,
    pid         INTEGER NOT NULL
) STRICT;

CREATE TABLE retry_epoch (
    id          TEXT    PRIMARY KEY,
    session_id  TEXT    NOT NULL,
    instance_id TEXT    NOT NULL REFERENCES ledger_instance (id),
    issued_at   INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE operation (
    id             TEXT    PRIMARY KEY,
    session_id     TEXT    NOT NULL,
    retry_epoch    TEXT    NOT NULL REFERENCES retry_epoch (id),
    project_id     TEXT    NOT NULL,
    tool           TEXT    NOT NULL,
    request_key    TEXT    NOT NULL,
    fingerprint    BLOB    NOT NULL CHECK (length(fingerprint) = 32),
    workspace_id   TEXT,
    target         TEXT    NOT NULL,
    state          TEXT    NOT NULL CHECK (state IN ('queued', 'awaiting_user', 'running', 'cancelling',
                                                     'succeeded', 'failed', 'cancelled', 'outcome_unknown')),
    effect_state   TEXT    NOT NULL CHECK (effect_state IN ('none', 'partial', 'complete', 'unknown')),
    result         TEXT,
    error_code     TEXT,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    completed_at   INTEGER,
    retain_until   INTEGER NOT NULL,
    resolution     TEXT    CHECK (resolution IN ('succeeded', 'failed', 'cancelled')),
    resolution_note TEXT,
    resolved_at    INTEGER,
    UNIQUE (session_id, retry_epoch, project_id, tool, request_key)
) STRICT;

-- No secondary indexes beyond the receipt key: at most 4096 receipts, so admin queries by state
-- or retention scan cheaply, while every extra index would cost a page write per reservation.

CREATE TABLE operation_history (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    operation_id TEXT    NOT NULL REFERENCES operation (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('state', 'reconciled')),
    state        TEXT    NOT NULL,
    effect_state TEXT    NOT NULL,
    actor        TEXT    NOT NULL CHECK (actor IN ('broker', 'recovery', 'admin')),
    note         TEXT,
    at           INTEGER NOT NULL
) STRICT;

CREATE TABLE ledger_export (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    path         TEXT    NOT NULL,
    sha256       TEXT    NOT NULL,
    history_head INTEGER NOT NULL,
    operations   INTEGER NOT NULL,
    at           INTEGER NOT NULL
) STRICT;
