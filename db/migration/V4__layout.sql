-- The layout model (SPEC §10): the durable domainRevision, each workspace's tabs and pane splits,
-- and its panels. Live processes do not survive a restart; their panels stay and report exited.

CREATE TABLE layout_state (
    name  TEXT    PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;

INSERT INTO layout_state (name, value) VALUES ('domain_revision', 1);

-- the project folder's identity when it was approved: file access refuses a replaced root
ALTER TABLE project ADD COLUMN root_identity TEXT;

-- tabs: JSON array of {tabId, root} where root is {panelId} or {split:"row"|"column", first, second}
ALTER TABLE workspace ADD COLUMN tabs TEXT NOT NULL DEFAULT '[]';
ALTER TABLE workspace ADD COLUMN active_panel TEXT;

CREATE TABLE panel (
    id                  TEXT    PRIMARY KEY,
    workspace_id        TEXT    NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL CHECK (kind IN ('scratch', 'terminal', 'editor')),
    title               TEXT    NOT NULL,
    terminal_session_id TEXT,
    owner_session       TEXT,
    profile             TEXT,
    cwd                 TEXT,
    document_id         TEXT,
    created_at          INTEGER NOT NULL
) STRICT;
